"""The Indian arena's results (``indian13``, ``indian21``) as Markdown (stdout,
the README); JSON is ``benchmarks.arena.core.report.write_json``."""

from __future__ import annotations

from typing import Any

from benchmarks.arena.core.report import Column, interval_text, number, rate_text, render_rotated
from benchmarks.arena.indian.variants import INDIAN21


def _one_place(data: dict[str, Any]) -> str:
    return interval_text(data, digits=1)


COLUMNS: tuple[Column, ...] = (
    ("points per deal (95 % CI)", "points_per_deal", interval_text),
    ("win rate", "win_rate", rate_text),
    ("drop rate", "drop_rate", rate_text),
    ("first drops", "first_drop_rate", rate_text),
    ("points when dropping", "points_when_dropping", _one_place),
    ("points when playing on", "points_when_playing_on", _one_place),
    ("wrong declarations", "wrong_declarations", str),
    ("illegal actions", "illegal_actions", str),
    ("decision median ms", "decision_median_ms", number),
)


VALUE_COLUMNS: tuple[Column, ...] = (
    *COLUMNS[:6],
    ("value points per game", "value_points_per_game", _one_place),
    *COLUMNS[6:],
)
"""``indian21``'s columns: the value-card settlement too (in the points already)."""


def render(results: dict[str, Any]) -> str:
    """The Markdown report of one ``run_indian_arena`` result."""
    if results.get("game") == INDIAN21.game:
        return render_rotated(results, f"{INDIAN21.label} arena", "game", VALUE_COLUMNS)
    return render_rotated(results, "Indian 13 arena", "game", COLUMNS)
