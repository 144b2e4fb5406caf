"""Run suites in-process: time every ``solve()`` call, validate every answer,
compare the engines' optima.

Timing covers the full public call (``solve(hand, variant, ...)``: parsing,
the engine, building the ``Solution``); validation and comparison happen
outside the timed region.  A hand's rule overrides (``Case.rules``, e.g. the
contract round) go to ``solve()`` and to ``validate()`` alike.  Nothing here
asserts on time: the smoke test and the command line both read ``problems`` /
``disagreements`` for correctness.
"""

from __future__ import annotations

import gc
import importlib
import math
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from benchmarks.arena.core.stats import percentile
from benchmarks.speed.suites import DEFAULT_SEED, SUITES, Case, Suite, generate
from solver import Solution, solve
from solver.cards import card_name

SEARCH_ENGINES: tuple[str, ...] = ("search", "cpsat")
WARMUP_HANDS = 3

Validator = Callable[..., Any]


def load_validator() -> Validator | None:
    """``solver.validate.validate`` if it is importable yet, else ``None``."""
    try:
        module = importlib.import_module("solver.validate")
    except ImportError:
        return None
    validator: Validator | None = getattr(module, "validate", None)
    return validator


def engine_available(engine: str) -> str | None:
    """``None`` when ``engine`` can run here, else the reason it cannot."""
    if engine == "cpsat":
        try:
            importlib.import_module("solver.engines.cpsat")
        except ImportError as error:
            return f"CP-SAT engine not importable ({error})"
    return None


def timing_stats(seconds: Sequence[float]) -> dict[str, float]:
    """Median, p90, p99 and max in microseconds, plus hands per second."""
    ordered = sorted(seconds)
    total = sum(ordered)
    return {
        "median_us": statistics.median(ordered) * 1e6 if ordered else math.nan,
        "p90_us": percentile(ordered, 0.90) * 1e6,
        "p99_us": percentile(ordered, 0.99) * 1e6,
        "max_us": ordered[-1] * 1e6 if ordered else math.nan,
        "hands_per_s": len(ordered) / total if total > 0 else math.nan,
    }


def objective_value(solution: Solution, suite: Suite) -> int:
    """The value the engines must agree on for ``suite`` (see ``Suite.objective``).

    Under ``min_deadwood`` variants with an opening (contract, Kalooki) the
    engines minimise ``deadwood_points`` over a lay-down pass (the contract or
    the 51 points met) and a nothing pass (every kept card counts), so that
    field is compared there too (``solver.objective``).
    """
    value: int = getattr(solution, suite.objective)
    return value


def kept_cards(case: Case, solution: Solution) -> list[str]:
    """The hand minus the chosen discard (one copy)."""
    kept = list(case.hand)  # generators emit canonical names, as card_name does
    if solution.discard is not None:
        kept.remove(card_name(solution.discard))
    return kept


def check_solution(solution: Solution, case: Case, suite: Suite,
                   validator: Validator | None) -> list[str]:
    """Every problem with ``solution``: invalid melds, wrong cards, points that
    ``validate`` scores differently, a missing or spurious discard."""
    problems: list[str] = []
    if suite.discard and solution.discard is None:
        problems.append("discard=True but no discard chosen")
    if not suite.discard and solution.discard is not None:
        problems.append("discard chosen although discard=False")
    if validator is None:
        return problems
    melds = [[card_name(c) for c in meld.cards] for meld in solution.melds]
    deadwood = [card_name(c) for c in solution.deadwood]
    try:
        report = validator(melds, deadwood, suite.variant, wild_rank=case.wild_rank,
                           rules=case.overrides(), hand=kept_cards(case, solution))
    except ValueError as error:
        return [*problems, f"validate raised {type(error).__name__}: {error}"]
    if not report.valid:
        problems.extend(f"{p.code}: {p.message}" for p in report.problems)
    for name in ("deadwood_points", "net_points", "penalty_points", "declarable"):
        ours, theirs = getattr(solution, name), getattr(report, name)
        if ours != theirs:
            problems.append(f"{name}: solve says {ours}, validate scores {theirs}")
    return problems


@dataclass(slots=True)
class EngineRun:
    """One engine on one suite: per-hand times, values and problems."""

    suite: str
    engine: str
    seconds: list[float] = field(default_factory=list)
    values: list[int] = field(default_factory=list)
    optimal: list[bool] = field(default_factory=list)
    answered_by: dict[str, int] = field(default_factory=dict)
    problems: list[dict[str, Any]] = field(default_factory=list)
    validated: bool = False

    @property
    def n(self) -> int:
        """Hands solved."""
        return len(self.seconds)

    @property
    def optimal_share(self) -> float:
        """Share of hands whose answer was proved optimal."""
        return sum(self.optimal) / self.n if self.n else math.nan

    def summary(self) -> dict[str, Any]:
        """Plain-data summary for the table and the JSON file."""
        return {
            "suite": self.suite,
            "engine": self.engine,
            "n": self.n,
            **timing_stats(self.seconds),
            "per_hand_us": [s * 1e6 for s in self.seconds],  # in hand order: benchmarks.speed.charts
            "optimal_share": self.optimal_share,
            "answered_by": dict(self.answered_by),
            "validated": self.validated,
            "invalid": len(self.problems),
            "problems": self.problems[:20],
        }


@dataclass(slots=True)
class SuiteRun:
    """All engines on one suite plus the cross-engine comparison."""

    suite: Suite
    cases: list[Case]
    runs: dict[str, EngineRun] = field(default_factory=dict)
    disagreements: list[dict[str, Any]] = field(default_factory=list)
    compared: int = 0
    skipped: dict[str, str] = field(default_factory=dict)

    def slowest(self, run: EngineRun, count: int = 5) -> list[dict[str, Any]]:
        """The ``count`` slowest hands of ``run`` (to reproduce and profile them)."""
        order = sorted(range(run.n), key=run.seconds.__getitem__, reverse=True)[:count]
        return [{"index": i, "us": run.seconds[i] * 1e6, **case_fields(self.cases[i])}
                for i in order]

    def by_rules(self, run: EngineRun) -> dict[str, dict[str, float]]:
        """Timing per rule override (e.g. per contract round); empty for preset-only suites."""
        groups: dict[str, list[float]] = {}
        for case, seconds in zip(self.cases, run.seconds, strict=False):
            if case.rules:
                label = ", ".join(f"{k}={v}" for k, v in case.rules)
                groups.setdefault(label, []).append(seconds)
        return {label: {"n": len(times), **timing_stats(times)} for label, times in groups.items()}

    def summary(self) -> dict[str, Any]:
        """Plain-data summary for the JSON file."""
        return {
            "suite": self.suite.name,
            "variant": self.suite.variant,
            "description": self.suite.description,
            "cards": self.suite.cards,
            "discard": self.suite.discard,
            "objective": self.suite.objective,
            "engines": {name: {**run.summary(), "slowest": self.slowest(run),
                               "by_rules": self.by_rules(run)}
                        for name, run in self.runs.items()},
            "skipped_engines": dict(self.skipped),
            "compared": self.compared,
            "disagreements": len(self.disagreements),
            "disagreement_list": self.disagreements[:50],
        }


def case_fields(case: Case) -> dict[str, Any]:
    """How a hand is shown in the JSON: cards, cut card and rule overrides."""
    return {"hand": " ".join(case.hand), "wild_rank": case.wild_rank, "rules": case.overrides()}


def run_engine(suite: Suite, cases: Sequence[Case], engine: str,
               validator: Validator | None, time_limit_ms: int | None = None,
               warmup: Sequence[Case] = ()) -> EngineRun:
    """Solve every case with ``engine``, timing each full ``solve()`` call.

    The ``warmup`` hands (other hands of the same suite) are solved first,
    untimed, so one-off costs (imports, per-rules tables) stay out of the
    numbers without ever solving a timed hand twice.
    """
    run = EngineRun(suite.name, engine, validated=validator is not None)
    for case in warmup:
        solve(case.hand, suite.variant, wild_rank=case.wild_rank, discard=suite.discard,
              rules=case.overrides(), engine=engine, time_limit_ms=time_limit_ms)
    gc.collect()
    clock = time.perf_counter
    for index, case in enumerate(cases):
        hand, overrides = list(case.hand), case.overrides()
        started = clock()
        solution = solve(hand, suite.variant, wild_rank=case.wild_rank, discard=suite.discard,
                         rules=overrides, engine=engine, time_limit_ms=time_limit_ms)
        run.seconds.append(clock() - started)
        run.values.append(objective_value(solution, suite))
        run.optimal.append(solution.optimal)
        run.answered_by[solution.engine] = run.answered_by.get(solution.engine, 0) + 1
        problems = check_solution(solution, case, suite, validator)
        if problems:
            run.problems.append({"index": index, **case_fields(case), "problems": problems})
    return run


def compare_engines(result: SuiteRun) -> None:
    """Count hands where both engines proved optimality yet report different values."""
    if not all(engine in result.runs for engine in SEARCH_ENGINES):
        return
    search, cpsat = (result.runs[engine] for engine in SEARCH_ENGINES)
    for index, case in enumerate(result.cases):
        if not (search.optimal[index] and cpsat.optimal[index]):
            continue
        result.compared += 1
        if search.values[index] != cpsat.values[index]:
            result.disagreements.append({
                "index": index, **case_fields(case),
                "objective": result.suite.objective,
                "search": search.values[index], "cpsat": cpsat.values[index],
            })


def run_suite(name: str, n: int, engines: Sequence[str], seed: int = DEFAULT_SEED,
              time_limit_ms: int | None = None, validator: Validator | None = None,
              progress: Callable[[str], None] | None = None) -> SuiteRun:
    """Generate ``n`` hands of suite ``name`` and run each available engine on them."""
    suite = SUITES[name]
    result = SuiteRun(suite, generate(name, n, seed))
    warmup = generate(name, WARMUP_HANDS, seed + 1)
    for engine in engines:
        reason = engine_available(engine)
        if reason is not None:
            result.skipped[engine] = reason
            continue
        if progress is not None:
            progress(f"{name}: {engine} on {n} hands")
        result.runs[engine] = run_engine(suite, result.cases, engine, validator, time_limit_ms,
                                         warmup)
    compare_engines(result)
    return result


def run_suites(names: Sequence[str], n: int, engines: Sequence[str], seed: int = DEFAULT_SEED,
               time_limit_ms: int | None = None,
               progress: Callable[[str], None] | None = None) -> list[SuiteRun]:
    """``run_suite`` for each name, validating with ``solver.validate`` when present."""
    validator = load_validator()
    return [run_suite(name, n, engines, seed, time_limit_ms, validator, progress) for name in names]
