"""The Indian arena's results as Markdown (stdout, the README); JSON is
``benchmarks.arena.report.write_json``."""

from __future__ import annotations

import math
from typing import Any

from benchmarks.arena.report import _interval, _rate
from benchmarks.markdown import markdown_table


def _ms(value: float | None) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.1f}"


def render(results: dict[str, Any]) -> str:
    """The Markdown report of one ``run_indian_arena`` result."""
    lineup = results["lineup"]
    n = results["players_at_table"]
    lines = [f"### Indian 13 arena: {', '.join(lineup)} ({n} players, seed {results['seed']})",
             "",
             f"{results['deals']:,} deals, each played {n} times with the seats rotated "
             f"({results['games']:,} games); outcomes: "
             + ", ".join(f"{k} {v:,}" for k, v in sorted(results["outcomes"].items()))
             + f"; {results['wall_s']:.0f} s on {results['workers']} worker(s).", ""]
    rows = []
    for name, player in results["players"].items():
        rows.append([
            name, _interval(player["points_per_deal"]), _rate(player["win_rate"]),
            _rate(player["drop_rate"]), _rate(player["first_drop_rate"]),
            _interval(player["points_when_dropping"], digits=1),
            _interval(player["points_when_playing_on"], digits=1),
            player["wrong_declarations"], player["illegal_actions"],
            _ms(player["decision_median_ms"]),
        ])
    lines += [markdown_table(
        ["player", "points per deal (95 % CI)", "win rate", "drop rate", "first drops",
         "points when dropping", "points when playing on", "wrong declarations",
         "illegal actions", "decision median ms"], rows), ""]
    if results["differences"]:
        lines += [markdown_table(["difference per deal", "points (95 % CI over deals)"],
                                 [[k, _interval(v)] for k, v in results["differences"].items()]),
                  ""]
    lines += [markdown_table(["seat (0 plays first)", "points per game (95 % CI)"],
                             [[s, _interval(v)] for s, v in enumerate(results["seats"])]), ""]
    for violation in results["violations"][:10]:
        lines.append(f"* ILLEGAL: {violation}")
    return "\n".join(lines).rstrip() + "\n"
