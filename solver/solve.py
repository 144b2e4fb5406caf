"""``solve()``: parse and check the input, run an engine, build the ``Solution``."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import Any

from solver.cards import SORT_KEYS, InvalidHandError, parse_cards
from solver.config import CONFIG, MAX_TIME_LIMIT_MS
from solver.engines.base import BudgetExceeded, EngineResult, Instance, PlacedMeld
from solver.engines.search import solve_search
from solver.model import Meld, Solution
from solver.rules import Deal, check_hand, make_deal, make_rules, melded_points
from solver.scoring import score_arrangement

ENGINES: tuple[str, ...] = ("auto", "search", "cpsat")
DEFAULT_TIME_LIMIT_MS = CONFIG.default_time_limit_ms


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


def build_meld(placed: PlacedMeld, deal: Deal) -> Meld:
    """Turn an engine's placed candidate into a ``Meld`` with physical cards."""
    cand = placed.candidate
    wilds = iter(placed.wild_cards)
    cards = tuple(rep if natural else next(wilds)
                  for rep, natural in zip(cand.represents, cand.natural_at, strict=True))
    points = sum(
        melded_points(card, rep, deal, cand.low_ace and i == 0)
        for i, (card, rep) in enumerate(zip(cards, cand.represents, strict=True))
    )
    return Meld(cand.kind, cards, cand.represents, cand.pure, points)


def build_solution(result: EngineResult, deal: Deal, engine: str) -> Solution:
    """Score an engine's arrangement with ``solver.scoring`` into a ``Solution``."""
    # A stable meld order whatever the engine: by the cards the melds stand for.
    melds = tuple(sorted((build_meld(p, deal) for p in result.melds),
                         key=lambda m: [SORT_KEYS[c] for c in m.represents]))
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
        declarable=points.declarable,
        optimal=result.optimal,
        engine=engine,
        status=result.status,
    )


def run_engine(
    instance: Instance, engine: str, time_limit_ms: int, node_budget: int | None = None
) -> tuple[EngineResult, str]:
    """Run ``engine`` on ``instance``; returns the result and the engine that answered."""
    started = time.perf_counter()
    if engine in ("auto", "search"):
        # auto: the search gets a slice of the time; CP-SAT gets the rest.
        search_ms = (time_limit_ms if engine == "search"
                     else min(time_limit_ms / 2, CONFIG.auto_search_ms))
        budget = CONFIG.node_budget if node_budget is None else node_budget
        try:
            return solve_search(instance, budget, search_ms / 1000), "search"
        except BudgetExceeded:
            if engine == "search":
                return _give_up(instance, "timeout"), "search"
    from solver.engines.cpsat import solve_cpsat

    remaining_ms = max(1, time_limit_ms - int((time.perf_counter() - started) * 1000))
    return solve_cpsat(instance, time_limit_s=remaining_ms / 1000,
                       num_workers=CONFIG.cpsat_workers), "cpsat"


def _give_up(instance: Instance, status: str) -> EngineResult:
    """No arrangement proved: everything stays in hand (always valid)."""
    cards = list(instance.cards)
    discard = None
    if instance.discard:
        discard = cards.pop()
    return EngineResult((), tuple(cards), discard, 0, "none", "timeout", False)


def solve(
    hand: str | Iterable[object],
    variant: str = "gin",
    *,
    wild_rank: str | None = None,
    discard: bool = False,
    rules: Mapping[str, Any] | None = None,
    engine: str = "auto",
    time_limit_ms: int | None = None,
) -> Solution:
    """The provably optimal arrangement of ``hand`` under ``variant``.

    ``hand`` is a list of card tokens (``"AS"``, ``"10h"``, ``"JK"``) or one
    space-separated string; ``wild_rank`` the cut card (``"7"``, ``"7H"``,
    ``"JK"``); ``discard=True`` means the hand holds one card more than is kept
    and the discard is chosen jointly with the melds; ``rules`` overrides
    knobs; ``engine`` is ``auto`` (search, CP-SAT past its budget), ``search``
    or ``cpsat``.

    >>> solve("AS 2S 3S 7H 7D 7C KD QH 4C 9S", variant="gin").deadwood_points
    33
    """
    if engine not in ENGINES:
        raise InvalidHandError(
            f"unknown engine {engine!r}; choose one of {', '.join(ENGINES)}",
            code="invalid_engine", field="engine",
        )
    if time_limit_ms is None:
        time_limit_ms = DEFAULT_TIME_LIMIT_MS
    elif (isinstance(time_limit_ms, bool) or not isinstance(time_limit_ms, int)
          or not 1 <= time_limit_ms <= MAX_TIME_LIMIT_MS):
        raise InvalidHandError(
            f"time_limit_ms must be an integer from 1 to {MAX_TIME_LIMIT_MS}; got {time_limit_ms!r}",
            code="invalid_time_limit", field="time_limit_ms",
        )
    instance = prepare(hand, variant, wild_rank, discard, rules)
    result, answered_by = run_engine(instance, engine, time_limit_ms)
    return build_solution(result, instance.deal, answered_by)
