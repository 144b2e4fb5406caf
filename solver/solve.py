"""``solve()``: parse and check the input, run an engine, build the ``Solution``."""

from __future__ import annotations

import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from solver.assemble import sorted_melds
from solver.cards import SORT_KEYS, InvalidHandError, parse_cards, without
from solver.config import CONFIG, MAX_TIME_LIMIT_MS
from solver.deadline import NODES_PER_MS, Deadline, DeadlineExceeded, resolve_deadline
from solver.engines.base import INFEASIBLE, EngineResult, Instance
from solver.engines.search import SearchSession, solve_search
from solver.errors import InvalidOptionError
from solver.melds import some_card_unmeldable
from solver.objective import Pass, go_out_pass
from solver.quick import quick_path
from solver.results import GoOut, Solution
from solver.rules import Deal, check_hand, make_deal, make_rules
from solver.scoring import score_arrangement

ENGINES: tuple[str, ...] = ("auto", "search", "cpsat")


def prepare(
    hand: str | Iterable[object],
    variant: str,
    wild_rank: str | None,
    discard: bool,
    rules: Mapping[str, Any] | None,
) -> Instance:
    """Parse and check a request into an engine ``Instance`` (raises
    ``InvalidHandError`` / ``InvalidRulesError`` naming what is wrong)."""
    ruleset = make_rules(variant, rules)
    deal = make_deal(ruleset, wild_rank)
    cards = parse_cards(hand)
    check_hand(cards, ruleset)
    if not isinstance(discard, bool):
        raise InvalidHandError(f"discard must be true or false; got {discard!r}",
                               code="invalid_discard", field="discard")
    if discard and not cards:
        raise InvalidHandError("discard=true needs at least one card in the hand",
                               code="empty_hand", field="discard")
    return Instance(deal, tuple(sorted(cards)), discard)


def build_solution(result: EngineResult, deal: Deal, engine: str,
                   go_out: GoOut | None = None) -> Solution:
    """Score an engine's arrangement with ``solver.scoring`` into a ``Solution``."""
    melds = sorted_melds(result.melds, deal)
    deadwood = tuple(sorted(result.deadwood, key=SORT_KEYS.__getitem__))
    points = score_arrangement(melds, deadwood, deal)
    return Solution(
        variant=deal.rules.name,
        melds=melds,
        deadwood=deadwood,
        discard=result.discard,
        deadwood_points=points.deadwood_points,
        meld_points=points.meld_points,
        net_points=points.net_points,
        penalty_points=points.penalty_points,
        declarable=points.declarable or go_out is not None,
        optimal=result.optimal,
        engine=engine,
        status=result.status,
        can_open=points.opened,
        go_out=go_out,
    )


def run_engine(
    instance: Instance,
    engine: str,
    deadline: Deadline,
    node_budget: int | None = None,
    passes: Sequence[Pass] | None = None,
) -> tuple[EngineResult, str]:
    """Run ``engine`` on ``instance`` until ``deadline``; returns the result and
    the engine that answered.  Never raises on running out of time: the
    answer is then the best arrangement seen (``optimal=False``)."""
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
    if hint is not None and result is not None and result.cost == hint.cost and not result.optimal:
        return hint, "search"
    return result, "cpsat"


CPSAT_MIN_MS = 20
"""CP-SAT is not started with less time than this left: building its model
alone takes milliseconds (tens of them for a 30-card hand)."""
CPSAT_IMPORT_MS = 1000
"""Time loading OR-Tools may take on a busy machine (about 0.4 s on a quiet
one): a solve with less time left than this does not start CP-SAT cold.
Long-running processes (the API's solver processes) load it up front."""


def cpsat_loaded() -> bool:
    """Whether the CP-SAT engine (and OR-Tools) is already imported."""
    return "solver.engines.cpsat" in sys.modules


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


def find_go_out(instance: Instance, best: EngineResult, engine: str,
                deadline: Deadline, session: SearchSession | None = None) -> GoOut | None:
    """The best arrangement melding every kept card, when ``best`` keeps
    cards back and the variant can go out (RULES.md section 3).  ``session``
    (a ``SearchSession`` over the go-out pass) shares work across hands."""
    rules = instance.deal.rules
    if (rules.objective not in ("min_deadwood", "max_net") or rules.declaration == "knock"
            or not best.deadwood or deadline.expired()):
        return None
    if rules.objective == "min_deadwood" and best.optimal:
        # Melding every kept card costs nothing: it would have been the optimum.
        return None
    cards = instance.cards
    if some_card_unmeldable(cards, instance.deal) and (
            not instance.discard or all(some_card_unmeldable(without(cards, d), instance.deal)
                                        for d in set(cards))):
        return None
    if session is not None:
        try:
            result = session.solve(instance.cards, instance.discard)
        except DeadlineExceeded:
            return None
    else:
        result, _ = run_engine(instance, engine, deadline, passes=(go_out_pass(instance.deal),))
    if result.cost >= INFEASIBLE:
        return None
    melds = sorted_melds(result.melds, instance.deal)
    points = score_arrangement(melds, result.deadwood, instance.deal)
    if result.deadwood or not points.declarable:
        return None
    return GoOut(melds, result.discard, points.meld_points, points.net_points, result.optimal)


def solve(
    hand: str | Iterable[object],
    variant: str = "gin",
    *,
    wild_rank: str | None = None,
    discard: bool = False,
    rules: Mapping[str, Any] | None = None,
    engine: str = "auto",
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> Solution:
    """The provably optimal arrangement of ``hand`` under ``variant``.

    ``hand`` is a list of card tokens (``"AS"``, ``"10h"``, ``"JK"``) or one
    space-separated string; ``wild_rank`` the cut card (``"7"``, ``"7H"``,
    ``"JK"``); ``discard=True`` means the hand holds one card more than is kept
    and the discard is chosen jointly with the melds; ``rules`` overrides
    knobs; ``engine`` is ``auto`` (search, CP-SAT past its budget), ``search``
    or ``cpsat``.  The call returns by ``time_limit_ms`` (or ``deadline``);
    out of time it answers the best arrangement found (``optimal=False``).

    >>> solve("AS 2S 3S 7H 7D 7C KD QH 4C 9S", variant="gin").deadwood_points
    33
    """
    quick = quick_path(variant) if rules is None and wild_rank is None else None
    if (quick is not None and (discard is False or discard is True)
            and (engine == "auto" or engine == "search")
            and (time_limit_ms is None or (type(time_limit_ms) is int
                 and 0 < time_limit_ms <= MAX_TIME_LIMIT_MS))):
        answer = quick.solve(hand.replace(",", " ").split() if isinstance(hand, str) else hand,
                             discard)
        if answer is not None:
            return answer
    if engine not in ENGINES:
        raise InvalidOptionError(
            "engine", f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}",
            code="invalid_engine")
    until = resolve_deadline(time_limit_ms, deadline)
    instance = prepare(hand, variant, wild_rank, discard, rules)
    result, answered_by = run_engine(instance, engine, until)
    go_out = find_go_out(instance, result, engine, until)
    return build_solution(result, instance.deal, answered_by, go_out)
