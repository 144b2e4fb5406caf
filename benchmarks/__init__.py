"""Benchmark suite of the rummy solver: ``python -m benchmarks --help``.

* ``benchmarks.suites`` -- seeded hand generators dealt from each preset's deck;
* ``benchmarks.runner`` -- times ``solve()`` per suite and engine, validates
  every answer, compares the engines' optima;
* ``benchmarks.anchors`` -- OpenSpiel and RLCard side by side on gin hands;
* ``benchmarks.load`` -- the real API server under a bounded concurrent client;
* ``benchmarks.report`` -- Markdown tables and the JSON file.

``run(...)`` is the whole benchmark as a function (what ``__main__`` and the
smoke test call).  Nothing here asserts on time.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.runner import SEARCH_ENGINES, run_suites
from benchmarks.suites import DEFAULT_SEED, SUITES

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
    seed: int = DEFAULT_SEED,
    time_limit_ms: int | None = None,
    progress: Callable[[str], None] | None = _stderr,
) -> dict[str, Any]:
    """Run the chosen suites (all by default), optionally anchors and the load
    test; returns plain data (``report.render`` / ``report.write_json`` take it)."""
    from benchmarks import report

    names = list(suites) if suites else list(SUITES)
    results: dict[str, Any] = {
        "environment": report.environment(),
        "settings": {"suites": names, "n": n, "engines": list(engines), "seed": seed,
                     "time_limit_ms": time_limit_ms, "anchors": anchors, "load": load},
    }
    runs = run_suites(names, n, engines, seed, time_limit_ms, progress)
    results["suites"] = [r.summary() for r in runs]
    if anchors:
        from benchmarks.anchors import run_anchors

        results["anchors"] = run_anchors(n, seed, progress)
    if load:
        from benchmarks.load import run_load

        results["load"] = run_load(load_seconds, progress=progress)
    results["targets"] = report.targets(results)
    results["correct"] = correctness_problems(results) == []
    return results


def correctness_problems(results: dict[str, Any]) -> list[str]:
    """Every correctness failure of a run: invalid answers, engine and anchor disagreements."""
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
    return problems
