"""The search engine's fast path for one deck without wild cards in the hand.

Gin and basic rummy hands (and 500 hands without a joker) decompose: a set is
a choice among the few ranks held three or four times, and what remains of
each suit is an independent 13-bit mask whose best split into runs comes from
a table built once per cost model (8,192 entries).  So the optimum is a small
enumeration of set choices, each costing four table look-ups; the discard is
one more table per suit (the best mask with one card removed).

Exactness is the same as the general search (the tests compare them); it only
applies when ``applies(instance)`` says so.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations

from solver.cards import JOKER
from solver.engines.base import INFEASIBLE, EngineResult, Instance, PlacedMeld
from solver.melds import Candidate
from solver.objective import Pass, passes_for
from solver.rules import Deal

_FULL = 1 << 13
# A table entry: (cost, runs as (first bit, last bit, ace_high) triples, dead bits mask)
_Split = tuple[int, tuple[tuple[int, int, bool], ...], int]


@lru_cache(maxsize=1024)
def _rules_allow(deal: Deal) -> bool:
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
    )


def applies(instance: Instance) -> bool:
    """Whether the table method is exact for this instance."""
    deal = instance.deal
    if not _rules_allow(deal):
        return False
    wild = deal.wild
    return not any(c in wild or c == JOKER for c in instance.cards)


_Model = tuple[Pass, list[_Split], list[tuple[int, int]], tuple[int, ...]]


@lru_cache(maxsize=256)
def _model(deal: Deal) -> _Model:
    """The pass, the suit tables and per-rank melded costs for this deal."""
    objective = passes_for(deal)[0]
    hand_cost = tuple(objective.hand_cost(r, deal) for r in range(13))
    meld_cost = tuple(objective.meld_cost(r, r, deal, False) for r in range(13))
    low_ace_cost = objective.meld_cost(0, 0, deal, True)
    best, minus_one = _suit_tables(deal.rules.ace, hand_cost, meld_cost, low_ace_cost)
    return objective, best, minus_one, meld_cost


@lru_cache(maxsize=64)
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


def solve_tables(instance: Instance) -> EngineResult:
    """Exact optimum by set enumeration plus per-suit run tables."""
    objective, best, minus_one, meld_cost = _model(instance.deal)
    masks = [0, 0, 0, 0]
    for card in instance.cards:
        masks[card // 13] |= 1 << (card % 13)
    spades, hearts, diamonds, clubs = masks
    set_ranks = ((spades & hearts & (diamonds | clubs)) | (diamonds & clubs & (spades | hearts)))
    if not set_ranks and not instance.discard:
        total = sum(best[m][0] for m in masks)
        return _arrangement(instance, masks, ((), -1), best, minus_one, total, objective.name)
    # set options per rank held 3+ times: none, every 3-subset, all four
    rank_options: list[list[tuple[int, ...]]] = []
    for rank in range(13):
        if not set_ranks >> rank & 1:
            continue
        suits = tuple(s for s in range(4) if masks[s] >> rank & 1)
        if len(suits) >= 3:
            options: list[tuple[int, ...]] = [()]
            options += list(combinations(suits, 3))
            if len(suits) == 4:
                options.append(suits)
            rank_options.append([(rank, *o) if o else () for o in options])

    best_total = INFEASIBLE
    best_plan: tuple[tuple[tuple[int, ...], ...], int] = ((), -1)
    plans: list[tuple[tuple[int, ...], ...]] = [()]
    for options in rank_options:
        plans = [(*p, o) if o else p for p in plans for o in options]
    for plan in plans:
        remaining = list(masks)
        set_cost = 0
        for rank, *set_suits in plan:
            for s in set_suits:
                remaining[s] &= ~(1 << rank)
            set_cost += meld_cost[rank] * len(set_suits)
        total = set_cost + sum(best[m][0] for m in remaining)
        discard_suit = -1
        if instance.discard:
            gains = [(minus_one[m][0] - best[m][0], s) for s, m in enumerate(remaining) if m]
            if not gains:
                continue
            gain, discard_suit = min(gains)
            total += gain
        if total < best_total:
            best_total, best_plan = total, (plan, discard_suit)
    if best_total >= INFEASIBLE:
        return EngineResult((), instance.cards, None, INFEASIBLE, objective.name, "infeasible", True)
    return _arrangement(instance, masks, best_plan, best, minus_one, best_total, objective.name)


_PLACED: dict[tuple[int, ...], PlacedMeld] = {}


def _set_meld(rank: int, suits: tuple[int, ...] | list[int]) -> PlacedMeld:
    key = (rank, *suits)
    placed = _PLACED.get(key)
    if placed is None:
        cards = tuple(s * 13 + rank for s in suits)
        placed = PlacedMeld(Candidate("set", cards, 0, cards, (True,) * len(cards), False), ())
        _PLACED[key] = placed
    return placed


def _run_meld(suit: int, low: int, top: int, ace_high: bool) -> PlacedMeld:
    key = (-1 - suit, low, top, ace_high)  # negative first item: never a set key
    placed = _PLACED.get(key)
    if placed is None:
        ranks = [*range(low, top + 1), 0] if ace_high else list(range(low, top + 1))
        cards = tuple(suit * 13 + r for r in ranks)
        placed = PlacedMeld(Candidate("run", tuple(sorted(cards)), 0, cards, (True,) * len(cards),
                                      not ace_high and low == 0), ())
        _PLACED[key] = placed
    return placed


def _arrangement(
    instance: Instance,
    masks: list[int],
    best_plan: tuple[tuple[tuple[int, ...], ...], int],
    best: list[_Split],
    minus_one: list[tuple[int, int]],
    cost: int,
    pass_name: str,
) -> EngineResult:
    plan, discard_suit = best_plan
    remaining = list(masks)
    melds: list[PlacedMeld] = []
    for rank, *suits in plan:
        for s in suits:
            remaining[s] &= ~(1 << rank)
        melds.append(_set_meld(rank, suits))
    discard: int | None = None
    deadwood: list[int] = []
    for suit, mask in enumerate(remaining):
        if suit == discard_suit:
            bit = minus_one[mask][1]
            discard = suit * 13 + bit
            mask &= ~(1 << bit)
        _, runs, dead = best[mask]
        for low, top, ace_high in runs:
            melds.append(_run_meld(suit, low, top, ace_high))
        while dead:
            low_bit = dead & -dead
            deadwood.append(suit * 13 + low_bit.bit_length() - 1)
            dead ^= low_bit
    return EngineResult(tuple(melds), tuple(deadwood), discard, cost, pass_name, "optimal", True)
