"""What one more card can join: the *effects* of the melds holding it.

The search asks, for the card it decides next (the other cards being the
ones still held above it) and for every card a draw hint might draw, which
melds that card could form.  When a meld's cost does not depend on what its
wild slots stand for (no meld points counted, every wild card alike), the
search only needs each meld's effect on its state: the other naturals it
takes (a packed code), its wild slots and its meld class.  Those effects
depend on little -- for runs, which ranks of the card's suit within reach the
hand holds; for sets, which suits hold its rank -- so they are computed once
per such pattern and kept, across hands and deals: a hint's fifty draws cost
a few lookups each.

``through_effects`` equals the projection of ``melds_through`` (the candidate
generator, ``solver.melds``) onto effects; ``tests/test_through.py`` checks
that on random hands under every ace mode and meld rule.

>>> from solver.rules import PRESETS
>>> from solver.cards import parse_card
>>> from solver.engines.packed import pack, unpack
>>> hand = pack([parse_card(t) for t in "4H 6H 6S".split()])
>>> effects = through_effects(parse_card("5H"), hand, PRESETS["rummy500"], 1, False)
>>> sorted((sorted(c for c, n in enumerate(unpack(d)) for _ in range(n)), w) for d, w, _ in effects)
[([16], 1), ([16, 18], 0), ([16, 18], 1), ([18], 1)]
"""

from __future__ import annotations

from typing import Any

from solver.cards import JOKER
from solver.deadline import Deadline, Ticker
from solver.engines.packed import BITS, FIELD, SUIT_BITS, WEIGHT, presence, rank_pattern, spread
from solver.geometry import GEOMETRY, MAX_RUN_CARDS
from solver.lru import LruCache
from solver.melds import wild_cap_for
from solver.objective import class_of
from solver.rules import Rules

Effect = tuple[int, int, int]
"""(packed other naturals, wild slots, meld class) of one meld holding the card."""

_SET = class_of("set", False)
_PURE_RUN = class_of("run", True)
_RUN = class_of("run", False)
_TANALA = class_of("tanala", True)

EFFECTS_HELD_LIMIT = 400_000
"""Effects kept across hands, run tables and effect lists together (about
100 bytes each); past it the least recently used go first, so a stream of
hostile hands (dozens of wild cards: thousands of effects per card) stays
bounded."""


_TABLES: LruCache[tuple[object, ...], Any] = LruCache(EFFECTS_HELD_LIMIT)
"""Run tables and effect lists, one budget: a run table's key starts with the
ace mode (a string), an effect list's with its ``Rules``, so they never meet."""


def _run_effects(rules: Rules, pattern: int, rank: int, cap: int,
                 ticker: Ticker) -> tuple[tuple[int, int], ...]:
    """(rank mask of the other naturals, wild slots) of every run holding
    ``rank`` when the suit holds the ranks of ``pattern``.

    Each set of naturals is found once, from the span it covers with the
    card (its ends held, the held ranks inside either natural or dropped for
    a wild slot); its wild slots then range from the gaps of that span up to
    as far as the run can grow (``cap``, 13 cards, the geometry's ends)."""
    key = (rules.ace, rules.min_run_length, rules.min_naturals_per_meld, pattern, rank, cap)
    hit: tuple[tuple[int, int], ...] | None = _TABLES.get(key)
    if hit is not None:
        return hit
    geometry = GEOMETRY[rules.ace]
    others = pattern & ~(1 << rank)
    min_length, min_naturals = rules.min_run_length, rules.min_naturals_per_meld
    found: dict[tuple[int, int], None] = {}
    for position in geometry.coordinates(rank):
        lowest, highest = geometry.span(position, position)
        lefts = [position] + [q for q in range(position - 1, lowest - 1, -1)
                              if others >> (q % 13) & 1]
        rights = [position] + [q for q in range(position + 1, highest + 1)
                               if others >> (q % 13) & 1]
        left_held = 0
        for i, a in enumerate(lefts):
            if (position - a) - i > cap:
                break  # gaps only grow further left
            if i:
                left_held |= 1 << (a % 13)
            a_bit = 1 << (a % 13) if i else 0
            held = left_held
            for j, b in enumerate(rights):
                length = b - a + 1
                gaps = length - 1 - i - j
                if gaps > cap or length > MAX_RUN_CARDS:
                    break  # both only grow further right
                b_bit = 1 << (b % 13) if j else 0
                held |= b_bit
                # How far a run over a..b can grow.
                room = min(MAX_RUN_CARDS, min(geometry.highest, a + MAX_RUN_CARDS - 1)
                           - max(geometry.lowest, b - MAX_RUN_CARDS + 1) + 1)
                for kept in _drops(held, held & ~a_bit & ~b_bit, cap - gaps):
                    ticker.tick()
                    naturals = kept.bit_count() + 1
                    if naturals < min_naturals:
                        continue
                    least = max(length - naturals, min_length - naturals)
                    for wilds in range(least, min(cap, room - naturals) + 1):
                        found[(kept, wilds)] = None
    effects = tuple(found)
    stored: tuple[tuple[int, int], ...] = _TABLES.put(key, effects, 1 + len(effects))
    return stored


def _drops(held: int, inside: int, most: int) -> list[int]:
    """``held`` without up to ``most`` of the ``inside`` bits (each subset once)."""
    out = [held]
    if most <= 0 or not inside:
        return out
    bits = []
    while inside:
        low = inside & -inside
        bits.append(low)
        inside ^= low
    frontier = [(held, 0)]
    for _ in range(min(most, len(bits))):
        grown = []
        for mask, start in frontier:
            for i in range(start, len(bits)):
                grown.append((mask ^ bits[i], i + 1))
        out.extend(mask for mask, _ in grown)
        frontier = grown
    return out


def _set_effects(card: int, copies: tuple[int, ...], rules: Rules,
                 cap: int) -> list[tuple[int, int, int, int]]:
    """Effects of the sets holding ``card`` (as ``solver.melds`` builds them),
    ``copies`` being the other copies of its rank per suit."""
    rank, anchor_suit = card % 13, card // 13
    limit = rules.set_size_limit
    same_suit = rules.set_allow_same_suit
    available = []
    for suit in range(4):
        held = copies[suit]
        if not same_suit:
            held = 0 if suit == anchor_suit else min(held, 1)
        available.append(held)
    choices: list[tuple[int, int]] = [(0, 0)]  # (packed naturals, count)
    for suit in range(4):
        weight = WEIGHT[13 * suit + rank]
        choices = [(delta + k * weight, n + k) for delta, n in choices
                   for k in range(available[suit] + 1) if n + k <= limit - 1]
    out = []
    for delta, extra in choices:
        naturals = extra + 1
        if naturals < rules.min_naturals_per_meld:
            continue
        room = limit - naturals if same_suit else min(limit, 4) - naturals
        for wilds in range(max(0, 3 - naturals), min(cap, room) + 1):
            out.append((_order(naturals, wilds), delta, wilds, _SET))
    return out


EffectKey = tuple[Rules, int, int, bool, int, tuple[int, int, int, int]]
"""What a card's effects depend on: (rules, card, wild slots at most, pure only,
ranks its suit holds, copies of its rank per suit)."""


def effect_key(card: int, code: int, rules: Rules, wild_cap: int,
               pure_only: bool) -> EffectKey | None:
    """The ``EffectKey`` of ``card`` with the packed hand ``code`` (None for a joker,
    which joins no meld as itself)."""
    if card == JOKER:
        return None
    rank, suit = card % 13, card // 13
    shift = BITS * rank
    copies = [code >> shift & FIELD, code >> (shift + SUIT_BITS) & FIELD,
              code >> (shift + 2 * SUIT_BITS) & FIELD, code >> (shift + 3 * SUIT_BITS) & FIELD]
    if not rules.set_allow_same_suit:
        # Only whether another suit holds the rank matters (for a set), and
        # for the card's own suit whether a tanala is possible.
        for other in range(4):
            copies[other] = 0 if pure_only else min(copies[other], 1)
        copies[suit] = min(code >> (shift + SUIT_BITS * suit) & FIELD, 2) \
            if rules.tanala_enabled else 0
    cap = wild_cap_for(rules, wild_cap, pure_only)
    pattern = _within_reach(rules.ace, rank_pattern(presence(code), suit), rank, cap)
    return (rules, card, cap, pure_only, pattern, (copies[0], copies[1], copies[2], copies[3]))


def _within_reach(ace: str, pattern: int, rank: int, cap: int) -> int:
    """The ranks of ``pattern`` some run through ``rank`` with at most ``cap``
    gaps can reach (the others shape none of its runs: hands that differ
    only there share their effects)."""
    geometry = GEOMETRY[ace]
    reach = 0
    for position in geometry.coordinates(rank):
        lowest, highest = geometry.span(position, position)
        for direction, end in ((-1, lowest), (1, highest)):
            gaps = 0
            q = position + direction
            while (q >= end) if direction < 0 else (q <= end):
                bit = 1 << (q % 13)
                if pattern & bit:
                    reach |= bit
                else:
                    gaps += 1
                    if gaps > cap:
                        break
                q += direction
    return pattern & reach


def through_effects(card: int, code: int, rules: Rules, wild_cap: int, pure_only: bool,
                    deadline: Deadline | None = None) -> list[Effect]:
    """The distinct effects of the melds holding ``card`` with other naturals
    of the packed hand ``code`` (which does not include ``card``) and at most
    ``wild_cap`` wild slots; ``pure_only``: pure sequences only.  Bigger
    melds come first.  The lists are shared: do not change them."""
    key = effect_key(card, code, rules, wild_cap, pure_only)
    return [] if key is None else effects_of(key, deadline)


def effects_of(key: EffectKey, deadline: Deadline | None = None) -> list[Effect]:
    """The effects an ``EffectKey`` names (see ``through_effects``), computed once."""
    hit: list[Effect] | None = _TABLES.get(key)
    if hit is not None:
        return hit
    rules, card, cap, pure_only, pattern, copies = key
    rank, suit = card % 13, card // 13
    ticker = Ticker(deadline, 64)
    sized: list[tuple[int, int, int, int]] = []  # (order, delta, wilds, class)
    if rules.tanala_enabled and copies[suit] >= 2 and rules.min_naturals_per_meld <= 3:
        sized.append((_order(3, 0), 2 * WEIGHT[card], 0, _TANALA))
    if not pure_only:
        sized.extend(_set_effects(card, copies, rules, cap))
    for kept, wilds in _run_effects(rules, pattern, rank, cap, ticker):
        sized.append((_order(kept.bit_count() + 1, wilds), spread(kept, suit), wilds,
                      _RUN if wilds else _PURE_RUN))
    sized.sort(key=_first)  # stable: the generator's order among equals
    effects = [(delta, wilds, cls) for _, delta, wilds, cls in sized]
    stored: list[Effect] = _TABLES.put(key, effects, 1 + len(effects))
    return stored


def _order(naturals: int, wilds: int) -> int:
    """Sort key: more naturals first, then fewer wild slots."""
    return (MAX_RUN_CARDS * 8 - naturals) * 64 + wilds


def _first(entry: tuple[int, int, int, int]) -> int:
    return entry[0]
