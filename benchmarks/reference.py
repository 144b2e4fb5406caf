"""The figures of ``benchmarks/README.md``, rendered from the result files in ``benchmarks/results/``.

The README is a reference: what each benchmark is, how to run it, and
today's figures.  The figures are never typed by hand: each comes from a
result file, ``benchmarks/results/<name>.json``, which holds the command that
produced it, the commit it was measured at, the date, the host's cores and
the benchmark's own JSON (``data``), and this module writes them into the
README between marker comments::

    <!-- reference:speed -->
    ... generated ...
    <!-- /reference:speed -->

Commands::

    python -m benchmarks.reference            # rewrite the generated sections of README.md
    python -m benchmarks.reference --check    # exit 1 when README.md is not what this writes
    python -m benchmarks.reference --record NAME -- python -m benchmarks --n 100 --json {json}
    python -m benchmarks.reference --record NAME --from out.json -- python -m benchmarks ... --json {json}

``--record`` runs the command, where ``{json}`` stands for the path its JSON
is written to (appended as ``--json {json}`` when absent), keeps that JSON as
``benchmarks/results/<name>.json`` with the command, commit, date and cores,
and rewrites the README.  ``--from PATH`` keeps the JSON a run of the same
command already wrote to ``PATH`` instead of running it again (a long run
that was started by hand; its ``host`` says so).  A result file whose ``source`` is ``"notebook"``
was copied from the old lab notebook (the README before issue 39) and not
re-run; its rows say so.

Standard library only: the generator must run in a bare checkout, and the
test ``tests/test_benchmarks_reference.py`` fails when the README is stale.
"""

from __future__ import annotations

import argparse
import datetime
import difflib
import json
import math
import os
import platform
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
README_PATH = ROOT / "benchmarks" / "README.md"
RESULTS_DIR = ROOT / "benchmarks" / "results"
REGENERATE = "python -m benchmarks.reference"

KINDS = ("speed", "bulk", "advise_load", "goodput", "arena_gin", "arena_rotated", "arena_panel",
         "ladder", "review")
"""What a result file's ``data`` is: the JSON of ``python -m benchmarks`` (speed
suites, and the service's load, deadline and bulk phases), of ``python -m
benchmarks.speed.bulk`` (bulk alone, alternating runs), of ``--advise-load``,
of ``python -m benchmarks.service.goodput``, of the gin arena, of a
rotated-seat arena (Indian and lay-down games), of a panel's table
(``--arena --panel GAME``: the advisor against every bot of one half), of a
ladder (``--ladder GAME``), or of the review's benchmarks
(``benchmarks.speed.review``, ``benchmarks.speed.review_ordering``)."""
SOURCES = ("run", "notebook")
REQUIRED = ("name", "kind", "command", "commit", "date", "cores", "source", "data")
JSON_SLOT = "{json}"

_MARKER = re.compile(r"<!-- reference:(?P<name>[a-z0-9-]+) -->\n(?P<body>.*?)<!-- /reference:(?P=name) -->",
                     re.DOTALL)


# -- result files -----------------------------------------------------------------------------


def load_results(folder: Path = RESULTS_DIR) -> list[dict[str, Any]]:
    """Every result file of ``folder``, by name; ``ValueError`` naming the
    file and the field when one is malformed."""
    results = []
    for path in sorted(folder.glob("*.json")):
        result = json.loads(path.read_text(encoding="utf-8"))
        check_result(result, path.name)
        results.append(result)
    return results


def check_result(result: dict[str, Any], where: str) -> None:
    """Raise ``ValueError`` if ``result`` lacks a field or has an unknown kind or source."""
    missing = [key for key in REQUIRED if key not in result]
    if missing:
        raise ValueError(f"{where}: missing {', '.join(missing)}")
    if result["name"] + ".json" != where and where.endswith(".json"):
        raise ValueError(f"{where}: name {result['name']!r} is not the file's name")
    if result["kind"] not in KINDS:
        raise ValueError(f"{where}: unknown kind {result['kind']!r}; known: {', '.join(KINDS)}")
    if result["source"] not in SOURCES:
        raise ValueError(f"{where}: unknown source {result['source']!r}; known: {', '.join(SOURCES)}")
    if not isinstance(result["cores"], int) or result["cores"] < 1:
        raise ValueError(f"{where}: cores must be a positive integer")


def kind_of(command: Sequence[str]) -> str:
    """The kind of result a benchmark command line writes."""
    words = list(command)
    if "--ladder" in words:
        return "ladder"
    if any(word.endswith(("speed.review", "speed.review_ordering")) for word in words):
        return "review"
    if any(word.endswith("speed.bulk") for word in words) and "reviews" in words:
        return "review"  # bulk over recorded games: the review's throughput
    if "--arena" in words and "--panel" in words:
        return "arena_panel"
    if "--arena" in words:
        game = words[words.index("--game") + 1] if "--game" in words[:-1] else "gin"
        return "arena_gin" if game == "gin" else "arena_rotated"
    if "--advise-load" in words:
        return "advise_load"
    if any(word.endswith("goodput") for word in words):
        return "goodput"
    if any(word.endswith("speed.bulk") for word in words):
        return "bulk"
    return "speed"


OPTIONAL = ("notes", "tuning_deals", "subject")
"""Fields a result file may add: ``notes`` (a caveat its rows cannot carry),
``tuning_deals`` (what was tuned on these deals or this opponent: the rule of
``docs/experiments/README.md``), ``subject`` (the player a rotated-seat table
reports, when not the lineup's first)."""


def wrap(name: str, command: str, data: dict[str, Any], *, commit: str, date: str, cores: int,
         host: str, source: str = "run", **optional: str) -> dict[str, Any]:
    """A result file's content: the command and where it ran, around ``data``."""
    unknown = set(optional) - set(OPTIONAL)
    if unknown:
        raise ValueError(f"unknown fields {', '.join(sorted(unknown))}; optional: {', '.join(OPTIONAL)}")
    result: dict[str, Any] = {"name": name, "kind": kind_of(shlex.split(command)),
                              "command": command, "commit": commit, "date": date, "cores": cores,
                              "host": host, "source": source}
    result.update({key: optional[key] for key in OPTIONAL if optional.get(key)})
    result["data"] = data
    check_result(result, name + ".json")
    return result


def write_result(result: dict[str, Any], folder: Path = RESULTS_DIR) -> Path:
    """Write ``result`` as ``<folder>/<name>.json``."""
    path = folder / f"{result['name']}.json"
    path.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return path


def git_commit() -> str:
    """The checkout's short commit, ``+`` appended when the work tree differs from it."""
    def git(*args: str) -> str:
        done = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=False)
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD") or "unknown"
    dirty = git("status", "--porcelain", "--untracked-files=no", "--", "solver", "api", "benchmarks")
    return commit + ("+" if dirty else "")


def _join(words: Sequence[str]) -> str:
    """A command line as typed, ``{json}`` left unquoted."""
    return " ".join(word if word == JSON_SLOT else shlex.quote(word) for word in words)


def record(name: str, command: Sequence[str], folder: Path = RESULTS_DIR,
           existing: Path | None = None) -> Path:
    """Run ``command`` (see the module docstring), keep its JSON as
    ``<folder>/<name>.json``; with ``existing``, keep that file's JSON (what
    a run of ``command`` wrote) instead of running it."""
    words = list(command)
    if not any(JSON_SLOT in word for word in words):
        words += ["--json", JSON_SLOT]
    now = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    if existing is not None:
        data = json.loads(existing.read_text(encoding="utf-8"))
        host = f"{platform.processor() or platform.machine()}, run before it was recorded"
        return write_result(wrap(name, _join(words), data, commit=git_commit(), date=now,
                                 cores=os.cpu_count() or 1, host=host), folder)
    with tempfile.TemporaryDirectory(prefix="reference-") as scratch:
        out = Path(scratch) / "out.json"
        argv = [word.replace(JSON_SLOT, str(out)) for word in words]
        if argv[0] == "python":
            argv[0] = sys.executable
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
        done = subprocess.run(argv, cwd=ROOT, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{_join(words)} exited with {done.returncode}")
        data = json.loads(out.read_text(encoding="utf-8"))
    host = f"{platform.processor() or platform.machine()}, load average {load:.1f} at the start"
    result = wrap(name, _join(words), data, commit=git_commit(), date=now,
                  cores=os.cpu_count() or 1, host=host)
    return write_result(result, folder)


# -- numbers ----------------------------------------------------------------------------------


def _missing(value: Any) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def _us(value: float | None) -> str:
    """A duration given in microseconds, as the speed report writes it."""
    if value is None or _missing(value):
        return "-"
    if value < 10:
        return f"{value:.2f} µs"
    if value < 1000:
        return f"{value:.0f} µs"
    return f"{value / 1000:.2f} ms"


def _ms(value: float | None, digits: int = 0) -> str:
    return "-" if value is None or _missing(value) else f"{value:,.{digits}f}"


def _ratio(value: float | None) -> str:
    return "-" if value is None or _missing(value) else f"{value:.2f}x"


def _interval(figure: dict[str, Any] | None, *, percent: bool = False, sign: float = 1.0) -> str:
    """``+7.29 ± 1.06`` from ``{"mean", "half_width"}`` (a share as ``71.0 % ± 5.2 %``)."""
    if not figure or _missing(figure.get("mean")):
        return "-"
    mean = sign * figure["mean"]
    width: float | None = figure.get("half_width")
    if width is not None and _missing(width):
        width = None
    if percent:
        text = f"{100 * mean:.1f} %"
        return text if width is None else f"{text} ± {100 * width:.1f} %"
    text = f"{mean:+.2f}"
    return text if width is None else f"{text} ± {width:.2f}"


def _count(value: Any) -> str:
    return "-" if value is None or _missing(value) else f"{value:,.0f}"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], right: Sequence[int] = ()) -> list[str]:
    """A Markdown table; the columns in ``right`` aligned right."""
    lines = ["| " + " | ".join(header) + " |",
             "|" + "|".join("---:" if i in right else "---" for i in range(len(header))) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


# -- where a figure comes from ----------------------------------------------------------------


def _file_link(result: dict[str, Any]) -> str:
    return f"[`{result['name']}`](results/{result['name']}.json)"


def _measured(result: dict[str, Any]) -> str:
    """The commit, linked to the result file (which holds the command), marked
    when the figures were copied from the notebook."""
    commit = f"[`{result['commit']}`](results/{result['name']}.json)"
    return commit + (" (notebook)" if result["source"] == "notebook" else "")


def _origin(result: dict[str, Any]) -> str:
    """One sentence: the file, its command, commit, date and host."""
    copied = ("copied from the old notebook, not re-run; "
              if result["source"] == "notebook" else "")
    host = f", {result['host']}" if result.get("host") else ""
    return (f"From {_file_link(result)} ({copied}`{result['command']}` at `{result['commit']}`, "
            f"{result['date']}, {result['cores']} cores{host}).")


def _notes(results: Sequence[dict[str, Any]]) -> list[str]:
    """The results' notes (caveats a row cannot carry), a bullet per distinct note."""
    by_text: dict[str, list[str]] = {}
    for result in results:
        if result.get("notes"):
            by_text.setdefault(result["notes"], []).append(_file_link(result))
    return ([""] + [f"* {', '.join(links)}: {text}" for text, links in by_text.items()]) if by_text else []


def _of_kind(results: Sequence[dict[str, Any]], kind: str,
             has: Callable[[dict[str, Any]], bool] = lambda data: True) -> list[dict[str, Any]]:
    return [r for r in results if r["kind"] == kind and has(r["data"])]


def _nothing(what: str) -> list[str]:
    return [f"No result file holds {what} yet: record one with `{REGENERATE} --record NAME -- COMMAND`."]


# -- sections ---------------------------------------------------------------------------------


def speed_section(results: Sequence[dict[str, Any]]) -> list[str]:
    """Time per ``solve()`` call, both engines side by side, and the run's correctness."""
    found = _of_kind(results, "speed", lambda data: bool(data.get("suites")))
    if not found:
        return _nothing("a speed run")
    lines: list[str] = []
    for result in found:
        data = result["data"]
        rows = []
        compared = disagree = invalid = 0
        for suite in data["suites"]:
            engines = suite["engines"]
            search, cpsat = engines.get("search", {}), engines.get("cpsat", {})
            both = search.get("median_us") and cpsat.get("median_us")
            rows.append([suite["suite"], suite.get("description", ""), _count(search.get("n")),
                         _us(search.get("median_us")), _us(search.get("p99_us")),
                         _us(cpsat.get("median_us")), _us(cpsat.get("p99_us")),
                         _ratio(cpsat["median_us"] / search["median_us"] if both else None)])
            compared += suite.get("compared", 0)
            disagree += suite.get("disagreements", 0)
            invalid += sum(e.get("invalid", 0) for e in engines.values())
        lines += [_origin(result), ""]
        lines += _table(["suite", "hands", "n", "search median", "search p99", "CP-SAT median",
                         "CP-SAT p99", "CP-SAT / search (medians)"], rows, right=range(2, 8))
        lines += ["", f"Every answer validated ({invalid} invalid); the engines agreed on "
                      f"{compared - disagree:,} of {compared:,} hands both proved optimal; the run's "
                      f"correctness flag: {'true' if data.get('correct') else 'false'}."]
        lines += _anchors(data) + _hints(data)
        lines += _targets(data.get("targets", []), lambda name: not name.startswith(("deadline", "bulk")))
    return lines + _notes(found)


def _targets(targets: Sequence[dict[str, Any]], keep: Callable[[str], bool]) -> list[str]:
    """One line: how many of the round's targets were met, and the ones missed."""
    chosen = [t for t in targets if keep(t["target"]) and t.get("met") is not None]
    if not chosen:
        return []
    missed = [t for t in chosen if not t["met"]]
    text = f"Targets (`python -m benchmarks` restates them): {len(chosen) - len(missed)} of {len(chosen)} met"
    if missed:
        text += "; missed: " + "; ".join(
            f"{t['target']} {_target_value(t['measured'], t['unit'])} (goal {t['goal']} "
            f"{_target_value(t['limit'], t['unit'])})" for t in missed)
    return ["", text + "."]


def _target_value(value: float, unit: str) -> str:
    if unit == "µs":
        return _us(value)
    if unit == "x":
        return f"{value:.2f}x"
    return f"{value:,.2f} {unit}".strip()


def _anchors(data: dict[str, Any]) -> list[str]:
    """Ours against OpenSpiel and RLCard on the same hands, call after call."""
    runs = data.get("anchors", {}).get("runs", [])
    if not runs:
        return []
    rows = [[run["suite"], f"{run['anchor']} {run.get('version', '')}".strip(), _count(run["n"]),
             _us(run["ours_median_us"]), _us(run["theirs_median_us"]),
             _ratio(run["ratio_ours_over_theirs"]), _count(run["disagreements"])] for run in runs]
    return ["", "Anchors, timed side by side on the same hands:", "",
            *_table(["suite", "anchor", "n", "ours median", "theirs median", "ours / theirs",
                     "disagreements"], rows, right=range(2, 7))]


def _hints(data: dict[str, Any]) -> list[str]:
    """Each hint suite (one library call per deal), and the rule overrides' cost."""
    runs = data.get("hints", {}).get("runs", [])
    lines: list[str] = []
    if runs:
        rows = [[run["suite"], f"{run['kind']}, {run['cards']} cards", _count(run["n"]),
                 _ms(run["median_ms"], 2), _ms(run["p99_ms"], 2), _count(run.get("states_median")),
                 _count(run.get("states_p99")), f"{run.get('optimal', 0)}/{run['n']}"] for run in runs]
        lines += ["", "Hints, wall time of one library call per deal (*states*: the search's work):", "",
                  *_table(["suite", "call", "n", "median ms", "p99 ms", "states median", "states p99",
                           "exact"], rows, right=range(2, 7))]
    overrides = data.get("overrides")
    if overrides:
        growth = overrides.get("cache_growth", {}).get("snapshots", [])
        memory = (f"; RSS after {growth[-1]['after']} in a fresh process: "
                  f"{growth[-1]['rss_kib'] / 1024:.0f} MiB") if growth else ""
        lines += ["", f"Rule overrides ({overrides['suite']}, calls interleaved on the same hands): "
                      f"median with the preset's own value / plain "
                      f"{_ratio(overrides['ratio_same_over_plain'])}, with a different value "
                      f"{_ratio(overrides['ratio_different_over_plain'])}{memory}."]
    return lines


def service_section(results: Sequence[dict[str, Any]]) -> list[str]:
    """``/v1/solve`` under load, the deadline suite and bulk throughput."""
    found = _of_kind(results, "speed",
                     lambda data: bool(data.get("load") or data.get("bulk")
                                       or any(t["target"].startswith("deadline")
                                              for t in data.get("targets", []))))
    bulk_alone = _of_kind(results, "bulk")
    if not found and not bulk_alone:
        return _nothing("a load, deadline or bulk run")
    lines: list[str] = []
    for result in found:
        data = result["data"]
        lines += [_origin(result)]
        load = data.get("load", {})
        if load.get("runs"):
            rows = []
            for run in load["runs"]:
                peak, half = run["max"], run.get("half") or {}
                rows.append([str(run["workers"]), run["suite"], _ms(peak["requests_per_s"]),
                             _ms(peak["p50_ms"], 2), _ms(peak["p99_ms"], 2), _ms(run["half_rate"]),
                             _ms(half.get("p99_ms"), 2), _count(peak.get("errors"))])
            lines += ["", f"`POST /v1/solve`, {load.get('concurrency', '-')} keep-alive connections, "
                          f"{_ms(load.get('seconds'))} s a phase:", ""]
            lines += _table(["workers", "payload", "max req/s", "p50 ms", "p99 ms", "half rate req/s",
                             "p99 ms at half rate", "errors"], rows, right=(0, *range(2, 8)))
        bulk = data.get("bulk", {})
        if bulk.get("runs") and not bulk_alone:  # a bulk run of its own supersedes the phase
            rows = [[run["runner"], _count(run["lines"]), _ms(run["seconds"], 1),
                     _ms(run["hands_per_s"]), _ratio(run.get("speedup")), _count(run["errors"]),
                     _count(run["differing"])] for run in bulk["runs"]]
            lines += ["", f"`rummy-solver bulk`, {bulk['n']:,} mixed `/v1/solve` lines:", ""]
            lines += _table(["runner", "lines", "seconds", "hands/s", "vs 1 process", "errors",
                             "answers differing"], rows, right=range(1, 7))
        lines += _targets(data.get("targets", []), lambda name: name.startswith(("deadline", "bulk")))
    for result in bulk_alone:
        lines += [*([""] if lines else []), _origin(result), "", *_bulk_runs(result["data"])]
    return lines + _notes([*found, *bulk_alone])


def _bulk_runs(bulk: dict[str, Any]) -> list[str]:
    """``python -m benchmarks.speed.bulk``'s table: each runner's median of
    alternating runs, its best, the ratios, and what the machine allowed."""
    rows = [[run["runner"], _count(run["lines"]), _ms(run["seconds"], 1), _ms(run["best_seconds"], 1),
             _ms(run["first_answer_s"], 2), _ms(run["hands_per_s"]), _ratio(run["speedup"]),
             _ratio(run["round_speedup"]), _count(run["errors"]), _count(run["differing"]),
             _ms(run["load_before"], 1)] for run in bulk["runs"]]
    what = "mixed" if bulk.get("log", "mixed") == "mixed" else "every preset's, shuffled,"
    lines = [f"`rummy-solver bulk`, {bulk['n']:,} {what} `/v1/solve` lines, the median of "
             f"{bulk['repeat']} alternating runs:", ""]
    lines += _table(["runner", "lines", "seconds", "best", "first answer (s)", "hands/s",
                     "vs 1 process", "per round", "errors", "answers differing", "load avg"],
                    rows, right=range(1, 11))
    if "headroom" in bulk:
        lines += ["", f"Two CPU-bound processes of the same session did {bulk['headroom']:.2f}x "
                      f"one's work in the same time (median of the rounds; 2.00x on an idle "
                      f"2-core machine): the most two processes could gain then."]
    return lines


def goodput_section(results: Sequence[dict[str, Any]]) -> list[str]:
    """Goodput at 32, 200 and 1,000 connections, the half-load tail, fair shares."""
    found = _of_kind(results, "goodput", lambda data: "throughput" in data)
    if not found:
        return _nothing("a goodput run")
    lines: list[str] = []
    for result in found:
        data = result["data"]
        first = data["throughput"][0]["goodput"]
        rows = [[_count(row["connections"]), _ms(row["goodput"]),
                 "-" if not first else f"{100 * row['goodput'] / first:.0f} %",
                 "-" if _missing(row.get("share_200")) else f"{100 * row['share_200']:.1f} %",
                 _ms(row.get("p99_ms"), 1), _count(row.get("socket_errors"))]
                for row in data["throughput"]]
        half, fair = data.get("half_load", {}), data.get("fair_share", {})
        lines += [_origin(result), ""]
        lines += _table(["connections", "goodput (200s a second)", "of the 32-connection figure",
                         "answered 200", "p99 ms", "socket errors"], rows, right=range(6))
        rate = "" if _missing(half.get("rate")) else f", {_ms(half.get('rate'))} requests a second"
        lines += ["", f"Half load (open loop at half the 32-connection goodput{rate}): client p99 "
                      f"{_ms(half.get('p99_ms'), 2)} ms, server p99 at most "
                      f"{_ms(half.get('server_p99_at_most_ms'), 1)} ms (median of "
                      f"{data.get('repeat', 1)} repeats). Light solves beside two heavy streams: "
                      f"{_ms(100 * fair['share_200'] if fair.get('share_200') is not None else None, 1)} % "
                      f"answered 200, p99 {_ms(fair.get('p99_ms'), 1)} ms."]
    return lines + _notes(found)


def advise_load_section(results: Sequence[dict[str, Any]]) -> list[str]:
    """``advise()`` per decision by level, and ``POST /v1/advise`` at the default level."""
    found = _of_kind(results, "advise_load", lambda data: "levels" in data)
    if not found:
        return _nothing("an advise-load run")
    rows = []
    for result in found:
        data = result["data"]
        levels = data["levels"]

        def level(name: str, key: str, levels: dict[str, Any] = levels) -> str:
            return _ms(levels.get(name, {}).get(key))

        phases = {p["mode"].split(",")[0].replace("open loop ", ""): p for p in data.get("phases", [])
                  if "time_limit_ms" not in p["mode"]}
        limited: dict[str, Any] = next(
            (p for p in data.get("phases", []) if "time_limit_ms" in p["mode"]), {})
        loads = " / ".join(_ms(phases.get(mode, {}).get("p99_ms")) for mode in ("2/s", "4/s", "closed loop"))
        rows.append([f"{data['game']} ({data.get('players', '-')} players)", _count(data.get("positions")),
                     f"{level('novice', 'median_ms')} / {level('novice', 'p99_ms')}",
                     f"{level('standard', 'median_ms')} / {level('standard', 'p99_ms')}",
                     f"{level('expert', 'median_ms')} / {level('expert', 'p99_ms')}",
                     loads, _ms(limited.get("p99_ms")), _ms(data.get("slowest_on_server_ms")),
                     f"{_measured(result)}, {result['date'][:10]}"])
    lines = _table(["game", "positions", "novice median / p99 ms", "standard median / p99 ms",
                    "expert median / p99 ms", "`/v1/advise` p99 ms at 2/s / 4/s / closed loop",
                    "4/s with `time_limit_ms` 200", "slowest on the server ms", "measured at"],
                   rows, right=range(1, 8))
    return lines + _notes(found)


def arena_gin_section(results: Sequence[dict[str, Any]]) -> list[str]:
    """Gin: points per hand over mirrored pairs, and matches to 100."""
    found = _of_kind(results, "arena_gin", lambda data: "settings" in data)
    if not found:
        return _nothing("a gin arena run")
    rows = []
    for result in found:
        data = result["data"]
        settings, hands, matches = data["settings"], data.get("hands", {}), data.get("matches", {})
        won = hands.get("won") or {}
        rows.append([f"`{settings['a']}`", f"`{settings['b']}`", str(settings["seed"]),
                     f"{_count(hands.get('hands'))} ({_count(hands.get('pairs'))})" if hands else "-",
                     _interval(hands.get("points_a")),
                     f"{_count(won.get('a'))} / {_count(won.get('b'))} / {_count(won.get('none'))}"
                     if won else "-",
                     f"{_count(matches.get('matches'))} ({_count(matches.get('pairs'))})" if matches else "-",
                     _interval(matches.get("win_rate_a"), percent=True),
                     _measured(result), result.get("tuning_deals", "-")])
    lines = _table(["A", "B", "seed", "hands (pairs)", "points per hand for A", "hands won A / B / none",
                    "matches (pairs)", "matches won by A", "measured at", "tuned on these"],
                   rows, right=range(2, 8))
    return lines + _notes(found)


def _lineup(names: Sequence[str]) -> str:
    """``advisor, 2 × greedy`` for ``advisor, greedy, greedy``."""
    counts: dict[str, int] = {}
    for name in names:
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"`{name}`" if n == 1 else f"{n} × `{name}`" for name, n in counts.items())


def arena_rotated_section(results: Sequence[dict[str, Any]]) -> list[str]:
    """Indian and lay-down games: points per deal over rotated seats, and the paired difference."""
    found = _of_kind(results, "arena_rotated", lambda data: "players" in data)
    if not found:
        return _nothing("an Indian or lay-down arena run")
    rows = []
    for result in found:
        data = result["data"]
        lineup = data["lineup"]
        subject = result.get("subject", lineup[0])
        other = next(name for name in lineup if name != subject)
        differences = data.get("differences", {})
        if f"{subject} - {other}" in differences:
            difference = _interval(differences[f"{subject} - {other}"])
        else:
            difference = _interval(differences.get(f"{other} - {subject}"), sign=-1.0)
        difference = "-" if difference == "-" else f"{difference} vs `{other}`"
        player = data["players"].get(subject, {})
        wins = player.get("win_rate", player.get("round_win_rate"))
        unit = "rounds" if "rounds" in data else "games"
        rows.append([data["game"], _lineup(lineup), str(data.get("seed", "-")),
                     f"{_count(data['deals'])} ({_count(data.get(unit))})", f"`{subject}`",
                     _interval(player.get("points_per_deal")), difference,
                     "-" if _missing(wins) else f"{100 * wins:.1f} %",
                     _measured(result), result.get("tuning_deals", "-")])
    lines = _table(["game", "table", "seed", "deals (games or rounds)", "player", "points per deal",
                    "difference per deal (paired)", "wins", "measured at", "tuned on these"],
                   rows, right=(2, 3, 5, 7))
    return lines + _notes(found)


_MET = {True: "met", False: "**missed**", None: "not measured"}


def arena_panel_section(results: Sequence[dict[str, Any]]) -> list[str]:
    """Each game's held-out table: the advisor against every bot of a panel's
    half; gin's on its own, the other games' in one table."""
    found = _of_kind(results, "arena_panel", lambda data: "rows" in data)
    if not found:
        return _nothing("a panel run")
    lines: list[str] = []
    order = ("gin", "indian13", "indian21", "rummy500", "rommy", "basic")
    ordered = sorted(found, key=lambda r: (order.index(r["data"]["game"])
                                           if r["data"]["game"] in order else len(order),
                                           r["name"]))
    for result in (r for r in ordered if r["data"]["game"] == "gin"):
        data = result["data"]
        half = data["half"].replace("_", "-")
        lines += [f"**{data['game']}**, {half} half, seed {data['seed']}, "
                  f"`{data['advisor']}` against each bot. " + _origin(result), ""]
        rows = []
        for row in data["rows"]:
            rows.append([f"`{row['bot']}`", row["description"],
                         f"{_count(row['hands'])} ({_count(row['pairs'])})",
                         _interval(row["points"]),
                         _count(row["matches"]) if row["matches"] else "-",
                         _interval(row["match_win_rate"], percent=True), _targets_met(row)])
        lines += _table(["bot", "style", "hands (pairs)", "advisor points per hand", "matches",
                         "match win rate", "target (issue 36)"], rows, right=(2, 3, 4, 5))
        lines += ["", *_gin_panel_ends(data), ""]
    rotated = [r for r in ordered if r["data"]["game"] != "gin"]
    if rotated:
        lines += ["**The other games**, two players, `advisor` against each bot of a half, "
                  "seats rotated on every deal:", ""]
        lines.append("Sources: " + " ".join(
            f"**{r['data']['game']}**, {r['data']['half'].replace('_', '-')} half, seed "
            f"{r['data']['seed']}. {_origin(r)}" for r in rotated))
        rows = [[r["data"]["game"], f"`{row['bot']}`", row["description"], _count(row["deals"]),
                 _interval(row["points"]), _interval(row["difference"]), _targets_met(row)]
                for r in rotated for row in r["data"]["rows"]]
        lines += ["", *_table(["game", "bot", "style", "deals", "advisor points per deal",
                               "difference per deal (paired)", "target (issue 36)"], rows,
                              right=(3, 4, 5)), ""]
    return lines[:-1] + _notes(found)


def _targets_met(row: dict[str, Any]) -> str:
    return "; ".join(f"{t['target']}: {_MET[t['met']]}" for t in row["targets"]) or "-"


def _gin_panel_ends(data: dict[str, Any]) -> list[str]:
    """Gin: the advisor's points per hand by how hands ended, and each side's rates."""
    runs = data["runs"]
    ends = sorted({end for bot in data["bots"]
                   for end in (runs[bot].get("hands") or {}).get("points_a_by_end", {})})
    rows = []
    for bot in data["bots"]:
        hands = runs[bot].get("hands") or {}
        split = hands.get("points_a_by_end", {})
        sides = hands.get("sides") or {}
        mine, theirs = sides.get("a", {}), sides.get("b", {})

        def rate(side: dict[str, Any], key: str) -> str:
            return "-" if _missing(side.get(key)) else f"{100 * side[key]:.1f} %"

        rows.append([f"`{bot}`", *(f"{split.get(end, 0.0):+.2f}" for end in ends),
                     rate(mine, "knock_rate"), rate(mine, "gin_rate"), rate(mine, "undercut_rate"),
                     rate(theirs, "knock_rate"), rate(theirs, "undercut_rate"),
                     rate(mine, "pickup_without_meld_rate"), rate(mine, "discard_taken_rate"),
                     rate(theirs, "discard_taken_rate"), _ms(mine.get("decision_p99_ms"))])
    return ["Where the advisor's points per hand come from (the columns `a ...` are the hands the "
            "advisor knocked, `b ...` those the bot knocked, by outcome: they sum to its points "
            "per hand), and each side's play (*undercut*: share of that side's knocks "
            "undercut; *fed*: share of its discards the other side took next):", "",
            *_table(["bot", *ends, "advisor knocks", "advisor gins", "advisor undercut",
                     "bot knocks", "bot undercut", "advisor pickups without meld",
                     "advisor fed", "bot fed", "advisor p99 ms"], rows,
                    right=range(1, len(ends) + 10))]


def _ladder_line(result: dict[str, Any]) -> str:
    """A ladder in one line: its players from the top on the scale it is ordered by
    (``>``: a distinct step, ``≈``: not), and its distinct steps on both scales."""
    data = result["data"]
    ladder = data["ladder"]
    by_points = ladder.get("order_by", "elo") == "points"
    key, distinct = ("points_rating", "points_distinct") if by_points else ("rating", "distinct")
    parts = []
    for rung in ladder["rungs"]:
        value = f"{rung[key]:+.1f}" if by_points else f"{rung[key]:+.0f}"
        step = rung.get("step")
        parts.append(f"`{rung['player']}` {value}"
                     + ("" if step is None else (" >" if step.get(distinct) else " ≈")))
    steps = [rung["step"] for rung in ladder["rungs"] if rung.get("step")]
    scale = ("points a hand over" if by_points else "Elo of hands won,") + f" `{ladder['anchor']}`"
    return (f"* **{data['game']} ladder** ({scale}; >: a distinct step): {' '.join(parts)}; "
            f"distinct steps: {sum(1 for s in steps if s.get('points_distinct'))} of "
            f"{len(steps)} on points, {sum(1 for s in steps if s.get('distinct'))} on the Elo of "
            f"hands won. {_origin(result)}")


def _review_line(result: dict[str, Any]) -> str:
    """A review benchmark in one line: the ordering's correlation, or the speed and luck check."""
    data = result["data"]
    if "runs" in data:  # benchmarks.speed.bulk --log reviews
        runs = "; ".join(f"{run['runner']} {run['seconds']:.0f} s ({_ratio(run['speedup'])}, "
                         f"peak {run.get('worker_peak_mb') or run.get('peak_mb', 0):.0f} MB)"
                         for run in data["runs"])
        return (f"* **Bulk review of {data['n']:,} recorded gin hands** ({_count(data['disagreements'])}"
                f" answers differing): {runs}; two processes' headroom then "
                f"{data.get('headroom', math.nan):.2f}x. {_origin(result)}")
    if "games" in data:
        from benchmarks.speed.review_ordering import hand_loss, pearson

        parts = []
        for game, figures in data["games"].items():
            ranked = figures.get("order_by_points", [])
            players = figures.get("players", {})
            hand = ""
            if ranked and all(n in players for n in ranked):
                per_hand = pearson([hand_loss(players[n]) for n in ranked],
                                   [players[n]["arena_points"] for n in ranked])
                hand = f"; points lost per hand {per_hand:+.2f}"
            parts.append(f"{game}: {len(ranked)} players, rating against arena points r = "
                         f"{figures['pearson']:+.2f} (Spearman {figures['spearman']:+.2f}{hand}), "
                         f"{figures['pairs_alike']} of {figures['pairs']} pairs ordered alike")
        return f"* **Review ordering**, {'; '.join(parts)}. {_origin(result)}"
    cpu, split = data["cpu_s"], data["split"]
    nets = "; ".join(f"{name} luck {seat['mean_luck']:+.2f} ± {seat['luck_interval']:.2f}, net "
                     f"{seat['mean_net_luck']:+.2f} ± {seat['net_luck_interval']:.2f}"
                     for name, seat in data["seats"].items())
    deal = ", the deal passing from seat to seat" if data.get("rotate") else ""
    deal += ", luck against the baselines" if data.get("luck_baseline") else ""
    table = f"{data.get('players', 2)} players, "
    return (f"* **Review of {data['hands']:,} {data['game']} hands** ({table}{data['pairing']}{deal}, "
            f"level {data['level']}): CPU s per hand {cpu['median']} median, {cpu['p99']} p99; "
            f"{nets}; rest {split['mean_rest']:+.2f} ± {split['rest_interval']:.2f}, within 2 "
            f"noise in {split['within_2_noise']:,} of {split['hands']:,}. {_origin(result)}")


def review_section(results: Sequence[dict[str, Any]]) -> list[str]:
    """The ladders and the review's benchmarks (its speed and luck, its ordering, bulk over
    recorded games), a line each (docs/REVIEW_FIGURES.md has the tables)."""
    ladders = _of_kind(results, "ladder", lambda data: "ladder" in data)
    reviews = _of_kind(results, "review")
    if not ladders and not reviews:
        return _nothing("a ladder or a review benchmark")
    return [*(_ladder_line(r) for r in ladders), *(_review_line(r) for r in reviews)]


SECTIONS: dict[str, Callable[[Sequence[dict[str, Any]]], list[str]]] = {
    "speed": speed_section,
    "service": service_section,
    "goodput": goodput_section,
    "advise-load": advise_load_section,
    "arena-gin": arena_gin_section,
    "arena-rotated": arena_rotated_section,
    "arena-panel": arena_panel_section,
    "review": review_section,
}


# -- the README -------------------------------------------------------------------------------


def render_readme(text: str, results: Sequence[dict[str, Any]]) -> str:
    """``text`` with every generated section rewritten from ``results``;
    ``ValueError`` for a marker this module does not know."""
    def section(match: re.Match[str]) -> str:
        name = match.group("name")
        if name not in SECTIONS:
            raise ValueError(f"unknown generated section {name!r}; known: {', '.join(SECTIONS)}")
        body = "\n".join(SECTIONS[name](results))
        return (f"<!-- reference:{name} -->\n<!-- written by `{REGENERATE}` from "
                f"benchmarks/results/: do not edit by hand -->\n{body}\n<!-- /reference:{name} -->")

    return _MARKER.sub(section, text)


def stale_diff(readme: Path = README_PATH, folder: Path = RESULTS_DIR) -> str:
    """The unified diff between ``readme`` and what the generator writes ('' when equal)."""
    actual = readme.read_text(encoding="utf-8")
    expected = render_readme(actual, load_results(folder))
    return "".join(difflib.unified_diff(actual.splitlines(keepends=True),
                                        expected.splitlines(keepends=True),
                                        "benchmarks/README.md (checked in)",
                                        "benchmarks/README.md (generated)"))


def main(argv: Sequence[str] | None = None) -> int:
    """Command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog=REGENERATE, description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when benchmarks/README.md is not what the generator writes")
    parser.add_argument("--record", metavar="NAME",
                        help="run the command after '--' and keep its JSON as benchmarks/results/NAME.json")
    parser.add_argument("--from", dest="existing", metavar="PATH", default=None,
                        help="with --record: keep the JSON a run of the command already wrote "
                             "to PATH instead of running it")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="with --record: the benchmark command ({json}: where it writes JSON)")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if args.record:
        if not command:
            parser.error("--record needs a command after '--'")
        existing = Path(args.existing) if args.existing else None
        print(f"wrote {record(args.record, command, existing=existing).relative_to(ROOT)}",
              file=sys.stderr)
    elif command:
        parser.error("a command is only taken with --record")
    if args.check:
        diff = stale_diff()
        if diff:
            print(f"benchmarks/README.md is stale: run `{REGENERATE}` and commit the result\n"
                  + "".join(diff.splitlines(keepends=True)[:60]), file=sys.stderr)
            return 1
        return 0
    text = README_PATH.read_text(encoding="utf-8")
    rendered = render_readme(text, load_results())
    if rendered != text:
        README_PATH.write_text(rendered, encoding="utf-8")
        print("rewrote benchmarks/README.md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
