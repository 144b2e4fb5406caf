"""Throughput of ``rummy-solver bulk``: hands/s with 1 and 2 processes and on Ray.

``python -m benchmarks.speed.bulk [--n 10000] [--log mixed|presets|reviews] [--processes 1 2]
[--no-ray] [--repeat R] [--json PATH]``

Builds a game log of ``n`` ``/v1/solve`` lines dealt by ``benchmarks.speed.suites``
-- ``mixed`` (default): a quarter each, interleaved: indian13 14 cards with
discard, indian21 22 cards with discard, rummy500 13 cards, gin 11 cards with
discard; ``presets``: every suite's hands (every preset) in equal shares,
shuffled (``preset_lines``) -- or of ``n`` ``review_game`` lines (``reviews``:
recorded gin hands, ``review_lines``), and times what ``rummy-solver bulk`` does with
it, once per runner and repeat, each run in a new Python process (cold
caches, as a real run starts): read the file
(``api.bulk.command.InputLines``), answer every line
(``api.bulk.on_pool.run_lines`` / ``api.bulk.on_ray.run_lines_ray``, a local Ray
instance started and stopped inside the timing), write the answers to a
file.  ``first answer`` is the time to the first answer line: the pool's or
Ray's start-up.  Runners take turns within each repeat, so a shared
machine's bursts of load spread over all of them; each runner's figure is
the median of its runs (its best and every run are in the JSON), and
``vs 1 process`` is the ratio of the medians (the median of each round's
own ratio beside it); ``peak MB`` the largest resident memory of the run's
process and of its largest worker (flat memory: the same peak for a short
log and a long one); the load average before the runs is shown, and each
round first measures ``parallel_headroom``: what two CPU-bound processes of
this session gain over one at that moment, the ceiling of any 2-process
speedup on a machine other sessions share.

Prints a Markdown table; never asserts on time.  The exit code is 1 when a
runner answered a line with an error or the runners disagree on an answer.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import multiprocessing
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from api.bulk.command import InputLines
from api.bulk.on_pool import run_lines
from api.bulk.on_ray import run_lines_ray  # imports ray only when it runs
from api.shared.operations import DEFAULT_SETTINGS
from benchmarks.speed.markdown import markdown_table
from benchmarks.speed.suites import DEFAULT_SEED, SUITES, generate
from solver.review.selfplay import at_random, follow, play

MIXED_SUITES: tuple[str, ...] = ("indian13_14", "indian21_22", "rummy500_13", "gin11")
DEFAULT_LINES = 10_000
RAY = 0
"""The ``processes`` value that stands for the Ray runner in a plan."""


def mixed_lines(n: int, seed: int = DEFAULT_SEED) -> list[str]:
    """``n`` JSON lines (``/v1/solve`` bodies with an ``id``), the suites of
    ``MIXED_SUITES`` taking turns."""
    per_suite = -(-n // len(MIXED_SUITES))
    cases = {name: generate(name, per_suite, seed) for name in MIXED_SUITES}
    lines = []
    for i in range(n):
        name = MIXED_SUITES[i % len(MIXED_SUITES)]
        body = cases[name][i // len(MIXED_SUITES)].payload(SUITES[name])
        lines.append(json.dumps({"id": f"{name}-{i}", **body}))
    return lines


def preset_lines(n: int, seed: int = DEFAULT_SEED) -> list[str]:
    """``n`` JSON lines (``/v1/solve`` bodies with an ``id``) dealt by every
    suite of ``benchmarks.speed.suites`` (hands of every preset, the dense ones
    too) in equal shares, shuffled: a plain game log of every game."""
    per_suite = -(-n // len(SUITES))
    lines = [json.dumps({"id": f"{name}-{i}", **case.payload(SUITES[name])})
             for name in SUITES for i, case in enumerate(generate(name, per_suite, seed))]
    random.Random(seed).shuffle(lines)
    return lines[:n]


def recorded_hand(number: int) -> str:
    """Gin hand ``number`` of a review log, played and recorded: the advisor
    (``novice``) against itself, every third hand against a random player."""
    policies = [follow, at_random] if number % 3 == 2 else [follow, follow]
    record = play("gin", policies, seed=number, level="novice",
                  players=[f"player {number % 7}", f"player {7 + number % 5}"])
    return json.dumps({"id": f"review-{number}", "op": "review_game", **record.to_dict(),
                       "seed": number})


def review_lines(n: int, seed: int = DEFAULT_SEED) -> list[str]:
    """``n`` JSON lines (``review_game`` bodies with an ``id`` and an ``op``):
    recorded gin hands played by ``solver.review.selfplay`` (seeds ``seed``
    on), reviewed at the default level; played on every core."""
    with multiprocessing.Pool(os.cpu_count() or 1) as pool:
        return pool.map(recorded_hand, range(seed, seed + n), chunksize=8)


def runner_name(processes: int) -> str:
    """How a runner is shown in the table."""
    if processes == RAY:
        return "ray, local instance"
    return "local, 1 process" if processes == 1 else f"local, {processes} processes"


def time_once(path: Path, out: Path, processes: int) -> dict[str, float]:
    """One run of the bulk pipeline over ``path`` into ``out``, in this
    process: seconds in all and to the first answer."""
    longest = DEFAULT_SETTINGS.max_body_bytes
    start = time.perf_counter()
    first = None
    with open(path, "rb") as source, open(out, "wb") as sink:
        if processes == RAY:
            answers = run_lines_ray(iter(InputLines(source, longest)))
        else:
            answers = run_lines(iter(InputLines(source, longest)), processes=processes)
        for answered in answers:
            if first is None:
                first = time.perf_counter() - start
            sink.write(answered.text.encode("utf-8") + b"\n")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    return {"seconds": time.perf_counter() - start, "first_answer_s": first or 0.0,
            "peak_mb": own, "worker_peak_mb": workers}


def time_fresh(path: Path, out: Path, processes: int) -> dict[str, float]:
    """``time_once`` in a new Python process, so every run starts as cold as
    ``rummy-solver bulk`` does (the solver's caches warm up within a process:
    a second in-process run over the same hands would be unfairly fast)."""
    command = [sys.executable, "-m", "benchmarks.speed.bulk", "--one", str(path), str(out),
               str(processes)]
    done = subprocess.run(command, capture_output=True, text=True, check=False,
                          cwd=Path(__file__).resolve().parents[2])
    if done.returncode != 0:
        raise RuntimeError(f"bulk run failed ({' '.join(command)}):\n{done.stderr[-2000:]}")
    timing: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return timing


LOGS: dict[str, Callable[[int, int], list[str]]] = {
    "mixed": mixed_lines, "presets": preset_lines, "reviews": review_lines}
"""The game logs a run may time, by name."""

HEADROOM_LOOP = 3_000_000
"""Additions a headroom probe makes (a few tenths of a second on an idle core)."""


def parallel_headroom(loop: int = HEADROOM_LOOP) -> float:
    """How much more two CPU-bound processes of this session get done at once
    than one, now: about 2 on an idle 2-core machine, about 1 when other
    sessions leave this one a core's worth (Linux divides the CPU between
    sessions -- autogroups -- before their processes).  The most two bulk
    processes could gain at that moment, whatever their code."""
    command = [sys.executable, "-c", f"x = 0\nfor i in range({loop}): x += i"]

    def run(copies: int) -> float:
        started = time.perf_counter()
        for child in [subprocess.Popen(command) for _ in range(copies)]:
            child.wait()
        return time.perf_counter() - started

    one = run(1)
    return 2 * one / run(2)


def run_bulk(n: int = DEFAULT_LINES, processes: Sequence[int] = (1, 2), ray: bool = True,
             seed: int = DEFAULT_SEED, repeat: int = 1,
             progress: Callable[[str], None] | None = None, log: str = "mixed") -> dict[str, Any]:
    """Time every runner on one game log (``LOGS[log]``); plain data for
    ``render`` / JSON."""
    ray_missing = importlib.util.find_spec("ray") is None
    plan = [*processes, *([RAY] if ray and not ray_missing else [])]
    suites = {"mixed": list(MIXED_SUITES), "reviews": ["gin review_game"]}.get(log, list(SUITES))
    results: dict[str, Any] = {"n": n, "seed": seed, "repeat": repeat, "log": log,
                               "suites": suites, "cpus": os.cpu_count(), "runs": [],
                               "disagreements": 0}
    if ray and ray_missing:
        results["ray_skipped"] = "ray is not installed (pip install -e '.[ray]')"
    timings: dict[int, list[dict[str, float]]] = {p: [] for p in plan}
    with tempfile.TemporaryDirectory(prefix="bulk-bench-") as folder:
        path = Path(folder) / f"{log}.jsonl"
        path.write_text("\n".join(LOGS[log](n, seed)) + "\n", encoding="utf-8")
        outputs = {p: Path(folder) / f"out-{p}.jsonl" for p in plan}
        headroom = []
        for round_ in range(repeat):
            headroom.append(parallel_headroom())
            for count in plan:
                load = os.getloadavg()[0]
                timing = {**time_fresh(path, outputs[count], count), "load_before": load}
                timings[count].append(timing)
                if progress is not None:
                    progress(f"bulk {round_ + 1}/{repeat}: {runner_name(count)}: "
                             f"{timing['seconds']:.1f} s (load average before {load:.1f}; "
                             f"two processes' headroom {headroom[-1]:.2f}x)")
        results["headroom"] = statistics.median(headroom)
        results["all_headroom"] = headroom
        reference = outputs[plan[0]].read_text(encoding="utf-8").splitlines() if plan else []
        for count in plan:
            answers = outputs[count].read_text(encoding="utf-8").splitlines()
            runs = timings[count]
            differing = sum(a != b for a, b in zip(answers, reference, strict=False))
            results["disagreements"] += differing
            seconds = statistics.median(t["seconds"] for t in runs)
            results["runs"].append({
                "runner": runner_name(count), "processes": count or None, "ray": count == RAY,
                "lines": len(answers),
                "errors": sum(1 for line in answers if "result" not in json.loads(line)),
                "differing": differing, "seconds": seconds,
                "best_seconds": min(t["seconds"] for t in runs),
                "first_answer_s": statistics.median(t["first_answer_s"] for t in runs),
                "load_before": statistics.median(t["load_before"] for t in runs),
                "hands_per_s": len(answers) / seconds,
                "all_seconds": [t["seconds"] for t in runs],
                "all_loads": [t["load_before"] for t in runs],
                "peak_mb": max(t.get("peak_mb", 0.0) for t in runs),
                "worker_peak_mb": max(t.get("worker_peak_mb", 0.0) for t in runs),
            })
    base = next((r for r in results["runs"] if r["processes"] == 1), None)
    for row in results["runs"]:
        row["speedup"] = row["hands_per_s"] / base["hands_per_s"] if base else None
        row["round_speedup"] = statistics.median(
            one / this for one, this in zip(base["all_seconds"], row["all_seconds"],
                                            strict=True)) if base else None
    return results


def render(results: dict[str, Any]) -> str:
    """The Markdown table of a ``run_bulk`` result."""
    rows = [[r["runner"], f"{r['lines']:,}", f"{r['seconds']:.1f}", f"{r['best_seconds']:.1f}",
             f"{r['first_answer_s']:.2f}", f"{r['hands_per_s']:,.0f}",
             "-" if r["speedup"] is None else f"{r['speedup']:.2f}x",
             "-" if r["round_speedup"] is None else f"{r['round_speedup']:.2f}x",
             r["errors"], r["differing"], f"{r['load_before']:.1f}",
             f"{r.get('peak_mb', 0):.0f} / {r.get('worker_peak_mb', 0):.0f}"]
            for r in results["runs"]]
    table = markdown_table(["runner", "lines", "seconds (median)", "best", "first answer (s)",
                            "hands/s", "vs 1 process", "per round", "errors",
                            "answers differing", "load avg before",
                            "peak MB: run / worker"], rows)
    what = {"mixed": "mixed /v1/solve", "reviews": "review_game (recorded gin hands)"}.get(
        results.get("log", "mixed"), "every preset's, shuffled, /v1/solve")
    title = (f"### Bulk throughput: {results['n']:,} {what} lines "
             f"({', '.join(results['suites'])}), {results['cpus']} CPUs, "
             f"median of {results['repeat']} alternating runs\n\n")
    notes = []
    if "headroom" in results:
        notes.append(f"Two CPU-bound processes of this session did {results['headroom']:.2f}x "
                     f"one's work in the same time (median of the rounds; 2.00x on an idle "
                     f"2-core machine): the most two processes could gain here then.")
    if "ray_skipped" in results:
        notes.append(results["ray_skipped"])
    return title + table + "".join(f"\n\n{note}" for note in notes)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed.bulk", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=DEFAULT_LINES, help="lines (default 10000)")
    parser.add_argument("--log", choices=list(LOGS), default="mixed",
                        help="the game log: four suites interleaved (mixed, default), every "
                             "preset's hands shuffled (presets) or recorded gin hands to "
                             "review (reviews)")
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2], metavar="N",
                        help="process counts to time (default: 1 2)")
    parser.add_argument("--no-ray", action="store_true", help="skip the Ray runner")
    parser.add_argument("--repeat", type=int, default=1,
                        help="runs per runner, taking turns; the median counts (default 1)")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help="generator seed")
    parser.add_argument("--json", metavar="PATH", help="also write the results as JSON")
    parser.add_argument("--one", nargs=3, metavar=("IN", "OUT", "PROCESSES"),
                        help=argparse.SUPPRESS)  # one timed run (what time_fresh starts)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark; returns the exit code (1: errors or disagreements)."""
    args = build_parser().parse_args(argv)
    if args.one:
        source, out, processes = args.one
        print(json.dumps(time_once(Path(source), Path(out), int(processes))))
        return 0
    if args.n < 1 or args.repeat < 1 or any(p < 1 for p in args.processes):
        print("error: --n, --repeat and --processes must be at least 1", file=sys.stderr)
        return 2
    results = run_bulk(args.n, args.processes, not args.no_ray, args.seed, args.repeat,
                       progress=lambda m: print(m, file=sys.stderr, flush=True), log=args.log)
    print(render(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    bad = results["disagreements"] or any(r["errors"] for r in results["runs"])
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
