"""Running the search over a variant's passes: ``SearchSession``.

A variant's answer is its cheapest pass (``solver.objective.passes_for``:
e.g. Indian rummy's declaration, then its lower tiers), an earlier pass
winning ties.  A ``SearchSession`` keeps one ``PassSearch`` per pass for many
related hands of one deal (every discard, every draw of a hint), so every
hand reuses what the others proved.  One loop runs the passes, later (cheaper)
ones first, for both of its queries: the optimum of a hand (``solve``) and
the optimum of a hand plus a drawn card (``draw_value``, the draw hint's).
``solve_with_table`` searches one pass with melds on the table to lay off on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from solver.config import CONFIG
from solver.deadline import Deadline, DeadlineExceeded, gc_paused
from solver.engines.arrangement import Arrangement
from solver.engines.base import INFEASIBLE, BudgetExceeded, EngineResult, Instance, wild_count
from solver.engines.draws import draw_cost
from solver.engines.search import PassSearch, Root
from solver.melds import TableSpot
from solver.objective import Pass, passes_for, pure_sequences_possible
from solver.results import Status
from solver.rules import Deal


def _pass_bound(best: int | None, caps: Mapping[Pass, int] | None, objective: Pass) -> int:
    """The bound a pass is searched with: at or below the best cost of the
    later passes solved so far (an earlier pass wins ties) and at its cap (a
    cost known to be reachable)."""
    bound = INFEASIBLE if best is None else best + 1
    if caps is not None and caps.get(objective, INFEASIBLE) < bound:
        bound = caps[objective] + 1
    return bound


def _precheck(objective: Pass) -> Pass | None:
    """The feasibility pass worth solving before ``objective`` on one hand:
    only when it requires two or more pure sequences -- whether one can be
    shown, the pure-sequence reach at the root of the pass's own search
    settles exactly (``solver.engines.bounds``).  (The draws keep every
    precheck: one settles a draw before the pass's wild melds through the
    drawn card are even listed.)"""
    precheck = pure_sequences_possible(objective)
    if precheck is None or precheck.limits[0].count <= 1:
        return None
    return precheck


class SearchSession:
    """Many related hands of one deal (every discard, every draw of a hint),
    solved with shared work: one ``PassSearch`` per pass whose memo every
    root reuses, and the shared option rows.  ``wild_cap`` must cover the
    most wild cards any of the hands holds.  Every solve stops at
    ``deadline`` (its work budget is shared by the whole session)."""

    def __init__(self, deal: Deal, wild_cap: int, deadline: Deadline | None = None,
                 node_budget: int = CONFIG.node_budget,
                 passes: Sequence[Pass] | None = None) -> None:
        self.deal = deal
        self.wild_cap = wild_cap
        self.deadline = deadline
        self.node_budget = node_budget
        self.passes = tuple(passes_for(deal) if passes is None else passes)
        self.searches: dict[Pass, PassSearch] = {}
        self.nodes = 0

    def _search(self, objective: Pass) -> PassSearch:
        search = self.searches.get(objective)
        if search is None:
            search = self.searches[objective] = PassSearch(
                self.deal, objective, self.wild_cap, node_budget=self.node_budget,
                deadline=self.deadline)
        return search

    def solve(self, cards: Sequence[int], discard: bool) -> EngineResult:
        """The optimum of ``cards`` over every pass, cheap ones first.

        Past the budget or deadline it answers the best arrangement seen
        (``optimal=False``, status ``feasible``), or raises ``BudgetExceeded``
        when it saw none."""
        with gc_paused():
            winner = self._winner(cards, discard)
        nodes = sum(search.nodes for search in self.searches.values())
        spent, self.nodes = nodes - self.nodes, nodes
        if winner is None:
            return EngineResult((), tuple(sorted(cards)), None, INFEASIBLE, "none", "infeasible",
                                True, spent)
        objective, found, proved = winner
        status: Status = "optimal" if proved else "feasible"
        return EngineResult(found.melds, found.deadwood, found.discard, found.cost,
                            objective.name, status, proved, spent)

    def draw_value(self, hand: Sequence[int], card: int,
                   caps: Mapping[Pass, int] | None = None,
                   keep: bool = False) -> tuple[int, int | None, bool]:
        """(cost, discarded card, proved) of the optimum of ``hand`` plus
        ``card`` with one card discarded (``keep``: not that card), without
        building the arrangement: the drawn card is decided first
        (``solver.engines.draws``), so every draw of one hand shares the
        search of the hand.  ``caps`` are costs known to be reachable in a
        pass (they bound its search without changing its answer).  Raises
        ``DeadlineExceeded`` out of time; cost is ``INFEASIBLE`` when no
        arrangement fits."""
        found: list[tuple[int, int | None]] = []

        def shows(feasibility: PassSearch) -> bool:
            # The hand alone shows them: so does every draw (thrown back).
            if not keep and feasibility.solve(feasibility.root(hand, False)) < INFEASIBLE:
                return True
            return draw_cost(feasibility, feasibility.root(hand, True), card, keep=keep)[2]

        def attempt(objective: Pass, search: PassSearch, bound: int) -> int:
            cost, thrown, exact = draw_cost(search, search.root(hand, True), card, bound, keep)
            if exact:
                found[:] = [(cost, thrown)]
            return cost

        with gc_paused():
            self._run_passes(caps, pure_sequences_possible, shows, attempt)
        if not found:
            return INFEASIBLE, None, True
        return found[0][0], found[0][1], True

    def pass_costs(self, cards: Sequence[int], discard: bool) -> dict[Pass, int]:
        """The optimal cost of ``cards`` in every pass on its own (``INFEASIBLE``
        where it does not fit); raises ``BudgetExceeded`` out of time."""
        costs = {}
        with gc_paused():
            for objective in self.passes:
                search = self._search(objective)
                costs[objective] = search.solve(search.root(cards, discard))
        return costs

    def _winner(self, cards: Sequence[int], discard: bool,
                ) -> tuple[Pass, Arrangement, bool] | None:
        """The best pass, its arrangement and whether it is proved (None when
        no pass fits); raises ``BudgetExceeded`` out of time with nothing seen."""
        best: list[tuple[Pass, PassSearch, Root]] = []
        seen: list[tuple[Pass, Arrangement]] = []  # the incumbent of a pass cut short

        def shows(feasibility: PassSearch) -> bool:
            return feasibility.solve(feasibility.root(cards, discard)) < INFEASIBLE

        def attempt(objective: Pass, search: PassSearch, bound: int) -> int:
            root = search.root(cards, discard)
            try:
                cost = search.solve(root, bound)
            except DeadlineExceeded:
                incumbent = search.incumbent_arrangement(root)
                if incumbent is not None and incumbent.cost < bound:
                    seen.append((objective, incumbent))
                raise
            if cost < bound:
                best[:] = [(objective, search, root)]
            return cost

        try:
            self._run_passes(None, _precheck, shows, attempt)
        except DeadlineExceeded:
            if seen:
                return seen[0][0], seen[0][1], False
            if not best:
                raise BudgetExceeded from None
            objective, search, root = best[0]
            return objective, search.arrangement(root), False
        if not best:
            return None
        objective, search, root = best[0]
        return objective, search.arrangement(root), True

    def _run_passes(self, caps: Mapping[Pass, int] | None,
                    precheck_of: Callable[[Pass], Pass | None],
                    shows: Callable[[PassSearch], bool],
                    attempt: Callable[[Pass, PassSearch, int], int]) -> None:
        """The pass loop of both queries.  The later passes (pure sequences
        only) are cheap: solving them first gives the earlier, harder passes
        a bound.  An earlier pass wins ties, so it only has to come in at or
        below the best cost so far (and at its ``caps`` entry).  A pass whose
        ``precheck_of`` pass the hand cannot satisfy (``shows`` is false on
        its search) is skipped; ``attempt(objective, search, bound)``
        searches one pass and returns its cost (below ``bound``: the new
        best).  Out of time it raises ``DeadlineExceeded``."""
        best: int | None = None
        for objective in reversed(self.passes):
            bound = _pass_bound(best, caps, objective)
            precheck = precheck_of(objective)
            if precheck is not None and not shows(self._search(precheck)):
                continue
            cost = attempt(objective, self._search(objective), bound)
            if cost < bound:
                best = cost


def solve_with_table(
    instance: Instance,
    table: Sequence[TableSpot],
    objective: Pass,
    node_budget: int = CONFIG.node_budget,
    deadline: Deadline | None = None,
    melds_allowed: bool = True,
) -> tuple[Arrangement, bool]:
    """Exact best melds plus layoffs onto ``table`` under a single pass;
    returns the arrangement and whether it is proved optimal (past the budget
    or deadline: the best seen).  Raises ``BudgetExceeded`` when none was seen."""
    search = PassSearch(instance.deal, objective, wild_count(instance.cards, instance.deal),
                        table=table, melds_allowed=melds_allowed, node_budget=node_budget,
                        deadline=deadline)
    root = search.root(instance.cards, instance.discard)
    try:
        with gc_paused():
            cost = search.solve(root)
    except DeadlineExceeded:
        found = search.incumbent_arrangement(root)
        if found is None:
            raise
        return found, False
    if cost >= INFEASIBLE:
        raise ValueError("no arrangement: a discard was asked of an empty hand")
    return search.arrangement(root), True
