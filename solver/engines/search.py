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
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solver.cards import JOKER, NUM_CARD_TYPES, count_vector
from solver.config import CONFIG
from solver.engines import tables
from solver.engines.base import (
    INFEASIBLE,
    BudgetExceeded,
    EngineResult,
    Instance,
    PlacedMeld,
)
from solver.melds import Candidate, Extension, TableSpot, layoffs_led_by, melds_led_by
from solver.objective import Pass, passes_for, pure_sequences_possible
from solver.rules import Deal

# A pool entry is (hand cost, melded-as-wild cost); the pool is kept sorted by
# how much melding saves, then by hand cost, most valuable first.
PoolEntry = tuple[int, int]
# The pool: a count when every wild card of the hand is alike, else the sorted entries.
Pool = int | tuple[PoolEntry, ...]
# (candidate or layoff, other naturals, wild slots, is sequence, is pure, cost,
#  wild-capable naturals used, their floor, table-meld bit of a layoff or 0)
_OptionRow = tuple[Candidate | Extension, tuple[int, ...], int, bool, bool, int, int, int, int]


def _pool_key(entry: PoolEntry) -> tuple[int, int]:
    return (entry[1] - entry[0], -entry[0])


# Candidate rows depend only on the deal, the pass, the wild cap and the wild
# profile, never on the rest of the hand, so searches of the same deal (the
# leaves of a layoff search, hints, repeated requests) share them.
_OptionCache = dict[tuple[object, ...], list[_OptionRow]]
_SHARED_ROWS: dict[tuple[object, ...], tuple[Deal, _OptionCache]] = {}
# Bounds on what the shared caches hold (a few tens of MB at most); past them
# everything is dropped and rebuilt on demand.
_SHARED_CACHES_LIMIT = 256
_SHARED_ENTRIES_LIMIT = 20_000
_shared_entries = [0]


def _shared_option_cache(
    deal: Deal, objective: Pass, wild_cap: int, uniform_entry: PoolEntry | None
) -> _OptionCache:
    key = (id(deal), objective, wild_cap, uniform_entry)
    hit = _SHARED_ROWS.get(key)
    if hit is not None and hit[0] is deal:
        return hit[1]
    if len(_SHARED_ROWS) >= _SHARED_CACHES_LIMIT:
        _SHARED_ROWS.clear()
    cache: _OptionCache = {}
    _SHARED_ROWS[key] = (deal, cache)
    return cache


class _PassSearch:
    """The dynamic programme for one pass (branch and bound over a memo).

    ``best(state, bound)`` returns the exact optimal future cost when it is
    below ``bound``; otherwise a lower bound that is at least ``bound``.  The
    memo keeps exact values and lower bounds apart, like a transposition
    table.
    """

    def __init__(
        self,
        instance: Instance,
        objective: Pass,
        node_budget: int,
        deadline: float | None,
        table: Sequence[TableSpot] = (),
    ) -> None:
        deal = instance.deal
        # Table melds the hand may lay cards off onto; the memo key's meld
        # slot then carries the bit mask of the table melds already extended.
        self.table = tuple(table)
        self.absorb_rooms = [spot.absorb_room(deal.rules.ace) for spot in self.table]
        self.absorb_memo: dict[int, int] = {}
        self.instance = instance
        self.objective = objective
        self.deal = deal
        self.counts = count_vector(instance.cards)
        jokers_wild = JOKER in deal.wild
        self.types = sorted({c for c in instance.cards if not (c == JOKER and jokers_wild)})
        self.dual = {c for c in self.types if c in deal.wild}
        self.dual_left = sum(self.counts[c] for c in self.dual)
        self.jokers = self.counts[JOKER] if jokers_wild else 0
        self.total_wilds = self.dual_left + self.jokers
        self.hand_cost = [objective.hand_cost(c, deal) for c in range(NUM_CARD_TYPES)]
        self.wild_cost = [objective.meld_cost(c, -1, deal, False) for c in range(NUM_CARD_TYPES)]
        self.weight = [1 << (4 * c) for c in range(NUM_CARD_TYPES)]
        self.max_melds = objective.max_melds if objective.max_melds is not None else 1 << 62
        # Only count melds when the pass limits them: the count is part of the memo key.
        self.meld_step = 0 if objective.max_melds is None else 1
        self.need_discard = instance.discard
        # With every wild card of the hand alike (the usual case) the pool is
        # just a count and a wild's cost is paid when a meld takes it, so the
        # state only needs the surplus (pool minus debt).
        profiles = {self._entry(c) for c in self.dual} | ({self._entry(JOKER)} if self.jokers else set())
        self.uniform = len(profiles) <= 1
        self.uniform_entry: PoolEntry = next(iter(profiles)) if profiles else (0, 0)
        # Lower bounds: a card can never cost less than its cheapest fate.
        self.card_floor = [self._card_floor(c) for c in range(NUM_CARD_TYPES)]
        self.memo: dict[tuple[object, ...], tuple[int, bool, object]] = {}
        self.option_cache = (
            {} if self.table else _shared_option_cache(
                deal, objective, self.total_wilds, self.uniform_entry if self.uniform else None))
        self.nodes = 0
        self.node_budget = node_budget
        self.deadline = deadline
        self.initial_code = sum(self.counts[c] * self.weight[c] for c in self.types)
        self.initial_floor = sum(self.counts[c] * self.card_floor[c] for c in self.types)
        if self.uniform:
            self.initial_pool: Pool = self.jokers
            self.initial_floor += self.jokers * min(0, self.uniform_entry[1])
        else:
            entries = tuple(self._entry(JOKER) for _ in range(self.jokers))
            self.initial_pool = tuple(sorted(entries, key=_pool_key))
            self.initial_floor += sum(min(0, e[1]) for e in entries)

    def _entry(self, card: int) -> PoolEntry:
        return (self.hand_cost[card], self.wild_cost[card])

    def _card_floor(self, card: int) -> int:
        if not self.objective.net:
            return 0
        fates = [0, self.objective.meld_cost(card, card, self.deal, False),
                 self.objective.meld_cost(card, card, self.deal, True)]
        if card in self.deal.wild:
            fates.append(self.wild_cost[card])
        return min(fates)

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
        counts[lead] += 1  # the generators count the lead copy
        candidates = melds_led_by(
            lead, counts, self.deal, self.total_wilds, self.objective.pure_only
        )
        layoffs = layoffs_led_by(lead, counts, self.deal, self.table, self.total_wilds) \
            if self.table else []
        counts[lead] -= 1
        rows = []
        options: list[Candidate | Extension] = [*candidates, *layoffs]
        for cand in options:
            rest = list(cand.naturals)
            rest.remove(lead)
            natural_cost = 0
            for i, rep in enumerate(cand.represents):
                if cand.natural_at[i]:
                    natural_cost += self.objective.meld_cost(
                        rep, rep, self.deal, cand.low_ace and i == 0
                    )
            if self.uniform:
                natural_cost += cand.wilds * self.uniform_entry[1]
            dual_used = sum(1 for c in rest if c in self.dual)
            floor_used = sum(self.card_floor[c] for c in rest)
            slot = 1 << cand.table_index if isinstance(cand, Extension) else 0
            rows.append((cand, tuple(rest), cand.wilds, cand.is_sequence, cand.pure,
                         natural_cost, dual_used, floor_used, slot))
        # Bigger melds first: good incumbents early make the bounds bite.
        rows.sort(key=lambda row: (-len(row[0].naturals), row[2]))
        _shared_entries[0] += 1
        if _shared_entries[0] > _SHARED_ENTRIES_LIMIT:
            _SHARED_ROWS.clear()
            _shared_entries[0] = 0
        self.option_cache[signature] = rows
        return rows

    # -- the end of the search: the pool pays the debt ----------------------
    def _absorb_room(self, used: int) -> int:
        """Wild cards the table melds not yet extended can still take."""
        room = self.absorb_memo.get(used)
        if room is None:
            room = sum(r for spot, r in zip(self.table, self.absorb_rooms, strict=True)
                       if not used >> spot.index & 1)
            self.absorb_memo[used] = room
        return room

    def _end(self, pool: Pool, debt: int, discarded: bool, sequences: int, pure: int,
             used: int) -> int:
        """The pool pays the melds' wild slots; leftover wild cards are laid
        off onto table melds not yet extended (if any), one is the discard if
        still owed, the rest stay in hand."""
        if sequences < self.objective.min_sequences or pure < self.objective.min_pure:
            return INFEASIBLE
        owed = 1 if self.need_discard and not discarded else 0
        if isinstance(pool, int):
            leftover = pool - debt - owed  # wild costs were paid at meld time
            if leftover < 0:
                return INFEASIBLE
            hand_cost, wild_cost = self.uniform_entry
            absorbed = min(leftover, self._absorb_room(used)) if self.table else 0
            return absorbed * wild_cost + (leftover - absorbed) * hand_cost
        assert isinstance(pool, tuple)
        if debt + owed > len(pool):
            return INFEASIBLE
        absorbed = min(len(pool) - debt - owed, self._absorb_room(used)) if self.table else 0
        cost = sum(entry[1] for entry in pool[:debt + absorbed])
        return cost + sum(entry[0] for entry in pool[debt + absorbed + owed:])

    def _add_to_pool(self, pool: Pool, card: int) -> Pool:
        if isinstance(pool, int):
            return pool + 1
        assert isinstance(pool, tuple)
        return tuple(sorted((*pool, self._entry(card)), key=_pool_key))

    def _pool_floor(self, pool: Pool, debt: int) -> int:
        if isinstance(pool, int):
            return max(0, pool - debt) * min(0, self.uniform_entry[1])
        assert isinstance(pool, tuple)
        return sum(min(0, entry[1]) for entry in pool)

    def _budget_check(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_budget or (
            self.deadline is not None and self.nodes & 255 == 0
            and time.perf_counter() > self.deadline
        ):
            raise BudgetExceeded

    # -- the dynamic programme ---------------------------------------------
    def best(self, index: int, code: int, floor: int, debt: int, pool: Pool,
             discarded: bool, sequences: int, pure: int, melds: int, bound: int) -> int:
        """Optimal future cost of the state if below ``bound``, else a lower
        bound >= ``bound``.  ``floor`` is a lower bound on the future cost."""
        counts, types = self.counts, self.types
        n = len(types)
        while index < n and counts[types[index]] == 0:
            index += 1
        if index == n:
            return self._end(pool, debt, discarded, sequences, pure, melds)
        if isinstance(pool, int):
            key: tuple[object, ...] = (code, pool - debt, discarded, sequences, pure, melds)
            if pool - debt + self.dual_left < 0:
                return INFEASIBLE
        else:
            key = (code, debt, pool, discarded, sequences, pure, melds)
        hit = self.memo.get(key)
        if hit is not None and (hit[1] or hit[0] >= bound):
            return hit[0]
        if floor >= bound:
            return floor
        self._budget_check()
        lead = types[index]
        best_value = INFEASIBLE  # best exact value found below the bound
        lower = INFEASIBLE  # lower bound over the options explored or cut
        choice: object = None
        counts[lead] -= 1
        code_after = code - self.weight[lead]
        floor_after = floor - self.card_floor[lead]
        is_dual = lead in self.dual
        if is_dual:
            self.dual_left -= 1

        if melds < self.max_melds:
            objective = self.objective
            weight = self.weight
            need_sequences, need_pure = objective.min_sequences, objective.min_pure
            available = (pool if isinstance(pool, int) else len(pool)) + self.dual_left
            for row in self._options(lead):
                _, rest, wilds, is_sequence, is_pure, cost, dual_used, floor_used, slot = row
                if slot & melds:
                    continue  # that table meld was extended already
                if wilds and debt + wilds > available - dual_used:
                    continue  # the pool plus the wild cards still to come cannot pay
                child_floor = floor_after - floor_used
                limit = (bound if bound < best_value else best_value) - cost
                if child_floor >= limit:
                    if cost + child_floor < lower:
                        lower = cost + child_floor
                    continue
                code_meld = code_after
                for card in rest:
                    counts[card] -= 1
                    code_meld -= weight[card]
                self.dual_left -= dual_used
                value = self.best(
                    index, code_meld, child_floor, debt + wilds, pool, discarded,
                    need_sequences if sequences + is_sequence > need_sequences
                    else sequences + is_sequence,
                    need_pure if pure + is_pure > need_pure else pure + is_pure,
                    melds + (slot or self.meld_step), limit,
                )
                self.dual_left += dual_used
                for card in rest:
                    counts[card] += 1
                if value < limit:
                    best_value, choice = cost + value, ("meld", row)
                    if best_value <= floor:
                        break  # nothing beats the floor
                if cost + value < lower:
                    lower = cost + value
        if best_value > floor:
            if is_dual:
                new_pool = self._add_to_pool(pool, lead)
                moves: list[tuple[int, int, Pool, bool, tuple[str]]] = [
                    (0, floor_after + self._pool_floor(new_pool, debt)
                     - self._pool_floor(pool, debt), new_pool, discarded, ("pool",))]
            else:
                moves = [(self.hand_cost[lead], floor_after, pool, discarded, ("dead",))]
                if self.need_discard and not discarded:
                    moves.append((0, floor_after, pool, True, ("discard",)))
            for cost, child_floor, child_pool, child_discarded, label in moves:
                limit = (bound if bound < best_value else best_value) - cost
                if child_floor >= limit:
                    lower = min(lower, cost + child_floor)
                    continue
                value = self.best(index, code_after, child_floor, debt, child_pool,
                                  child_discarded, sequences, pure, melds, limit)
                if value < limit:
                    best_value, choice = cost + value, label
                lower = min(lower, cost + value)
        counts[lead] += 1
        if is_dual:
            self.dual_left += 1
        if best_value < bound:
            self.memo[key] = (best_value, True, choice)
            return best_value
        result = max(lower, bound)
        self.memo[key] = (result, False, None)
        return result

    def solve(self, bound: int = INFEASIBLE) -> int:
        """The optimal pass cost if below ``bound`` (else a value >= ``bound``;
        ``INFEASIBLE`` when no arrangement fits)."""
        return self.best(0, self.initial_code, self.initial_floor, 0, self.initial_pool,
                         False, 0, 0, 0, bound)

    # -- rebuild the arrangement from the memo -----------------------------
    def arrangement(self) -> tuple[tuple[PlacedMeld, ...], tuple[int, ...], int | None]:
        """Melds, deadwood and discard of the optimum found by ``solve``."""
        placed, laid, absorbed, deadwood, discard = self.arrangement_with_layoffs()
        assert not laid and not absorbed
        return placed, deadwood, discard

    def arrangement_with_layoffs(self) -> tuple[
        tuple[PlacedMeld, ...],
        tuple[tuple[Extension, tuple[int, ...]], ...],
        tuple[tuple[int, int], ...],
        tuple[int, ...],
        int | None,
    ]:
        """The optimum found by ``solve``: new melds, layoffs (each with the wild
        cards filling its wild slots), wild cards laid off alone as
        (table index, card), deadwood and discard."""
        counts, types = self.counts, self.types
        index, code, debt = 0, self.initial_code, 0
        pool = self.initial_pool
        pool_cards = [JOKER] * self.jokers
        discarded, sequences, pure, melds = False, 0, 0, 0
        chosen: list[Candidate | Extension] = []
        deadwood: list[int] = []
        discard: int | None = None
        saved = list(counts)
        objective = self.objective
        while True:
            while index < len(types) and counts[types[index]] == 0:
                index += 1
            if index == len(types):
                break
            if isinstance(pool, int):
                key: tuple[object, ...] = (code, pool - debt, discarded, sequences, pure, melds)
            else:
                key = (code, debt, pool, discarded, sequences, pure, melds)
            _, exact, choice = self.memo[key]
            assert exact and isinstance(choice, tuple)
            lead = types[index]
            counts[lead] -= 1
            code -= self.weight[lead]
            if choice[0] == "pool":
                pool = self._add_to_pool(pool, lead)
                pool_cards.append(lead)
            elif choice[0] == "dead":
                deadwood.append(lead)
            elif choice[0] == "discard":
                discard, discarded = lead, True
            else:
                cand, rest, wilds, is_sequence, is_pure = choice[1][:5]
                for card in rest:
                    counts[card] -= 1
                    code -= self.weight[card]
                debt += wilds
                sequences = min(sequences + is_sequence, objective.min_sequences)
                pure = min(pure + is_pure, objective.min_pure)
                melds += choice[1][8] or self.meld_step
                chosen.append(cand)
        self.counts[:] = saved
        pool_cards.sort(key=lambda c: (*_pool_key(self._entry(c)), c))
        wild_iter = iter(pool_cards[:debt])
        filled = [(cand, tuple(next(wild_iter) for _ in range(cand.wilds))) for cand in chosen]
        placed = tuple(PlacedMeld(c, w) for c, w in filled if isinstance(c, Candidate))
        laid = tuple((c, w) for c, w in filled if isinstance(c, Extension))
        leftover = pool_cards[debt:]
        owed = 1 if self.need_discard and not discarded else 0
        absorbed: list[tuple[int, int]] = []
        if self.table:
            room = min(len(leftover) - owed, self._absorb_room(melds))
            spots = iter((spot.index, r) for spot, r in zip(self.table, self.absorb_rooms, strict=True)
                         if not melds >> spot.index & 1 for _ in range(r))
            absorbed = [(next(spots)[0], card) for card in leftover[:room]]
            leftover = leftover[room:]
        if owed:
            discard = leftover.pop(0)
        deadwood.extend(leftover)
        return placed, laid, tuple(absorbed), tuple(sorted(deadwood)), discard


def solve_search(
    instance: Instance,
    node_budget: int = CONFIG.node_budget,
    time_limit_s: float | None = None,
    on_pass: Callable[[str, int], None] | None = None,
    use_tables: bool = True,
) -> EngineResult:
    """Solve ``instance`` exactly; raises ``BudgetExceeded`` past the budget.

    One-deck hands without wild cards take the table fast path
    (``solver.engines.tables``) unless ``use_tables`` is false.
    """
    if use_tables and tables.applies(instance):
        return tables.solve_tables(instance)
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    best: EngineResult | None = None
    nodes = 0
    # The later passes (pure sequences only) are cheap: solving them first
    # gives the earlier, harder passes a bound.  An earlier pass wins ties, so
    # it only has to come in at or below the best cost so far.
    for objective in reversed(passes_for(instance.deal)):
        bound = INFEASIBLE if best is None else best.cost + 1
        precheck = pure_sequences_possible(objective)
        if precheck is not None:
            feasibility = _PassSearch(instance, precheck, node_budget - nodes, deadline)
            possible = feasibility.solve() < INFEASIBLE
            nodes += feasibility.nodes
            if not possible:
                if on_pass is not None:
                    on_pass(objective.name, INFEASIBLE)
                continue
        search = _PassSearch(instance, objective, node_budget - nodes, deadline)
        cost = search.solve(bound)
        nodes += search.nodes
        if on_pass is not None:
            on_pass(objective.name, cost)
        if cost >= bound:
            continue
        melds, deadwood, discard = search.arrangement()
        best = EngineResult(melds, deadwood, discard, cost, objective.name, "optimal", True)
    if best is None:
        return EngineResult((), tuple(sorted(instance.cards)), None, INFEASIBLE, "none",
                            "infeasible", True, nodes)
    return EngineResult(best.melds, best.deadwood, best.discard, best.cost, best.pass_name,
                        best.status, True, nodes)


@dataclass(frozen=True, slots=True)
class LayoffArrangement:
    """The optimum of a hand that may also lay cards off onto table melds:
    new melds, layoffs (each with the wild cards filling its wild slots), wild
    cards laid off alone as (table index, card), deadwood, discard, cost."""

    melds: tuple[PlacedMeld, ...]
    layoffs: tuple[tuple[Extension, tuple[int, ...]], ...]
    lone_wilds: tuple[tuple[int, int], ...]
    deadwood: tuple[int, ...]
    discard: int | None
    cost: int


def solve_with_table(
    instance: Instance,
    table: Sequence[TableSpot],
    node_budget: int = CONFIG.node_budget,
    time_limit_s: float | None = None,
) -> LayoffArrangement:
    """Exact best melds plus layoffs onto ``table`` (single-pass objectives:
    ``min_deadwood`` and ``max_net``); raises ``BudgetExceeded`` past the budget."""
    (objective,) = passes_for(instance.deal)
    deadline = None if time_limit_s is None else time.perf_counter() + time_limit_s
    search = _PassSearch(instance, objective, node_budget, deadline, table)
    cost = search.solve()
    if cost >= INFEASIBLE:
        raise ValueError("no arrangement: a discard was asked of an empty hand")
    melds, laid, lone, deadwood, discard = search.arrangement_with_layoffs()
    return LayoffArrangement(melds, laid, lone, deadwood, discard, cost)
