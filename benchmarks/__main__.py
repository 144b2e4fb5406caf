"""Command line: ``python -m benchmarks [--suite NAME ...] [--n N] [--engine ...]
[--anchors] [--hints] [--overrides] [--load] [--deadline] [--bulk] [--json PATH]
[--smoke]``, ``python -m benchmarks --advise-load [--load-seconds S]``, or
``python -m benchmarks --arena [--a NAME] [--b NAME] [--hands N]
[--matches M] [--seed S] [--json PATH]``, ``python -m benchmarks --arena --panel GAME``
(the advisor against a panel's held-out half), ``python -m benchmarks --tune GAME
[--trials N] [--study NAME] [--resume]`` (the advisor's numbers searched on the
tuning half), ``python -m benchmarks --ladder GAME [--players A,B,...] [--hands N |
--deals N] [--resume PATH]`` (every player of a game rated on one scale), or
``python -m benchmarks --arena --game
{indian13,rummy500,rommy,basic} [--players N | --lineup A,B,...] [--deals N] [--workers W]``
(``benchmarks/arena``; rommy is Danish "500", 2 to 6 players; basic is basic rummy, 2
to 6 players).

Prints Markdown tables on stdout (progress on stderr) and optionally writes
JSON.  The exit code is 1 when any answer is invalid, two engines (or an
anchor) disagree, a hint disagrees with ``solve()``, an override changes a
preset's answer, the server answers the deadline suite with a status other
than 200/503, or a bulk runner errs or differs; never because of time.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.arena.core.cli import (
    add_arena_arguments,
    run_arena_command,
    run_ladder_command,
    run_tune_command,
)
from benchmarks.service.advise_load import GAMES as ADVISE_LOAD_GAMES
from benchmarks.service.advise_load import TABLE_PLAYERS, render_advise_load, run_advise_load
from benchmarks.service.deadline import run_deadline
from benchmarks.service.load import run_load
from benchmarks.speed.anchors import run_anchors
from benchmarks.speed.bulk import DEFAULT_LINES as DEFAULT_BULK_LINES
from benchmarks.speed.bulk import run_bulk
from benchmarks.speed.hints import HINT_SUITES, MIN_DEALS, run_hints
from benchmarks.speed.overrides import DISTINCT_OVERRIDES, run_overrides
from benchmarks.speed.report import environment, render, targets, write_json
from benchmarks.speed.runner import SEARCH_ENGINES, run_suites
from benchmarks.speed.suites import DEFAULT_SEED, SUITES

SMOKE_HANDS = 3
SMOKE_DISTINCT_OVERRIDES = 20


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
    bulk_repeat: int = 1,
    seed: int = DEFAULT_SEED,
    time_limit_ms: int | None = None,
    progress: Callable[[str], None] | None = _stderr,
) -> dict[str, Any]:
    """Run the chosen suites, optionally anchors, hints, overrides, the load
    test, the deadline suite and bulk; returns plain data (``render`` and
    ``write_json`` of ``benchmarks.speed.report`` take it).

    ``suites`` may name solve suites (``SUITES``) and hint suites
    (``HINT_SUITES``); with none named every solve suite runs.  ``hints=True``
    adds every hint suite not named; hint suites deal ``max(n, hint_min)``
    hands.
    """
    asked = list(suites or [])
    names = [s for s in asked if s in SUITES] if asked else list(SUITES)
    hint_names = [s for s in asked if s in HINT_SUITES]
    if hints and not hint_names:
        hint_names = list(HINT_SUITES)
    results: dict[str, Any] = {
        "environment": environment(),
        "settings": {"suites": names, "hint_suites": hint_names, "n": n, "engines": list(engines),
                     "seed": seed, "time_limit_ms": time_limit_ms, "anchors": anchors,
                     "load": load, "overrides": overrides, "deadline": deadline, "bulk": bulk},
    }
    runs = run_suites(names, n, engines, seed, time_limit_ms, progress)
    results["suites"] = [r.summary() for r in runs]
    if anchors:
        results["anchors"] = run_anchors(n, seed, progress)
    if hint_names:
        results["hints"] = run_hints(hint_names, n, seed, time_limit_ms, hint_min, progress)
    if overrides:
        distinct = DISTINCT_OVERRIDES if overrides_distinct is None else overrides_distinct
        results["overrides"] = run_overrides(n, seed, distinct, progress)
    if load:
        results["load"] = run_load(load_seconds, progress=progress)
    if deadline:
        results["deadline"] = run_deadline(progress)
    if bulk:
        results["bulk"] = run_bulk_if_ready(bulk_n, bulk_ray, seed, progress, bulk_repeat)
    results["targets"] = targets(results)
    results["correct"] = correctness_problems(results) == []
    return results


def run_bulk_if_ready(n: int | None, ray: bool, seed: int,
                      progress: Callable[[str], None] | None, repeat: int = 1) -> dict[str, Any]:
    """``benchmarks.speed.bulk.run_bulk`` (1 and 2 processes, Ray unless ``ray`` is
    false, ``repeat`` alternating runs each), or ``{"skipped": why}`` when the
    run cannot be made here."""
    lines = DEFAULT_BULK_LINES if n is None else n
    if progress is not None:
        progress(f"bulk: {lines} lines, 1 and 2 processes{', Ray' if ray else ''}")
    try:
        return run_bulk(lines, (1, 2), ray, seed, repeat, progress)
    except (RuntimeError, OSError) as error:
        return {"skipped": f"bulk run failed: {error}"}


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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--suite", action="extend", nargs="+", choices=[*SUITES, *HINT_SUITES],
                        metavar="NAME",
                        help=f"suites to run (default: every solve suite): {', '.join(SUITES)}; "
                             f"hint suites: {', '.join(HINT_SUITES)}")
    parser.add_argument("--n", type=int, default=300, help="hands per suite (default 300)")
    parser.add_argument("--engine", choices=["search", "cpsat", "all"], default="all",
                        help="engine(s) to time; 'all' also compares their optima (default)")
    parser.add_argument("--anchors", action="store_true",
                        help="time OpenSpiel and RLCard side by side on gin hands (extra 'bench')")
    parser.add_argument("--hints", action="store_true",
                        help=f"every hint suite (draw_hint / discard_hint), max(N, {MIN_DEALS}) deals each")
    parser.add_argument("--overrides", action="store_true",
                        help="indian13 solve() with and without rules overrides, and memory "
                             "after 6,000 distinct overrides")
    parser.add_argument("--deadline", action="store_true",
                        help="start the API server (2 workers): hostile bodies and 40 concurrent "
                             "heavy solves against their deadlines")
    parser.add_argument("--bulk", action="store_true",
                        help="rummy-solver bulk throughput, 1 and 2 processes and Ray "
                             "(benchmarks.speed.bulk)")
    parser.add_argument("--bulk-n", type=int, default=None,
                        help="lines of the bulk file (default: benchmarks.speed.bulk's, 10000)")
    parser.add_argument("--bulk-no-ray", action="store_true", help="skip the Ray runner of --bulk")
    parser.add_argument("--bulk-repeat", type=int, default=1, metavar="R",
                        help="alternating runs of each bulk runner; the median counts (default 1)")
    parser.add_argument("--load", action="store_true",
                        help="start the API server (1 and 2 workers) and load-test /v1/solve")
    parser.add_argument("--advise-load", action="store_true",
                        help="start the API server (2 workers) and time POST /v1/advise at the "
                             "default level on positions from arena hands (--game gin, "
                             "indian13, indian21, rummy500, rommy or basic)")
    parser.add_argument("--load-seconds", type=float, default=20.0,
                        help="seconds per load phase (default 20)")
    parser.add_argument("--seed", type=int, default=None,
                        help=f"generator seed (default {DEFAULT_SEED}; a --panel or --tune run: "
                             "its half's first seed)")
    parser.add_argument("--time-limit-ms", type=int, default=None,
                        help="time_limit_ms passed to solve() (default: the library's)")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--smoke", action="store_true",
                        help=f"correctness smoke run: {SMOKE_HANDS} hands per suite (hint suites "
                             f"too), {SMOKE_DISTINCT_OVERRIDES} distinct overrides; no anchors, "
                             "load, deadline or bulk")
    add_arena_arguments(parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns the exit code."""
    args = build_parser().parse_args(argv)
    if args.ladder is not None:
        return run_ladder_command(args)
    if isinstance(args.players, tuple) and not args.arena:
        print("error: --players NAME,... goes with --ladder or --arena", file=sys.stderr)
        return 2
    if args.tune is not None:
        return run_tune_command(args, sys.argv[1:] if argv is None else argv)
    if args.arena:
        return run_arena_command(args)
    if args.seed is None:
        args.seed = DEFAULT_SEED
    if args.advise_load:
        if args.game not in ADVISE_LOAD_GAMES:
            print(f"error: --advise-load plays {', '.join(ADVISE_LOAD_GAMES)} positions",
                  file=sys.stderr)
            return 2
        players = TABLE_PLAYERS if args.players is None else args.players
        if args.game == "gin" and args.players not in (None, 2):
            print("error: gin seats two players", file=sys.stderr)
            return 2
        advice = run_advise_load(args.load_seconds, seed=args.seed, game=args.game,
                                 players=players,
                                 progress=lambda line: print(line, file=sys.stderr))
        print(render_advise_load(advice))
        if args.json:
            write_json(advice, args.json)
        return 0
    if args.n < 1 or (args.bulk_n is not None and args.bulk_n < 1) or args.bulk_repeat < 1:
        print("error: --n, --bulk-n and --bulk-repeat must be at least 1", file=sys.stderr)
        return 2
    engines = list(SEARCH_ENGINES) if args.engine == "all" else [args.engine]
    hint_min, distinct = MIN_DEALS, None
    if args.smoke:
        args.n, args.anchors, args.load, args.deadline, args.bulk = SMOKE_HANDS, False, False, False, False
        hint_min, distinct = SMOKE_HANDS, SMOKE_DISTINCT_OVERRIDES
    results = run(args.suite, args.n, engines, anchors=args.anchors, load=args.load,
                  load_seconds=args.load_seconds, hints=args.hints, hint_min=hint_min,
                  overrides=args.overrides, overrides_distinct=distinct, deadline=args.deadline,
                  bulk=args.bulk, bulk_n=args.bulk_n, bulk_ray=not args.bulk_no_ray,
                  bulk_repeat=args.bulk_repeat,
                  seed=args.seed, time_limit_ms=args.time_limit_ms)
    print(render(results))
    if args.json:
        write_json(results, args.json)
    problems = correctness_problems(results)
    for problem in problems:
        print(f"CORRECTNESS: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
