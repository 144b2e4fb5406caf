"""Candidate-meld generation, shared by every engine.

A candidate is described by the natural cards it consumes (card types, each
standing for itself), how many wild cards it needs and what each position
represents.  Which physical wild cards fill the wild slots is decided by the
engine (any wild card can fill any slot).

``melds_led_by(lead, counts, ...)`` lists the candidates whose lowest natural
card type is ``lead`` given the remaining card counts; the union over every
card type of the hand is the full candidate list (``all_candidates``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from solver.cards import JOKER, make_card
from solver.model import MeldKind
from solver.rules import Deal

# Ace positions in runs: 0 is the ace low; 13 (high_low only) the ace high.


@dataclass(frozen=True, slots=True)
class Candidate:
    """A meld shape: ``naturals`` (sorted card types, lead first) stand for
    themselves; ``represents`` lists every position in meld order with
    ``natural_at[i]`` telling whether position i is filled by a natural card.
    ``low_ace`` marks a natural ace at the bottom of A-2-3...
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


def _positions(rank: int, ace: str) -> tuple[int, ...]:
    if ace == "high_low" and rank == 0:
        return (0, 13)
    return (rank,)


def _run_bounds(position: int, ace: str) -> tuple[int, int]:
    """Lowest and highest linear run coordinate a run through ``position`` may use."""
    if ace == "wrap":
        return position - 12, position + 12
    return 0, 13 if ace == "high_low" else 12


def _runs_led_by(
    lead: int, position: int, counts: Sequence[int], ace: str, cap: int, min_naturals: int
) -> list[Candidate]:
    """Runs through the lead card at linear ``position`` (rank = coordinate mod 13).

    Windows grow outward from the lead and stop as soon as they would need
    more than ``cap`` wild slots for ranks the hand cannot supply.
    """
    suit_base = lead - lead % 13
    low, high = _run_bounds(position, ace)
    out: list[Candidate] = []

    def supplied(q: int) -> bool:
        card = suit_base + q % 13
        return card > lead and counts[card] > 0

    left_forced = 0
    left_optional: list[int] = []
    for start in range(position, max(low, position - 12) - 1, -1):
        if start < position:
            if supplied(start):
                left_optional.append(start)
            else:
                left_forced += 1
                if left_forced > cap:
                    break
        forced = left_forced
        optional = list(left_optional)
        for end in range(position, min(high, start + 12) + 1):
            if end > position:
                if supplied(end):
                    optional.append(end)
                else:
                    forced += 1
                    if forced > cap:
                        break
            length = end - start + 1
            if length < 3:
                continue
            represents = tuple(suit_base + q % 13 for q in range(start, end + 1))
            for wild_choice in _subsets_up_to(optional, cap - forced):
                wilds = forced + len(wild_choice)
                if length - wilds < min_naturals:
                    continue
                natural_at = tuple(
                    q == position or (q in optional and q not in wild_choice)
                    for q in range(start, end + 1)
                )
                naturals = tuple(sorted(r for r, nat in zip(represents, natural_at, strict=True)
                                        if nat))
                low_ace = start == 0 and natural_at[0]
                out.append(Candidate("run", naturals, wilds, represents, natural_at, low_ace))
    return out


def _subsets_up_to(items: Sequence[int], limit: int) -> list[tuple[int, ...]]:
    """All subsets of ``items`` with at most ``limit`` elements."""
    result: list[tuple[int, ...]] = [()]
    for item in items:
        result += [(*s, item) for s in result if len(s) < limit]
    return result


def melds_led_by(
    lead: int,
    counts: Sequence[int],
    deal: Deal,
    wild_cap: int,
    pure_only: bool = False,
) -> list[Candidate]:
    """Candidates whose lowest natural card type is ``lead``.

    ``counts`` are the remaining copies of each card type *including* the lead
    copy being placed; only types above ``lead`` may join it (lower types are
    already decided).  At most ``wild_cap`` wild slots are used.
    """
    if lead == JOKER:
        return []
    rules = deal.rules
    cap = 0 if pure_only else wild_cap
    if rules.max_wilds_per_meld is not None:
        cap = min(cap, rules.max_wilds_per_meld)
    min_naturals = rules.min_naturals_per_meld
    out: list[Candidate] = []
    rank = lead % 13

    if rules.tanala_enabled and counts[lead] >= 3 and min_naturals <= 3:
        out.append(Candidate("tanala", (lead, lead, lead), 0, (lead,) * 3, (True,) * 3, False))

    if not pure_only:
        out.extend(_sets_led_by(lead, counts, deal, cap))

    for position in _positions(rank, rules.ace):
        out.extend(_runs_led_by(lead, position, counts, rules.ace, cap, min_naturals))
    return out


def _sets_led_by(lead: int, counts: Sequence[int], deal: Deal, cap: int) -> list[Candidate]:
    rules = deal.rules
    rank, lead_suit = lead % 13, lead // 13
    out: list[Candidate] = []
    # Natural copies available per suit beyond the lead copy (types below lead are gone).
    available = []
    for s in range(4):
        card = make_card(rank, s)
        if card < lead:
            available.append(0)
        elif card == lead:
            available.append(counts[card] - 1 if rules.set_allow_same_suit else 0)
        else:
            available.append(min(counts[card], 4 if rules.set_allow_same_suit else 1))
    choices: list[list[int]] = [[]]
    for s in range(4):
        choices = [c + [s] * k for c in choices for k in range(available[s] + 1) if len(c) + k <= 3]
    for extra in choices:
        naturals_suits = [lead_suit, *extra]
        n = len(naturals_suits)
        if n < rules.min_naturals_per_meld:
            continue
        for wilds in range(0, cap + 1):
            size = n + wilds
            if size < 3:
                continue
            if size > 4:
                break
            missing = [s for s in range(4) if s not in naturals_suits]
            if len(missing) < wilds and not rules.set_allow_same_suit:
                break
            wild_suits = (missing + [lead_suit] * 4)[:wilds]
            slots = sorted([(s, True) for s in naturals_suits] + [(s, False) for s in wild_suits])
            out.append(Candidate(
                "set",
                tuple(sorted(make_card(rank, s) for s in naturals_suits)),
                wilds,
                tuple(make_card(rank, s) for s, _ in slots),
                tuple(nat for _, nat in slots),
                False,
            ))
    return out


def all_candidates(counts: Sequence[int], deal: Deal, wild_cap: int) -> list[Candidate]:
    """Every candidate meld of a hand with card ``counts`` using at most
    ``wild_cap`` wild slots, each listed once (under its lowest natural card)."""
    out: list[Candidate] = []
    for card in range(JOKER):
        if counts[card]:
            out.extend(melds_led_by(card, counts, deal, wild_cap))
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

    def coordinate_range(self, ace: str) -> tuple[int, int]:
        """Lowest and highest coordinate the extended run may reach."""
        if ace == "low":
            return 0, 12
        if ace == "high_low":
            return 0, 13
        return self.high - 12, self.low + 12

    def absorb_room(self, ace: str) -> int:
        """Wild cards alone that this meld can still take (at its ends)."""
        if self.kind == "set":
            return min(4 - self.size, self.wild_room)
        if self.kind != "run":
            return 0
        lowest, highest = self.coordinate_range(ace)
        ends = (self.low - lowest) + (highest - self.high)
        return max(0, min(13 - self.size, ends, self.wild_room))


@dataclass(frozen=True, slots=True)
class Extension:
    """Hand cards laid off onto table meld ``table_index``, led by its lowest
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
        """Layoffs never count towards Indian sequence requirements."""
        return False

    @property
    def is_sequence(self) -> bool:
        """Layoffs never count towards Indian sequence requirements."""
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
            if (lead % 13 == spot.rank and spot.size < 4
                    and (rules.set_allow_same_suit or lead // 13 not in spot.natural_suits)):
                out.append(Extension(spot.index, (lead,), 0, (), (lead,), (True,), False, "set"))
        elif spot.kind == "run" and lead - lead % 13 == spot.suit_base:
            out.extend(_run_layoffs(lead, spot, counts, rules.ace,
                                    min(wild_cap, spot.wild_room)))
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
    lead: int, spot: TableSpot, counts: Sequence[int], ace: str, cap: int
) -> list[Extension]:
    lo, hi, base = spot.low, spot.high, spot.suit_base
    room = 13 - spot.size
    if room <= 0:
        return []
    lowest, highest = spot.coordinate_range(ace)
    lowest, highest = max(lowest, lo - room), min(highest, hi + room)
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
                if b - a + 1 > 13 or forced_total > cap:
                    continue
                coords = (*range(a, lo), *range(hi + 1, b + 1))
                either = low_optional + high_optional
                represents = tuple(base + q % 13 for q in coords)
                for wild_choice in _subsets_up_to(either, cap - forced_total):
                    natural_at = tuple(q == position or (q in either and q not in wild_choice)
                                       for q in coords)
                    naturals = tuple(sorted(r for r, nat in zip(represents, natural_at, strict=True)
                                            if nat))
                    low_ace = a < lo and a % 13 == 0 and natural_at[0]
                    out.append(Extension(spot.index, naturals, forced_total + len(wild_choice),
                                         coords, represents, natural_at, low_ace))
    return out
