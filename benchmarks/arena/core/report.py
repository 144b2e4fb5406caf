"""The arena's report helpers: how figures read in the Markdown tables
(stdout, the README), the table of a rotated-deal run, and the JSON file
(the same data with the environment; later charts read it).
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from benchmarks.speed.markdown import markdown_table
from benchmarks.speed.report import environment


def rate_text(value: float | None, digits: int = 3) -> str:
    """``value`` to ``digits`` places; ``-`` for none or NaN."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    return f"{value:.{digits}f}"


def interval_text(data: dict[str, Any], signed: bool = True, digits: int = 2) -> str:
    """``+1.42 ± 0.20`` of a ``{"mean", "half_width"}`` entry; ``-`` for none."""
    mean, half = data["mean"], data["half_width"]
    if mean is None or math.isnan(mean):
        return "-"
    sign = "+" if signed else ""
    half_text = "-" if half is None or math.isnan(half) else f"{half:.{digits}f}"
    return f"{mean:{sign}.{digits}f} ± {half_text}"


Column = tuple[str, str, Callable[[Any], object]]
"""A player column of a rotated-deal report: its title, the key of the
player's entry, and how that value reads."""


def number(value: float | None, digits: int = 1) -> str:
    """``value`` to ``digits`` places; ``-`` for none."""
    return "-" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def render_rotated(results: dict[str, Any], title: str, unit: str, columns: Sequence[Column],
                   detail: str = "") -> str:
    """The Markdown report of a rotated-deal run (``benchmarks.arena.core.rotations``):
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
                                 [[k, interval_text(v)] for k, v in results["differences"].items()]),
                  ""]
    lines += [markdown_table(["seat (0 plays first)", f"points per {unit} (95 % CI)"],
                             [[s, interval_text(v)] for s, v in enumerate(results["seats"])]), ""]
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
