"""The Rummy 500, Rommy and basic rummy arenas' results as Markdown (stdout, the
README); JSON is ``benchmarks.arena.core.report.write_json``.  A game that charges
pile penalties (Rommy) also shows each player's and each seat's penalties per
round; a game whose winner collects (basic rummy) each player's rummy rate
(rounds won by a rummy) and the rummies of the run.  A table dealt from two
decks (Rummy 500 at 5 to 8 players) says so in its title: ``Rummy 500 arena
(two decks, 108 cards)``."""

from __future__ import annotations

import json
from typing import Any

from benchmarks.arena.core.report import Column, interval_text, number, rate_text, render_rotated
from benchmarks.arena.laydown.variants import VARIANTS
from benchmarks.speed.markdown import markdown_table


def _two(value: float | None) -> str:
    return number(value, 2)


COLUMNS: tuple[Column, ...] = (
    ("points per deal (95 % CI)", "points_per_deal", interval_text),
    ("round wins", "round_win_rate", rate_text),
    ("going out", "going_out_rate", rate_text),
    ("pile takes", "pile_takes_per_round", _two),
    ("cards taken", "cards_taken_per_round", _two),
    ("laid points", "laid_points_per_round", number),
    ("hand points", "hand_points_per_round", number),
    ("illegal actions", "illegal_actions", str),
    ("decision median ms", "decision_median_ms", number),
    ("decision p99 ms", "decision_p99_ms", number),
)
PENALTY_COLUMNS: tuple[Column, ...] = (
    ("pile penalties per round", "pile_penalties_per_round", rate_text),
    ("penalty points per round", "pile_penalty_points_per_round", number),
)
"""After ``going out``, where the game charges pile penalties."""
RUMMY_COLUMNS: tuple[Column, ...] = (("rummy rate", "rummy_rate", rate_text),)
"""After ``going out``, where the winner collects (a rummy doubles the payments)."""


def render(results: dict[str, Any]) -> str:
    """The Markdown report of one ``run_rummy500_arena``, ``run_rommy_arena`` or
    ``run_basic_arena`` result."""
    label = VARIANTS[results["game"]].label
    charged = "pile_penalty" in results
    at = [key for _, key, _ in COLUMNS].index("going_out_rate") + 1
    extra = (*(PENALTY_COLUMNS if charged else ()),
             *(RUMMY_COLUMNS if "rummies" in results else ()))
    columns = (*COLUMNS[:at], *extra, *COLUMNS[at:])
    detail = f", {number(results['turns_per_round'])} turns a round"
    if "rummies" in results:
        detail += f", {results['rummies']:,} won by a rummy"
    title = f"{label} arena"
    if results.get("decks", 1) > 1:  # a one-deck table's report reads as it always did
        title += f" ({results['deck']})"
    if results.get("house_rules"):
        title += f", house rules {json.dumps(results['house_rules'], sort_keys=True)}"
    text = render_rotated(results, title, "round", columns, detail=detail)
    if not charged:
        return text
    seats = markdown_table(
        ["seat (0 plays first)", f"pile penalties per round ({results['pile_penalty']} points each)"],
        [[seat, rate_text(rate)] for seat, rate in enumerate(results["seat_pile_penalties_per_round"])])
    lines = text.rstrip().split("\n")
    cut = next((i for i, line in enumerate(lines) if line.startswith("* ILLEGAL:")), len(lines))
    body = "\n".join(lines[:cut]).rstrip()
    illegal = "\n".join(lines[cut:])
    return "\n\n".join(part for part in (body, seats.rstrip(), illegal) if part) + "\n"
