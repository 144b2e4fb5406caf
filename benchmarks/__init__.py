"""Benchmark suite of the rummy solver: ``python -m benchmarks --help``.

* ``benchmarks.speed.suites`` -- seeded hand generators dealt from each preset's deck;
* ``benchmarks.speed.runner`` -- times ``solve()`` per suite and engine, validates
  every answer, compares the engines' optima;
* ``benchmarks.speed.anchors`` -- OpenSpiel and RLCard side by side on gin hands;
* ``benchmarks.speed.hints`` -- ``draw_hint`` / ``discard_hint`` timed per call;
* ``benchmarks.speed.overrides`` -- ``solve(..., rules={...})`` against the preset,
  and the memory of many distinct overrides;
* ``benchmarks.service.load`` -- the real API server under a bounded concurrent client;
* ``benchmarks.service.deadline`` -- the real API server on hostile and heavy requests:
  answered by the deadline + 100 ms, health checks kept answering;
* ``benchmarks.speed.bulk`` -- ``rummy-solver bulk`` throughput (1 / 2 processes, Ray);
* ``benchmarks.speed.report`` -- Markdown tables and the JSON file.

``run(...)`` is the whole benchmark as a function (what ``__main__`` and the
smoke test call).  Nothing here asserts on time.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.speed.hints import HINT_SUITES, MIN_DEALS
from benchmarks.speed.runner import SEARCH_ENGINES, run_suites
from benchmarks.speed.suites import DEFAULT_SEED, SUITES

SMOKE_HANDS = 3


def _stderr(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def run(
    suites: Sequence[str] | None = None,
    n: int = 300,
    engines: Sequence[str] = SEARCH_ENGINES,
    *,
    anchors: bool = False,
    load: bool = False,
    load_seconds: float = 20.0,
    hints: bool = False,
    hint_min: int = MIN_DEALS,
    overrides: bool = False,
    overrides_distinct: int | None = None,
    deadline: bool = False,
    bulk: bool = False,
    bulk_n: int | None = None,
    bulk_ray: bool = True,
    seed: int = DEFAULT_SEED,
    time_limit_ms: int | None = None,
    progress: Callable[[str], None] | None = _stderr,
) -> dict[str, Any]:
    """Run the chosen suites, optionally anchors, hints, overrides, the load
    test, the deadline suite and bulk; returns plain data (``report.render`` /
    ``report.write_json`` take it).

    ``suites`` may name solve suites (``SUITES``) and hint suites
    (``HINT_SUITES``); with none named every solve suite runs.  ``hints=True``
    adds every hint suite not named; hint suites deal ``max(n, hint_min)``
    hands.
    """
    from benchmarks.speed import report

    asked = list(suites or [])
    names = [s for s in asked if s in SUITES] if asked else list(SUITES)
    hint_names = [s for s in asked if s in HINT_SUITES]
    if hints and not hint_names:
        hint_names = list(HINT_SUITES)
    results: dict[str, Any] = {
        "environment": report.environment(),
        "settings": {"suites": names, "hint_suites": hint_names, "n": n, "engines": list(engines),
                     "seed": seed, "time_limit_ms": time_limit_ms, "anchors": anchors,
                     "load": load, "overrides": overrides, "deadline": deadline, "bulk": bulk},
    }
    runs = run_suites(names, n, engines, seed, time_limit_ms, progress)
    results["suites"] = [r.summary() for r in runs]
    if anchors:
        from benchmarks.speed.anchors import run_anchors

        results["anchors"] = run_anchors(n, seed, progress)
    if hint_names:
        from benchmarks.speed.hints import run_hints

        results["hints"] = run_hints(hint_names, n, seed, time_limit_ms, hint_min, progress)
    if overrides:
        from benchmarks.speed.overrides import DISTINCT_OVERRIDES, run_overrides

        distinct = DISTINCT_OVERRIDES if overrides_distinct is None else overrides_distinct
        results["overrides"] = run_overrides(n, seed, distinct, progress)
    if load:
        from benchmarks.service.load import run_load

        results["load"] = run_load(load_seconds, progress=progress)
    if deadline:
        from benchmarks.service.deadline import run_deadline

        results["deadline"] = run_deadline(progress)
    if bulk:
        results["bulk"] = run_bulk_if_ready(bulk_n, bulk_ray, seed, progress)
    results["targets"] = report.targets(results)
    results["correct"] = correctness_problems(results) == []
    return results


def run_bulk_if_ready(n: int | None, ray: bool, seed: int,
                      progress: Callable[[str], None] | None) -> dict[str, Any]:
    """``benchmarks.speed.bulk.run_bulk`` (1 and 2 processes, Ray unless ``ray`` is
    false), or ``{"skipped": why}`` when that module cannot run here."""
    try:
        from benchmarks.speed import bulk
    except Exception as error:  # another module's state: report, do not fail the run
        return {"skipped": f"benchmarks.speed.bulk not importable ({type(error).__name__}: {error})"}
    runner = getattr(bulk, "run_bulk", None)
    if runner is None:
        return {"skipped": "benchmarks.speed.bulk has no run_bulk()"}
    lines = bulk.DEFAULT_LINES if n is None else n
    if progress is not None:
        progress(f"bulk: {lines} lines, 1 and 2 processes{', Ray' if ray else ''}")
    try:
        found: dict[str, Any] = runner(lines, (1, 2), ray, seed, 1, progress)
    except (RuntimeError, OSError) as error:
        return {"skipped": f"bulk run failed: {error}"}
    return found


def correctness_problems(results: dict[str, Any]) -> list[str]:
    """Every correctness failure of a run: invalid answers, engine and anchor
    disagreements, wrong hints, overrides that change a preset's answer,
    unexpected HTTP statuses in the deadline suite, bulk errors."""
    problems = []
    for suite in results.get("suites", []):
        for engine, summary in suite["engines"].items():
            if summary["invalid"]:
                problems.append(f"{suite['suite']}/{engine}: {summary['invalid']} invalid answers")
        if suite["disagreements"]:
            problems.append(f"{suite['suite']}: engines disagree on {suite['disagreements']} hands")
    for anchor_run in results.get("anchors", {}).get("runs", []):
        if anchor_run["disagreements"]:
            problems.append(f"{anchor_run['suite']} vs {anchor_run['anchor']}: "
                            f"{anchor_run['disagreements']} disagreements")
    for hint_run in results.get("hints", {}).get("runs", []):
        if hint_run["invalid"]:
            problems.append(f"{hint_run['suite']}: {hint_run['invalid']} wrong hints")
    if results.get("overrides", {}).get("invalid"):
        problems.append(f"overrides: {results['overrides']['invalid']} hands with problems")
    deadline = results.get("deadline", {})
    for row in deadline.get("hostile", []):
        if row["status"] is not None and row["status"] not in (200, 503):
            problems.append(f"deadline: {row['name']} (time_limit_ms {row['time_limit_ms']}) "
                            f"answered HTTP {row['status']}")
    for status, count in deadline.get("heavy", {}).get("statuses", {}).items():
        if status not in ("200", "503"):
            problems.append(f"deadline: {count} heavy solves answered HTTP {status}")
    for bulk_run in results.get("bulk", {}).get("runs", []):
        if bulk_run.get("errors") or bulk_run.get("differing"):
            problems.append(f"bulk {bulk_run['runner']}: {bulk_run.get('errors')} errors, "
                            f"{bulk_run.get('differing')} answers differing")
    return problems
