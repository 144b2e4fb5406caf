"""``python -m benchmarks --arena --panel GAME``: the advisor against every
bot of one half of a game's panel (``panels``), on that half's seeds, and
the table of it: per bot the hands (gin, mirrored pairs) or deals (the other
games, two players, seats rotated), the advisor's points per hand or deal
with the 95 % interval, the paired difference per deal (rotated games), the
match win rate (gin, against the panel's match bots), and the issue's
target for that bot, met or missed.  The JSON keeps every bot's whole arena
result (its per-side figures: ``benchmarks/README.md``'s held-out section
reads them).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.arena.core.panels import HELD_OUT, PANELS, Panel
from benchmarks.arena.core.report import Column, interval_text, rate_text
from benchmarks.speed.markdown import markdown_table

ADVISOR = "advisor"
"""The entrant the tables report: the advisor at its default level."""


@dataclass(frozen=True, slots=True)
class Target:
    """One of issue 36's targets, read on a panel table's row."""

    figure: str
    """``points`` (the advisor's points per hand or deal), ``difference``
    (advisor minus the bot, paired per deal) or ``matches`` (win rate)."""
    at_least: float
    lower_above: float | None = None
    """The 95 % interval's lower end must be above this, too."""

    def text(self) -> str:
        """How the target reads: ``≥ +6.00, lower end > +4.00``."""
        if self.figure == "matches":
            return f"≥ {100 * self.at_least:.0f} % of matches"
        text = f"{'points' if self.figure == 'points' else 'difference'} ≥ {self.at_least:+.0f}"
        if self.lower_above is not None:
            text += f", lower end > {self.lower_above:+.0f}"
        return text

    def met(self, figure: dict[str, Any] | None) -> bool | None:
        """Whether ``figure`` (``{"mean", "half_width"}``) meets it; None: not measured."""
        if not figure or figure.get("mean") is None or math.isnan(figure["mean"]):
            return None
        if figure["mean"] < self.at_least:
            return False
        width = figure.get("half_width")
        if self.lower_above is not None:
            return width is not None and not math.isnan(width) \
                and figure["mean"] - width > self.lower_above
        return True


TARGETS: dict[str, dict[str, tuple[Target, ...]]] = {
    "gin": {"*": (Target("points", 6.0, 4.0),),
            "eaai_simple": (Target("points", 6.0, 4.0), Target("matches", 0.73)),
            "marjj_style": (Target("points", 6.0, 4.0), Target("matches", 0.60))},
    "indian13": {"greedy": (Target("difference", 8.0, 5.0),),
                 "distance": (Target("difference", 6.0),)},
    "basic": {"careful": (Target("difference", 8.0),)},
    "rummy500": {"greedy": (Target("difference", 30.0),)},
    "rommy": {"greedy": (Target("difference", 30.0),)},
}
"""Issue 36's targets (held-out opponents and deals) by game and bot (``*``: every bot)."""


def targets_for(game: str, bot: str) -> tuple[Target, ...]:
    """The targets of ``bot`` in ``game`` (none: an empty tuple)."""
    of_game = TARGETS.get(game, {})
    return of_game.get(bot, of_game.get("*", ()))


def run_panel(game: str, half: str = HELD_OUT, *, seed: int, hands: int = 400, matches: int = 0,
              deals: int = 100, workers: int = 1, cross_check: bool = False,
              play_gin: Callable[..., dict[str, Any]],
              play_rotated: Callable[..., dict[str, Any]],
              describe: Callable[[str], str],
              progress: Callable[[str], None] | None = None) -> dict[str, Any]:
    """The advisor against every bot of ``half`` of ``game``'s panel.

    ``play_gin(a, b, hands=, matches=, seed=, cross_check=, workers=)`` and
    ``play_rotated(lineup, deals, seed=, workers=)`` are the games' runners
    (the command line passes them: the core imports no game); ``matches``
    are played against the panel's match bots only; ``describe(bot)`` is the
    registry's description."""
    panel: Panel = PANELS[game]
    bots = panel.half(half)
    started = time.monotonic()
    runs: dict[str, Any] = {}
    for bot in bots:
        if progress is not None:
            progress(f"panel {game} ({half}): {ADVISOR} vs {bot}")
        if game == "gin":
            runs[bot] = play_gin(ADVISOR, bot, hands=hands,
                                 matches=matches if bot in panel.matches else 0, seed=seed,
                                 cross_check=cross_check, workers=workers)
        else:
            runs[bot] = play_rotated([ADVISOR, bot], deals, seed=seed, workers=workers)
    rows = [panel_row(game, bot, describe(bot), runs[bot]) for bot in bots]
    return {"game": game, "half": half, "seed": seed, "advisor": ADVISOR,
            "sizes": {"hands": hands if game == "gin" else None,
                      "matches": matches if game == "gin" else None,
                      "deals": None if game == "gin" else deals},
            "bots": list(bots), "rows": rows, "runs": runs, "workers": workers,
            "wall_s": time.monotonic() - started,
            "violations": [*(f"{bot}: {v}" for bot in bots for v in runs[bot]["violations"]),
                           *(f"{bot}: {n} referee/OpenSpiel disagreement(s)" for bot in bots
                             if (n := (runs[bot].get("cross_check") or {})
                                 .get("disagreements", 0)))],
            "wrong_declarations": sum(runs[bot].get("wrong_declarations", 0) for bot in bots)}


def panel_row(game: str, bot: str, description: str, run: dict[str, Any]) -> dict[str, Any]:
    """One bot's row: its sizes and the advisor's figures against it."""
    row: dict[str, Any] = {"bot": bot, "description": description}
    if game == "gin":
        hands = run.get("hands") or {}
        found = run.get("matches") or {}
        row.update(hands=hands.get("hands", 0), pairs=hands.get("pairs", 0),
                   points=hands.get("points_a"), difference=None,
                   matches=found.get("matches", 0), match_win_rate=found.get("win_rate_a"))
    else:
        row.update(deals=run["deals"], points=run["players"][ADVISOR]["points_per_deal"],
                   difference=run["differences"].get(f"{ADVISOR} - {bot}"),
                   matches=0, match_win_rate=None)
    checks = []
    for target in targets_for(game, bot):
        figure = row["match_win_rate"] if target.figure == "matches" else row[target.figure]
        checks.append({"target": target.text(), "met": target.met(figure)})
    row["targets"] = checks
    return row


def _targets_text(checks: Sequence[dict[str, Any]]) -> str:
    if not checks:
        return "-"
    words = {True: "met", False: "missed", None: "not measured"}
    return "; ".join(f"{c['target']}: {words[c['met']]}" for c in checks)


def render_panel(results: dict[str, Any], columns: Sequence[Column] = ()) -> str:
    """The Markdown tables of ``run_panel``'s result: the panel's, then where
    the points come from (gin: by how hands ended, and each side's rates;
    the rotated games: each side's ``columns`` of its game's report)."""
    game = results["game"]
    gin = game == "gin"
    unit = "hand" if gin else "deal"
    lines = [f"### Panel {game} ({results['half'].replace('_', '-')} half, seed "
             f"{results['seed']}): `{results['advisor']}` against each bot", ""]
    header = ["bot", "hands (pairs)" if gin else "deals", f"advisor points per {unit} (95 % CI)"]
    header += ["matches", "match win rate"] if gin else ["difference per deal (paired)"]
    header += ["target"]
    rows = []
    for row in results["rows"]:
        cells = [row["bot"], f"{row['hands']:,} ({row['pairs']:,})" if gin else f"{row['deals']:,}",
                 interval_text(row["points"]) if row["points"] else "-"]
        if gin:
            rate = row["match_win_rate"]
            cells += [f"{row['matches']:,}" if row["matches"] else "-",
                      interval_text(rate, signed=False, digits=3) if rate else "-"]
        else:
            cells += [interval_text(row["difference"]) if row["difference"] else "-"]
        cells.append(_targets_text(row["targets"]))
        rows.append(cells)
    lines += [markdown_table(header, rows), "",
              f"{results['wall_s']:.0f} s on {results['workers']} worker(s)."]
    if gin:
        lines += ["", "Where the advisor's points per hand come from (how each hand ended: "
                      "`a` the advisor knocked, `b` the bot):", ""]
        split = {bot: (results["runs"][bot].get("hands") or {}).get("points_a_by_end", {})
                 for bot in results["bots"]}
        ends = sorted({end for bot in results["bots"] for end in split[bot]})
        rows = [[bot, *(f"{split[bot].get(end, 0.0):+.2f}" for end in ends)]
                for bot in results["bots"]]
        lines += [markdown_table(["bot", *ends], rows)]
        lines += ["", "Each side's play (single hands; `A` the advisor):", ""]
        rows = []
        for bot in results["bots"]:
            sides = (results["runs"][bot].get("hands") or {}).get("sides")
            if not sides:
                continue
            for label, name in (("a", ADVISOR), ("b", bot)):
                side = sides[label]
                rows.append([bot, name, rate_text(side["knock_rate"]), rate_text(side["gin_rate"]),
                             rate_text(side["undercut_rate"]), rate_text(side["first_knocker_rate"]),
                             rate_text(side["turns_to_knock"], 2),
                             rate_text(side["pickup_without_meld_rate"]),
                             rate_text(side["discard_taken_rate"]),
                             rate_text(side["decision_median_ms"], 1),
                             rate_text(side["decision_p99_ms"], 0)])
        lines += [markdown_table(["opponent", "side", "knock rate", "gin rate",
                                  "undercut (per knock)", "first knocker", "turns to knock",
                                  "pickups without meld", "discards taken next",
                                  "decision median ms", "p99 ms"], rows)]
    elif columns:
        rows = [[bot, name, *(show(results["runs"][bot]["players"][name][key])
                              for _, key, show in columns)]
                for bot in results["bots"] for name in (ADVISOR, bot)]
        lines += ["", "Each side's play:", "",
                  markdown_table(["opponent", "player", *(title for title, _, _ in columns)], rows)]
    for violation in results["violations"][:10]:
        lines.append(f"* ILLEGAL: {violation}")
    return "\n".join(lines).rstrip() + "\n"
