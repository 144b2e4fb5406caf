"""Bounds the search prunes with: the pure sequences a state can still show,
and the cards no meld can hold.

**Pure sequences.**
A pass that requires pure sequences (Indian rummy's first life, the
marriage variant's three) cannot be satisfied by a state whose remaining
cards could not form the ones still missing.  The count is an upper bound
read off the search's packed count code (``solver.engines.packed``): per
suit, the copies of the ranks some pure run can hold, over the shortest run
length, plus the tanalas (three copies of one card) the copies allow.  The
ranks a pure run can hold come from a per-suit table over the geometry's
windows, built lazily per (rules, suit pattern).

>>> from solver.rules import PRESETS
>>> from solver.cards import card_name, parse_card
>>> from solver.engines.packed import pack
>>> reach = meld_reach(PRESETS["indian13"])
>>> reach.pure_sequences_at_most(pack([parse_card(t) for t in "5H 6H 7H 8H KS 2C".split()]))
1
>>> reach.pure_sequences_at_most(pack([parse_card(t) for t in "5H 6H 8H 9H KS".split()]))
0
>>> reach.pure_sequences_at_most(pack([parse_card(t) for t in "QH KH AH".split()]))
1

**Loose cards.**  A held card that no meld can hold -- no run through it
with the other held cards of its suit and the wild slots still payable, no
set (or tanala) with the other copies of its rank -- stays in hand or is the
discard, however the rest is arranged; as cards only leave a state, it stays
loose in every state below.  ``LooseCards.mask`` finds them per state from
tables per suit pattern and per rank column (``tests/test_bounds.py`` checks
it against the candidate generator's melds through each card): their cost is
a lower bound of the state's value (the dearest of them may be the discard),
where the per-card floors of a pass without meld costs are all zero.

>>> loose = loose_cards(PRESETS["indian13"])
>>> hand = pack([parse_card(t) for t in "5H 6H 9H KS KD 2C".split()])
>>> [card_name(c) for c in loose_types(loose.mask(hand, 0, False))]
['KS', '5H', '6H', '9H', 'KD', '2C']
>>> [card_name(c) for c in loose_types(loose.mask(hand, 1, False))]
['9H', '2C']
"""

from __future__ import annotations

from solver.engines.packed import (
    BITS,
    FIELD,
    FIELD_LOW,
    SUIT_BITS,
    presence,
    rank_pattern,
    spread,
)
from solver.engines.through import set_effects
from solver.geometry import GEOMETRY, MAX_RUN_CARDS
from solver.rules import Rules


class PureReach:
    """Which held cards a pure sequence could still hold, for one meld rule
    set (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        self.min_naturals = max(1, rules.min_naturals_per_meld)
        self.min_run_length = max(1, rules.min_run_length)
        self.tanala = rules.tanala_enabled and self.min_naturals <= 3
        windows: set[int] = set()
        for length in range(self.min_run_length, MAX_RUN_CARDS + 1):
            for ranks in GEOMETRY[rules.ace].windows(length):
                windows.add(sum(1 << rank for rank in ranks))
        self.windows = tuple(sorted(windows))
        self.runs: dict[int, int] = {}

    def _run_reach(self, pattern: int) -> int:
        """The ranks (a 13-bit mask) some pure run can hold when a suit holds
        the ranks of ``pattern``."""
        hit = self.runs.get(pattern)
        if hit is not None:
            return hit
        reach = 0
        for mask in self.windows:
            if mask & pattern == mask and mask.bit_count() >= self.min_naturals:
                reach |= mask
        self.runs[pattern] = reach
        return reach

    def pure_sequences_at_most(self, code: int, enough: int = 1 << 30) -> int:
        """An upper bound on how many disjoint pure sequences the held cards
        can form (see the module docstring); counting stops at ``enough``."""
        present = presence(code)
        total = 0
        for suit in range(4):
            pattern = rank_pattern(present, suit)
            if not pattern:
                continue
            ranks = self._run_reach(pattern)
            if not ranks:
                continue
            if total + 1 >= enough:
                return enough  # a reachable rank: some window is held whole
            reach = spread(ranks, suit)
            copies = 0
            while reach:
                low = reach & -reach
                copies += (code >> (low.bit_length() - 1)) & FIELD
                reach ^= low
            total += copies // self.min_run_length
        if self.tanala:
            triples = (code >> 2 | code >> 3 | code >> 4 | (code >> 1 & code)) & FIELD_LOW
            while triples:
                low = triples & -triples
                total += ((code >> (low.bit_length() - 1)) & FIELD) // 3
                triples ^= low
        return total


_REACH: dict[tuple[object, ...], PureReach] = {}


def meld_reach(rules: Rules) -> PureReach:
    """The shared ``PureReach`` of the meld rules of ``rules`` (its tables
    fill once per rule set)."""
    key = (rules.ace, rules.tanala_enabled, rules.min_run_length, rules.min_naturals_per_meld)
    hit = _REACH.get(key)
    if hit is None:
        hit = _REACH[key] = PureReach(rules)
    return hit


class LooseCards:
    """Which held cards no meld can hold, for one meld rule set (see the
    module docstring): runs from the geometry's windows, sets and tanalas
    from the rank's copies."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.min_naturals = rules.min_naturals_per_meld
        self.tanala = rules.tanala_enabled and rules.min_naturals_per_meld <= 3
        windows: set[int] = set()
        for length in range(max(1, rules.min_run_length), MAX_RUN_CARDS + 1):
            for ranks in GEOMETRY[rules.ace].windows(length):
                windows.add(sum(1 << rank for rank in ranks))
        self.windows = tuple(sorted(windows))
        self.runs: dict[int, int] = {}
        self.sets: dict[tuple[int, ...], bool] = {}
        self.suits_needed: dict[int, int] = {}

    def run_ranks(self, pattern: int, wilds: int) -> int:
        """The ranks of ``pattern`` (a suit's 13-bit rank mask) some run with
        at most ``wilds`` wild slots can hold with the suit's other ranks."""
        key = pattern | wilds << 13
        hit = self.runs.get(key)
        if hit is not None:
            return hit
        ranks = 0
        for window in self.windows:
            held = (window & pattern).bit_count()
            if held and held >= self.min_naturals and window.bit_count() - held <= wilds:
                ranks |= window & pattern
        self.runs[key] = ranks
        return ranks

    def in_set(self, suit: int, copies: tuple[int, int, int, int], wilds: int) -> bool:
        """Whether a set holds a card of ``suit`` beside the other copies of
        its rank per suit (``copies``) and at most ``wilds`` wild slots: the
        candidate generator's own sets (``solver.engines.through``)."""
        key = (suit, *copies, wilds)
        hit = self.sets.get(key)
        if hit is None:
            hit = self.sets[key] = bool(set_effects(13 * suit, copies, self.rules, wilds))
        return hit

    def set_suits(self, wilds: int) -> int:
        """Without same-suit sets: how many suits must hold a rank (the card's
        own included) for a set with at most ``wilds`` wild slots to hold a
        card of it (5: none can)."""
        needed = self.suits_needed.get(wilds)
        if needed is None:
            needed = 5
            for others in range(4):
                if self.in_set(0, (0, int(others > 0), int(others > 1), int(others > 2)), wilds):
                    needed = others + 1
                    break
            self.suits_needed[wilds] = needed
        return needed

    def mask(self, code: int, wilds: int, pure_only: bool) -> int:
        """Bit 0 of the field of each card type of the packed ``code`` no meld
        can hold, with at most ``wilds`` wild slots per meld (``pure_only``:
        pure sequences only, so no wild slot and no set)."""
        loose = 0
        for suit, ranks in enumerate(self.ranks(code, wilds, pure_only)):
            if ranks:
                loose |= spread(ranks, suit)
        return loose

    def ranks(self, code: int, wilds: int, pure_only: bool) -> list[int]:
        """``mask`` as one 13-bit rank mask per suit."""
        if pure_only:
            wilds = 0
        present = presence(code)
        patterns = [rank_pattern(present, 0), rank_pattern(present, 1),
                    rank_pattern(present, 2), rank_pattern(present, 3)]
        run_ranks = self.run_ranks
        alone = [p & ~run_ranks(p, wilds) if p else 0 for p in patterns]
        if not (alone[0] | alone[1] | alone[2] | alone[3]):
            return alone
        if not pure_only:
            if self.rules.set_allow_same_suit:
                alone = [self._not_in_sets(code, suit, alone[suit], wilds) for suit in range(4)]
            else:
                held = _held_by(patterns, self.set_suits(wilds))
                alone = [a & ~held for a in alone]
        if self.tanala:
            alone = [self._not_in_tanalas(code, suit, a) if a else 0
                     for suit, a in enumerate(alone)]
        return alone

    def _not_in_sets(self, code: int, suit: int, ranks: int, wilds: int) -> int:
        """The ranks of ``ranks`` whose card of ``suit`` no set holds."""
        out = 0
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            shift = BITS * (low.bit_length() - 1)
            copies = [code >> (shift + SUIT_BITS * s) & FIELD for s in range(4)]
            copies[suit] -= 1
            if not self.in_set(suit, (copies[0], copies[1], copies[2], copies[3]), wilds):
                out |= low
        return out

    def _not_in_tanalas(self, code: int, suit: int, ranks: int) -> int:
        """The ranks of ``ranks`` whose card of ``suit`` is not held three times."""
        out = 0
        base = SUIT_BITS * suit
        while ranks:
            low = ranks & -ranks
            ranks ^= low
            if code >> (base + BITS * (low.bit_length() - 1)) & FIELD < 3:
                out |= low
        return out


def _held_by(patterns: list[int], suits: int) -> int:
    """The ranks at least ``suits`` of the four 13-bit ``patterns`` hold."""
    p0, p1, p2, p3 = patterns
    if suits <= 1:
        return p0 | p1 | p2 | p3 if suits == 1 else (1 << 13) - 1
    if suits == 2:
        return (p0 & (p1 | p2 | p3)) | (p1 & (p2 | p3)) | (p2 & p3)
    if suits == 3:
        return (p0 & p1 & (p2 | p3)) | ((p0 | p1) & p2 & p3)
    return p0 & p1 & p2 & p3 if suits == 4 else 0


def loose_types(mask: int) -> list[int]:
    """The card types whose bit a ``LooseCards.mask`` sets."""
    out = []
    while mask:
        low = mask & -mask
        out.append((low.bit_length() - 1) // BITS)
        mask ^= low
    return out


_LOOSE: dict[tuple[object, ...], LooseCards] = {}


def loose_cards(rules: Rules) -> LooseCards:
    """The shared ``LooseCards`` of the meld rules of ``rules``."""
    key = (rules.ace, rules.tanala_enabled, rules.set_allow_same_suit, rules.set_size_limit,
           rules.min_run_length, rules.min_naturals_per_meld)
    hit = _LOOSE.get(key)
    if hit is None:
        hit = _LOOSE[key] = LooseCards(rules)
    return hit
