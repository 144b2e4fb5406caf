"""The Indian arena's results as Markdown (stdout, the README); JSON is
``benchmarks.arena.report.write_json``."""

from __future__ import annotations

from typing import Any

from benchmarks.arena.report import Column, _interval, _rate, number, render_rotated


def _one_place(data: dict[str, Any]) -> str:
    return _interval(data, digits=1)


COLUMNS: tuple[Column, ...] = (
    ("points per deal (95 % CI)", "points_per_deal", _interval),
    ("win rate", "win_rate", _rate),
    ("drop rate", "drop_rate", _rate),
    ("first drops", "first_drop_rate", _rate),
    ("points when dropping", "points_when_dropping", _one_place),
    ("points when playing on", "points_when_playing_on", _one_place),
    ("wrong declarations", "wrong_declarations", str),
    ("illegal actions", "illegal_actions", str),
    ("decision median ms", "decision_median_ms", number),
)


def render(results: dict[str, Any]) -> str:
    """The Markdown report of one ``run_indian_arena`` result."""
    return render_rotated(results, "Indian 13 arena", "game", COLUMNS)
