"""The bitmask engine: the exact optimum of one deck without wild cards in the hand.

Gin and basic rummy hands (and 500 hands without a joker) decompose: a set is
a choice among the few ranks held three or four times, and what remains of
each suit is an independent 13-bit rank mask whose best split into runs is
looked up in a table built once per deal's costs (8,192 entries, ``SuitTables``).
So the optimum is a small enumeration of set choices, each costing four
look-ups; the discard is one more look-up per suit (the best mask with one
card removed).

Exactness is the same as the general search (the tests compare them); it only
applies when ``applies(instance)`` says so.  ``solver.session`` decides when it
answers (before the search, whenever it applies); ``solver.quick`` reads its
tables straight from card names for the gin and basic presets.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from solver.cards import JOKER, make_card
from solver.engines.base import INFEASIBLE, EngineResult, Instance, PlacedMeld
from solver.melds import Candidate
from solver.objective import Pass, passes_for
from solver.rules import Deal

_FULL = 1 << 13
# A table entry: (cost, runs as (first bit, last bit, ace_high) triples, dead bits mask)
_Split = tuple[int, tuple[tuple[int, int, bool], ...], int]


@lru_cache(maxsize=1024)
def rules_allow(deal: Deal) -> bool:
    """The deal's rules keep the problem a plain min-cost split of one deck."""
    rules = deal.rules
    passes = passes_for(deal)
    plain = passes[0]
    return (
        rules.decks == 1
        and rules.ace in ("low", "high_low")
        and rules.min_naturals_per_meld <= 3
        and rules.min_run_length == 3
        and rules.set_size_limit == 4
        and len(passes) == 1
        and not plain.limits
        and not plain.min_points
        and not plain.meld_all
        and not plain.pure_only
        and _suit_blind_points(deal)
    )


def _suit_blind_points(deal: Deal) -> bool:
    """Every rank scores alike in the four suits, in hand and melded: the
    tables are priced per rank from the spades.  Not so when upper and lower
    jokers (one suit's cards) score 0 under ``wild_cards_score_zero``."""
    return all(
        table[make_card(rank, suit)] == table[make_card(rank, 0)]
        for table in (deal.points, deal.meld_points)
        for rank in range(13)
        for suit in range(1, 4)
    )


def applies(instance: Instance) -> bool:
    """Whether the bitmask engine is exact for this instance."""
    deal = instance.deal
    if not rules_allow(deal):
        return False
    wild = deal.wild
    if any(c in wild or c == JOKER for c in instance.cards):
        return False
    return set_options(masks_of(instance.cards)) is not None


@dataclass(frozen=True, slots=True, eq=False)
class SuitTables:
    """Everything the bitmask engine needs for one deal's costs.

    ``best[mask]`` is the best run split of a suit's rank mask (cost, runs,
    dead bits); ``minus_one[mask]`` the best (cost, bit) with one card of the
    mask discarded; ``discard_gain[mask]`` what that discard adds to the cost
    (``INFEASIBLE`` for the empty mask); ``meld_cost[r]`` a melded card's cost.
    """

    objective: Pass
    best: list[_Split]
    minus_one: list[tuple[int, int]]
    discard_gain: list[int]
    meld_cost: tuple[int, ...]

    def cheapest_discard(self, spades: int, hearts: int, diamonds: int, clubs: int,
                         ) -> tuple[int, int]:
        """(added cost, suit) of the best single discard from these suit
        masks: the least added cost, the first suit on ties; (INFEASIBLE, -1)
        when every mask is empty."""
        gain = self.discard_gain
        suit, least = -1, INFEASIBLE
        if gain[spades] < least:
            suit, least = 0, gain[spades]
        if gain[hearts] < least:
            suit, least = 1, gain[hearts]
        if gain[diamonds] < least:
            suit, least = 2, gain[diamonds]
        if gain[clubs] < least:
            suit, least = 3, gain[clubs]
        return least, suit


@lru_cache(maxsize=256)
def suit_tables(deal: Deal) -> SuitTables:
    """The pass, the suit tables and per-rank melded costs for this deal."""
    objective = passes_for(deal)[0]
    hand_cost = tuple(objective.hand_cost(r, deal) for r in range(13))
    meld_cost = tuple(objective.meld_cost(r, r, deal, False) for r in range(13))
    low_ace_cost = objective.meld_cost(0, 0, deal, True)
    best, minus_one = _suit_tables(deal.rules.ace, hand_cost, meld_cost, low_ace_cost)
    gain = [INFEASIBLE if not mask else cost - best[mask][0]
            for mask, (cost, _) in enumerate(minus_one)]
    return SuitTables(objective, best, minus_one, gain, meld_cost)


def _suit_tables(
    ace: str, hand_cost: tuple[int, ...], meld_cost: tuple[int, ...], low_ace_cost: int
) -> tuple[list[_Split], list[tuple[int, int]]]:
    """Best run split of every 13-bit mask, and with one card discarded.

    ``hand_cost[r]`` / ``meld_cost[r]`` are per rank; ``low_ace_cost`` is the
    ace's melded cost at the bottom of A-2-3.  The second table gives, per
    mask, (cost, discarded bit) for the best split of the mask minus one card.
    """
    best: list[_Split] = [(0, (), 0)] * _FULL
    for mask in range(1, _FULL):
        low = (mask & -mask).bit_length() - 1
        rest = mask & ~(1 << low)
        cost, runs, dead = best[rest]
        choice: _Split = (cost + hand_cost[low], runs, dead | (1 << low))
        # runs from the lowest card upward (an ace here is the low ace)
        run_cost = low_ace_cost if low == 0 else meld_cost[low]
        top = low
        while top + 1 < 13 and mask >> (top + 1) & 1:
            top += 1
            run_cost += meld_cost[top]
            if top - low >= 2:
                bits = ((1 << (top + 1)) - 1) & ~((1 << low) - 1)
                sub_cost, sub_runs, sub_dead = best[mask & ~bits]
                if sub_cost + run_cost < choice[0]:
                    choice = (sub_cost + run_cost, ((low, top, False), *sub_runs), sub_dead)
        if low == 0 and ace == "high_low" and mask >> 12 & 1:
            # the ace on top of ...-Q-K
            run_cost = meld_cost[0] + meld_cost[12]
            start = 12
            while start - 1 > 0 and mask >> (start - 1) & 1:
                start -= 1
                run_cost += meld_cost[start]
                bits = (((1 << 13) - 1) & ~((1 << start) - 1)) | 1
                sub_cost, sub_runs, sub_dead = best[mask & ~bits]
                if sub_cost + run_cost < choice[0]:
                    choice = (sub_cost + run_cost, ((start, 12, True), *sub_runs), sub_dead)
        best[mask] = choice
    minus_one: list[tuple[int, int]] = [(INFEASIBLE, -1)] * _FULL
    for mask in range(1, _FULL):
        bits = mask
        while bits:
            bit = bits & -bits
            bits ^= bit
            cost = best[mask ^ bit][0]
            if cost < minus_one[mask][0]:
                minus_one[mask] = (cost, bit.bit_length() - 1)
    return best, minus_one


Split = tuple[int, tuple[tuple[int, ...], ...], tuple[int, int, int, int], int]
"""A hand's best split: its cost, the sets as (rank, suit, ...) tuples, the
suit masks the sets leave (runs and deadwood come from ``best``), and the suit
of the discard (-1: none)."""


MAX_SET_PLANS = 1024
"""Most set choices the bitmask engine enumerates (each costs a few µs); a hand
with more (30 cards holding many ranks three or four times) goes to the
general search, which keeps to the deadline."""


# A set choice for one rank: (rank, suit, ...) -- ``()`` for no set --, the
# masks that keep each suit's other cards, and the number of cards it melds.
SetChoice = tuple[tuple[int, ...], tuple[int, int, int, int], int]


def _set_choices(rank: int, pattern: int) -> list[SetChoice]:
    suits = [s for s in range(4) if pattern >> s & 1]
    choices: list[SetChoice] = [((), (-1, -1, -1, -1), 0)]
    subsets = list(combinations(suits, 3)) + ([tuple(suits)] if len(suits) == 4 else [])
    for subset in subsets:
        keep = tuple(~(1 << rank) if s in subset else -1 for s in range(4))
        choices.append(((rank, *subset), keep, len(subset)))  # type: ignore[arg-type]
    return choices


_SET_CHOICES: list[list[list[SetChoice]]] = [
    [_set_choices(rank, pattern) for pattern in range(16)] for rank in range(13)]


def set_options(masks: Sequence[int]) -> list[list[SetChoice]] | None:
    """Per rank held three or four times: its set choices (none, every
    3-subset, all four); None when their product exceeds ``MAX_SET_PLANS``."""
    spades, hearts, diamonds, clubs = masks
    set_ranks = ((spades & hearts & (diamonds | clubs)) | (diamonds & clubs & (spades | hearts)))
    rank_options: list[list[SetChoice]] = []
    plans = 1
    while set_ranks:
        bit = set_ranks & -set_ranks
        set_ranks ^= bit
        rank = bit.bit_length() - 1
        choices = _SET_CHOICES[rank][(spades >> rank & 1) | (hearts >> rank & 1) << 1
                                     | (diamonds >> rank & 1) << 2 | (clubs >> rank & 1) << 3]
        rank_options.append(choices)
        plans *= len(choices)
        if plans > MAX_SET_PLANS:
            return None
    return rank_options


def best_split(tables: SuitTables, masks: Sequence[int], discard: bool,
               rank_options: list[list[SetChoice]] | None = None) -> Split:
    """The best split of a hand given as per-suit rank masks (cost
    ``INFEASIBLE`` when a discard is asked of an empty hand).  The hand must
    pass ``set_options`` (at most ``MAX_SET_PLANS`` set choices); pass its
    answer as ``rank_options`` when already known."""
    best, meld_cost = tables.best, tables.meld_cost
    if rank_options is None:
        rank_options = set_options(masks)
        if rank_options is None:
            raise ValueError("too many set choices for the bitmask engine")
    # every choice of sets: (sets chosen, what remains of each suit, the sets' cost)
    spades, hearts, diamonds, clubs = masks
    plans: list[tuple[tuple[tuple[int, ...], ...], tuple[int, int, int, int], int]] = [
        ((), (spades, hearts, diamonds, clubs), 0)]
    for options in rank_options:
        grown = []
        for chosen, (s, h, d, c), set_cost in plans:
            grown.append((chosen, (s, h, d, c), set_cost))
            for option, (keep_s, keep_h, keep_d, keep_c), size in options[1:]:
                grown.append(((*chosen, option), (s & keep_s, h & keep_h, d & keep_d, c & keep_c),
                              set_cost + meld_cost[option[0]] * size))
        plans = grown
    found: Split = (INFEASIBLE, (), (spades, hearts, diamonds, clubs), -1)
    for chosen, remaining, set_cost in plans:
        spades, hearts, diamonds, clubs = remaining
        total = set_cost + best[spades][0] + best[hearts][0] + best[diamonds][0] + best[clubs][0]
        discard_suit = -1
        if discard:
            gain, discard_suit = tables.cheapest_discard(spades, hearts, diamonds, clubs)
            total += gain
        if total < found[0]:
            found = (total, chosen, remaining, discard_suit)
    return found


def masks_of(cards: Iterable[int]) -> list[int]:
    """Per-suit rank masks of (joker-free) cards."""
    masks = [0, 0, 0, 0]
    for card in cards:
        masks[card // 13] |= 1 << (card % 13)
    return masks


def solve_bitmask(instance: Instance) -> EngineResult:
    """Exact optimum by set enumeration plus per-suit run tables."""
    split = best_split(suit_tables(instance.deal), masks_of(instance.cards), instance.discard)
    total = split[0]
    name = passes_for(instance.deal)[0].name
    if total >= INFEASIBLE:
        return EngineResult((), instance.cards, None, INFEASIBLE, name, "infeasible", True)
    melds, deadwood, discard = arrangement(instance.deal, split)
    return EngineResult(melds, deadwood, discard, total, name, "optimal", True)


_PLACED: dict[tuple[int, ...], PlacedMeld] = {}


def set_meld(rank: int, suits: tuple[int, ...] | list[int]) -> PlacedMeld:
    """The (shared) placed set of ``rank`` in ``suits``."""
    key = (rank, *suits)
    placed = _PLACED.get(key)
    if placed is None:
        cards = tuple(s * 13 + rank for s in suits)
        placed = PlacedMeld(Candidate("set", cards, 0, cards, (True,) * len(cards), False), ())
        _PLACED[key] = placed
    return placed


def run_meld(suit: int, low: int, top: int, ace_high: bool) -> PlacedMeld:
    """The (shared) placed run of ``suit`` from rank ``low`` to ``top`` (then
    the ace on top when ``ace_high``)."""
    key = (-1 - suit, low, top, ace_high)  # negative first item: never a set key
    placed = _PLACED.get(key)
    if placed is None:
        ranks = [*range(low, top + 1), 0] if ace_high else list(range(low, top + 1))
        cards = tuple(suit * 13 + r for r in ranks)
        placed = PlacedMeld(Candidate("run", tuple(sorted(cards)), 0, cards, (True,) * len(cards),
                                      not ace_high and low == 0), ())
        _PLACED[key] = placed
    return placed


def arrangement(deal: Deal, split: Split,
                ) -> tuple[tuple[PlacedMeld, ...], tuple[int, ...], int | None]:
    """The melds, deadwood (in display order) and discard of a split."""
    tables = suit_tables(deal)
    best, minus_one = tables.best, tables.minus_one
    _, sets, remaining, discard_suit = split
    melds = [set_meld(rank, suits) for rank, *suits in sets]
    discard: int | None = None
    deadwood: list[int] = []
    for suit, mask in enumerate(remaining):
        if suit == discard_suit:
            bit = minus_one[mask][1]
            discard = suit * 13 + bit
            mask &= ~(1 << bit)
        _, runs, dead = best[mask]
        for low, top, ace_high in runs:
            melds.append(run_meld(suit, low, top, ace_high))
        while dead:
            low_bit = dead & -dead
            deadwood.append(suit * 13 + low_bit.bit_length() - 1)
            dead ^= low_bit
    return tuple(melds), tuple(deadwood), discard
