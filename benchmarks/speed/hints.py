"""Hint suites: ``solver.draw_hint`` and ``solver.discard_hint`` timed per call.

Each suite deals seeded random hands from the preset's real deck
(``benchmarks.speed.suites.preset_deck``): the hand, then (Indian variants) the cut
card, then the discard-pile top, all without replacement, so copy limits hold
exactly as in a deal.  A printed joker cut is passed as ``"JK"``; ``indian21``
gets the full cut card (``"7H"``: neighbour jokers), ``indian13`` its rank.

* **draw** suites time one ``draw_hint(hand, discard_top, variant,
  wild_rank=...)`` call: take the pile top (with its best discard) or draw
  blind, the blind draw's exact expectation over every unseen card;
* **discard** suites time one ``discard_hint(hand, variant, wild_rank=...)``
  call: every distinct discard ranked by the optimum of the cards kept.

Time per deal is the wall time of that one call (``time.perf_counter``);
three other deals are hinted first, untimed.  The library's own time limit
applies (``RUMMY_SOLVER_REQUEST_BUDGET_MS``, 5 s) unless ``time_limit_ms`` is
given; ``optimal`` counts the answers whose every solve was proved exact
(``DrawHint.optimal`` / ``DiscardHint.optimal``).

The ``*_mid`` suites take *mid-game* positions instead of fresh deals
(``benchmarks.speed.midgame``): two seats play a few turns with a plain greedy
policy (seat 0's position is taken at its turn 3, 6 or 9, in turn), so the
hands hold the melds, pairs and wild cards players keep; a draw also passes
the cards seen (the pile beneath the top, the cut card).  The ``*_arena``
suites (gin) take them from hands played in the arena (``benchmarks.arena``).

Correctness, outside the timed call, on every exact answer: the hint's
values agree with plain ``solve()`` calls (the current hand, the hand with
the pile top and its best discard other than the top itself (the taken card
may not be thrown back), the best discard, two more drawn cards or
discards per deal), the blind expectation is the copies-weighted mean of the
outcomes over all unseen cards, and the discard ranks are consistent.
"""

from __future__ import annotations

import gc
import itertools
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from benchmarks.arena.core.stats import percentile
from benchmarks.speed.midgame import Position, arena_position, greedy_position
from benchmarks.speed.suites import DEFAULT_SEED, cut_token, preset_deck
from solver import Solution, discard_hint, draw_hint, solve
from solver.cards import card_name
from solver.deadline import Deadline, play_deadline
from solver.rules import PRESETS

MIN_DEALS = 40
"""Deals per hint suite unless asked for fewer explicitly (``min_n``)."""
WARMUP_DEALS = 3
SPOT_CHECKS = 2
"""Drawn cards (draw) or discards (discard) re-solved with ``solve()`` per deal."""
MID_TURNS = (3, 6, 9)
"""The turns mid-game positions are taken at, deal by deal in turn."""


@dataclass(frozen=True, slots=True)
class HintSuite:
    """A family of hint calls: which hint, variant, cards in hand, cut card or
    not, and where the positions come from (``source``: ``"deal"`` a fresh
    deal, ``"greedy"`` greedy play, ``"arena"`` arena hands)."""

    name: str
    kind: str  # "draw" or "discard"
    variant: str
    cards: int
    cut: bool
    description: str
    source: str = "deal"


@dataclass(frozen=True, slots=True)
class HintCase:
    """One deal: the hand, the cut card (``wild_rank``), the discard-pile top,
    the other cards seen (passed to ``draw_hint``) and, for a mid-game
    position, the turn it was taken at."""

    hand: tuple[str, ...]
    wild_rank: str | None
    top: str
    seen: tuple[str, ...] = ()
    turn: int | None = None

    def fields(self) -> dict[str, Any]:
        """How the deal is shown in the JSON."""
        out: dict[str, Any] = {"hand": " ".join(self.hand), "wild_rank": self.wild_rank,
                               "discard_top": self.top}
        if self.seen:
            out["seen"] = " ".join(self.seen)
        if self.turn is not None:
            out["turn"] = self.turn
        return out


HINT_SUITES: dict[str, HintSuite] = {
    suite.name: suite
    for suite in (
        HintSuite("hints_indian13_draw", "draw", "indian13", 13, True,
                  "indian 13: 13 cards + pile top, cut rank, 2 decks + 2 jokers"),
        HintSuite("hints_indian21_draw", "draw", "indian21", 21, True,
                  "indian 21: 21 cards + pile top, cut card, 3 decks + 3 jokers"),
        HintSuite("hints_indian13_discard", "discard", "indian13", 14, True,
                  "indian 13: 14 cards, cut rank, 2 decks + 2 jokers"),
        HintSuite("hints_gin_draw", "draw", "gin", 10, False, "gin: 10 cards + pile top"),
        HintSuite("hints_gin_discard", "discard", "gin", 11, False, "gin: 11 cards"),
        HintSuite("hints_indian13_draw_mid", "draw", "indian13", 13, True,
                  "indian 13, mid-game (turns 3/6/9 of greedy play): 13 cards + pile top",
                  "greedy"),
        HintSuite("hints_indian13_discard_mid", "discard", "indian13", 14, True,
                  "indian 13, mid-game (turns 3/6/9 of greedy play): 14 cards", "greedy"),
        HintSuite("hints_indian21_draw_mid", "draw", "indian21", 21, True,
                  "indian 21, mid-game (turns 3/6/9 of greedy play): 21 cards + pile top",
                  "greedy"),
        HintSuite("hints_indian21_discard_mid", "discard", "indian21", 22, True,
                  "indian 21, mid-game (turns 3/6/9 of greedy play): 22 cards", "greedy"),
        HintSuite("hints_gin_draw_mid", "draw", "gin", 10, False,
                  "gin, mid-game (turns 3/6/9 of greedy play): 10 cards + pile top", "greedy"),
        HintSuite("hints_gin_discard_mid", "discard", "gin", 11, False,
                  "gin, mid-game (turns 3/6/9 of greedy play): 11 cards", "greedy"),
        HintSuite("hints_gin_draw_arena", "draw", "gin", 10, False,
                  "gin, arena hands (greedy hints vs EAAI simple), turns 3/6/9: 10 cards + "
                  "pile top", "arena"),
        HintSuite("hints_gin_discard_arena", "discard", "gin", 11, False,
                  "gin, arena hands (greedy hints vs EAAI simple), turns 3/6/9: 11 cards",
                  "arena"),
    )
}
"""Every hint suite by name, in report order."""


def deal_hint(suite: HintSuite, rng: random.Random) -> HintCase:
    """The hand, then the cut card (if any), then the pile top from one shuffled deck."""
    rules = PRESETS[suite.variant]
    deck = preset_deck(rules)
    rng.shuffle(deck)
    hand = tuple(card_name(c) for c in sorted(deck[: suite.cards]))
    position = suite.cards
    wild_rank = None
    if suite.cut:
        wild_rank = cut_token(rules, deck[position])
        position += 1
    return HintCase(hand, wild_rank, card_name(deck[position]))


def position_case(position: Position) -> HintCase:
    """A mid-game ``Position`` as a hint case (card names)."""
    return HintCase(tuple(card_name(c) for c in position.hand), position.wild_rank,
                    card_name(position.top), tuple(card_name(c) for c in position.seen),
                    position.turn)


def generate_hints(name: str, n: int, seed: int = DEFAULT_SEED) -> list[HintCase]:
    """``n`` deals of hint suite ``name``; deterministic in ``(name, n, seed)``
    (mid-game positions: at turns ``MID_TURNS`` in turn)."""
    suite = HINT_SUITES[name]
    rng = random.Random(f"{name}:{seed}")
    if suite.source == "greedy":
        return [position_case(greedy_position(suite.variant, suite.kind,
                                              MID_TURNS[i % len(MID_TURNS)], rng))
                for i in range(n)]
    if suite.source == "arena":
        return [position_case(arena_position(suite.kind, MID_TURNS[i % len(MID_TURNS)], seed, i))
                for i in range(n)]
    return [deal_hint(suite, rng) for _ in range(n)]


def _value(solution: Solution) -> int:
    # indian13 / indian21 (cascade, marriage) and gin (min_deadwood): what
    # solve() optimises is deadwood_points (the uncapped count for Indian).
    return solution.deadwood_points


def call_hint(suite: HintSuite, case: HintCase, time_limit_ms: int | None,
              deadline: Deadline | None = None) -> Any:
    """The library call being timed (``deadline``: the call's own, built by
    the caller to read the work it spent afterwards)."""
    if suite.kind == "draw":
        return draw_hint(list(case.hand), case.top, suite.variant, wild_rank=case.wild_rank,
                         seen=list(case.seen) or None, time_limit_ms=time_limit_ms,
                         deadline=deadline)
    return discard_hint(list(case.hand), suite.variant, wild_rank=case.wild_rank,
                        time_limit_ms=time_limit_ms, deadline=deadline)


def expected_take(suite: HintSuite, case: HintCase) -> int | None:
    """The optimum after taking the pile top, from plain ``solve()`` calls
    (``None`` when one was not proved): the best discard of hand + top, except
    the top itself -- it may not be thrown back (RULES.md) unless the hand holds
    another copy.  When the free optimum throws something else, it stands."""
    hand, wild = list(case.hand), case.wild_rank
    free = solve([*hand, case.top], suite.variant, wild_rank=wild, discard=True)
    if not free.optimal:
        return None
    if case.top in hand or free.discard is None or card_name(free.discard) != case.top:
        return _value(free)
    values = []
    for discard in sorted(set(hand)):
        kept = [*hand, case.top]
        kept.remove(discard)
        alone = solve(kept, suite.variant, wild_rank=wild)
        if not alone.optimal:
            return None
        values.append(_value(alone))
    return min(values)


def check_draw(suite: HintSuite, case: HintCase, hint: Any, rng: random.Random) -> list[str]:
    """Problems with an exact ``DrawHint`` (checked against plain ``solve()`` calls)."""
    problems: list[str] = []
    hand, wild = list(case.hand), case.wild_rank
    outcomes = list(hint.outcomes)
    unseen = sum(o.copies for o in outcomes)
    if unseen != hint.unseen:
        problems.append(f"outcomes hold {unseen} unseen copies, hint says {hint.unseen}")
    elif unseen and hint.expected != Fraction(sum(o.copies * o.value for o in outcomes), unseen):
        problems.append("blind expectation is not the copies-weighted mean of the outcomes")
    current = solve(hand, suite.variant, wild_rank=wild)
    if current.optimal and _value(current) != hint.current_value:
        problems.append(f"current value {hint.current_value}, solve() says {_value(current)}")
    taken = expected_take(suite, case)
    if taken is not None and taken != hint.take_value:
        problems.append(f"take value {hint.take_value}, solve() says {taken}")
    if case.top not in hand and hint.take.discard is not None \
            and card_name(hint.take.discard) == case.top:
        problems.append(f"the take throws back {case.top}, the card just taken")
    for outcome in rng.sample(outcomes, min(SPOT_CHECKS, len(outcomes))):
        drawn = card_name(outcome.card)
        after = solve([*hand, drawn], suite.variant, wild_rank=wild, discard=True)
        if after.optimal and _value(after) != outcome.value:
            problems.append(f"drawing {drawn}: value {outcome.value}, solve() says {_value(after)}")
    return problems


def check_discard(suite: HintSuite, case: HintCase, hint: Any, rng: random.Random) -> list[str]:
    """Problems with an exact ``DiscardHint`` (checked against plain ``solve()`` calls)."""
    problems: list[str] = []
    hand, wild = list(case.hand), case.wild_rank
    options = list(hint.options)
    if sorted(card_name(o.discard) for o in options) != sorted(set(hand)):
        problems.append("options are not the distinct cards of the hand")
        return problems
    ranks = [o.rank for o in options]
    if ranks[0] != 1 or ranks != sorted(ranks):
        problems.append(f"ranks out of order: {ranks}")
    if any(a.value > b.value for a, b in itertools.pairwise(options)):
        problems.append("option values do not increase")
    best = solve(hand, suite.variant, wild_rank=wild, discard=True)
    if best.optimal and _value(best) != options[0].value:
        problems.append(f"best discard value {options[0].value}, solve() says {_value(best)}")
    for option in rng.sample(options, min(SPOT_CHECKS, len(options))):
        kept = list(hand)
        kept.remove(card_name(option.discard))
        alone = solve(kept, suite.variant, wild_rank=wild)
        if alone.optimal and _value(alone) != option.value:
            problems.append(f"discarding {card_name(option.discard)}: value {option.value}, "
                            f"solve() says {_value(alone)}")
    return problems


def ms_stats(seconds: Sequence[float]) -> dict[str, float | None]:
    """Median, p90, p99 (nearest rank) and max in milliseconds."""
    ordered = sorted(seconds)
    if not ordered:
        return {"median_ms": None, "p90_ms": None, "p99_ms": None, "max_ms": None}
    return {"median_ms": statistics.median(ordered) * 1e3, "p90_ms": percentile(ordered, 0.90) * 1e3,
            "p99_ms": percentile(ordered, 0.99) * 1e3, "max_ms": ordered[-1] * 1e3}


def run_hint_suite(name: str, n: int, seed: int = DEFAULT_SEED,
                   time_limit_ms: int | None = None) -> dict[str, Any]:
    """Time ``n`` hint calls of suite ``name`` (after the untimed warm-up deals) and
    check every exact answer; plain data for the report."""
    suite = HINT_SUITES[name]
    cases = generate_hints(name, n, seed)
    for case in generate_hints(name, WARMUP_DEALS, seed + 1):
        call_hint(suite, case, time_limit_ms)
    checker = check_draw if suite.kind == "draw" else check_discard
    rng = random.Random(f"{name}:checks:{seed}")
    seconds: list[float] = []
    optimal = 0
    problems: list[dict[str, Any]] = []
    slowest: list[tuple[float, int]] = []
    states: list[int] = []
    gc.collect()
    clock = time.perf_counter
    for index, case in enumerate(cases):
        # The call's own deadline, as the hint would build it (the library's
        # budget), made here to read the search work it spent.
        deadline = play_deadline(time_limit_ms, None)
        budget = deadline.work.left
        started = clock()
        hint = call_hint(suite, case, None, deadline)
        took = clock() - started
        seconds.append(took)
        states.append(int(budget - deadline.work.left))
        slowest.append((took, index))
        if hint.optimal:
            optimal += 1
            found = checker(suite, case, hint, rng)
            if found:
                problems.append({"index": index, **case.fields(), "problems": found})
    slowest.sort(reverse=True)
    by_turn: dict[str, dict[str, float | None]] = {}
    for turn in sorted({case.turn for case in cases if case.turn is not None}):
        chosen = [i for i, case in enumerate(cases) if case.turn == turn]
        by_turn[str(turn)] = {"n": len(chosen), **ms_stats([seconds[i] for i in chosen]),
                              **work_stats([states[i] for i in chosen])}
    return {
        "suite": name, "kind": suite.kind, "variant": suite.variant, "cards": suite.cards,
        "description": suite.description, "source": suite.source, "n": len(cases),
        **ms_stats(seconds), **work_stats(states), "by_turn": by_turn,
        "optimal": optimal, "invalid": len(problems), "problems": problems[:20],
        "slowest": [{"index": i, "ms": t * 1e3, "states": states[i], **cases[i].fields()}
                    for t, i in slowest[:5]],
    }


def work_stats(states: Sequence[int]) -> dict[str, float | None]:
    """Median, p99 (nearest rank) and total of the search work per call:
    states visited plus the options they weigh (the work budget's unit),
    which does not depend on the machine's load."""
    ordered = sorted(states)
    if not ordered:
        return {"states_median": None, "states_p99": None, "states_total": None}
    return {"states_median": statistics.median(ordered), "states_p99": percentile(ordered, 0.99),
            "states_total": sum(ordered)}


def run_hints(names: Sequence[str] | None = None, n: int = MIN_DEALS, seed: int = DEFAULT_SEED,
              time_limit_ms: int | None = None, min_n: int = MIN_DEALS,
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Every chosen hint suite (all by default) with ``max(n, min_n)`` deals each."""
    deals = max(n, min_n)
    runs = []
    for name in names or list(HINT_SUITES):
        if progress is not None:
            progress(f"{name}: {deals} deals")
        runs.append(run_hint_suite(name, deals, seed, time_limit_ms))
    return {"n": deals, "time_limit_ms": time_limit_ms, "runs": runs}
