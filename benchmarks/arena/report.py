"""The arena's results as Markdown tables (stdout, the README) and JSON
(the same data; later charts read it)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.markdown import markdown_table
from benchmarks.report import environment


def _rate(value: float | None, digits: int = 3) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def _interval(data: dict[str, Any], signed: bool = True, digits: int = 2) -> str:
    mean, half = data["mean"], data["half_width"]
    if mean is None or math.isnan(mean):
        return "-"
    sign = "+" if signed else ""
    half_text = "-" if half is None or math.isnan(half) else f"{half:.{digits}f}"
    return f"{mean:{sign}.{digits}f} ± {half_text}"


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
            *(_rate(side[key], 2 if key == "turns_to_knock" else 3) for _, key in SIDE_COLUMNS),
            side["illegal_moves"], side["decisions"],
            _rate(side["decision_median_ms"], 3), _rate(side["decision_p99_ms"], 2),
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
            ["points per hand for A (95 % CI over mirrored pairs)", _interval(hands["points_a"])],
            ["hands (mirrored pairs)", f"{hands['hands']:,} ({hands['pairs']:,})"],
            ["hands won by A / B / nobody", f"{won['a']:,} / {won['b']:,} / {won['none']:,}"],
            ["hand outcomes", _outcomes(hands["outcomes"])],
        ]
    matches = results.get("matches")
    if matches:
        wins = matches["wins"]
        summary += [
            ["match win rate for A (95 % CI over mirrored pairs)",
             _interval(matches["win_rate_a"], signed=False, digits=3)],
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


# -- rotated deals (Indian rummy, Rummy 500) -------------------------------------------
Column = tuple[str, str, Callable[[Any], object]]
"""A player column of a rotated-deal report: its title, the key of the
player's entry, and how that value reads."""


def number(value: float | None, digits: int = 1) -> str:
    """``value`` to ``digits`` places; ``-`` for none."""
    return "-" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def render_rotated(results: dict[str, Any], title: str, unit: str, columns: Sequence[Column],
                   detail: str = "") -> str:
    """The Markdown report of a rotated-deal run (``benchmarks.arena.rotations``):
    the deals, a row per player (``columns``), the paired differences, each
    seat's points and the first illegal actions; ``unit`` is what the game
    calls one game (``game``, ``round``), ``detail`` follows its count."""
    lineup = results["lineup"]
    n = results["players_at_table"]
    lines = [f"### {title}: {', '.join(lineup)} ({n} players, seed {results['seed']})", "",
             f"{results['deals']:,} deals, each played {n} times with the seats rotated "
             f"({results[unit + 's']:,} {unit}s{detail}); outcomes: "
             + ", ".join(f"{k} {v:,}" for k, v in sorted(results["outcomes"].items()))
             + f"; {results['wall_s']:.0f} s on {results['workers']} worker(s).", ""]
    rows = [[name, *(show(player[key]) for _, key, show in columns)]
            for name, player in results["players"].items()]
    lines += [markdown_table(["player", *(title for title, _, _ in columns)], rows), ""]
    if results["differences"]:
        lines += [markdown_table(["difference per deal", "points (95 % CI over deals)"],
                                 [[k, _interval(v)] for k, v in results["differences"].items()]),
                  ""]
    lines += [markdown_table(["seat (0 plays first)", f"points per {unit} (95 % CI)"],
                             [[s, _interval(v)] for s, v in enumerate(results["seats"])]), ""]
    for violation in results["violations"][:10]:
        lines.append(f"* ILLEGAL: {violation}")
    return "\n".join(lines).rstrip() + "\n"


def write_json(results: dict[str, Any], path: str | Path) -> None:
    """The results, with the environment, as JSON (NaN written as null)."""
    data = {"environment": environment(), **results}
    Path(path).write_text(json.dumps(_clean(data), indent=1) + "\n")


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {str(k): _clean(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_clean(v) for v in value]
    return value
