"""Our exact engine: a memoised depth-first search over card types.

The hand is a count vector.  The search always decides the lowest card type
still held: it goes to the deadwood, is the discard, joins the wild *pool*
(wild-rank and neighbour cards may also be used as themselves), or leads a
meld drawn from ``melds_led_by``.  Melds only record how many wild slots they
need (a *debt*); at the end the pool pays the debt with its most valuable
cards (any wild card can fill any slot, so this greedy choice is exact), one
more pays for the discard if still owed, and the rest is deadwood.

The value of a state (remaining counts, debt, pool profile, discard done,
sequence counters) does not depend on how it was reached, so it is memoised:
the search is a dynamic programme over sub-multisets and exact.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from solver.cards import JOKER, NUM_CARD_TYPES, count_vector
from solver.engines.base import (
    INFEASIBLE,
    BudgetExceeded,
    EngineResult,
    Instance,
    PlacedMeld,
)
from solver.melds import Candidate, melds_led_by
from solver.objective import Pass, passes_for

DEFAULT_NODE_BUDGET = 400_000

# A pool entry is (hand cost, melded-as-wild cost); the pool is kept sorted by
# how much melding saves, then by hand cost, most valuable first.
PoolEntry = tuple[int, int]
_OptionRow = tuple[Candidate, tuple[int, ...], int, bool, bool, int, int]


def _pool_key(entry: PoolEntry) -> tuple[int, int]:
    return (entry[1] - entry[0], -entry[0])


class _PassSearch:
    """The dynamic programme for one pass."""

    def __init__(
        self,
        instance: Instance,
        objective: Pass,
        node_budget: int,
        deadline: float | None,
    ) -> None:
        deal = instance.deal
        self.instance = instance
        self.objective = objective
        self.deal = deal
        self.counts = count_vector(instance.cards)
        jokers_wild = JOKER in deal.wild
        self.types = sorted({c for c in instance.cards if not (c == JOKER and jokers_wild)})
        self.dual = {c for c in self.types if c in deal.wild}
        self.dual_left = sum(self.counts[c] for c in self.dual)
        self.total_wilds = self.dual_left + (self.counts[JOKER] if jokers_wild else 0)
        self.hand_cost = [objective.hand_cost(c, deal) for c in range(NUM_CARD_TYPES)]
        self.wild_cost = [objective.meld_cost(c, -1, deal, False) for c in range(NUM_CARD_TYPES)]
        self.weight = [1 << (4 * c) for c in range(NUM_CARD_TYPES)]
        self.max_melds = objective.max_melds if objective.max_melds is not None else 99
        self.need_discard = instance.discard
        # Costs never go below zero without the max_net objective, so a state
        # worth zero is solved: the search stops exploring it (exact pruning).
        self.floor = -INFEASIBLE if objective.net else 0
        self.memo: dict[tuple[object, ...], tuple[int, object]] = {}
        self.option_cache: dict[tuple[object, ...], list[_OptionRow]] = {}
        self.nodes = 0
        self.node_budget = node_budget
        self.deadline = deadline
        initial = (
            tuple(self._entry(JOKER) for _ in range(self.counts[JOKER])) if jokers_wild else ()
        )
        self.initial_pool = tuple(sorted(initial, key=_pool_key))
        self.initial_code = sum(self.counts[c] * self.weight[c] for c in self.types)

    def _entry(self, card: int) -> PoolEntry:
        return (self.hand_cost[card], self.wild_cost[card])

    # -- candidate options, cached by the counts that shape them ------------
    def _options(self, lead: int) -> list[_OptionRow]:
        counts = self.counts
        suit_base = (lead // 13) * 13
        rank = lead % 13
        signature = (
            lead,
            tuple(counts[suit_base: suit_base + 13]),
            tuple(counts[rank + 13 * s] for s in range(4)),
        )
        rows = self.option_cache.get(signature)
        if rows is not None:
            return rows
        counts[lead] += 1  # the generator counts the lead copy
        try:
            candidates = melds_led_by(
                lead, counts, self.deal, self.total_wilds, self.objective.pure_only
            )
        finally:
            counts[lead] -= 1
        rows = []
        for cand in candidates:
            rest = list(cand.naturals)
            rest.remove(lead)
            natural_cost = 0
            for i, rep in enumerate(cand.represents):
                if cand.natural_at[i]:
                    natural_cost += self.objective.meld_cost(
                        rep, rep, self.deal, cand.low_ace and i == 0
                    )
            dual_used = sum(1 for c in rest if c in self.dual)
            rows.append((cand, tuple(rest), cand.wilds, cand.is_sequence, cand.pure,
                         natural_cost, dual_used))
        self.option_cache[signature] = rows
        return rows

    # -- the dynamic programme ---------------------------------------------
    def _end(self, pool: tuple[PoolEntry, ...], debt: int, discarded: bool,
             sequences: int, pure: int) -> int:
        if sequences < self.objective.min_sequences or pure < self.objective.min_pure:
            return INFEASIBLE
        if debt > len(pool):
            return INFEASIBLE
        cost = sum(entry[1] for entry in pool[:debt])
        rest = pool[debt:]
        if self.need_discard and not discarded:
            if not rest:
                return INFEASIBLE
            rest = rest[1:]
        return cost + sum(entry[0] for entry in rest)

    def best(self, index: int, code: int, debt: int, pool: tuple[PoolEntry, ...],
             discarded: bool, sequences: int, pure: int, melds: int) -> int:
        counts, types = self.counts, self.types
        n = len(types)
        while index < n and counts[types[index]] == 0:
            index += 1
        if index == n:
            return self._end(pool, debt, discarded, sequences, pure)
        key = (code, debt, pool, discarded, sequences, pure, melds)
        hit = self.memo.get(key)
        if hit is not None:
            return hit[0]
        self.nodes += 1
        if self.nodes > self.node_budget or (
            self.deadline is not None and self.nodes & 255 == 0
            and time.perf_counter() > self.deadline
        ):
            raise BudgetExceeded
        lead = types[index]
        best_value = INFEASIBLE
        choice: object = None
        counts[lead] -= 1
        code_after = code - self.weight[lead]
        is_dual = lead in self.dual
        if is_dual:
            self.dual_left -= 1
            new_pool = tuple(sorted((*pool, self._entry(lead)), key=_pool_key))
            value = self.best(index, code_after, debt, new_pool, discarded, sequences, pure, melds)
            if value < best_value:
                best_value, choice = value, ("pool",)
        else:
            value = self.hand_cost[lead] + self.best(
                index, code_after, debt, pool, discarded, sequences, pure, melds)
            if value < best_value:
                best_value, choice = value, ("dead",)
            if self.need_discard and not discarded:
                value = self.best(index, code_after, debt, pool, True, sequences, pure, melds)
                if value < best_value:
                    best_value, choice = value, ("discard",)
        if melds < self.max_melds and best_value > self.floor:
            objective = self.objective
            weight = self.weight
            for row in self._options(lead):
                _, rest, wilds, is_sequence, is_pure, natural_cost, dual_used = row
                if wilds and debt + wilds > len(pool) + self.dual_left - dual_used:
                    continue
                code_meld = code_after
                for card in rest:
                    counts[card] -= 1
                    code_meld -= weight[card]
                self.dual_left -= dual_used
                value = natural_cost + self.best(
                    index, code_meld, debt + wilds, pool, discarded,
                    min(sequences + is_sequence, objective.min_sequences),
                    min(pure + is_pure, objective.min_pure),
                    melds + 1,
                )
                self.dual_left += dual_used
                for card in rest:
                    counts[card] += 1
                if value < best_value:
                    best_value, choice = value, ("meld", row)
                    if value <= self.floor:
                        break  # nothing can beat melding every remaining card
        counts[lead] += 1
        if is_dual:
            self.dual_left += 1
        self.memo[key] = (best_value, choice)
        return best_value

    def solve(self) -> int:
        """The optimal pass cost (``INFEASIBLE`` when no arrangement fits)."""
        return self.best(0, self.initial_code, 0, self.initial_pool, False, 0, 0, 0)

    # -- rebuild the arrangement from the memo -----------------------------
    def arrangement(self) -> tuple[tuple[PlacedMeld, ...], tuple[int, ...], int | None]:
        """Melds, deadwood and discard of the optimum found by ``solve``."""
        counts, types = self.counts, self.types
        index, code, debt = 0, self.initial_code, 0
        pool = self.initial_pool
        pool_cards = [JOKER] * len(self.initial_pool)
        discarded, sequences, pure, melds = False, 0, 0, 0
        chosen: list[Candidate] = []
        deadwood: list[int] = []
        discard: int | None = None
        saved = list(counts)
        objective = self.objective
        while True:
            while index < len(types) and counts[types[index]] == 0:
                index += 1
            if index == len(types):
                break
            _, choice = self.memo[(code, debt, pool, discarded, sequences, pure, melds)]
            assert isinstance(choice, tuple)
            lead = types[index]
            counts[lead] -= 1
            code -= self.weight[lead]
            if choice[0] == "pool":
                pool = tuple(sorted((*pool, self._entry(lead)), key=_pool_key))
                pool_cards.append(lead)
            elif choice[0] == "dead":
                deadwood.append(lead)
            elif choice[0] == "discard":
                discard, discarded = lead, True
            else:
                cand, rest, wilds, is_sequence, is_pure, _, _ = choice[1]
                for card in rest:
                    counts[card] -= 1
                    code -= self.weight[card]
                debt += wilds
                sequences = min(sequences + is_sequence, objective.min_sequences)
                pure = min(pure + is_pure, objective.min_pure)
                melds += 1
                chosen.append(cand)
        self.counts[:] = saved
        pool_cards.sort(key=lambda c: (*_pool_key(self._entry(c)), c))
        wild_iter = iter(pool_cards[:debt])
        placed = tuple(
            PlacedMeld(cand, tuple(next(wild_iter) for _ in range(cand.wilds))) for cand in chosen
        )
        leftover = pool_cards[debt:]
        if self.need_discard and not discarded:
            discard = leftover.pop(0)
        deadwood.extend(leftover)
        return placed, tuple(sorted(deadwood)), discard


def solve_search(
    instance: Instance,
    node_budget: int = DEFAULT_NODE_BUDGET,
    time_limit_s: float | None = None,
    on_pass: Callable[[str, int], None] | None = None,
) -> EngineResult:
    """Solve ``instance`` exactly; raises ``BudgetExceeded`` past the budget."""
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    best: EngineResult | None = None
    nodes = 0
    for objective in passes_for(instance.deal):
        search = _PassSearch(instance, objective, node_budget - nodes, deadline)
        cost = search.solve()
        nodes += search.nodes
        if on_pass is not None:
            on_pass(objective.name, cost)
        if cost >= INFEASIBLE or (best is not None and cost >= best.cost):
            continue
        melds, deadwood, discard = search.arrangement()
        best = EngineResult(melds, deadwood, discard, cost, objective.name, "optimal", True)
    if best is None:
        return EngineResult((), tuple(sorted(instance.cards)), None, INFEASIBLE, "none",
                            "infeasible", True, nodes)
    return EngineResult(best.melds, best.deadwood, best.discard, best.cost, best.pass_name,
                        best.status, True, nodes)
