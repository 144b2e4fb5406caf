"""The Rummy 500 arena's results as Markdown (stdout, the README); JSON is
``benchmarks.arena.report.write_json``."""

from __future__ import annotations

import math
from typing import Any

from benchmarks.arena.report import _interval, _rate
from benchmarks.markdown import markdown_table


def _number(value: float | None, digits: int = 1) -> str:
    return "-" if value is None or math.isnan(value) else f"{value:.{digits}f}"


def render(results: dict[str, Any]) -> str:
    """The Markdown report of one ``run_rummy500_arena`` result."""
    lineup = results["lineup"]
    n = results["players_at_table"]
    lines = [f"### Rummy 500 arena: {', '.join(lineup)} ({n} players, seed {results['seed']})",
             "",
             f"{results['deals']:,} deals, each played {n} times with the seats rotated "
             f"({results['rounds']:,} rounds, {_number(results['turns_per_round'])} turns a "
             "round); outcomes: "
             + ", ".join(f"{k} {v:,}" for k, v in sorted(results["outcomes"].items()))
             + f"; {results['wall_s']:.0f} s on {results['workers']} worker(s).", ""]
    rows = []
    for name, player in results["players"].items():
        rows.append([
            name, _interval(player["points_per_deal"]), _rate(player["round_win_rate"]),
            _rate(player["going_out_rate"]), _number(player["pile_takes_per_round"], 2),
            _number(player["cards_taken_per_round"], 2),
            _number(player["laid_points_per_round"]), _number(player["hand_points_per_round"]),
            player["illegal_actions"], _number(player["decision_median_ms"]),
            _number(player["decision_p99_ms"]),
        ])
    lines += [markdown_table(
        ["player", "points per deal (95 % CI)", "round wins", "going out", "pile takes",
         "cards taken", "laid points", "hand points", "illegal actions", "decision median ms",
         "decision p99 ms"], rows), ""]
    if results["differences"]:
        lines += [markdown_table(["difference per deal", "points (95 % CI over deals)"],
                                 [[k, _interval(v)] for k, v in results["differences"].items()]),
                  ""]
    lines += [markdown_table(["seat (0 plays first)", "points per round (95 % CI)"],
                             [[s, _interval(v)] for s, v in enumerate(results["seats"])]), ""]
    for violation in results["violations"][:10]:
        lines.append(f"* ILLEGAL: {violation}")
    return "\n".join(lines).rstrip() + "\n"
