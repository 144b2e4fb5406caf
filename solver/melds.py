"""Candidate-meld generation, shared by every engine.

A candidate is described by the natural cards it consumes (card types, each
standing for itself), how many wild cards it needs and what each position
represents.  Which physical wild cards fill the wild slots is decided by the
engine (any wild card can fill any slot).

``melds_led_by(lead, counts, ...)`` lists the candidates whose lowest natural
card type is ``lead`` given the remaining card counts; the union over every
card type of the hand is the full candidate list (``all_candidates``).
``melds_through(card, counts, ...)`` lists every candidate holding ``card``
as a natural with any other cards of ``counts`` (the draw hint's question:
what can a drawn card join?).  Run shapes come from ``solver.geometry``; set
sizes and run lengths from the rules.

Layoffs onto melds already on the table are candidates of the same kind
(``layoffs_led_by``), so the engine treats both alike.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from solver.cards import JOKER, make_card
from solver.deadline import Deadline, Ticker
from solver.geometry import GEOMETRY, MAX_RUN_CARDS, RunGeometry
from solver.results import MeldKind
from solver.rules import Deal, Rules, melded_points, own_slot_scores_apart


@dataclass(frozen=True, slots=True)
class Candidate:
    """A meld shape: ``naturals`` (sorted card types) stand for themselves;
    ``represents`` lists every position in meld order with ``natural_at[i]``
    telling whether position i is filled by a natural card.  ``low_ace``
    marks a run whose bottom position is an ace ranking low (A-2-3...).
    """

    kind: MeldKind
    naturals: tuple[int, ...]
    wilds: int
    represents: tuple[int, ...]
    natural_at: tuple[bool, ...]
    low_ace: bool

    @property
    def pure(self) -> bool:
        """No wild slot: a pure sequence when it is a run or tanala."""
        return self.wilds == 0 and self.kind != "set"

    @property
    def is_sequence(self) -> bool:
        """Runs and tanalas are sequences."""
        return self.kind != "set"


def wild_cap_for(rules: Rules, wild_cap: int, pure_only: bool) -> int:
    """Most wild slots one candidate may have."""
    if pure_only:
        return 0
    if rules.max_wilds_per_meld is not None:
        return min(wild_cap, rules.max_wilds_per_meld)
    return wild_cap


def barred_fillers(option: Candidate | Extension, deal: Deal) -> tuple[int, ...]:
    """Per wild slot of ``option`` (in slot order), the wild card that may not
    fill it as a wild card, or -1: the card the slot stands for, where that
    card would be natural and score apart (``own_slot_scores_apart``: a wild
    ace in the low-ace slot of its own run)."""
    return tuple(
        rep if own_slot_scores_apart(rep, deal, option.low_ace and i == 0) else -1
        for i, (rep, natural) in enumerate(zip(option.represents, option.natural_at,
                                               strict=True))
        if not natural)


def fill_wild_slots(options: Sequence[Candidate | Extension], cards: Sequence[int],
                    deal: Deal) -> list[tuple[int, ...]]:
    """The wild cards ``cards`` (as many as the slots) in the wild slots of
    each of ``options``, in order, none in a slot it is barred from
    (``barred_fillers``) when the cards allow it (the engines price only
    such fillings); a barred slot takes the first card that leaves the
    other barred slots a filling, every other slot the next card left."""
    bars = [barred_fillers(option, deal) for option in options]
    wanted = [bar for meld in bars for bar in meld if bar >= 0]
    left = list(cards)

    def fillable(barred: list[int], pool: list[int]) -> bool:
        return all(barred.count(bar) <= sum(1 for c in pool if c != bar) for bar in barred)

    chosen: dict[tuple[int, int], int] = {}
    if wanted and fillable(wanted, left):
        for m, meld in enumerate(bars):
            for s, bar in enumerate(meld):
                if bar < 0:
                    continue
                wanted.remove(bar)
                i = next(i for i, c in enumerate(left) if c != bar and fillable(
                    wanted, left[:i] + left[i + 1:]))
                chosen[m, s] = left.pop(i)
    rest = iter(left)
    return [tuple(chosen[m, s] if (m, s) in chosen else next(rest) for s in range(len(meld)))
            for m, meld in enumerate(bars)]


def melds_led_by(
    lead: int,
    counts: Sequence[int],
    deal: Deal,
    wild_cap: int,
    pure_only: bool = False,
    deadline: Deadline | None = None,
) -> list[Candidate]:
    """Candidates whose lowest natural card type is ``lead``.

    ``counts`` are the remaining copies of each card type *including* the lead
    copy being placed; only types above ``lead`` (and further copies of it)
    may join it.  At most ``wild_cap`` wild slots are used.
    """
    if lead == JOKER:
        return []
    others = [0] * len(counts)
    for card in range(lead, len(counts)):
        others[card] = counts[card]
    others[lead] -= 1
    return _melds_holding(lead, others, deal, wild_cap, pure_only, deadline)


def melds_through(
    card: int,
    counts: Sequence[int],
    deal: Deal,
    wild_cap: int,
    pure_only: bool = False,
    deadline: Deadline | None = None,
) -> list[Candidate]:
    """Every candidate holding ``card`` as a natural; the other naturals come
    from ``counts`` (which do *not* include ``card`` itself), of any type."""
    if card == JOKER:
        return []
    return _melds_holding(card, counts, deal, wild_cap, pure_only, deadline)


def _melds_holding(
    anchor: int, others: Sequence[int], deal: Deal, wild_cap: int, pure_only: bool,
    deadline: Deadline | None,
) -> list[Candidate]:
    rules = deal.rules
    cap = wild_cap_for(rules, wild_cap, pure_only)
    min_naturals = rules.min_naturals_per_meld
    ticker = Ticker(deadline, 64)
    out: list[Candidate] = []
    if rules.tanala_enabled and others[anchor] >= 2 and min_naturals <= 3:
        out.append(Candidate("tanala", (anchor,) * 3, 0, (anchor,) * 3, (True,) * 3, False))
    if not pure_only:
        out.extend(_sets_holding(anchor, others, rules, cap, ticker))
    geometry = GEOMETRY[rules.ace]
    for position in geometry.coordinates(anchor % 13):
        _runs_through(anchor, position, others, geometry, rules, cap, ticker, out)
    return out


def _runs_through(
    anchor: int, position: int, others: Sequence[int], geometry: RunGeometry, rules: Rules,
    cap: int, ticker: Ticker, out: list[Candidate],
) -> None:
    """Runs through ``anchor`` at coordinate ``position``.

    Windows grow outward from the anchor and stop as soon as they would need
    more than ``cap`` wild slots for ranks the other cards cannot supply.
    """
    suit_base = anchor - anchor % 13
    lowest, highest = geometry.span(position, position)
    min_length, min_naturals = rules.min_run_length, rules.min_naturals_per_meld

    def supplied(q: int) -> bool:
        return others[suit_base + q % 13] > 0

    left_forced = 0
    left_optional: list[int] = []
    for start in range(position, lowest - 1, -1):
        if start < position:
            if supplied(start):
                left_optional.append(start)
            else:
                left_forced += 1
                if left_forced > cap:
                    break
        forced = left_forced
        optional = list(left_optional)
        for end in range(position, min(highest, start + MAX_RUN_CARDS - 1) + 1):
            if end > position:
                if supplied(end):
                    optional.append(end)
                else:
                    forced += 1
                    if forced > cap:
                        break
            length = end - start + 1
            if length < min_length:
                continue
            represents = tuple(suit_base + q % 13 for q in range(start, end + 1))
            low_ace = geometry.low_ace_at_bottom(start)
            for wild_choice in _subsets_up_to(optional, cap - forced):
                ticker.tick()
                wilds = forced + len(wild_choice)
                if length - wilds < min_naturals:
                    continue
                natural_at = tuple(
                    q == position or (q in optional and q not in wild_choice)
                    for q in range(start, end + 1)
                )
                naturals = tuple(sorted(r for r, nat in zip(represents, natural_at, strict=True)
                                        if nat))
                out.append(Candidate("run", naturals, wilds, represents, natural_at, low_ace))


def _subsets_up_to(items: Sequence[int], limit: int) -> list[tuple[int, ...]]:
    """All subsets of ``items`` with at most ``limit`` elements."""
    result: list[tuple[int, ...]] = [()]
    for item in items:
        result += [(*s, item) for s in result if len(s) < limit]
    return result


def set_wild_suits(natural_suits: Sequence[int], wilds: int) -> list[int]:
    """The suits wild cards stand for in a set: the missing suits first, then
    (sets that may repeat a suit) every suit again in order."""
    missing = [s for s in range(4) if s not in natural_suits]
    return (missing + [s for _ in range(wilds) for s in range(4)])[:wilds]


def _sets_holding(anchor: int, others: Sequence[int], rules: Rules, cap: int,
                  ticker: Ticker | None = None) -> list[Candidate]:
    rank, anchor_suit = anchor % 13, anchor // 13
    limit = rules.set_size_limit
    same_suit = rules.set_allow_same_suit
    available = []
    for s in range(4):
        copies = others[make_card(rank, s)]
        if not same_suit:
            copies = 0 if s == anchor_suit else min(copies, 1)
        available.append(copies)
    choices: list[list[int]] = [[]]
    for s in range(4):
        choices = [c + [s] * k for c in choices for k in range(available[s] + 1)
                   if len(c) + k <= limit - 1]
    out: list[Candidate] = []
    for extra in choices:
        if ticker is not None:  # many decks: thousands of suit choices, each with its wild counts
            ticker.tick()
        natural_suits = sorted([anchor_suit, *extra])
        n = len(natural_suits)
        if n < rules.min_naturals_per_meld:
            continue
        room = limit - n if same_suit else min(limit, 4) - n
        for wilds in range(max(0, 3 - n), min(cap, room) + 1):
            wild_suits = set_wild_suits(natural_suits, wilds)
            slots = sorted([(s, True) for s in natural_suits] + [(s, False) for s in wild_suits])
            out.append(Candidate(
                "set",
                tuple(make_card(rank, s) for s in natural_suits),
                wilds,
                tuple(make_card(rank, s) for s, _ in slots),
                tuple(nat for _, nat in slots),
                False,
            ))
    return out


def all_candidates(counts: Sequence[int], deal: Deal, wild_cap: int,
                   deadline: Deadline | None = None) -> list[Candidate]:
    """Every candidate meld of a hand with card ``counts`` using at most
    ``wild_cap`` wild slots, each listed once (under its lowest natural card)."""
    out: list[Candidate] = []
    for card in range(JOKER):
        if counts[card]:
            out.extend(melds_led_by(card, counts, deal, wild_cap, deadline=deadline))
            if deadline is not None:
                deadline.check()
    return out


# ---------------------------------------------------------------------------
# Layoffs: hand cards extending melds already on the table


@dataclass(frozen=True, slots=True)
class TableSpot:
    """What the generator needs of one table meld.

    Runs: ``suit_base`` (card id of the suit's ace) and the linear coordinates
    ``low``..``high`` of their ends (rank = coordinate mod 13; 13 is a high
    ace).  Sets: ``rank`` and the suits of their natural cards.  ``size`` is
    the meld's card count and ``wild_room`` how many more wild cards it may
    take (``max_wilds_per_meld``).
    """

    index: int
    kind: MeldKind
    size: int
    wild_room: int
    suit_base: int = 0
    low: int = 0
    high: int = 0
    rank: int = 0
    natural_suits: frozenset[int] = frozenset()

    def absorb_room(self, rules: Rules) -> int:
        """Wild cards alone that this meld can still take (at its ends, or
        standing for more suits of a set)."""
        if self.kind == "set":
            return max(0, min(rules.set_size_limit - self.size, self.wild_room))
        if self.kind != "run":
            return 0
        lowest, highest = GEOMETRY[rules.ace].span(self.low, self.high)
        ends = (self.low - lowest) + (highest - self.high)
        return max(0, min(MAX_RUN_CARDS - self.size, ends, self.wild_room))

    def lone_wild_coords(self, deal: Deal, count: int) -> list[int]:
        """The run coordinates ``count`` (at most ``absorb_room``) wild cards
        laid off alone take, outward from the run: the placing worth most
        when a wild card scores the card it stands for
        (``wild_meld_value="represented"``), else the high end first."""
        geometry = GEOMETRY[deal.rules.ace]
        lowest, highest = geometry.span(self.low, self.high)
        best: list[int] = []
        best_points = -1
        for above in range(min(count, highest - self.high), -1, -1):
            below = count - above
            if below > self.low - lowest:
                continue
            coords = [*range(self.high + 1, self.high + above + 1),
                      *range(self.low - 1, self.low - below - 1, -1)]
            points = sum(_stand_in_points(card, low_ace, deal)
                         for card, low_ace in self._run_meanings(coords))
            if points > best_points:
                best, best_points = coords, points
        return best

    def lone_wild_meanings(self, deal: Deal, count: int) -> list[tuple[int, bool]]:
        """What ``count`` wild cards laid off alone stand for (``lone_wild_coords``;
        a set's missing suits, all of its rank), each with whether it is a
        run's low ace."""
        if self.kind == "set":
            return [(make_card(self.rank, 0), False)] * count
        return self._run_meanings(self.lone_wild_coords(deal, count))

    def _run_meanings(self, coords: Sequence[int]) -> list[tuple[int, bool]]:
        start = min([self.low, *coords])
        return [(self.suit_base + q % 13, q == start and RunGeometry.low_ace_at_bottom(q))
                for q in coords]


def _stand_in_points(represents: int, low_ace: bool, deal: Deal) -> int:
    """What a wild card standing for ``represents`` scores melded under
    ``wild_meld_value="represented"`` (0 otherwise: every placing alike)."""
    if deal.rules.wild_meld_value == "own" or not deal.wild:
        return 0
    return melded_points(min(deal.wild), represents, deal, low_ace)


@dataclass(frozen=True, slots=True)
class Extension:
    """Hand cards laid off onto table meld ``table_index``, led by their lowest
    natural card.  ``coords`` lists the added run positions (low block then
    high block; empty for a set), ``represents`` what each added card stands
    for and ``natural_at`` which of them are natural hand cards (the rest are
    wild slots).  Same shape as ``Candidate`` so the engine treats both alike.
    """

    table_index: int
    naturals: tuple[int, ...]
    wilds: int
    coords: tuple[int, ...]
    represents: tuple[int, ...]
    natural_at: tuple[bool, ...]
    low_ace: bool
    kind: MeldKind = "run"

    @property
    def pure(self) -> bool:
        """Layoffs never count towards requirements."""
        return False

    @property
    def is_sequence(self) -> bool:
        """Layoffs never count towards requirements."""
        return False


def layoffs_led_by(
    lead: int, counts: Sequence[int], deal: Deal, spots: Sequence[TableSpot], wild_cap: int
) -> list[Extension]:
    """Layoffs whose lowest natural hand card is ``lead`` (``counts`` include
    the lead copy; only types above ``lead`` may join it), at most
    ``wild_cap`` wild slots each.  Layoffs of wild cards alone are not listed:
    the engine lays leftover wild cards off at the end (``absorb_room``)."""
    if lead == JOKER:
        return []
    rules = deal.rules
    out: list[Extension] = []
    for spot in spots:
        if spot.kind == "set":
            if lead % 13 == spot.rank:
                out.extend(_set_layoffs(lead, spot, counts, rules, min(wild_cap, spot.wild_room)))
        elif spot.kind == "run" and lead - lead % 13 == spot.suit_base:
            out.extend(_run_layoffs(lead, spot, counts, GEOMETRY[rules.ace],
                                    min(wild_cap, spot.wild_room)))
    return out


def _set_layoffs(lead: int, spot: TableSpot, counts: Sequence[int], rules: Rules,
                 cap: int) -> list[Extension]:
    """The lead card (and, for sets that may repeat suits, more copies of its
    rank and wild cards) added to a table set."""
    room = rules.set_size_limit - spot.size
    if room <= 0:
        return []
    rank = spot.rank
    taken = set(spot.natural_suits)
    if not rules.set_allow_same_suit and lead // 13 in taken:
        return []
    out: list[Extension] = []
    if not rules.set_allow_same_suit:
        return [Extension(spot.index, (lead,), 0, (), (lead,), (True,), False, "set")]
    available = [0 if make_card(rank, s) < lead else counts[make_card(rank, s)] for s in range(4)]
    available[lead // 13] -= 1
    choices: list[list[int]] = [[]]
    for s in range(4):
        choices = [c + [s] * k for c in choices for k in range(available[s] + 1)
                   if len(c) + k <= room - 1]
    for extra in choices:
        natural_suits = sorted([lead // 13, *extra])
        for wilds in range(0, min(cap, room - len(natural_suits)) + 1):
            wild_suits = set_wild_suits([*taken, *natural_suits], wilds)
            naturals = tuple(make_card(rank, s) for s in natural_suits)
            represents = naturals + tuple(make_card(rank, s) for s in wild_suits)
            out.append(Extension(spot.index, naturals, wilds, (), represents,
                                 (True,) * len(naturals) + (False,) * wilds, False, "set"))
    return out


def _blocks(
    coords: Iterable[int],
    supplied: Callable[[int], bool | None],
    cap: int,
    reach: int | None,
) -> list[tuple[int, int, list[int]]]:
    """Blocks growing outward through ``coords``: (far end, wild slots forced,
    positions a hand natural could fill), stopping past ``cap`` forced wilds;
    with ``reach`` only the blocks that include that coordinate."""
    started = reach is None
    out: list[tuple[int, int, list[int]]] = []
    forced, optional = 0, []
    for q in coords:
        fill = supplied(q)
        if fill is False:
            forced += 1
            if forced > cap:
                break
        elif fill:
            optional.append(q)
        started = started or q == reach
        if started:
            out.append((q, forced, list(optional)))
    return out


def _run_layoffs(
    lead: int, spot: TableSpot, counts: Sequence[int], geometry: RunGeometry, cap: int
) -> list[Extension]:
    lo, hi, base = spot.low, spot.high, spot.suit_base
    if spot.size >= MAX_RUN_CARDS:
        return []
    lowest, highest = geometry.span(lo, hi)
    out: list[Extension] = []
    for position in range(lowest, highest + 1):
        if lo <= position <= hi or position % 13 != lead % 13:
            continue

        def supplied(q: int, at: int = position) -> bool | None:
            """None for the lead's own slot; else whether a hand natural can fill it."""
            if q == at:
                return None
            card = base + q % 13
            return card > lead and counts[card] > 0

        # low blocks [a, lo - 1] and high blocks [hi + 1, b], as (end, forced, optional);
        # the block on the lead's side must reach the lead
        no_block: list[tuple[int, int, list[int]]] = []
        lows = ([(lo, 0, [])] if position > hi else no_block) + _blocks(
            range(lo - 1, lowest - 1, -1), supplied, cap, reach=position if position < lo else None)
        highs = ([(hi, 0, [])] if position < lo else no_block) + _blocks(
            range(hi + 1, highest + 1), supplied, cap, reach=position if position > hi else None)
        for a, low_forced, low_optional in lows:
            for b, high_forced, high_optional in highs:
                forced_total = low_forced + high_forced
                if b - a + 1 > MAX_RUN_CARDS or forced_total > cap:
                    continue
                coords = (*range(a, lo), *range(hi + 1, b + 1))
                either = low_optional + high_optional
                represents = tuple(base + q % 13 for q in coords)
                low_ace = a < lo and geometry.low_ace_at_bottom(a)
                for wild_choice in _subsets_up_to(either, cap - forced_total):
                    natural_at = tuple(q == position or (q in either and q not in wild_choice)
                                       for q in coords)
                    naturals = tuple(sorted(r for r, nat in zip(represents, natural_at, strict=True)
                                            if nat))
                    out.append(Extension(spot.index, naturals, forced_total + len(wild_choice),
                                         coords, represents, natural_at, low_ace))
    return out


def some_card_unmeldable(cards: Sequence[int], deal: Deal) -> bool:
    """A quick necessary condition for melding every card: True when some
    card of ``cards`` fits no meld at all with the others (so no arrangement
    melds them all).  False does not promise that one does."""
    rules = deal.rules
    wilds = sum(1 for c in cards if c in deal.wild)
    copies = [0] * (JOKER + 1)
    for card in cards:
        copies[card] += 1
    geometry = GEOMETRY[rules.ace]
    min_length = max(3, rules.min_run_length)
    for card in set(cards):
        if card in deal.wild:
            continue
        if card == JOKER:
            return True  # a printed joker that is not wild melds nowhere
        rank, suit = card % 13, card // 13
        if rules.tanala_enabled and copies[card] >= 3:
            continue
        if rules.set_allow_same_suit:  # any other card of the rank, copies included
            partners = sum(copies[make_card(rank, s)] for s in range(4)) - 1
        else:
            partners = sum(min(copies[make_card(rank, s)], 1) for s in range(4) if s != suit)
        if partners + wilds >= 2 and rules.min_naturals_per_meld <= partners + 1:
            continue
        base = suit * 13
        fits = False
        for position in geometry.coordinates(rank):
            lowest, highest = geometry.span(position, position)
            for start in range(max(lowest, position - min_length + 1), position + 1):
                end = start + min_length - 1
                if end > highest:
                    break
                present = sum(1 for q in range(start, end + 1)
                              if q != position and copies[base + q % 13])
                if present + wilds >= min_length - 1 and present + 1 >= rules.min_naturals_per_meld:
                    fits = True
                    break
            if fits:
                break
        if not fits:
            return True
    return False
