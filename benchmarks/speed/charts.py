"""Charts of a benchmark run, as SVG: ``python -m benchmarks.speed.charts bench.json -o benchmarks/charts/``.

``bench.json`` is what ``python -m benchmarks ... --json bench.json`` writes.
Each kind of chart is one function in ``CHART_KINDS``: it takes the whole
results document and returns the charts it can draw from it (none when the
document lacks its part), so one command draws whatever a run measured, and
a new part of the benchmark (the arena's JSON) adds a function, not a flag.

* ``solve_latency``: the per-hand time of one full ``solve()`` call, a box per
  suite and engine, log scale.
* ``arena_points``: the arena's points per hand with 95 % intervals, one row
  per pairing, and the match win rates (``benchmarks/arena``'s JSON: give
  each pairing's file, ``python -m benchmarks.speed.charts a.json b.json ...``).

The SVGs are byte-for-byte reproducible from the same JSON (no date in the
metadata, fixed element ids, text kept as text), so a regenerated chart only
shows in a diff when the numbers changed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only: never a window, works without a display

import matplotlib.pyplot as plt  # after the backend is chosen
from matplotlib.figure import Figure
from matplotlib.ticker import FuncFormatter
from matplotlib.typing import RcKeyType

Results = Mapping[str, Any]
"""A results document, as ``benchmarks.speed.report.write_json`` wrote it."""

STYLE: dict[RcKeyType, Any] = {
    "svg.hashsalt": "rummy-solver",  # element ids from a fixed salt: same JSON, same bytes
    "svg.fonttype": "none",  # text stays text: small files, readable by search and diff
    "font.family": "DejaVu Sans",
    "font.size": 9,
    "axes.grid": True,
    "grid.alpha": 0.3,
}
ENGINE_COLOURS = {"search": "#1f77b4", "cpsat": "#ff7f0e"}
OTHER_COLOURS = ("#2ca02c", "#d62728", "#9467bd", "#8c564b")
WHISKER_PERCENTILES = (1, 99)


@dataclass(frozen=True, slots=True)
class Chart:
    """One drawn chart: ``name`` is the file name without ``.svg``."""

    name: str
    figure: Figure


ChartKind = Callable[[Results], list[Chart]]
"""Draws every chart of one kind that ``Results`` holds data for (``[]`` if none)."""


def duration_label(micros: float) -> str:
    """A tick label for a time in microseconds, in the unit that reads best.

    >>> [duration_label(us) for us in (10, 100, 1000, 25_000, 1_000_000, 0.5)]
    ['10 µs', '100 µs', '1 ms', '25 ms', '1 s', '0.5 µs']
    """
    for unit, size in (("s", 1e6), ("ms", 1e3), ("µs", 1.0)):
        if micros >= size or unit == "µs":
            return f"{micros / size:g} {unit}"
    raise AssertionError("unreachable")


def _colour(name: str, index: int) -> str:
    return ENGINE_COLOURS.get(name, OTHER_COLOURS[index % len(OTHER_COLOURS)])


def solve_latency_charts(results: Results) -> list[Chart]:
    """Per-hand ``solve()`` times: one box per suite and engine, suites top to bottom in run order."""
    suites = [s for s in results.get("suites", ())
              if any(e.get("per_hand_us") for e in s.get("engines", {}).values())]
    if not suites:
        return []
    engines = list(dict.fromkeys(name for s in suites for name in s["engines"]))
    box_height = 0.8 / len(engines)
    with plt.rc_context(STYLE):
        figure, axes = plt.subplots(figsize=(9, 0.5 + 0.45 * len(suites) * max(1, len(engines) * 0.7)))
        for index, engine in enumerate(engines):
            rows = [(row, s["engines"][engine]["per_hand_us"]) for row, s in enumerate(suites)
                    if s["engines"].get(engine, {}).get("per_hand_us")]
            if not rows:
                continue
            offset = (index - (len(engines) - 1) / 2) * box_height
            colour = _colour(engine, index)
            axes.boxplot(
                [list(times) for _, times in rows],
                positions=[row + offset for row, _ in rows], widths=box_height * 0.85,
                orientation="horizontal", whis=WHISKER_PERCENTILES, patch_artist=True,
                boxprops={"facecolor": colour, "alpha": 0.45, "edgecolor": colour},
                medianprops={"color": "black"}, whiskerprops={"color": colour},
                capprops={"color": colour},
                flierprops={"marker": ".", "markersize": 3, "markeredgecolor": colour},
                label=engine,
            )
        axes.set_yticks(range(len(suites)), [_suite_label(s) for s in suites])
        axes.invert_yaxis()
        axes.set_xscale("log")
        axes.xaxis.set_major_formatter(FuncFormatter(lambda us, _: duration_label(us)))
        axes.set_xlabel("time per hand: one full solve() call (log scale)")
        axes.set_title(_title("Time per hand", results), loc="left")
        axes.legend(title="engine", loc="upper right")
        figure.text(0.01, 0.005, f"box: quartiles and median; whiskers: percentiles "
                                 f"{WHISKER_PERCENTILES[0]}-{WHISKER_PERCENTILES[1]}; "
                                 "dots: hands beyond them", fontsize=7, alpha=0.7)
        figure.tight_layout(rect=(0, 0.02, 1, 1))
    return [Chart("solve_latency", figure)]


def arena_pairings(results: Results) -> list[Mapping[str, Any]]:
    """The arena pairings a document holds: itself when it is one pairing's
    JSON (``python -m benchmarks --arena ... --json``), else its ``arena`` list
    (several such files given to ``main`` are gathered there)."""
    if "settings" in results and ("hands" in results or "matches" in results):
        return [results]
    return list(results.get("arena", []))


def arena_points_charts(results: Results) -> list[Chart]:
    """Points per hand of player A with 95 % intervals, one row per pairing;
    and A's match win rate with its interval where matches were played."""
    pairings = arena_pairings(results)
    charts = []
    rows = [(f"{p['settings']['a']} vs {p['settings']['b']} ({p['hands']['sides']['a']['hands']} hands)",
             p["hands"]["points_a"]) for p in pairings if "hands" in p]
    if rows:
        charts.append(_mean_interval_chart(
            "arena_points", _title("Arena: points per hand of the first player\n"
                                   "(95 % interval over mirrored pairs)", results),
            rows, scale=1.0, unit="points per hand", reference=0.0))
    matches = [(f"{p['settings']['a']} vs {p['settings']['b']} ({p['matches']['matches']} matches)",
                p["matches"]["win_rate_a"]) for p in pairings if "matches" in p]
    if matches:
        charts.append(_mean_interval_chart(
            "arena_matches", _title("Arena: matches to 100 won by the first player\n"
                                    "(95 % interval over mirrored pairs)", results),
            matches, scale=100.0, unit="% of matches", reference=50.0))
    return charts


def _mean_interval_chart(name: str, title: str, rows: Sequence[tuple[str, Mapping[str, float]]],
                         *, scale: float, unit: str, reference: float) -> Chart:
    """``interval_chart`` of ``(label, {"mean", "half_width"})`` rows, values times ``scale``."""
    means = [scale * r["mean"] for _, r in rows]
    spans = [scale * r["half_width"] for _, r in rows]
    return interval_chart(name, title, [label for label, _ in rows], means,
                          [m - w for m, w in zip(means, spans, strict=True)],
                          [m + w for m, w in zip(means, spans, strict=True)],
                          unit=unit, reference=reference)


def interval_chart(name: str, title: str, labels: Sequence[str], means: Sequence[float],
                   lows: Sequence[float], highs: Sequence[float], *, unit: str,
                   reference: float = 0.0) -> Chart:
    """A mean with its interval (``lows``..``highs``) per label, top to bottom,
    and a line at ``reference`` (even: 0 points, 50 %).

    For "points per hand with 95 % intervals per pairing": one label per
    pairing, the mean points per hand and the interval's ends.
    """
    if not len(labels) == len(means) == len(lows) == len(highs):
        raise ValueError("labels, means, lows and highs must have one entry per row")
    with plt.rc_context(STYLE):
        figure, axes = plt.subplots(figsize=(8, 0.8 + 0.4 * len(labels)))
        rows = range(len(labels))
        errors = [[m - lo for m, lo in zip(means, lows, strict=True)],
                  [hi - m for m, hi in zip(means, highs, strict=True)]]
        axes.errorbar(means, rows, xerr=errors, fmt="o", capsize=3, color=OTHER_COLOURS[0])
        axes.axvline(reference, color="black", linewidth=0.8)
        axes.set_yticks(list(rows), list(labels))
        axes.invert_yaxis()
        axes.set_xlabel(unit)
        axes.set_title(title, loc="left")
        figure.tight_layout()
    return Chart(name, figure)


CHART_KINDS: dict[str, ChartKind] = {
    "solve_latency": solve_latency_charts,
    "arena_points": arena_points_charts,
}
"""Every kind of chart, by name (``--kind``)."""


def _suite_label(suite: Mapping[str, Any]) -> str:
    n = max((e.get("n", 0) for e in suite["engines"].values()), default=0)
    return f"{suite['suite']} (n={n})"


def _title(what: str, results: Results) -> str:
    env = results.get("environment", {})
    facts = [f"commit {env['commit']}" if env.get("commit") else "",
             f"{env['cpu_count']} cores" if env.get("cpu_count") else "",
             f"Python {env['python']}" if env.get("python") else "", env.get("date", "")]
    shown = ", ".join(str(f) for f in facts if f)
    return f"{what}\n{shown}" if shown else what


def draw(results: Results, kinds: Sequence[str] | None = None) -> list[Chart]:
    """The charts of ``kinds`` (default: every kind) that ``results`` has data for."""
    return [chart for kind in (kinds or CHART_KINDS) for chart in CHART_KINDS[kind](results)]


def write(charts: Sequence[Chart], directory: Path) -> list[Path]:
    """Save each chart as ``directory/<name>.svg``; returns the paths."""
    directory.mkdir(parents=True, exist_ok=True)
    paths = []
    for chart in charts:
        path = directory / f"{chart.name}.svg"
        with plt.rc_context(STYLE):
            chart.figure.savefig(path, format="svg", metadata={"Date": None})
        plt.close(chart.figure)
        paths.append(path)
    return paths


def build_parser() -> argparse.ArgumentParser:
    """The argument parser."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed.charts",
                                     description="Draw a benchmark run's JSON as SVG charts.")
    parser.add_argument("results", type=Path, nargs="+",
                        help="the JSON of python -m benchmarks ... --json PATH (arena runs: "
                             "one file per pairing, several drawn together)")
    parser.add_argument("-o", "--output", type=Path, default=Path("benchmarks/charts"),
                        help="directory for the SVG files (default benchmarks/charts)")
    parser.add_argument("--kind", action="extend", nargs="+", choices=list(CHART_KINDS),
                        help="kinds of chart to draw (default: every kind the JSON has data for)")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Draw the charts; 1 when the JSON holds data for none of them."""
    args = build_parser().parse_args(argv)
    documents = [json.loads(path.read_text(encoding="utf-8")) for path in args.results]
    # The arena writes one pairing per file: gather them into one document,
    # so they are drawn together, a row each.
    found = [arena_pairings(document) for document in documents]
    pairings = [p for pairs in found for p in pairs]
    others = [d for d, pairs in zip(documents, found, strict=True) if not pairs]
    charts = [chart for document in others for chart in draw(document, args.kind)]
    if pairings:
        charts += draw({"arena": pairings}, args.kind)
    paths = write(charts, args.output)
    if not paths:
        named = " ".join(map(str, args.results))
        print(f"error: {named} holds no data for any chart (per-hand times come from "
              "python -m benchmarks ... --json of this version on)", file=sys.stderr)
        return 1
    for path in paths:
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
