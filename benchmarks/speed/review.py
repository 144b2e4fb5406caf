"""How fast the review is, and whether its figures add up: ``python -m benchmarks.speed.review``.

``python -m benchmarks.speed.review --game gin --hands 40 [--level review]
[--pairing follow-follow|follow-random] [--players 2] [--json PATH]`` plays
``--hands`` games by the advisor's own moves (``solver.review.selfplay``:
each seat plays the advisor's recommendation at ``--play-level``, or seat 1
any move it lists), at a table of ``--players`` (the games that seat more
than two; every seat a follower), then reviews each one and prints a
Markdown table:

* the time of one review on this process's core (CPU seconds, which a busy
  machine inflates less than the wall clock; the wall clock too), median
  and p99 over the hands, and per decision;
* each seat's points lost per decision, accuracy and rating (a follower of
  the advisor should lose about nothing; a random player clearly more);
* the luck check: per hand, result = net skill + net luck + rest; the mean
  luck of each seat with its 95% interval (about 0 between equal players),
  and that interval widened by the baseline's own error, which every hand
  shares (``baseline_sensitivity``: how the seat's luck moves with each
  figure of the baseline, against that figure's interval in
  ``solver/review/luck_baselines.json``); the mean rest and how many hands
  have their rest within 2 noise.

Never asserted on time: the figures are for docs/REVIEW_FIGURES.md.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from benchmarks.arena.core.stats import MeanInterval, mean_interval, percentile
from solver.review import review
from solver.review.luck import baselines, position_of
from solver.review.params import REVIEW_LEVEL
from solver.review.review import Review
from solver.review.selfplay import at_random, follow, play

Sensitivity = dict[tuple[str, int], float]
"""How a seat's luck moves with each figure of the baseline: (figure, position) -> slope."""
INTERVALS = {"deal": "deal_interval", "result": "result_interval", "hope": "hope_interval",
             "per_draw": "per_draw_interval"}
"""Each figure of a baseline entry, and the key of its 95 % interval."""


def baseline_sensitivity(answer: Review, dealer: int, players: int) -> dict[int, Sensitivity]:
    """Per seat, how its luck in this hand moves with each figure of the
    luck baseline: a decided seat's deal less its position's expected first
    value (``LuckBaseline.expected_deal``: the mean result plus the hope
    for an estimate, or the mean first value without hope), its draws less
    the mean per draw each, and a seat that never decided what the others
    leave (``solver.review.luck.dealt_luck``)."""
    base = answer.luck_baseline
    slopes: dict[int, Sensitivity] = {p.seat: defaultdict(float) for p in answer.players}
    if base is None:
        return slopes
    deal: dict[int, Sensitivity] = {}
    for player in answer.players:
        first = next((j for j in answer.decisions if j.seat == player.seat), None)
        slopes[player.seat][("per_draw", 0)] -= player.totals.draws
        if first is None:
            continue
        position = position_of(seat=player.seat, dealer=dealer, seats=players)
        if base.hope is None:
            deal[player.seat] = {("deal", position): -1.0}
        else:
            deal[player.seat] = {("result", position): -1.0}
            if not first.value_exact:
                deal[player.seat][("hope", position)] = -1.0
    undecided = [p.seat for p in answer.players if p.seat not in deal]
    for seat, slope in deal.items():
        for key, value in slope.items():
            slopes[seat][key] += value
            for other in undecided:  # what the others leave, shared
                slopes[other][key] -= value / len(undecided)
    return slopes


def baseline_error(game: str, level: str, players: int, slopes: Sensitivity) -> float:
    """The 95 % half-width a seat's mean luck takes from the baseline's own
    error, given its mean ``slopes``; 0 where the game has no baseline.  The
    figures' errors are taken as independent, but for two players' mean
    results, which are one figure (at more players they are tied too, and
    the half-width is a little off)."""
    entry = baselines().get(game, {}).get(level, {}).get(str(players))
    if entry is None:
        return 0.0
    if players == 2:  # the two mean results are one figure: each hand's results sum to 0
        slopes = dict(slopes)
        slopes[("result", 0)] = slopes.get(("result", 0), 0.0) - slopes.pop(("result", 1), 0.0)
    total = 0.0
    for (figure, position), slope in slopes.items():
        interval = entry.get(INTERVALS[figure])
        if interval is None:
            continue
        width = interval if isinstance(interval, float | int) else interval[position]
        total += (slope * width) ** 2
    return math.sqrt(total)


def run(game: str, hands: int, level: str = REVIEW_LEVEL, pairing: str = "follow-follow",
        play_level: str = "novice", seed: int = 0, rotate: bool = False,
        players: int = 2) -> dict[str, Any]:
    """Play ``hands`` games of ``players`` seats, review each, sum the figures
    up; ``rotate``: the deal passes from seat to seat hand by hand, as at a
    table (else seat 0 plays first in every hand)."""
    names = seat_policies(pairing, players)
    policies = [follow if name == "follow" else at_random for name in names]
    dealers = [n % players if rotate else players - 1 for n in range(hands)]
    records = [play(game, policies, seed=seed + n, level=play_level, dealer=dealers[n],
                    players=[f"seat {s} {name}" for s, name in enumerate(names)])
               for n in range(hands)]
    seat_numbers = range(players)
    cpu: list[float] = []
    wall: list[float] = []
    per_decision: list[float] = []
    lost: dict[int, list[float]] = {s: [] for s in seat_numbers}
    decisions = dict.fromkeys(seat_numbers, 0)
    accuracy: dict[int, list[float]] = {s: [] for s in seat_numbers}
    luck: dict[int, list[float]] = {s: [] for s in seat_numbers}
    slopes: dict[int, Sensitivity] = {s: defaultdict(float) for s in seat_numbers}
    """Each seat's luck's slopes on the baseline's figures, summed over the hands."""
    net: dict[int, list[tuple[float, bool]]] = {s: [] for s in seat_numbers}
    """Each hand's net luck of the seat, and whether it played first."""
    rests: list[float] = []
    within = 0
    split_hands = 0
    incomplete = 0
    baseline: dict[str, Any] | None = None
    """The luck baseline the reviews measured against (the answers', alike for every hand)."""
    for number, record in enumerate(records):
        started_cpu, started = time.process_time(), time.perf_counter()
        answer = review(record, level=level, seed=number, time_limit_ms=60_000)
        cpu.append(time.process_time() - started_cpu)
        wall.append(time.perf_counter() - started)
        per_decision.append(1000.0 * cpu[-1] / max(1, len(answer.decisions)))
        incomplete += not answer.complete
        if answer.luck_baseline is not None:
            baseline = answer.luck_baseline.to_dict()
        for seat, slope in baseline_sensitivity(answer, dealers[number], players).items():
            for key, value in slope.items():
                slopes[seat][key] += value
        for player in answer.players:
            totals = player.totals
            lost[player.seat].append(totals.points_lost)
            decisions[player.seat] += totals.decisions
            if totals.decisions:
                accuracy[player.seat].append(totals.accuracy / totals.decisions)
            luck[player.seat].append(totals.deal_luck + totals.draw_luck)
            if totals.net_hands:
                first = player.seat == (dealers[number] + 1) % players
                net[player.seat].append((totals.net_luck, first))
        for split in answer.split:
            if split.seat == 0:
                split_hands += 1
                rests.append(split.rest)
                within += abs(split.rest) <= 2 * split.noise
    seats = {}
    for seat in seat_numbers:
        seat_luck = mean_interval(luck[seat])
        seat_net = mean_interval([x for x, _ in net[seat]]) if net[seat] else \
            MeanInterval(0.0, 0.0, 0)
        seats[f"seat {seat} {names[seat]}"] = {
            "seat": seat,
            "points_lost_per_decision": round(sum(lost[seat]) / max(1, decisions[seat]), 3),
            "accuracy": round(statistics.fmean(accuracy[seat]), 1) if accuracy[seat] else None,
            "mean_luck": round(seat_luck.mean, 2), "luck_interval": round(seat_luck.half_width, 2),
            "luck_interval_with_baseline": round(math.hypot(seat_luck.half_width, baseline_error(
                game, level, players, {k: v / hands for k, v in slopes[seat].items()})), 2),
            "mean_net_luck": round(seat_net.mean, 2),
            "net_luck_interval": round(seat_net.half_width, 2),
            "net_luck_playing_first": _rounded([x for x, first in net[seat] if first]),
            "net_luck_playing_second": _rounded([x for x, first in net[seat] if not first])}
    rest = mean_interval(rests) if rests else MeanInterval(0.0, 0.0, 0)
    return {
        "game": game, "hands": hands, "players": players, "level": level, "pairing": pairing,
        "play_level": play_level, "seed": seed, "rotate": rotate,
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "cpu_s": {"median": round(statistics.median(cpu), 3), "p99": round(percentile(cpu, 0.99), 3),
                  "max": round(max(cpu), 3)},
        "wall_s": {"median": round(statistics.median(wall), 3),
                   "p99": round(percentile(wall, 0.99), 3)},
        "cpu_ms_per_decision": {"median": round(statistics.median(per_decision), 1),
                                "p99": round(percentile(per_decision, 0.99), 1)},
        "incomplete": incomplete,
        "luck_baseline": baseline, "seats": seats,
        "split": {"hands": split_hands, "mean_rest": round(rest.mean, 2),
                  "rest_interval": round(rest.half_width, 2), "within_2_noise": within},
    }


def seat_policies(pairing: str, players: int) -> list[str]:
    """Each seat's policy by name: ``pairing``'s two at two players; at a
    larger table every seat follows the advisor (``follow-follow`` only).

    >>> seat_policies("follow-random", 2), seat_policies("follow-follow", 3)
    (['follow', 'random'], ['follow', 'follow', 'follow'])
    """
    if players < 2:
        raise ValueError("a review's luck check needs two players at least")
    if players == 2:
        return pairing.split("-")
    if pairing != "follow-follow":
        raise ValueError(f"--pairing {pairing} is for two players; a table of {players} "
                         "is every seat a follower")
    return ["follow"] * players


def _rounded(values: Sequence[float]) -> list[float] | None:
    """``[mean, 95 % half width, count]`` of ``values`` (None without any)."""
    if not values:
        return None
    found = mean_interval(values)
    return [round(found.mean, 2), round(found.half_width, 2), len(values)]


def render(result: dict[str, Any]) -> str:
    """The result as a Markdown table."""
    cpu, wall, each = result["cpu_s"], result["wall_s"], result["cpu_ms_per_decision"]
    deal = "the deal passing from seat to seat" if result.get("rotate") else \
        "seat 0 playing first"
    table = f"{result.get('players', 2)} players, "
    lines = [f"review of {result['hands']} {result['game']} hands ({table}{result['pairing']}, "
             f"{deal}, level {result['level']}; load average {result['load_average']})", "",
             "| figure | value |", "|---|---|",
             f"| CPU s per hand, median / p99 / max | {cpu['median']} / {cpu['p99']} / "
             f"{cpu['max']} |",
             f"| wall s per hand, median / p99 | {wall['median']} / {wall['p99']} |",
             f"| CPU ms per decision, median / p99 | {each['median']} / {each['p99']} |",
             f"| cut short by the deadline | {result['incomplete']} |"]
    for name, seat in result["seats"].items():
        widened = seat.get("luck_interval_with_baseline")
        with_base = "" if widened is None else f" (± {widened} with the baseline's own error)"
        lines.append(f"| {name}: points lost per decision, accuracy, mean luck, mean net luck "
                     f"| {seat['points_lost_per_decision']}, {seat['accuracy']}, "
                     f"{seat['mean_luck']} ± {seat['luck_interval']}{with_base}, "
                     f"{seat['mean_net_luck']} ± {seat['net_luck_interval']} |")
        for when in ("first", "second"):
            found = seat[f"net_luck_playing_{when}"]
            said = when if when == "first" or result.get("players", 2) == 2 else "after another"
            if found is not None:
                lines.append(f"| {name}: mean net luck playing {said} ({found[2]} hands) | "
                             f"{found[0]} ± {found[1]} |")
    split = result["split"]
    lines.append(f"| rest (result - edge - net skill - net luck), mean over {split['hands']} hands | "
                 f"{split['mean_rest']} ± {split['rest_interval']}; within 2 noise in "
                 f"{split['within_2_noise']} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed.review",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="gin")
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--level", default=REVIEW_LEVEL)
    parser.add_argument("--pairing", default="follow-follow",
                        choices=("follow-follow", "follow-random"))
    parser.add_argument("--play-level", default="novice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--rotate", action="store_true",
                        help="the deal passes from seat to seat hand by hand (else seat 0 "
                             "plays first in every hand)")
    parser.add_argument("--players", type=int, default=2,
                        help="seats at the table (above two: every seat follows the advisor)")
    parser.add_argument("--json", metavar="PATH", default=None)
    args = parser.parse_args(argv)
    try:
        seat_policies(args.pairing, args.players)
    except ValueError as error:
        parser.error(str(error))
    result = run(args.game, args.hands, args.level, args.pairing, args.play_level, args.seed,
                 args.rotate, args.players)
    print(render(result))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as stream:
            json.dump(result, stream, indent=1)
            stream.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
