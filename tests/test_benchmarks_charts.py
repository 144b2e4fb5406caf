"""``benchmarks.speed.charts``: SVG charts from a benchmark run's JSON."""

from __future__ import annotations

import doctest
import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from benchmarks.__main__ import run
from benchmarks.speed import charts
from benchmarks.speed.charts import CHART_KINDS, arena_points_charts, draw, interval_chart, main, write
from benchmarks.speed.report import write_json

SVG = "{http://www.w3.org/2000/svg}"


def _results() -> dict[str, Any]:
    def engine(times: list[float]) -> dict[str, Any]:
        return {"n": len(times), "per_hand_us": times}

    return {
        "environment": {"commit": "abc1234", "cpu_count": 2, "python": "3.11.7"},
        "suites": [
            {"suite": "gin10", "engines": {"search": engine([20.0, 25.0, 400.0]),
                                           "cpsat": engine([1200.0, 1500.0, 9000.0])}},
            {"suite": "indian13_14", "engines": {"search": engine([800.0, 900.0, 40_000.0])}},
        ],
    }


def _texts(path: Path) -> list[str]:
    return [t.text or "" for t in ET.parse(path).getroot().iter(f"{SVG}text")]


def test_solve_latency_is_a_log_scale_box_per_suite_and_engine(tmp_path: Path) -> None:
    (chart,) = draw(_results())
    assert chart.name == "solve_latency"
    (axes,) = chart.figure.axes
    assert axes.get_xscale() == "log"
    assert [t.get_text() for t in axes.get_yticklabels()] == ["gin10 (n=3)", "indian13_14 (n=3)"]
    legend = axes.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == ["search", "cpsat"]
    (path,) = write([chart], tmp_path)
    assert path == tmp_path / "solve_latency.svg"
    assert {"gin10 (n=3)", "search", "cpsat"} <= set(_texts(path))  # text kept as text


def test_the_same_json_gives_the_same_bytes(tmp_path: Path) -> None:
    first, second = (write(draw(_results()), tmp_path / name)[0] for name in ("a", "b"))
    assert first.read_bytes() == second.read_bytes()


def test_a_real_run_draws(tmp_path: Path) -> None:
    """The runner's JSON carries the per-hand times the chart needs."""
    bench = tmp_path / "bench.json"
    write_json(run(["gin10", "basic10"], 3, ["search"], progress=None), bench)
    assert main([str(bench), "-o", str(tmp_path / "charts")]) == 0
    svg = tmp_path / "charts" / "solve_latency.svg"
    assert {"gin10 (n=3)", "basic10 (n=3)"} <= set(_texts(svg))


def test_nothing_to_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bench = tmp_path / "old.json"
    bench.write_text(json.dumps({"suites": [{"suite": "gin10", "engines": {"search": {"n": 3}}}]}))
    assert main([str(bench), "-o", str(tmp_path / "charts")]) == 1
    assert "no data" in capsys.readouterr().err
    assert not (tmp_path / "charts").exists() or not any((tmp_path / "charts").iterdir())


def test_every_kind_tolerates_a_document_without_its_part() -> None:
    for kind in CHART_KINDS.values():
        assert kind({}) == []


def test_interval_chart_for_the_arena(tmp_path: Path) -> None:
    chart = interval_chart("arena_points", "Points per hand", ["advisor vs greedy", "greedy vs random"],
                           [1.5, -0.25], [0.5, -1.0], [2.5, 0.5], unit="points per hand")
    (axes,) = chart.figure.axes
    assert [t.get_text() for t in axes.get_yticklabels()] == ["advisor vs greedy", "greedy vs random"]
    (path,) = write([chart], tmp_path)
    assert "Points per hand" in _texts(path)
    with pytest.raises(ValueError, match="one entry per row"):
        interval_chart("x", "x", ["a"], [1.0, 2.0], [0.0], [2.0], unit="points")


def test_docstring_examples() -> None:
    assert doctest.testmod(charts).failed == 0


def test_arena_runs_drawn_together(tmp_path: Path) -> None:
    """Two pairings' arena JSON files give one chart of points per hand with a
    row per pairing (its mean and interval as the arena summed them) and one
    of match win rates."""
    from benchmarks.arena.gin.runner import run_arena

    files = []
    for b in ("random", "greedy_no_layoff"):
        result = run_arena("greedy", b, hands=4, matches=2, seed=3, cross_check=False, progress=None)
        files.append(tmp_path / f"{b}.json")
        files[-1].write_text(json.dumps(result), encoding="utf-8")
    assert charts.main([*map(str, files), "-o", str(tmp_path / "out")]) == 0
    points = _texts(tmp_path / "out" / "arena_points.svg")
    assert "greedy vs random (4 hands)" in points and "greedy vs greedy_no_layoff (4 hands)" in points
    assert "greedy vs random (2 matches)" in _texts(tmp_path / "out" / "arena_matches.svg")
    chart, _ = arena_points_charts({"arena": [json.loads(f.read_text()) for f in files]})
    (axes,) = chart.figure.axes
    (line, *_), *_ = axes.containers
    first = json.loads(files[0].read_text())["hands"]["points_a"]["mean"]
    assert line.get_xdata()[0] == pytest.approx(first)
