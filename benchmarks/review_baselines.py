"""Measure the review's luck baselines: ``python -m benchmarks.review_baselines``.

``python -m benchmarks.review_baselines --game GAME [--players 2] [--level review]
[--hands 1000] [--seed 40000] [--processes 2] [--write]``

plays ``--hands`` games of the advisor at ``--play-level`` (``novice``)
against itself, the deal passing from seat to seat, reviews each at
``--level`` and averages what ``solver.review.luck`` measures luck
against: the value of a player's first decision by its position (0 plays
first) and a stock draw's difference (the best value at the next decision
less the draw's value), the mean result of each position (the edge
of playing first or later, which a hand's split sets apart), and each
position's hope: an estimated first value less its hand's result, over
the hands whose first value was an estimate (an Indian drop's is exact).  The figures
are the raw ones, whatever baseline the file holds now.  ``--write``
stores them, with how they were measured, in
``solver/review/luck_baselines.json``; the review uses them from then on.
The losses' checks on fresh deals (``ReviewParams.checks``) do not touch
these values and are left out, for speed.

Measure on seeds no luck check reports on (the default 40,000 on; the
luck checks of docs/REVIEW_FIGURES.md play seed 20,000 on): a baseline
measured on the hands it is checked on would make their mean 0 by
construction.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from benchmarks.arena.core.stats import mean_interval
from benchmarks.reference import git_commit
from benchmarks.speed.review_ordering import ratio_half_width
from solver.review import review
from solver.review.luck import BASELINES_FILE, position_of
from solver.review.params import REVIEW_LEVEL, REVIEW_PARAMS, per_game
from solver.review.selfplay import follow, play

TABLE = Path(__file__).resolve().parent.parent / "solver" / "review" / BASELINES_FILE
UNCHECKED = replace(REVIEW_PARAMS, checks=per_game(**dict.fromkeys(
    dict(REVIEW_PARAMS.checks), 0)))
"""The review's parameters without the losses' checks (they leave the values as they are)."""

Job = tuple[str, int, str, str, int]
"""A game, its player count, the review level, the players' level and the hand's number
(its seed)."""


def raw_luck(job: Job) -> list[tuple[int, float | None, float, int, float | None, bool]]:
    """One self-play hand reviewed: per seat, its position, the first
    decision's value (None: the hand ended before the seat's first
    decision, as when the first player drops; no value to average), its
    stock draws' summed difference and count, all without a baseline, its
    result (None: the hand did not end), and whether the first value is
    exact."""
    game, players, level, play_level, number = job
    dealer = number % players
    record = play(game, [follow] * players, seed=number, level=play_level, dealer=dealer)
    answer = review(record, level=level, seed=number, params=UNCHECKED)
    base = answer.luck_baseline
    rows = []
    for player in answer.players:
        totals = player.totals
        position = position_of(seat=player.seat, dealer=dealer, seats=players)
        first = next((j for j in answer.decisions if j.seat == player.seat), None)
        deal = None if first is None else first.value
        draws = totals.draw_luck + (base.per_draw * totals.draws if base else 0.0)
        result = None if answer.result is None else answer.result[player.seat]
        rows.append((position, deal, draws, totals.draws, result,
                     first is not None and first.value_exact))
    return rows


def measure(game: str, *, players: int = 2, level: str = REVIEW_LEVEL, hands: int = 1000,
            seed: int = 40_000, play_level: str = "novice", processes: int = 1
            ) -> dict[str, Any]:
    """The baselines of ``game`` (see the module docstring), with their
    95 % intervals and how they were measured."""
    jobs = [(game, players, level, play_level, seed + n) for n in range(hands)]
    started = time.perf_counter()
    if processes <= 1:
        reviewed = [raw_luck(job) for job in jobs]
    else:
        with multiprocessing.Pool(processes) as pool:
            reviewed = pool.map(raw_luck, jobs, chunksize=4)
    deals: list[list[float]] = [[] for _ in range(players)]
    results: list[list[float]] = [[] for _ in range(players)]
    hopes: list[list[float]] = [[] for _ in range(players)]
    """Per position, an estimated first value less the result of its hand."""
    draws: list[tuple[float, int]] = []
    for rows in reviewed:
        for position, deal, drawn, count, result, exact in rows:
            if deal is not None:
                deals[position].append(deal)
                if not exact and result is not None:
                    hopes[position].append(deal - result)
            draws.append((drawn, count))
            if result is not None:
                results[position].append(result)
    count = sum(d for _, d in draws)
    per_draw = sum(x for x, _ in draws) / count if count else 0.0
    deal_figures = [mean_interval(values) for values in deals]
    result_figures = [mean_interval(values) for values in results]
    hope_figures = [mean_interval(values) if values else mean_interval([0.0]) for values in hopes]
    return {
        "deal": [round(f.mean, 3) for f in deal_figures],
        "deal_interval": [round(f.half_width, 3) for f in deal_figures],
        "per_draw": round(per_draw, 3),
        "per_draw_interval": round(ratio_half_width(draws, per_draw), 3),
        "result": [round(f.mean, 3) for f in result_figures],
        "result_interval": [round(f.half_width, 3) for f in result_figures],
        "hope": [round(f.mean, 3) for f in hope_figures],
        "hope_interval": [round(f.half_width, 3) for f in hope_figures],
        "hands": hands, "draws": count, "seed": seed, "play_level": play_level,
        "command": (f"python -m benchmarks.review_baselines --game {game} --players {players} "
                    f"--level {level} --hands {hands} --seed {seed} --play-level {play_level}"),
        "commit": git_commit(), "date": time.strftime("%Y-%m-%d", time.gmtime()),
        "wall_s": round(time.perf_counter() - started, 1),
    }


def write(game: str, level: str, players: int, entry: dict[str, Any],
          path: Path = TABLE) -> None:
    """Store ``entry`` as the baseline of ``game`` at ``level`` between
    ``players`` players."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["baselines"].setdefault(game, {}).setdefault(level, {})[str(players)] = entry
    data["baselines"] = {g: {lv: dict(sorted(by_count.items())) for lv, by_count in
                             sorted(levels.items())} for g, levels in
                         sorted(data["baselines"].items())}
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.review_baselines",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--level", default=REVIEW_LEVEL)
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=40_000)
    parser.add_argument("--play-level", default="novice")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--write", action="store_true",
                        help=f"store the figures in solver/review/{BASELINES_FILE}")
    args = parser.parse_args(argv)
    if args.hands < 2 or args.players < 2 or args.processes < 1:
        parser.error("--hands and --players must be at least 2, --processes at least 1")
    entry = measure(args.game, players=args.players, level=args.level, hands=args.hands,
                    seed=args.seed, play_level=args.play_level, processes=args.processes)
    print(json.dumps(entry, indent=1))
    if args.write:
        write(args.game, args.level, args.players, entry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
