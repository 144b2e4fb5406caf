"""Which engine answers a hand: the one place that decides.

Engines (``solver.engines``) receive a prepared hand and return the melds they
chose.  This module decides which of them answers, under which deadline and
work budget, and turns the answer into a ``Solution``:

* the **quick path** (``solver.quick``, ``quick_path_for``): a hand of the
  gin or basic preset -- named, or given as overrides equal to the preset's
  own values -- with no wild rank, from card names to a ``Solution`` in a few
  microseconds;
* the **bitmask** engine (``solver.engines.bitmask``): any one-deck hand
  without a wild card whose rules decompose, whenever the search would run;
* the **search** (``solver.engines.search``, its passes run by
  ``solver.engines.passes``);
* **CP-SAT** (``solver.engines.cpsat``, imported on first use).

``engine="auto"`` runs the search on a share of the deadline (half the time
left, at most ``CONFIG.auto_search_ms``) and of its deterministic work budget
(``solver.deadline``), then CP-SAT with what is left, warm-started with the
search's best and never answering worse.  CP-SAT is not started with less
than ``CPSAT_MIN_MS`` left, nor loaded cold (the OR-Tools import alone takes
about 0.4 s) with less than ``CPSAT_IMPORT_MS``.

A ``Session`` answers the hands of one deal by one deadline.  ``solve()``,
gin and round scoring make one per call and ask it for each hand; a hint
makes one for all of its related hands (``wild_cap`` given), which then share
one search per pass (``SearchSession``) and answer at once when the hint is
out of time.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from solver.assemble import build_solution, sorted_melds
from solver.cards import without
from solver.config import CONFIG
from solver.deadline import NODES_PER_MS, Deadline, DeadlineExceeded
from solver.engines import bitmask
from solver.engines.arrangement import Arrangement
from solver.engines.base import INFEASIBLE, EngineResult, Instance, wild_count
from solver.engines.passes import SearchSession, solve_with_table
from solver.errors import InvalidOptionError, shown
from solver.lru import LruCache
from solver.melds import TableSpot, some_card_unmeldable
from solver.objective import Pass, go_out_pass, least_deadwood_passes, passes_for, untied
from solver.quick import QuickPath, quick_path
from solver.results import GoOut, Solution
from solver.rules import Deal, make_rules, request_key
from solver.scoring import score_arrangement

ENGINES: tuple[str, ...] = ("auto", "search", "cpsat")

CPSAT_MIN_MS = 20
"""CP-SAT is not started with less time than this left: building its model
alone takes milliseconds (tens of them for a 30-card hand)."""
CPSAT_IMPORT_MS = 1000
"""Time loading OR-Tools may take on a busy machine (about 0.4 s on a quiet
one): a solve with less time left than this does not start CP-SAT cold.
Long-running processes (the API's solver processes) load it up front."""


def invalid_engine(engine: object) -> InvalidOptionError:
    """The error of an ``engine`` argument not in ``ENGINES``."""
    return InvalidOptionError(
        "engine", f"unknown engine {shown(engine)}; choose one of {', '.join(ENGINES)}",
        code="invalid_engine")


def cpsat_loaded() -> bool:
    """Whether the CP-SAT engine (and OR-Tools) is already imported."""
    return "solver.engines.cpsat" in sys.modules


QUICK_REQUESTS_LIMIT = 4096
_QUICK_BY_REQUEST: LruCache[object, QuickPath | None] = LruCache(QUICK_REQUESTS_LIMIT)
"""``quick_path_for``'s answer per request key (``solver.rules.request_key``);
past ``QUICK_REQUESTS_LIMIT`` the least recently used go first (``make_rules``
answers them again from its own cache)."""
_UNKNOWN = object()


def quick_path_for(variant: str, rules: Mapping[str, Any] | None, wild_rank: object,
                   engine: str) -> QuickPath | None:
    """The quick path that answers a ``solve()`` of ``variant`` with these rule
    overrides, cut card and engine; None when the general path must answer.
    The one place that decides: ``solve()`` asks it, and so does the API's
    quick lane (``api.shared.operations.solve_quick``), which answers such a
    call on the HTTP worker itself.

    Overrides equal to the preset's values make the preset's own ``Rules``
    (``make_rules`` interns by value), so such a call takes the same path as
    one without.  The answer per request is kept (``request_key``): a call
    seen before costs a few hundred nanoseconds more than one without
    overrides.  The quick path is the search's answer, so it serves ``auto``
    and ``search``.  Raises what ``make_rules`` raises."""
    if wild_rank is not None or engine == "cpsat":
        return None
    if rules is None or (isinstance(rules, Mapping) and not rules):
        return quick_path(variant)  # an unknown name has none; make_rules reports it later
    if isinstance(variant, str) and quick_path(variant) is None:
        # Overrides never rename a preset, so they cannot give one without a
        # quick path one; nothing to build (make_rules reports bad rules later).
        return None
    key = request_key(variant, rules)
    if key is not None:
        known = _QUICK_BY_REQUEST.get(key, _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]  # a QuickPath or None
    path = quick_path(make_rules(variant, rules))
    return path if key is None else _QUICK_BY_REQUEST.put(key, path)


def knock_differs(deal: Deal) -> bool:
    """Whether the hand's best arrangement may not be the one that knocks:
    ``knock`` under ``max_net``, whose optimum may keep more deadwood than
    another arrangement (``Session.knocks``; without a knock limit only gin,
    deadwood 0, knocks, and ``go_out`` stays null under ``knock``)."""
    rules = deal.rules
    return rules.declaration == "knock" and rules.objective == "max_net"


def give_up(instance: Instance, passes: Sequence[Pass] | None = None) -> EngineResult:
    """No arrangement found in time: everything stays in hand (always valid,
    except where every card must be melded: then ``infeasible``)."""
    if passes is not None and any(p.meld_all for p in passes):
        return EngineResult((), tuple(instance.cards), None, INFEASIBLE, "none", "timeout", False)
    cards = list(instance.cards)
    discard = None
    if instance.discard:
        discard = max(cards, key=lambda c: (instance.deal.points[c], c))
        cards.remove(discard)
    return EngineResult((), tuple(cards), discard, INFEASIBLE, "none", "timeout", False)


def solve_search(
    instance: Instance,
    node_budget: int = CONFIG.node_budget,
    deadline: Deadline | None = None,
    use_tables: bool = True,
    passes: Sequence[Pass] | None = None,
) -> EngineResult:
    """``instance`` solved exactly by the search side: the bitmask engine's
    suit tables where they apply (unless ``use_tables`` is false), else a
    one-hand ``SearchSession``.  Past the node budget or the deadline it
    answers the best arrangement seen, with ``optimal=False`` and status
    ``feasible`` (or raises ``BudgetExceeded`` when it saw none).  ``passes``
    replaces the variant's passes (e.g. the go-out pass)."""
    if passes is None and use_tables and bitmask.applies(instance):
        return bitmask.solve_bitmask(instance)
    session = SearchSession(instance.deal, wild_count(instance.cards, instance.deal), deadline,
                            node_budget, passes)
    return session.solve(instance.cards, instance.discard)


def run_engine(
    instance: Instance,
    engine: str,
    deadline: Deadline,
    node_budget: int | None = None,
    passes: Sequence[Pass] | None = None,
) -> tuple[EngineResult, str]:
    """Run ``engine`` on ``instance`` until ``deadline`` (the policy in the
    module docstring); returns the result and the engine that answered.
    Never raises on running out of time: the answer is then the best
    arrangement seen (``optimal=False``)."""
    ceiling = CONFIG.node_budget if node_budget is None else node_budget
    hint: EngineResult | None = None
    if engine == "auto" and not cpsat_loaded() and deadline.remaining_ms() < CPSAT_IMPORT_MS:
        engine = "search"  # CP-SAT could not start in time: the search gets it all
    if engine in ("auto", "search"):
        # auto: the search gets a slice of the time; CP-SAT gets the rest.
        share = deadline if engine == "search" else deadline.within_ms(
            min(deadline.remaining_ms() / 2, CONFIG.auto_search_ms))
        try:
            result = solve_search(instance, ceiling, share, passes=passes)
        except DeadlineExceeded:
            result = None
        if result is not None and (result.optimal or engine == "search"):
            return result, "search"
        if engine == "search":
            return give_up(instance, passes), "search"
        hint = result
    if deadline.remaining_ms() < CPSAT_MIN_MS or (
            not cpsat_loaded() and deadline.remaining_ms() < CPSAT_IMPORT_MS):
        # No time left -- or not enough to load OR-Tools first: answer what we
        # have, or (CP-SAT asked for by name) what the search finds in the time.
        if hint is None and engine == "cpsat":
            return run_engine(instance, "search", deadline, node_budget, passes)
        return (hint or give_up(instance, passes)), "search"
    from solver.engines.cpsat import solve_cpsat

    try:
        # Its deterministic budget is the request's work budget left (the
        # search's share spent is counted in work, not in wall time).
        work_s = None if math.isinf(deadline.work.left) else max(
            0.001, deadline.work.left / NODES_PER_MS / 1000.0)
        result = solve_cpsat(instance, time_limit_s=max(0.001, deadline.remaining_s()),
                             num_workers=CONFIG.cpsat_workers, hint=hint, deadline=deadline,
                             passes=passes, work_s=work_s)
    except DeadlineExceeded:
        return (hint or give_up(instance, passes)), "search"
    if hint is not None and (result.cost > hint.cost
                             or (result.cost == hint.cost and not result.optimal)):
        return hint, "search"  # never worse than the search had; a tie unproved stays its
    return result, "cpsat"


class Session:
    """The hands of one deal, answered by one deadline (see the module docstring).

    Without ``wild_cap`` every hand is solved on its own by ``engine``
    (``run_engine``).  With ``wild_cap`` (at least the wild cards any hand
    asked about holds) the session serves many related hands -- a hint's
    every discard and draw -- with the search only: one ``SearchSession`` per
    kind of question, whose memos every hand reuses; once the deadline or
    its work budget is spent, every further hand answers at once (keeping
    every card), since building its search alone would cost milliseconds.
    """

    __slots__ = ("_bitmask_rules", "_draws", "_go_out", "_knock", "_searches", "deadline",
                 "deal", "engine")

    def __init__(self, deal: Deal, deadline: Deadline, engine: str = "auto", *,
                 wild_cap: int | None = None) -> None:
        self.deal = deal
        self.deadline = deadline
        self.engine = engine
        self._bitmask_rules = bitmask.rules_allow(deal)  # else no hand of the deal takes it
        self._searches: SearchSession | None = None
        self._go_out: SearchSession | None = None
        self._knock: SearchSession | None = None
        self._draws: SearchSession | None = None
        if wild_cap is not None:
            if engine != "search":
                raise ValueError("a session of many hands runs the search: engine='search'")
            self._searches = SearchSession(deal, wild_cap, deadline)
            self._go_out = SearchSession(deal, wild_cap, deadline, passes=(go_out_pass(deal),))
            if knock_differs(deal):
                self._knock = SearchSession(deal, wild_cap, deadline,
                                            passes=least_deadwood_passes(deal))
            # The draws of a draw hint only need each draw's optimal points (and
            # a discard reaching them): their passes drop the tie unit, so the
            # search stops ranking arrangements that tie on points.
            self._draws = SearchSession(deal, wild_cap, deadline,
                                        passes=tuple(untied(p) for p in passes_for(deal)))

    def spent(self) -> bool:
        """Whether the deadline or its work budget is spent: every further
        hand of a session of many hands then answers at once."""
        return self.deadline.expired() or self.deadline.work.left <= 0

    def instance(self, cards: Sequence[int], discard: bool) -> Instance:
        """The engine ``Instance`` of ``cards`` (any order) under this deal."""
        return Instance(self.deal, tuple(sorted(cards)), discard)

    def result(self, instance: Instance) -> tuple[EngineResult, str]:
        """The engine answer for ``instance`` and the engine that answered."""
        if self._searches is None:
            return run_engine(instance, self.engine, self.deadline)
        if self.spent():
            return give_up(instance), "search"
        if bitmask.applies(instance):
            return bitmask.solve_bitmask(instance), "search"
        try:
            return self._searches.solve(instance.cards, instance.discard), "search"
        except DeadlineExceeded:
            return give_up(instance), "search"

    def answer(self, instance: Instance, *, go_out: bool = True) -> Solution:
        """``solve()``'s answer for ``instance``: the optimum, and (``go_out``)
        what else the hand can do when the optimum cannot: the best
        arrangement melding every kept card when the optimum keeps some back
        (``go_out_of``), a knock (``knocks``)."""
        result, answered_by = self.result(instance)
        found = self.go_out_of(instance, result) if go_out else None
        knock = go_out and self.knocks(instance, result)
        return build_solution(result, self.deal, answered_by, found, knocks=knock)

    def solution(self, cards: Sequence[int], discard: bool, *, go_out: bool = True) -> Solution:
        """``answer`` for ``cards`` (in any order)."""
        return self.answer(self.instance(cards, discard), go_out=go_out)

    def go_out_of(self, instance: Instance, best: EngineResult) -> GoOut | None:
        """The best arrangement melding every kept card, when ``best`` keeps
        cards back and the variant can go out (RULES.md section 3)."""
        rules = self.deal.rules
        if (rules.objective not in ("min_deadwood", "max_net") or rules.declaration == "knock"
                or not best.deadwood or self.deadline.expired()):
            return None
        if rules.objective == "min_deadwood" and best.optimal:
            # Melding every kept card costs nothing: it would have been the optimum.
            return None
        cards = instance.cards
        if some_card_unmeldable(cards, self.deal) and (
                not instance.discard or all(some_card_unmeldable(without(cards, d), self.deal)
                                            for d in set(cards))):
            return None
        result = self._solve_passes(instance, self._go_out, (go_out_pass(self.deal),))
        if result is None or result.cost >= INFEASIBLE:
            return None
        melds = sorted_melds(result.melds, self.deal)
        points = score_arrangement(melds, result.deadwood, self.deal)
        if result.deadwood or not points.declarable:
            return None
        return GoOut(melds, result.discard, points.meld_points, points.net_points, result.optimal)

    def knocks(self, instance: Instance, best: EngineResult) -> bool:
        """Whether the hand can knock although ``best`` does not: under an
        objective other than ``min_deadwood`` the optimum may keep more
        deadwood than the knock limit while another arrangement keeps little
        enough (RULES.md section 5.1: ``declarable`` is the hand's)."""
        if not knock_differs(self.deal) or self.deadline.expired():
            return False
        if score_arrangement(sorted_melds(best.melds, self.deal), best.deadwood,
                             self.deal).declarable:
            return False
        result = self._solve_passes(instance, self._knock, least_deadwood_passes(self.deal))
        if result is None or result.cost >= INFEASIBLE:
            return False
        return score_arrangement(sorted_melds(result.melds, self.deal), result.deadwood,
                                 self.deal).declarable

    def _solve_passes(self, instance: Instance, search: SearchSession | None,
                      passes: Sequence[Pass]) -> EngineResult | None:
        """``instance`` under ``passes`` alone: by the session's own ``search``
        for them where it has one, else by its engine; None when the deadline
        stops the search."""
        if search is None:
            return run_engine(instance, self.engine, self.deadline, passes=passes)[0]
        try:
            return search.solve(instance.cards, instance.discard)
        except DeadlineExceeded:
            return None

    # -- the draw hint's questions (a session of many hands) -------------------
    def bitmask_applies(self, cards: Sequence[int], discard: bool) -> bool:
        """Whether the bitmask engine answers ``cards`` (microseconds, exact)."""
        return bitmask.applies(self.instance(cards, discard))

    def pass_costs(self, cards: Sequence[int], discard: bool) -> dict[Pass, int]:
        """The optimal points-only cost of ``cards`` in every pass of the
        variant (``untied`` passes); raises ``DeadlineExceeded`` out of time."""
        assert self._draws is not None, "a session of many hands (wild_cap given)"
        return self._draws.pass_costs(sorted(cards), discard)

    def draw_cost(self, hand: Sequence[int], card: int,
                  caps: Mapping[Pass, int] | None = None) -> tuple[int, int | None, bool]:
        """(points-only cost, discard, proved) of ``hand`` (sorted) plus a drawn
        ``card`` with the best discard: the bitmask engine where it applies,
        else the draws' search (``caps``: costs each pass surely reaches).
        Out of time: (``INFEASIBLE``, None, False)."""
        assert self._draws is not None, "a session of many hands (wild_cap given)"
        if self._bitmask_rules:
            instance = self.instance([*hand, card], True)
            if bitmask.applies(instance):
                result = bitmask.solve_bitmask(instance)
                return result.cost, result.discard, True
        if self.spent():
            # The search would only raise at its first node, but building the
            # drawn card's meld rows first costs a millisecond with many wild
            # cards: the 53 draws of a hint would overrun the deadline by tens.
            return INFEASIBLE, None, False
        try:
            return self._draws.draw_value(hand, card, caps)
        except DeadlineExceeded:
            return INFEASIBLE, None, False

    def discard_keeping(self, hand: Sequence[int], card: int) -> int | None:
        """The discard of an optimal arrangement of ``hand`` plus ``card`` that
        keeps ``card`` (a card taken from the discard pile may not go straight
        back): from the search with ``card`` decided first.  None when the
        bitmask engine applies (solving each discard is cheaper) or the
        search could not prove it in time."""
        assert self._searches is not None, "a session of many hands (wild_cap given)"
        if bitmask.applies(self.instance([*hand, card], True)):
            return None
        try:
            _, thrown, proved = self._searches.draw_value(sorted(hand), card, keep=True)
        except DeadlineExceeded:
            return None
        return thrown if proved else None

    # -- layoffs ---------------------------------------------------------------
    def with_table(self, cards: Sequence[int], table: Sequence[TableSpot], objective: Pass,
                   melds_allowed: bool = True) -> tuple[Arrangement, bool]:
        """The exact best melds plus layoffs onto ``table`` (only the search
        lays off) under ``objective``, and whether it is proved; raises
        ``DeadlineExceeded`` when out of time before any arrangement was seen."""
        return solve_with_table(self.instance(cards, False), table, objective,
                                deadline=self.deadline, melds_allowed=melds_allowed)
