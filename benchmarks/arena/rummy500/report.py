"""The Rummy 500 arena's results as Markdown (stdout, the README); JSON is
``benchmarks.arena.report.write_json``."""

from __future__ import annotations

from typing import Any

from benchmarks.arena.report import Column, _interval, _rate, number, render_rotated


def _two(value: float | None) -> str:
    return number(value, 2)


COLUMNS: tuple[Column, ...] = (
    ("points per deal (95 % CI)", "points_per_deal", _interval),
    ("round wins", "round_win_rate", _rate),
    ("going out", "going_out_rate", _rate),
    ("pile takes", "pile_takes_per_round", _two),
    ("cards taken", "cards_taken_per_round", _two),
    ("laid points", "laid_points_per_round", number),
    ("hand points", "hand_points_per_round", number),
    ("illegal actions", "illegal_actions", str),
    ("decision median ms", "decision_median_ms", number),
    ("decision p99 ms", "decision_p99_ms", number),
)


def render(results: dict[str, Any]) -> str:
    """The Markdown report of one ``run_rummy500_arena`` result."""
    return render_rotated(results, "Rummy 500 arena", "round", COLUMNS,
                          detail=f", {number(results['turns_per_round'])} turns a round")
