"""The gin arena's results as Markdown tables (the JSON file:
``benchmarks.arena.core.report.write_json``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchmarks.arena.core.report import interval_text, rate_text
from benchmarks.speed.markdown import markdown_table

SIDE_COLUMNS = (
    ("knock rate", "knock_rate"),
    ("gin rate", "gin_rate"),
    ("undercut rate (per knock)", "undercut_rate"),
    ("first-knocker rate", "first_knocker_rate"),
    ("turns to knock", "turns_to_knock"),
    ("pickups without meld", "pickup_without_meld_rate"),
    ("discards taken next turn", "discard_taken_rate"),
)


def sides_table(sides: dict[str, Any], names: dict[str, str]) -> str:
    """One row per side: what it did, its illegal moves and decision times."""
    header = ["side", "player", *(title for title, _ in SIDE_COLUMNS), "illegal moves", "decisions",
              "decision median ms", "decision p99 ms"]
    rows = []
    for label in ("a", "b"):
        side = sides[label]
        rows.append([
            label.upper(), names[label],
            *(rate_text(side[key], 2 if key == "turns_to_knock" else 3) for _, key in SIDE_COLUMNS),
            side["illegal_moves"], side["decisions"],
            rate_text(side["decision_median_ms"], 3), rate_text(side["decision_p99_ms"], 2),
        ])
    return markdown_table(header, rows)


def _outcomes(outcomes: dict[str, int]) -> str:
    return ", ".join(f"{name} {count}" for name, count in outcomes.items())


def render(results: dict[str, Any]) -> str:
    """The Markdown report of one ``run_arena`` result."""
    settings = results["settings"]
    names = {"a": settings["a"], "b": settings["b"]}
    lines = [f"### Arena: A = {names['a']} vs B = {names['b']} (seed {settings['seed']})", ""]
    summary: list[Sequence[object]] = []
    hands = results.get("hands")
    if hands:
        won = hands["won"]
        summary += [
            ["points per hand for A (95 % CI over mirrored pairs)", interval_text(hands["points_a"])],
            ["hands (mirrored pairs)", f"{hands['hands']:,} ({hands['pairs']:,})"],
            ["hands won by A / B / nobody", f"{won['a']:,} / {won['b']:,} / {won['none']:,}"],
            ["hand outcomes", _outcomes(hands["outcomes"])],
        ]
    matches = results.get("matches")
    if matches:
        wins = matches["wins"]
        summary += [
            ["match win rate for A (95 % CI over mirrored pairs)",
             interval_text(matches["win_rate_a"], signed=False, digits=3)],
            ["matches (mirrored pairs)", f"{matches['matches']:,} ({matches['pairs']:,})"],
            ["matches won by A / B / undecided", f"{wins['a']:,} / {wins['b']:,} / {wins['none']:,}"],
            ["hands per match", f"{matches['hands_per_match']:.1f}"],
        ]
    lines += [markdown_table(["figure", "value"], summary), ""]
    if hands:
        lines += ["Single hands, per side:", "", sides_table(hands["sides"], names), ""]
    if matches:
        lines += ["Match hands, per side:", "", sides_table(matches["sides"], names), ""]
    check = results.get("cross_check")
    if check is not None:
        rows = [[check["hands"], check["hands_compared"], check["decisions"], check["disagreements"],
                 check["openspiel_11_card_knock_misses"], check["desynced_hands"]]]
        lines += ["Referee vs OpenSpiel (every hand shadowed in pyspiel):", "",
                  markdown_table(["hands", "hands compared", "decisions compared", "disagreements",
                                  "OpenSpiel 11-card knock misses", "hands desynced"], rows), ""]
        for example in check["disagreement_examples"]:
            lines.append(f"* disagreement: {example}")
    for violation in results["violations"][:10]:
        lines.append(f"* ILLEGAL: {violation}")
    return "\n".join(lines).rstrip() + "\n"
