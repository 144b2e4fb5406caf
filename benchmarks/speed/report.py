"""Render benchmark results: Markdown tables for stdout / the README, and JSON.

The tables are plain Markdown so a run's output can be pasted into
``benchmarks/README.md`` as is.  ``targets()`` restates the speed targets of
the performance issue against the measured numbers; it reports, it never
fails a run (correctness is what the exit code reflects).
"""

from __future__ import annotations

import contextlib
import datetime
import importlib.metadata
import json
import math
import os
import platform
import subprocess
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.speed.bulk import render as render_bulk
from benchmarks.speed.markdown import format_time_us, markdown_table

ROOT = Path(__file__).resolve().parents[2]


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def suites_table(suites: Sequence[dict[str, Any]]) -> str:
    """One row per suite and engine."""
    rows = []
    for suite in suites:
        for engine, s in suite["engines"].items():
            disagreements = (f"{suite['disagreements']}/{suite['compared']}"
                             if len(suite["engines"]) > 1 else "-")
            rows.append([
                suite["suite"], engine, s["n"], format_time_us(s["median_us"]),
                format_time_us(s["p90_us"]), format_time_us(s["p99_us"]),
                format_time_us(s["max_us"]), f"{s['hands_per_s']:,.0f}",
                f"{100 * s['optimal_share']:.1f}%",
                s["invalid"] if s["validated"] else f"{s['invalid']} (not validated)",
                disagreements,
            ])
        for engine, reason in suite.get("skipped_engines", {}).items():
            rows.append([suite["suite"], engine, 0, "-", "-", "-", "-", "-", "-", "-", reason])
    return markdown_table(
        ["suite", "engine", "n", "median", "p90", "p99", "max", "hands/s", "optimal",
         "invalid", "engines disagree"], rows)


def anchors_table(anchors: dict[str, Any]) -> str:
    """One row per anchor comparison."""
    rows = []
    for run in anchors.get("runs", []):
        note = ""
        if "openspiel_11card_calls_wrong" in run:
            note = (f"OpenSpiel 11-card min_deadwood wrong on {run['openspiel_11card_calls_wrong']}"
                    f"/{run['n']} ({format_time_us(run['openspiel_11card_median_us'])} median)")
        rows.append([
            run["suite"], f"{run['anchor']} {run['version']}", run["n"],
            format_time_us(run["ours_median_us"]), format_time_us(run["theirs_median_us"]),
            f"{run['ratio_ours_over_theirs']:.2f}x", run["disagreements"], note or "-",
        ])
    for name, reason in anchors.get("missing", {}).items():
        rows.append(["-", name, 0, "-", "-", "-", "-", reason])
    return markdown_table(["suite", "anchor", "n", "ours median", "theirs median", "ours / theirs",
                           "disagreements", "note"], rows)


def by_rules_table(suites: Sequence[dict[str, Any]]) -> str:
    """Per rule override (contract rounds), per engine: n, median, p99, max."""
    rows = []
    for suite in suites:
        for engine, summary in suite["engines"].items():
            for label, stats in summary.get("by_rules", {}).items():
                rows.append([suite["suite"], engine, label, stats["n"],
                             format_time_us(stats["median_us"]), format_time_us(stats["p99_us"]),
                             format_time_us(stats["max_us"])])
    if not rows:
        return ""
    return markdown_table(["suite", "engine", "rules", "n", "median", "p99", "max"], rows)


def hints_table(hints: dict[str, Any]) -> str:
    """One row per hint suite."""
    rows = []
    for run in hints.get("runs", []):
        call = "draw_hint" if run["kind"] == "draw" else "discard_hint"
        rows.append([run["suite"], f"{call}, {run['cards']} cards", run["n"],
                     _ms(run["median_ms"]), _ms(run["p90_ms"]), _ms(run["p99_ms"]),
                     _ms(run["max_ms"]), _states(run.get("states_median")),
                     _states(run.get("states_p99")), f"{run['optimal']}/{run['n']}",
                     run["invalid"]])
    return markdown_table(["suite", "call", "n", "median ms", "p90 ms", "p99 ms", "max ms",
                           "states median", "states p99", "exact", "wrong"], rows)


def hints_by_turn_table(hints: dict[str, Any]) -> str:
    """The mid-game hint suites per turn the positions were taken at."""
    rows = []
    for run in hints.get("runs", []):
        for turn, stats in run.get("by_turn", {}).items():
            rows.append([run["suite"], turn, stats["n"], _ms(stats["median_ms"]),
                         _ms(stats["p99_ms"]), _ms(stats["max_ms"]),
                         _states(stats["states_median"]), _states(stats["states_p99"])])
    if not rows:
        return ""
    return markdown_table(["suite", "turn", "n", "median ms", "p99 ms", "max ms",
                           "states median", "states p99"], rows)


def _states(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def overrides_tables(overrides: dict[str, Any]) -> str:
    """Timing per mode, then RSS and cache sizes around the distinct overrides."""
    rules = {"plain": "-", "same": json.dumps(overrides["same"]),
             "different": json.dumps(overrides["different"])}
    plain = overrides["modes"]["plain"]["median_us"]
    rows = [[mode, rules.get(mode, "?"), overrides["n"], format_time_us(st["median_us"]),
             format_time_us(st["p90_us"]), format_time_us(st["p99_us"]), format_time_us(st["max_us"]),
             f"{st['median_us'] / plain:.2f}x"] for mode, st in overrides["modes"].items()]
    timing = markdown_table(["mode", "rules", "n", "median", "p90", "p99", "max", "median / plain"],
                            rows)
    growth = overrides.get("cache_growth", {})
    if "error" in growth:
        return "\n".join([timing, "", f"cache growth not measured: {growth['error']}"])
    short = {"solver.rules._INTERNED": "rules", "solver.rules._BY_REQUEST": "by request",
             "solver.rules._DEALS": "deals", "solver.engines.caches._SHARED_ROWS": "search rows",
             "solver.engines.caches._CANDIDATES": "candidates",
             "solver.objective.passes_for": "passes"}
    memory_rows = []
    for snap in growth.get("snapshots", []):
        caches = snap["caches"]
        memory_rows.append([snap["after"], _mib(snap["rss_kib"]), _mib(snap["max_rss_kib"]),
                            *(caches.get(k, "-") for k in short)])
    memory = markdown_table(["after", "RSS MiB", "peak RSS MiB", *short.values()], memory_rows)
    own = overrides.get("benchmark_process_at_start", {}).get("rss_kib")
    where = (f"in a fresh process after {overrides['n']} preset solves"
             if growth.get("fresh_process") else "in the benchmark process")
    note = ("" if own is None else
            f"\n\n(The benchmark process itself held {_mib(own)} MiB RSS when this suite started: "
            "the solver's bounded caches after every suite before it.)")
    return "\n".join([timing, "", f"Memory with distinct overrides ({growth.get('knob')} values never "
                       f"seen before, {where}; {growth.get('seconds', 0):.1f} s in all):", "",
                       memory + note])


def _mib(kib: int | None) -> str:
    return "-" if kib is None else f"{kib / 1024:.1f}"


def deadline_tables(deadline: dict[str, Any]) -> str:
    """Hostile bodies one by one, then the heavy concurrent solves."""
    if "skipped" in deadline:
        return f"deadline suite skipped: {deadline['skipped']}"
    parts = []
    if "error" in deadline:
        parts.append(f"server error: {deadline['error']}")
    rows = []
    for r in deadline.get("hostile", []):
        limit = r["time_limit_ms"] if r["time_limit_ms"] is not None else f"default ({r['limit_ms']})"
        within = "yes" if r["client_within"] and r["server_within"] is not False else "NO"
        rows.append([r["name"], r["path"], limit, r["status"] if r["status"] is not None else "error",
                     f"{r['client_ms']:.1f}", "-" if r["server_ms"] is None else f"{r['server_ms']:.1f}",
                     f"{r['bytes']:,}", within])
    if rows:
        parts.append(markdown_table(["body", "path", "time_limit_ms", "status", "client ms",
                                     "server ms", "bytes", "within limit + 100 ms"], rows))
    heavy = deadline.get("heavy")
    if heavy:
        statuses = heavy["statuses"]
        other = sum(v for k, v in statuses.items() if k not in ("200", "503"))
        probe = heavy["healthz"]
        parts += ["", f"{heavy['requests']} concurrent heavy solves (time_limit_ms {heavy['limit_ms']}) "
                      f"with /healthz every 50 ms:", "", markdown_table(
            ["200", "503", "other", "connection errors", "server ms max", "server ms median",
             "client ms max", "over limit + 100 (server)", "healthz probes", "healthz p50 ms",
             "healthz p99 ms", "healthz max ms", "workers replaced"],
            [[statuses.get("200", 0), statuses.get("503", 0), other, heavy["connection_errors"],
              _ms(heavy["server_ms_max"]), _ms(heavy["server_ms_median"]), _ms(heavy["client_ms_max"]),
              heavy["server_over_limit"], probe["probes"], _ms(probe["p50_ms"]), _ms(probe["p99_ms"]),
              _ms(probe["max_ms"]), len(deadline.get("replaced_workers", []))]])]
    if deadline.get("clean_shutdown") is False:
        parts.append("the server did not shut down cleanly")
    return "\n".join(parts)


def bulk_section(bulk: dict[str, Any]) -> str:
    """``benchmarks.speed.bulk.render`` of the bulk run (or why it was skipped)."""
    if "skipped" in bulk:
        return f"bulk skipped: {bulk['skipped']}"
    return render_bulk(bulk)


def load_table(load: dict[str, Any]) -> str:
    """One row per worker count and payload suite."""
    if "skipped" in load:
        return f"load test skipped: {load['skipped']}"
    rows = []
    for run in load.get("runs", []):
        peak, half = run["max"], run["half"] or {}
        rows.append([
            run["workers"], run["suite"], f"{peak['requests_per_s']:,.0f}", _ms(peak["p50_ms"]),
            _ms(peak["p99_ms"]), f"{run['half_rate']:,.0f}", _ms(half.get("p50_ms")),
            _ms(half.get("p99_ms")), peak["errors"] + half.get("errors", 0),
            f"{100 * (peak.get('client_cpu_share') or 0):.0f}%",
        ])
    table = markdown_table(["workers", "payload", "max req/s", "p50 ms", "p99 ms",
                            "half rate req/s", "p50 ms @half", "p99 ms @half", "errors",
                            "client CPU @max"], rows)
    problems = [f"server with {e['workers']} worker(s): {e['error']}" for e in load.get("errors", [])]
    problems += [f"server with {w} worker(s) did not shut down cleanly"
                 for w, ok in load.get("clean_shutdown", {}).items() if not ok]
    return "\n".join([table, *problems])


def _find(rows: Sequence[dict[str, Any]], **match: object) -> dict[str, Any] | None:
    return next((r for r in rows if all(r.get(k) == v for k, v in match.items())), None)


def targets(results: dict[str, Any]) -> list[dict[str, Any]]:
    """This round's targets (issues 9.5, 9.6, 10.8 and the reliability work)
    with the measured value and met / missed; ``limit`` ``None`` is shown as
    information only."""
    found: list[dict[str, Any]] = []

    def add(name: str, measured: float | None, limit: float | None, unit: str,
            lower: bool = True) -> None:
        if measured is None or math.isnan(measured):
            return
        met = None if limit is None else (measured <= limit if lower else measured >= limit)
        found.append({"target": name, "measured": measured, "goal": "<=" if lower else ">=",
                      "limit": limit, "unit": unit, "met": met})

    engine_rows = [{"suite": s["suite"], **e} for s in results.get("suites", [])
                   for e in s["engines"].values()]
    anchor_runs = results.get("anchors", {}).get("runs", [])
    run = _find(anchor_runs, suite="gin10", anchor="rlcard")
    if run:
        add("gin10 vs RLCard: ours / theirs", run["ratio_ours_over_theirs"], 0.5, "x")
    run = _find(anchor_runs, suite="gin11", anchor="openspiel")
    if run:
        add("gin11 vs OpenSpiel 11-call loop: ours / theirs", run["ratio_ours_over_theirs"], 0.5, "x")
    run = _find(anchor_runs, suite="gin10", anchor="openspiel")
    if run:
        add("gin10 vs OpenSpiel (information, no goal)", run["ratio_ours_over_theirs"], None, "x")
    for suite, stat, limit in (("indian13_14", "median_us", 1000), ("indian13_14", "p99_us", 5000),
                               ("indian21_22", "median_us", 10_000), ("indian21_22", "max_us", 250_000),
                               ("contract12", "median_us", 2000), ("contract12", "p99_us", 20_000),
                               ("kalooki14", "median_us", 2000), ("kalooki14", "p99_us", 20_000)):
        row = _find(engine_rows, suite=suite, engine="search")
        if row:
            add(f"{suite} search {stat.removesuffix('_us')}", row[stat], limit, "µs")
    hint_runs = results.get("hints", {}).get("runs", [])
    for suite, stat, limit_ms in (("hints_indian13_draw", "median_ms", 5),
                                  ("hints_indian13_draw", "p99_ms", 25),
                                  ("hints_indian21_draw", "median_ms", 30),
                                  ("hints_indian21_draw", "p99_ms", 150),
                                  ("hints_indian13_discard", "p99_ms", 5),
                                  ("hints_indian13_draw_mid", "median_ms", 5),
                                  ("hints_indian13_draw_mid", "p99_ms", 25),
                                  ("hints_indian21_draw_mid", "median_ms", 30),
                                  ("hints_indian21_draw_mid", "p99_ms", 150),
                                  ("hints_indian13_discard_mid", "p99_ms", 5)):
        row = _find(hint_runs, suite=suite)
        if row and row[stat] is not None:
            add(f"{suite} {stat.removesuffix('_ms')}", row[stat] * 1000, limit_ms * 1000, "µs")
    overrides = results.get("overrides", {})
    if "ratio_same_over_plain" in overrides:
        add("overrides: solve(rules={penalty_tiers: 3}) / solve() medians",
            overrides["ratio_same_over_plain"], 1.2, "x")
    _deadline_targets(results.get("deadline", {}), add)
    bulk_runs = results.get("bulk", {}).get("runs", [])
    two = _find(bulk_runs, processes=2)
    if two and two.get("speedup") is not None:
        add("bulk: 2 processes / 1 process, hands/s", two["speedup"], 1.7, "x", lower=False)
    return found


def _deadline_targets(deadline: dict[str, Any], add: Callable[..., None]) -> None:
    if not deadline.get("hostile") and not deadline.get("heavy"):
        return
    hostile = deadline.get("hostile", [])
    if hostile:
        add("deadline: hostile bodies, max time past the limit (client-side)",
            max(max(0.0, r["client_ms"] - r["limit_ms"]) for r in hostile), 100, "ms")
        add("deadline: hostile bodies, max time past the limit (server-side)",
            max(max(0.0, (r["server_ms"] or 0.0) - r["limit_ms"]) for r in hostile), 100, "ms")
    heavy = deadline.get("heavy")
    if heavy and heavy.get("server_ms_max") is not None:
        add(f"deadline: {heavy['requests']} heavy solves, max time past "
            f"{heavy['limit_ms']} ms (server-side)",
            max(0.0, heavy["server_ms_max"] - heavy["limit_ms"]), 100, "ms")
    errors = sum(1 for r in hostile if r["status"] is None)
    if heavy:
        errors += heavy["connection_errors"] + heavy["healthz"]["errors"]
    add("deadline: connection errors (hostile, heavy, /healthz)", errors, 0, "")
    add("deadline: workers replaced", len(deadline.get("replaced_workers", [])), 0, "")
    if heavy and heavy["healthz"]["max_ms"] is not None:
        add("deadline: /healthz max during the heavy solves", heavy["healthz"]["max_ms"], 1000, "ms")


def targets_table(found: Sequence[dict[str, Any]]) -> str:
    """Targets as a table."""
    rows = []
    for t in found:
        if t["unit"] == "µs":
            measured = format_time_us(t["measured"])
        elif t["unit"]:
            measured = f"{t['measured']:,.2f} {t['unit']}"
        else:
            measured = f"{t['measured']:,g}"
        if t["limit"] is None:
            rows.append([t["target"], measured, "-", "info"])
            continue
        limit = (format_time_us(t["limit"]) if t["unit"] == "µs"
                 else f"{t['limit']:,g} {t['unit']}".rstrip())
        rows.append([t["target"], measured, f"{t['goal']} {limit}", "met" if t["met"] else "MISSED"])
    return markdown_table(["target", "measured", "goal", "status"], rows)


def environment() -> dict[str, Any]:
    """Where and when the run happened: machine, versions, commit."""
    def version(name: str) -> str | None:
        try:
            return importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            return None

    cpu = platform.processor() or platform.machine()
    try:
        for text in Path("/proc/cpuinfo").read_text().splitlines():
            if text.startswith("model name"):
                cpu = text.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    commit = None
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                                text=True, timeout=5, check=False).stdout.strip() or None
        changed = subprocess.run(["git", "status", "--porcelain", "--", "solver", "api"], cwd=ROOT,
                                 capture_output=True, text=True, timeout=5, check=False).stdout
        if commit and changed.strip():
            commit += " + uncommitted changes in solver/ or api/"
    return {
        "date": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
        "commit": commit,
        "versions": {name: version(name) for name in
                     ("rummy-solver", "ortools", "open_spiel", "rlcard", "fastapi", "uvicorn",
                      "httpx", "ray")},
    }


def render(results: dict[str, Any]) -> str:
    """The whole report as Markdown text."""
    env = results["environment"]
    parts = [
        f"rummy-solver benchmarks, {env['date']}, {env['cpu']} ({env['cpu_count']} cores), "
        f"Python {env['python']}, commit {env['commit']}, "
        f"load average at start {env.get('load_average_at_start')}",
        "",
        "Time per hand is one full solve() call (parse, engine, Solution).",
        "",
        suites_table(results["suites"]) if results.get("suites") else "no solve suites run",
    ]
    per_rules = by_rules_table(results.get("suites", []))
    if per_rules:
        parts += ["", "Per rule override (contract rounds; 13 cards dealt in every round):", "",
                  per_rules]
    if "anchors" in results:
        parts += ["", "Anchors (same hands, timed side by side in this run):", "",
                  anchors_table(results["anchors"])]
    if "hints" in results:
        parts += ["", "Hints (one library call per deal, wall time; states = search work, "
                  "states visited plus the options they weigh; exact = the hint says optimal):",
                  "", hints_table(results["hints"])]
        by_turn = hints_by_turn_table(results["hints"])
        if by_turn:
            parts += ["", "Mid-game hint suites by the turn of the position:", "", by_turn]
    if "overrides" in results:
        parts += ["", "Rule overrides (indian13, 14 cards + discard, the same hands, calls "
                      "interleaved):", "", overrides_tables(results["overrides"])]
    if "load" in results:
        parts += ["", "API load (POST /v1/solve, 127.0.0.1, "
                      f"{results['load'].get('concurrency', '?')} connections, "
                      f"{results['load'].get('seconds', '?')} s per phase):", "",
                  load_table(results["load"])]
    if "deadline" in results:
        parts += ["", f"Deadlines (the API server, {results['deadline'].get('workers', '?')} workers, "
                      "127.0.0.1; server ms from the access log):", "",
                  deadline_tables(results["deadline"])]
    if "bulk" in results:
        parts += ["", bulk_section(results["bulk"])]
    found = results.get("targets") or []
    if found:
        parts += ["", "Targets of this round:", "", targets_table(found)]
    return "\n".join(parts)


def write_json(results: dict[str, Any], path: str | Path) -> None:
    """Write ``results`` as indented JSON (NaN becomes null)."""
    Path(path).write_text(json.dumps(_clean(results), indent=2, ensure_ascii=False) + "\n")


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value
