"""Our exact engine: a memoised depth-first search over card types.

The hand is a count vector packed into one integer (5 bits per card type,
``solver.engines.packed``).  The search always decides the lowest card type
still held: it goes to the deadwood, is the discard, joins the wild *pool*
(wild-rank and neighbour cards may also be used as themselves), or leads a
meld drawn from its option rows (``solver.engines.rows``: melds led by it, or
a layoff onto a table meld).  Melds only record how many wild slots they need
(a *debt*); at the end the pool pays the debt with its most valuable cards
(any wild card can fill any slot, so this greedy choice is exact -- save a
slot that bars its own card, ``Row.barred``, which ``costs.settle`` keeps it
out of), one more pays for the discard if still owed, and the rest is
deadwood.

The value of a state (remaining counts, debt, pool, discard owed, the
counters of the pass's limits, the meld points towards a threshold, the table
melds already extended) does not depend on how it was reached, so it is
memoised: the search is a dynamic programme over sub-multisets and exact.  A
``PassSearch`` searches one pass (``solver.objective``) priced by its
``PassCosts`` (``solver.engines.costs``) and keeps its memo across *roots*,
so the hints ask it about many related hands (every draw, every discard) and
share the work; ``solver.engines.passes`` runs the passes of a variant.

The search is *anytime*: it records the best complete arrangement it has
seen (its incumbent), so a search stopped by its deadline or work budget
still answers with a valid arrangement (``optimal=False``).  The arrangement
itself is rebuilt from the memo afterwards (``solver.engines.arrangement``).

Three things keep it fast.  When no meld's cost depends on what its wild
slots stand for, the options of a lead card are read as *effects* from
shared per-pattern tables (``solver.engines.through``), the meld itself
found only when an arrangement is built.  A state still short of the pure
sequences its pass requires, whose cards cannot form them, is cut
(``solver.engines.bounds``).  And a pass in which a spare wild card costs
nothing (an *untied* pass, ``solver.objective.untied``) keeps, per set of
naturals, only the meld with the fewest wild slots.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import JOKER
from solver.config import CONFIG
from solver.deadline import Deadline
from solver.engines.arrangement import Arrangement, Choice, rebuild
from solver.engines.base import INFEASIBLE, BudgetExceeded
from solver.engines.caches import RowCache, shared_rows
from solver.engines.costs import Pool, pass_costs, pool_key, settle
from solver.engines.packed import BITS, LEAD_SHIFT, SIGNATURE, WEIGHT
from solver.engines.rows import OptionRows, Row
from solver.melds import TableSpot
from solver.objective import Pass
from solver.rules import Deal

_HALF = INFEASIBLE // 2  # any value above it means "no arrangement"


@dataclass(frozen=True, slots=True)
class Root:
    """Where a search starts: a hand, and whether one card must be discarded."""

    code: int
    jokers: int
    owed: bool
    dual: int
    floor: int


class PassSearch(OptionRows):
    """The dynamic programme of one pass (branch and bound over a memo).

    ``best(...)`` returns the exact optimal future cost of a state when it is
    below ``bound``; otherwise a lower bound that is at least ``bound``.  The
    memo keeps exact values and lower bounds apart, like a transposition
    table, and is shared by every root asked about (``solve``).
    """

    def __init__(
        self,
        deal: Deal,
        objective: Pass,
        wild_cap: int,
        *,
        table: Sequence[TableSpot] = (),
        melds_allowed: bool = True,
        node_budget: int = CONFIG.node_budget,
        deadline: Deadline | None = None,
    ) -> None:
        costs = pass_costs(deal, objective)
        self.deal = deal
        self.objective = objective
        self.costs = costs
        self.wild_cap = wild_cap
        self.table = tuple(table)
        self.melds_allowed = melds_allowed
        self.deadline = deadline
        # What the search reads in every state, bound here once.
        self.step, self.accept, self.pure_short = costs.step, costs.accept, costs.pure_short
        self.pure_reach = costs.pure_reach
        self.min_points, self.meld_all = costs.min_points, costs.meld_all
        self.points_cap, self.below, self.unless_points = (
            costs.points_cap, costs.below, costs.unless_points)
        self.hand_cost, self.card_floor = costs.hand_cost, costs.card_floor
        self.dual_types, self.wild_floor = costs.dual_types, costs.wild_floor
        self.uniform_entry = costs.uniform_entry
        # Table melds take layoffs and leftover wild cards (so every wild
        # card may still count): the spare-wild row rules are off.
        self.spare_wilds_free = costs.spare_wilds_free and not table
        self.absorb_spare = costs.absorb_spare and not table
        self.absorb_rooms = [spot.absorb_room(deal.rules) for spot in self.table]
        self.absorb_memo: dict[int, int] = {}
        # A wild card laid off alone scores the card it stands for there when
        # a wild slot is worth that card (a set of kings 10, of threes 3):
        # the cost of laying k alone onto each table meld, at its best ends.
        self.lone_costs: list[list[int]] | None = None
        if costs.stand_in is not None and self.table and objective.net:
            self.lone_costs = [
                [sum(objective.meld_cost(costs.stand_in, card, deal, low_ace)
                     for card, low_ace in spot.lone_wild_meanings(deal, k))
                 for k in range(room + 1)]
                for spot, room in zip(self.table, self.absorb_rooms, strict=True)]
        self.lone_memo: dict[int, list[tuple[int, tuple[int, ...]]]] = {}
        rules = deal.rules
        self.run_cap = 0 if objective.pure_only else (
            wild_cap if rules.max_wilds_per_meld is None else min(wild_cap,
                                                                 rules.max_wilds_per_meld))
        self.truncate = rules.ace in ("low", "high_low", "high") and not table
        # Rows depend on the pass only through its costs, pure_only, which
        # rows the spare-wild rules drop and whether fewer points can be
        # better (a lower tier with ``unless_points``).
        self.rows: RowCache[Row] = RowCache() if self.table else shared_rows(
            (deal, objective.net, objective.zero_cost, objective.pure_only, costs.priced,
             wild_cap, costs.uniform, melds_allowed,
             self.spare_wilds_free and (True, costs.pure_beats_impure), self.absorb_spare,
             costs.unless_points > 0))
        self.memo: dict[tuple[object, ...], tuple[int, bool, object]] = {}
        self.roots: dict[tuple[tuple[int, ...], bool], Root] = {}
        self.discards: dict[tuple[object, ...], int | None] = {}  # the draws' (solver.engines.draws)
        self.nodes = 0
        self.node_budget = node_budget
        self.dual_left = 0
        self.path: list[Choice] = []
        self.incumbent_cost = INFEASIBLE
        self.incumbent: tuple[Choice, ...] | None = None

    # -- roots ----------------------------------------------------------------
    def root(self, cards: Sequence[int], discard: bool) -> Root:
        """The start state of ``cards`` (``discard``: one card must go); the
        last few asked are kept (a hint asks about one hand many times)."""
        key = (tuple(cards), discard)
        known = self.roots.get(key)
        if known is not None:
            return known
        code = jokers = dual = floor = 0
        jokers_wild = self.costs.jokers_wild
        for card in cards:
            if card == JOKER and jokers_wild:
                jokers += 1
                floor += self.wild_floor
                continue
            code += WEIGHT[card]
            floor += self.card_floor[card]
            dual += card in self.dual_types
        root = Root(code, jokers, discard, dual, floor)
        if len(self.roots) >= 4:
            self.roots.clear()
        self.roots[key] = root
        return root

    def initial_pool(self, root: Root) -> Pool:
        """The wild pool ``root`` starts with (its printed jokers)."""
        if self.costs.uniform:
            return root.jokers
        return tuple(self.costs.entry(JOKER) for _ in range(root.jokers))

    def solve(self, root: Root, bound: int = INFEASIBLE) -> int:
        """The optimal cost of ``root`` if below ``bound`` (else a value >= ``bound``;
        ``INFEASIBLE`` when no arrangement fits).  Raises ``BudgetExceeded``
        past the node budget or the deadline (see ``incumbent``); the states
        visited are charged to the deadline's work budget."""
        self.path = []
        self.incumbent_cost = INFEASIBLE
        self.incumbent = None
        self.dual_left = root.dual
        before = self.nodes
        if self.deadline is not None:
            self.node_budget = before + self.deadline.nodes(self.node_budget - before)
        try:
            return self.best(root.code, root.floor, self.initial_pool(root), 0, root.owed, 0, 0,
                             0, 0, 0, bound, ())
        finally:
            if self.deadline is not None:
                self.deadline.work.spend(self.nodes - before)

    # -- the end of the search: the pool pays the debt --------------------------
    def absorb_room(self, used: int) -> int:
        """Wild cards the table melds not yet extended can still take."""
        room = self.absorb_memo.get(used)
        if room is None:
            room = sum(r for spot, r in zip(self.table, self.absorb_rooms, strict=True)
                       if not used >> spot.index & 1)
            self.absorb_memo[used] = room
        return room

    def lone_plan(self, used: int, count: int) -> tuple[int, tuple[int, ...]]:
        """The least cost of laying ``count`` (at most ``absorb_room(used)``)
        wild cards off alone onto the table melds not in ``used``, and how
        many each of them takes (0 without ``lone_costs``: every placing
        alike, the table melds in order)."""
        plans = self.lone_memo.get(used)
        if plans is None:
            plans = [(0, ())]
            for place, (spot, room) in enumerate(zip(self.table, self.absorb_rooms, strict=True)):
                free = 0 if used >> spot.index & 1 else room
                prices = self.lone_costs[place] if self.lone_costs else [0] * (room + 1)
                # plans[n]: n wild cards laid off on the melds so far
                plans = [min(((plans[n - k][0] + prices[k], (*plans[n - k][1], k))
                              for k in range(max(0, n - len(plans) + 1), min(n, free) + 1)),
                             key=lambda plan: plan[0])
                         for n in range(len(plans) + free)]
            self.lone_memo[used] = plans
        return plans[count]

    def end_cost(self, pool: Pool, debt: int, owed: bool, cstate: int, points: int, used: int,
                 room: int = 0, barred: tuple[int, ...] = ()) -> int:
        """The pool pays the melds' wild slots; leftover wild cards are laid
        off onto table melds not yet extended (if any) or fill the ``room``
        of the melds made, one is the discard if still owed, the rest stay in
        hand.  Unlike wild cards settle by ``costs.settle``: which card goes
        where is part of the optimum, and no card fills a slot that bars it
        (``barred``)."""
        if not self.accept[cstate] or (self.below[cstate] and points >= self.unless_points):
            return INFEASIBLE
        if isinstance(pool, int):
            leftover = pool - debt - owed  # wild costs were paid at meld time
            if leftover < 0 or points < self.min_points:
                return INFEASIBLE
            hand_cost, wild_cost, _, _ = self.uniform_entry
            absorbed = min(leftover, self.absorb_room(used) if self.table else room)
            if self.meld_all and leftover > absorbed:
                return INFEASIBLE
            lone = self.lone_plan(used, absorbed)[0] if self.lone_costs else 0
            return absorbed * wild_cost + (leftover - absorbed) * hand_cost + lone
        if debt + owed > len(pool):
            return INFEASIBLE
        leftover = len(pool) - debt - owed
        absorbed = min(leftover, self.absorb_room(used)) if self.table else 0
        if self.meld_all and leftover > absorbed:
            return INFEASIBLE
        settled = settle(pool, debt, absorbed, owed, self.min_points - points, barred)
        if settled is None:
            return INFEASIBLE
        return settled[0] + (self.lone_plan(used, absorbed)[0] if self.lone_costs else 0)

    def add_to_pool(self, pool: Pool, card: int) -> Pool:
        """``pool`` with wild card ``card`` added."""
        if isinstance(pool, int):
            return pool + 1
        return tuple(sorted((*pool, self.costs.entry(card)), key=pool_key))

    def pool_floor(self, pool: Pool, debt: int) -> int:
        """A lower bound on what the pool's cards left after ``debt`` cost."""
        if isinstance(pool, int):
            return max(0, pool - debt) * self.wild_floor
        return len(pool) * self.wild_floor

    def _improve(self, total: int) -> None:
        if total < self.incumbent_cost:
            self.incumbent_cost = total
            self.incumbent = tuple(self.path)

    # -- the dynamic programme ---------------------------------------------------
    def best(self, code: int, floor: int, pool: Pool, debt: int, owed: bool, cstate: int,
             points: int, used: int, room: int, g: int, bound: int,
             barred: tuple[int, ...]) -> int:
        """Optimal future cost of the state if below ``bound``, else a lower
        bound >= ``bound``.  ``floor`` is a lower bound on the future cost;
        ``room`` the wild slots the melds made could still take (only under
        ``absorb_spare``); ``g`` the cost of the path so far (for the
        incumbent); ``barred`` the cards the melds' wild slots bar, sorted
        (``Row.barred``; only with a pool of unlike wild cards)."""
        if code == 0:
            value = self.end_cost(pool, debt, owed, cstate, points, used, room, barred)
            if value < INFEASIBLE:
                self._improve(g + value)
            return value
        if isinstance(pool, int):
            spare = pool - debt + self.dual_left
            if spare < 0:
                return INFEASIBLE
            if room > spare:
                room = spare  # no more wild cards can be left over than that
            key: tuple[object, ...] = (code, pool - debt, owed, cstate, points, used, room)
        else:
            key = (code, debt, pool, owed, cstate, points, used, barred)
        hit = self.memo.get(key)
        if hit is not None:
            if hit[1]:
                if hit[0] < INFEASIBLE:
                    self._improve(g + hit[0])
                return hit[0]
            if hit[0] >= bound:
                return hit[0]
        if floor >= bound:
            return floor
        short = self.pure_short[cstate]
        if short and self.pure_reach.pure_sequences_at_most(code, short) < short:
            self.memo[key] = (INFEASIBLE, False, None)
            return INFEASIBLE
        self.nodes += 1
        if self.nodes > self.node_budget or (
                self.nodes & 15 == 0 and self.deadline is not None and self.deadline.expired()):
            raise BudgetExceeded
        lead = ((code & -code).bit_length() - 1) // BITS
        best_value = INFEASIBLE  # best exact value found below the bound
        lower = INFEASIBLE  # lower bound over the options explored or cut
        choice: object = None
        code_after = code - WEIGHT[lead]
        floor_after = floor - self.card_floor[lead]
        is_dual = lead in self.dual_types
        if is_dual:
            self.dual_left -= 1
        path = self.path
        step = self.step[cstate]
        points_cap = self.points_cap
        available = (pool if isinstance(pool, int) else len(pool)) + self.dual_left
        rows = self.rows.get((code_after & SIGNATURE[lead]) | (lead << LEAD_SHIFT))
        if rows is None:
            rows = self.options(lead, code_after)
        self.nodes += len(rows)  # work is states plus the options they weigh
        memo = self.memo
        surplus = pool - debt if isinstance(pool, int) else None
        for row in rows:
            if row.slot & used:
                continue  # that table meld was extended already
            wilds = row.wilds
            if wilds and debt + wilds > available - row.dual_used:
                continue  # the pool plus the wild cards still to come cannot pay
            child_state = step[row.cls] if row.cls >= 0 else cstate
            if child_state < 0:
                continue  # would break an exact or at-most limit
            cost = row.cost
            child_floor = floor_after - row.floor_used
            limit = (bound if bound < best_value else best_value) - cost
            if limit > INFEASIBLE:
                limit = INFEASIBLE  # negative costs (max_net) must not make "infeasible" look exact
            if child_floor >= limit:
                if cost + child_floor < lower:
                    lower = cost + child_floor
                continue
            child_points = points + row.points
            if child_points > points_cap:
                child_points = points_cap
            child_code = code_after - row.delta
            child_room = room + row.room
            hit = None
            if surplus is not None and child_code:
                # The child's memo entry, read here: most children are known.
                spare = surplus - wilds + self.dual_left - row.dual_used
                if child_room > spare:
                    child_room = spare
                hit = memo.get((child_code, surplus - wilds, owed, child_state, child_points,
                                used | row.slot, child_room))
                if hit is not None and not hit[1] and hit[0] < limit:
                    hit = None
            if hit is not None:
                value = hit[0]
                if hit[1] and value < INFEASIBLE and g + cost + value < self.incumbent_cost:
                    path.append(row)
                    self._improve(g + cost + value)
                    path.pop()
            else:
                self.dual_left -= row.dual_used
                path.append(row)
                value = self.best(
                    child_code, child_floor, pool, debt + wilds, owed, child_state,
                    child_points, used | row.slot, child_room, g + cost, limit,
                    tuple(sorted(barred + row.barred)) if row.barred else barred,
                )
                path.pop()
                self.dual_left += row.dual_used
            if value < limit:
                best_value, choice = cost + value, row
                if best_value <= floor:
                    break  # nothing beats the floor
            if cost + value < lower:
                lower = cost + value
        if best_value > floor:
            moves: list[tuple[int, int, Pool, bool, str]]
            if is_dual:
                new_pool = self.add_to_pool(pool, lead)
                moves = [(0, floor_after + self.pool_floor(new_pool, debt)
                          - self.pool_floor(pool, debt), new_pool, owed, "pool")]
            else:
                moves = [] if self.meld_all else [
                    (self.hand_cost[lead], floor_after, pool, owed, "dead")]
                if owed:
                    moves.append((0, floor_after, pool, False, "discard"))
            for cost, child_floor, child_pool, child_owed, label in moves:
                limit = (bound if bound < best_value else best_value) - cost
                if limit > INFEASIBLE:
                    limit = INFEASIBLE
                if child_floor >= limit:
                    lower = min(lower, cost + child_floor)
                    continue
                path.append(label)
                value = self.best(code_after, child_floor, child_pool, debt, child_owed, cstate,
                                  points, used, room, g + cost, limit, barred)
                path.pop()
                if value < limit:
                    best_value, choice = cost + value, label
                lower = min(lower, cost + value)
        if is_dual:
            self.dual_left += 1
        if best_value < bound:
            self.memo[key] = (best_value, True, choice)
            return best_value
        result = max(lower, bound)
        if result >= _HALF:
            result = INFEASIBLE  # every option infeasible (sums of costs stay far below)
        self.memo[key] = (result, False, None)
        return result

    # -- the arrangement found -------------------------------------------------
    def arrangement(self, root: Root, path: Sequence[Choice] = ()) -> Arrangement:
        """The arrangement of ``root`` that follows ``path`` (the choices from
        the root, e.g. the incumbent's) and then the memo's exact choices."""
        return rebuild(self, (root.code, self.initial_pool(root), 0, root.owed, 0, 0, 0, 0, ()),
                       [JOKER] * root.jokers, path)

    def incumbent_arrangement(self, root: Root) -> Arrangement | None:
        """The best arrangement seen by the last ``solve`` (None if none)."""
        if self.incumbent is None:
            return None
        return self.arrangement(root, self.incumbent)
