"""Rule overrides suite: what ``solve(..., rules={...})`` costs over the preset.

The same ``indian13_14`` hands (14 cards, ``discard=True``, cut rank; dealt by
``benchmarks.speed.suites``) are solved three ways, call after call on each hand:

* **plain** -- ``solve(hand, "indian13", wild_rank=cut, discard=True)``;
* **same** -- with ``rules={"penalty_tiers": 3}``, the preset's own value:
  the overrides are parsed and looked up, and must resolve to the preset;
* **different** -- with ``rules={"penalty_tiers": 2}`` (a pure sequence alone
  no longer exempts its cards): a genuinely different ``Rules`` with its own
  deal and caches.

The order of the three calls rotates from hand to hand, so none is always
first on a hand (the search's caches are keyed by deal, not by hand, but a
hand's second solve may still find warm entries).  Every answer is validated
(``runner.check_solution`` with the same overrides) and *plain* and *same*
must agree on every score.  The target is the ratio of medians same / plain.

**Cache bound**: afterwards, in a fresh Python process (``python -m
benchmarks.speed.overrides --growth DISTINCT``, so the numbers are not those of a
process already holding every suite's caches), ``solve`` runs with
``distinct`` override dicts never seen before (``points_cap`` 1, 2, ...: each a new ``Rules`` and a new
``Deal``), in three batches -- 6,000 in all, past the 4,096-entry bound of
the rules and deal caches -- and the process RSS (``/proc/self/status``
``VmRSS``; peak ``VmHWM``) plus the sizes of the solver's bounded caches
are reported before and after each batch.  Reported, never asserted.  The
RSS of the benchmark process itself when the suite starts is reported too.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import importlib
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.arena.core.stats import percentile
from benchmarks.speed.runner import Validator, check_solution, load_validator
from benchmarks.speed.suites import DEFAULT_SEED, SUITES, Case, generate
from solver import Solution, solve

SUITE = "indian13_14"
SAME: tuple[tuple[str, int], ...] = (("penalty_tiers", 3),)
DIFFERENT: tuple[tuple[str, int], ...] = (("penalty_tiers", 2),)
MODES: tuple[tuple[str, tuple[tuple[str, int], ...]], ...] = (
    ("plain", ()), ("same", SAME), ("different", DIFFERENT))
DISTINCT_OVERRIDES = 2000
BATCHES = 3
WARMUP_HANDS = 3
SCORES = ("deadwood_points", "penalty_points", "net_points", "declarable")
ROOT = Path(__file__).resolve().parents[2]

CACHES: tuple[tuple[str, str], ...] = (
    ("solver.rules", "_INTERNED"), ("solver.rules", "_BY_REQUEST"), ("solver.rules", "_DEALS"),
    ("solver.engines.caches", "_SHARED_ROWS"), ("solver.engines.caches", "_CANDIDATES"),
    ("solver.objective", "passes_for"), ("solver.objective", "_counters"),
    ("solver.engines.bitmask", "rules_allow"), ("solver.engines.bitmask", "suit_tables"),
    ("solver.engines.costs", "pass_costs"), ("solver.session", "_QUICK_BY_REQUEST"),
)
"""The solver's bounded caches whose sizes are reported (skipped if renamed)."""


def rss_kib() -> dict[str, int | None]:
    """Current resident set (``VmRSS``) and its peak (``VmHWM``) in KiB.

    ``VmHWM`` rather than ``ru_maxrss``: on Linux the latter survives
    ``execve``, so a process started by a big parent would report the parent's
    peak.  Without ``/proc``, ``ru_maxrss`` stands in for the peak.
    """
    found: dict[str, int | None] = {"rss_kib": None, "max_rss_kib": None}
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                found["rss_kib"] = int(line.split()[1])
            elif line.startswith("VmHWM:"):
                found["max_rss_kib"] = int(line.split()[1])
    except OSError:
        found["max_rss_kib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return found


def cache_sizes() -> dict[str, int]:
    """Entries in each of the solver's caches listed in ``CACHES``."""
    sizes: dict[str, int] = {}
    for module_name, attribute in CACHES:
        try:
            value = getattr(importlib.import_module(module_name), attribute)
        except (ImportError, AttributeError):
            continue
        info = getattr(value, "cache_info", None)
        if info is not None:
            sizes[f"{module_name}.{attribute}"] = int(info().currsize)
        elif hasattr(value, "__len__"):
            sizes[f"{module_name}.{attribute}"] = len(value)
    return sizes


def _solve(case: Case, rules: tuple[tuple[str, int], ...]) -> Solution:
    return solve(list(case.hand), "indian13", wild_rank=case.wild_rank, discard=True,
                 rules=dict(rules) if rules else None)


def _stats(seconds: list[float]) -> dict[str, float]:
    ordered = sorted(seconds)
    return {"median_us": statistics.median(ordered) * 1e6, "p90_us": percentile(ordered, 0.90) * 1e6,
            "p99_us": percentile(ordered, 0.99) * 1e6, "max_us": ordered[-1] * 1e6}


def time_modes(cases: list[Case], validator: Validator | None) -> dict[str, Any]:
    """The three modes on every hand, rotating their order; times and problems."""
    suite = SUITES[SUITE]
    for case in generate(SUITE, WARMUP_HANDS, DEFAULT_SEED + 1):
        for _, rules in MODES:
            _solve(case, rules)
    seconds: dict[str, list[float]] = {name: [] for name, _ in MODES}
    problems: list[dict[str, Any]] = []
    clock = time.perf_counter
    gc.collect()
    for index, case in enumerate(cases):
        answers: dict[str, Solution] = {}
        for turn in range(len(MODES)):
            name, rules = MODES[(index + turn) % len(MODES)]
            started = clock()
            answers[name] = _solve(case, rules)
            seconds[name].append(clock() - started)
        found = []
        for name, rules in MODES:
            checked = dataclasses.replace(case, rules=rules)
            found += [f"{name}: {p}" for p in check_solution(answers[name], checked, suite, validator)]
        plain, same = answers["plain"], answers["same"]
        if plain.optimal and same.optimal:
            found += [f"{score}: plain {getattr(plain, score)}, same {getattr(same, score)}"
                      for score in SCORES if getattr(plain, score) != getattr(same, score)]
        if found:
            problems.append({"index": index, "hand": " ".join(case.hand),
                             "wild_rank": case.wild_rank, "problems": found})
    stats = {name: _stats(times) for name, times in seconds.items()}
    return {"modes": stats, "invalid": len(problems), "problems": problems[:20],
            "ratio_same_over_plain": stats["same"]["median_us"] / stats["plain"]["median_us"],
            "ratio_different_over_plain":
                stats["different"]["median_us"] / stats["plain"]["median_us"]}


def cache_growth(cases: list[Case], distinct: int) -> dict[str, Any]:
    """RSS and cache sizes around ``BATCHES`` batches of ``distinct`` never-seen
    overrides each, in this process (after warming up on ``cases`` with the preset)."""
    for case in cases:
        _solve(case, ())
    gc.collect()
    snapshots = [{"after": "start", **rss_kib(), "caches": cache_sizes()}]
    started = time.perf_counter()
    for batch in range(BATCHES):
        for i in range(distinct):
            cap = 1 + batch * distinct + i
            case = cases[i % len(cases)]
            solve(list(case.hand), "indian13", wild_rank=case.wild_rank, discard=True,
                  rules={"points_cap": cap})
        gc.collect()
        snapshots.append({"after": f"{(batch + 1) * distinct} distinct overrides", **rss_kib(),
                          "caches": cache_sizes()})
    return {"distinct_per_batch": distinct, "knob": "points_cap", "snapshots": snapshots,
            "seconds": time.perf_counter() - started}


def cache_growth_fresh(n: int, seed: int, distinct: int) -> dict[str, Any]:
    """``cache_growth`` on ``n`` hands in a new Python process (``--growth``)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "benchmarks.speed.overrides", "--growth", str(distinct),
               "--n", str(n), "--seed", str(seed)]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": f"{' '.join(command)} failed:\n{done.stderr[-2000:]}"}
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return {**found, "fresh_process": True}


def run_overrides(n: int = 300, seed: int = DEFAULT_SEED, distinct: int = DISTINCT_OVERRIDES,
                  progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The whole overrides suite on ``n`` hands; plain data for the report."""
    cases = generate(SUITE, n, seed)
    own_rss = rss_kib()
    if progress is not None:
        progress(f"overrides: {n} {SUITE} hands x {len(MODES)} modes")
    timed = time_modes(cases, load_validator())
    if progress is not None:
        progress(f"overrides: {BATCHES} x {distinct} distinct override dicts (cache bound), "
                 "fresh process")
    return {"suite": SUITE, "n": n, "same": dict(SAME), "different": dict(DIFFERENT), **timed,
            "benchmark_process_at_start": own_rss,
            "cache_growth": cache_growth_fresh(n, seed, distinct)}


def main(argv: Sequence[str] | None = None) -> int:
    """``--growth DISTINCT``: print ``cache_growth`` of this process as one JSON line."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed.overrides")
    parser.add_argument("--growth", type=int, required=True, metavar="DISTINCT")
    parser.add_argument("--n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED)
    args = parser.parse_args(argv)
    print(json.dumps(cache_growth(generate(SUITE, args.n, args.seed), args.growth)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
