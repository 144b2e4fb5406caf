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
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def format_time_us(micros: float | None) -> str:
    """A duration given in microseconds, in the unit that reads best.

    >>> format_time_us(2.345), format_time_us(1234.5), format_time_us(2_500_000)
    ('2.35 µs', '1.23 ms', '2.50 s')
    """
    if micros is None or (isinstance(micros, float) and math.isnan(micros)):
        return "-"
    if micros < 10:
        return f"{micros:.2f} µs"
    if micros < 1000:
        return f"{micros:.0f} µs"
    if micros < 1_000_000:
        return f"{micros / 1000:.2f} ms"
    return f"{micros / 1_000_000:.2f} s"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """A Markdown pipe table; numeric-looking columns are right-aligned."""
    cells = [[str(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h)
              for i, h in enumerate(header)]
    numeric = [bool(cells) and all(_looks_numeric(r[i]) for r in cells) for i in range(len(header))]

    def line(values: Sequence[str]) -> str:
        parts = [v.rjust(w) if num else v.ljust(w)
                 for v, w, num in zip(values, widths, numeric, strict=True)]
        return "| " + " | ".join(parts) + " |"

    rule = "|" + "|".join(("-" * (w + 1) + ":") if num else ("-" * (w + 2))
                          for w, num in zip(widths, numeric, strict=True)) + "|"
    return "\n".join([line(header), rule, *(line(r) for r in cells)])


def _looks_numeric(text: str) -> bool:
    head = text.split(" ")[0].replace(",", "").replace("%", "").replace("x", "")
    try:
        float(head)
    except ValueError:
        return text == "-"
    return True


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
    """The performance issue's targets with the measured value and met / missed."""
    found: list[dict[str, Any]] = []

    def add(name: str, measured: float | None, limit: float, unit: str, lower: bool = True) -> None:
        if measured is None or math.isnan(measured):
            return
        met = measured <= limit if lower else measured >= limit
        found.append({"target": name, "measured": measured, "goal": "<=" if lower else ">=",
                      "limit": limit, "unit": unit, "met": met})

    engine_rows = [{"suite": s["suite"], **e} for s in results.get("suites", [])
                   for e in s["engines"].values()]
    anchor_runs = results.get("anchors", {}).get("runs", [])
    for anchor, limit, label in (("openspiel", 1.5, "gin10 vs OpenSpiel"),
                                 ("rlcard", 0.2, "gin10 vs RLCard (5x faster)")):
        run = _find(anchor_runs, suite="gin10", anchor=anchor)
        if run:
            add(f"{label}: ours / theirs", run["ratio_ours_over_theirs"], limit, "x")
    run = _find(anchor_runs, suite="gin11", anchor="openspiel")
    if run:
        add("gin11 vs OpenSpiel 11-discard loop: ours / theirs", run["ratio_ours_over_theirs"], 0.5, "x")
    for suite, stat, limit in (("indian13_14", "median_us", 1000), ("indian13_14", "p99_us", 5000),
                               ("indian21_22", "median_us", 10_000), ("indian21_22", "max_us", 250_000)):
        row = _find(engine_rows, suite=suite, engine="search")
        if row:
            add(f"{suite} search {stat.removesuffix('_us')}", row[stat], limit, "µs")
    cpsat = [r for r in engine_rows if r["engine"] == "cpsat"]
    if cpsat:
        add("CP-SAT proves optimality on every hand", min(r["optimal_share"] for r in cpsat), 1.0,
            "share", lower=False)
    load_run = _find(results.get("load", {}).get("runs", []), suite="gin10", workers=2)
    if load_run:
        add("API gin10 solves/s, 2 workers", load_run["max"]["requests_per_s"], 2000, "req/s",
            lower=False)
        if load_run["half"]:
            add("API gin10 p99 at half that rate, 2 workers", load_run["half"]["p99_ms"], 10, "ms")
    return found


def targets_table(found: Sequence[dict[str, Any]]) -> str:
    """Targets as a table."""
    rows = []
    for t in found:
        measured = (format_time_us(t["measured"]) if t["unit"] == "µs"
                    else f"{t['measured']:,.2f} {t['unit']}")
        limit = format_time_us(t["limit"]) if t["unit"] == "µs" else f"{t['limit']:,g} {t['unit']}"
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
                     ("rummy-solver", "ortools", "open_spiel", "rlcard", "fastapi", "uvicorn")},
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
        suites_table(results["suites"]) if results.get("suites") else "no suites run",
    ]
    if "anchors" in results:
        parts += ["", "Anchors (same hands, timed side by side in this run):", "",
                  anchors_table(results["anchors"])]
    if "load" in results:
        parts += ["", "API load (POST /v1/solve, 127.0.0.1, "
                      f"{results['load'].get('concurrency', '?')} connections, "
                      f"{results['load'].get('seconds', '?')} s per phase):", "",
                  load_table(results["load"])]
    found = results.get("targets") or []
    if found:
        parts += ["", "Targets of the performance issue:", "", targets_table(found)]
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
