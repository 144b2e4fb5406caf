"""Does the review order players as the arena does?  ``python -m benchmarks.speed.review_ordering``.

``python -m benchmarks.speed.review_ordering RECORDS.jsonl [--level review]
[--processes 2] [--seed 0] [--exclude NAME,...] [--json PATH]`` reviews every recorded game of
the file (one JSON line each, as ``python -m benchmarks --arena --records``
writes them; ``solver.review.review`` with the seed ``--seed`` plus the
line's number, so a file, a level and a seed give the same figures on any
number of processes), and for each game of the file, per player id:

* its decisions, the mean points lost per decision (the sum of its losses
  over the sum of its decisions) with a 95 % interval over its records (a
  ratio's: each record's losses less the mean's share of its decisions),
  its rating and accuracy (docs/REVIEW.md, "Per player");
* its arena points per hand: the mean of the records' ``result`` for its
  seat (the arena's scoring, in the review's units) with a 95 % interval;
* its engine agreement (docs/REVIEW.md, "Engine agreement"): how often it
  played the review's best where the best was decisive, over all its
  records, and the spread of that rate over blocks of ``BLOCK`` of its
  records in file order (the 10th, 50th and 90th percentile): what one
  account's rate over that many games looks like for a player of its
  level, the distribution a studio compares an outlier with.

Then the table sorted by arena points, the Pearson and Spearman correlation
between the rating and the arena points across the players (a lower rating
is better play, so the review agrees with the arena when they are strongly
negative: issue 37's target is ``r <= -0.9`` over 8 players or more), the
Pearson correlation of the points lost per hand (the luck split's skill
term, in the arena's own unit: a player whose play makes hands longer
makes more decisions, each counting for less) with the arena points, and
whether the order by points lost per decision (least first) is the arena's
(most points first), with the pairs of players the two orders put alike.

A player's arena points are against the opponents it met: compare players
that met the same field (a round robin, or each against one common
opponent).  ``--exclude`` leaves players out of the order and the
correlation (still in the table): the common opponent of such a file, whose
points are against everybody else.

Never asserted on time: the figures are for docs/REVIEW_FIGURES.md.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

from benchmarks.arena.core.stats import Z_95, mean_interval, percentile
from benchmarks.speed.markdown import markdown_table
from solver.errors import SolverInputError
from solver.review import review
from solver.review.params import REVIEW_LEVEL

TIME_LIMIT_MS = 600_000
"""Each review's deadline (the most the library takes): the work is counted,
not timed, so it only cuts short a review that runs away."""


@dataclass(frozen=True, slots=True)
class Job:
    """One record to review: its line number (its seed's offset) and options."""

    number: int
    record: dict[str, Any]
    level: str
    seed: int
    time_limit_ms: int


BLOCK = 25
"""Records per block of the engine agreement's spread."""


def review_one(job: Job) -> dict[str, Any]:
    """Review one record; per seat the sums the table is made of (a plain
    dict: it comes back from a worker process)."""
    try:
        answer = review(job.record, level=job.level, seed=job.seed + job.number,
                        time_limit_ms=job.time_limit_ms)
    except SolverInputError as error:  # a record the review refuses: counted, not fatal
        return {"number": job.number, "game": str(job.record.get("game")), "complete": False,
                "seats": [], "refused": f"line {job.number + 1}: {error.code} at "
                                        f"{list(error.loc)}: {error.message}"}
    result = answer.result
    seats = []
    for player in answer.players:
        totals = player.totals
        seats.append({"seat": player.seat, "player": player.player,
                      "decisions": totals.decisions, "points_lost": totals.points_lost,
                      "units_lost": totals.units_lost, "accuracy": totals.accuracy,
                      "decisive": totals.decisive, "agreed": totals.agreed,
                      "result": None if result is None else result[player.seat]})
    return {"number": job.number, "game": answer.record.game, "complete": answer.complete,
            "seats": seats}


def review_all(records: Sequence[dict[str, Any]], *, level: str = REVIEW_LEVEL, seed: int = 0,
               processes: int = 1,
               time_limit_ms: int = TIME_LIMIT_MS) -> list[dict[str, Any]]:
    """Every record reviewed (``review_one``), in the records' order, on
    ``processes`` processes."""
    jobs = [Job(number, record, level, seed, time_limit_ms)
            for number, record in enumerate(records)]
    if processes <= 1 or len(jobs) <= 1:
        return [review_one(job) for job in jobs]
    with multiprocessing.Pool(processes) as pool:
        return list(pool.imap(review_one, jobs, chunksize=1))


@dataclass(slots=True)
class _Player:
    """One player's sums over its records."""

    decisions: int = 0
    points_lost: float = 0.0
    units_lost: float = 0.0
    accuracy: float = 0.0
    per_record: list[tuple[float, int]] = field(default_factory=list)
    """Each record's (points lost, decisions)."""
    results: list[float] = field(default_factory=list)
    agreement: list[tuple[int, int]] = field(default_factory=list)
    """Each record's (agreed, decisive)."""

    def add(self, seat: dict[str, Any]) -> None:
        self.decisions += seat["decisions"]
        self.points_lost += seat["points_lost"]
        self.units_lost += seat["units_lost"]
        self.accuracy += seat["accuracy"]
        self.per_record.append((seat["points_lost"], seat["decisions"]))
        self.agreement.append((int(seat.get("agreed", 0)), int(seat.get("decisive", 0))))
        if seat["result"] is not None:
            self.results.append(float(seat["result"]))

    def figures(self) -> dict[str, Any]:
        decided = self.decisions
        loss = self.points_lost / decided if decided else math.nan
        return {"records": len(self.per_record), "decisions": decided,
                "points_lost_per_decision": loss,
                "points_lost_per_hand": self.points_lost / len(self.per_record)
                if self.per_record else math.nan,
                "loss_interval": ratio_half_width(self.per_record, loss),
                "rating": 1000.0 * self.units_lost / decided if decided else math.nan,
                "accuracy": self.accuracy / decided if decided else math.nan,
                "arena_points": statistics.fmean(self.results) if self.results else math.nan,
                "points_interval": mean_interval(self.results).half_width,
                **agreement_figures(self.agreement)}


def agreement_figures(per_record: Sequence[tuple[int, int]],
                      block: int = BLOCK) -> dict[str, Any]:
    """The engine agreement of ``(agreed, decisive)`` per record: the rate
    over all of them, and its 10th, 50th and 90th percentile over the whole
    blocks of ``block`` records (None without two whole blocks).

    >>> agreement_figures([(1, 2), (2, 2), (0, 0), (1, 1)], block=2)
    {'decisive': 5, 'agreement_rate': 0.8, 'agreement_blocks': 2, 'agreement_spread': [0.75, 0.75, 1.0]}
    """
    decisive = sum(d for _, d in per_record)
    rate = sum(a for a, _ in per_record) / decisive if decisive else math.nan
    rates = []
    for start in range(0, len(per_record) - block + 1, block):
        part = per_record[start:start + block]
        seen = sum(d for _, d in part)
        if seen:
            rates.append(sum(a for a, _ in part) / seen)
    spread = None
    if len(rates) >= 2:
        ordered = sorted(rates)
        spread = [percentile(ordered, share) for share in (0.1, 0.5, 0.9)]
    return {"decisive": decisive, "agreement_rate": rate, "agreement_blocks": len(rates),
            "agreement_spread": spread}


def ratio_half_width(pairs: Sequence[tuple[float, int]], ratio: float) -> float:
    """The 95 % half width of ``ratio`` = sum(x) / sum(d) over records
    ``(x, d)``, by the linearised variance of a ratio estimator: the spread
    of ``x - ratio * d`` over the records, over the mean ``d``."""
    n = len(pairs)
    if n < 2 or math.isnan(ratio):
        return math.nan
    mean_d = sum(d for _, d in pairs) / n
    if mean_d == 0:
        return math.nan
    residuals = [x - ratio * d for x, d in pairs]
    variance = sum(r * r for r in residuals) / (n * (n - 1))
    return Z_95 * math.sqrt(variance) / mean_d


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's r (NaN with fewer than 3 points or no spread).

    >>> round(pearson([1, 2, 3], [2, 4, 7]), 3)
    0.993
    """
    if len(xs) < 3:
        return math.nan
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan


def ranks(values: Sequence[float]) -> list[float]:
    """Each value's rank from 1, ties sharing their mean rank.

    >>> ranks([10, 30, 20, 20])
    [1.0, 4.0, 2.5, 2.5]
    """
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        for k in range(start, end + 1):
            out[order[k]] = (start + end) / 2 + 1
        start = end + 1
    return out


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Spearman's rank correlation (Pearson's r of the ranks)."""
    return pearson(ranks(xs), ranks(ys))


def summarize(reviewed: Iterable[dict[str, Any]],
              exclude: Sequence[str] = ()) -> dict[str, Any]:
    """Per game of the records: each player's figures, the table's order by
    arena points, the correlations and whether the orders agree (the
    players in ``exclude`` left out of the last three)."""
    by_game: dict[str, dict[str, _Player]] = {}
    counts: dict[str, list[int]] = {}
    refused: dict[str, list[str]] = {}
    for answer in reviewed:
        game = answer["game"]
        players = by_game.setdefault(game, {})
        tally = counts.setdefault(game, [0, 0])
        tally[0] += 1
        tally[1] += not answer["complete"] and "refused" not in answer
        if "refused" in answer:
            refused.setdefault(game, []).append(answer["refused"])
        for seat in answer["seats"]:
            players.setdefault(seat["player"], _Player()).add(seat)
    games = {}
    for game, players in by_game.items():
        figures = {name: player.figures() for name, player in players.items()}
        games[game] = {"records": counts[game][0], "incomplete": counts[game][1],
                       "refused": refused.get(game, []), **compare(figures, exclude)}
    return {"games": games}


def compare(figures: dict[str, dict[str, Any]], exclude: Sequence[str] = ()) -> dict[str, Any]:
    """The players sorted by arena points, the correlation of rating and
    points, and the two orders side by side (without ``exclude``)."""
    ranked = [name for name in figures if not math.isnan(figures[name]["arena_points"])
              and not math.isnan(figures[name]["rating"]) and name not in exclude]
    by_points = sorted(ranked, key=lambda n: -figures[n]["arena_points"])
    by_loss = sorted(ranked, key=lambda n: figures[n]["points_lost_per_decision"])
    ratings = [figures[n]["rating"] for n in by_points]
    points = [figures[n]["arena_points"] for n in by_points]
    per_hand = [hand_loss(figures[n]) for n in by_points]
    alike = sum(1 for a, b in combinations(by_points, 2)
                if figures[a]["points_lost_per_decision"] < figures[b]["points_lost_per_decision"])
    pairs = len(ranked) * (len(ranked) - 1) // 2
    rest = sorted(set(figures) - set(ranked), key=lambda n: -figures[n]["arena_points"])
    return {"players": {name: figures[name] for name in [*by_points, *rest]},
            "unranked": rest,
            "order_by_points": by_points, "order_by_loss": by_loss,
            "same_order": by_points == by_loss, "pairs_alike": alike, "pairs": pairs,
            "pearson": pearson(ratings, points), "spearman": spearman(ratings, points),
            "pearson_per_hand": pearson(per_hand, points)}


def hand_loss(figures: dict[str, Any]) -> float:
    """A player's points lost per hand (per record): its figure, or from a
    file written before it was, its points lost per decision times its
    decisions over its records.

    >>> hand_loss({"points_lost_per_decision": 0.5, "decisions": 30, "records": 3})
    5.0
    """
    if "points_lost_per_hand" in figures:
        return float(figures["points_lost_per_hand"])
    records = figures["records"]
    return figures["points_lost_per_decision"] * figures["decisions"] / records if records \
        else math.nan


def run(path: str | Path, *, level: str = REVIEW_LEVEL, seed: int = 0, processes: int = 1,
        time_limit_ms: int = TIME_LIMIT_MS, exclude: Sequence[str] = ()) -> dict[str, Any]:
    """Review every record of the file at ``path`` and sum up (see the module
    docstring; ``exclude``: players left out of the order and the correlation)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines if line.strip()]
    reviewed = review_all(records, level=level, seed=seed, processes=processes,
                          time_limit_ms=time_limit_ms)
    return {"file": str(path), "level": level, "seed": seed, "processes": processes,
            "exclude": list(exclude), **summarize(reviewed, exclude)}


def plain(value: Any) -> Any:
    """``value`` with every NaN as None (JSON has no NaN)."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    return value


def _number(value: float, digits: int = 2) -> str:
    return "-" if math.isnan(value) else f"{value:.{digits}f}"


def _agreement_text(figures: dict[str, Any]) -> str:
    if not figures.get("decisive"):
        return "-"
    text = f"{100 * figures['agreement_rate']:.0f} % ({figures['decisive']})"
    spread = figures.get("agreement_spread")
    if spread:
        text += "; " + " / ".join(f"{100 * rate:.0f}" for rate in spread)
    return text


def render(result: dict[str, Any]) -> str:
    """The figures as Markdown: a table per game, then its correlations."""
    out = []
    for game, found in result["games"].items():
        rows = [[name + (" (left out)" if name in found["unranked"] else ""),
                 f["records"], f["decisions"],
                 f"{_number(f['points_lost_per_decision'])} ± {_number(f['loss_interval'])}",
                 _number(f["rating"], 0), _number(f["accuracy"], 1),
                 f"{_number(f['arena_points'])} ± {_number(f['points_interval'])}",
                 _agreement_text(f)]
                for name, f in found["players"].items()]
        refused = found.get("refused", [])
        out += [f"{game}: {found['records']} records reviewed at level {result['level']} "
                f"(seed {result['seed']}; cut short: {found['incomplete']}; refused: "
                f"{len(refused)}{': ' + '; '.join(refused[:3]) if refused else ''})", "",
                markdown_table(["player", "records", "decisions", "points lost / decision",
                                "rating", "accuracy", "arena points / hand",
                                f"engine agreement: all (decisive); p10 / p50 / p90 over "
                                f"{BLOCK} games"], rows), "",
                f"rating against arena points per hand over {len(found['order_by_points'])} "
                "players: "
                f"Pearson r = {_number(found['pearson'])}, Spearman = "
                f"{_number(found['spearman'])} (lower rating is better play: the review "
                "agrees with the arena when both are near -1); points lost per hand (the "
                "luck split's skill, in the arena's unit) against arena points per hand: "
                f"Pearson r = {_number(found['pearson_per_hand'])}",
                f"order by points lost per decision {'matches' if found['same_order'] else 'differs from'}"
                f" the arena's: {found['pairs_alike']} of {found['pairs']} pairs alike "
                f"({', '.join(found['order_by_loss'])})", ""]
    return "\n".join(out).rstrip() + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.speed.review_ordering",
                                     description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("records", metavar="RECORDS.jsonl",
                        help="recorded games, one JSON line each (python -m benchmarks "
                             "--arena --records PATH)")
    parser.add_argument("--level", default=REVIEW_LEVEL,
                        help="the review's level (review, or the advisor's novice, standard, "
                             "expert)")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0,
                        help="the first record's review seed (each next line: one more)")
    parser.add_argument("--time-limit-ms", type=int, default=TIME_LIMIT_MS)
    parser.add_argument("--exclude", default="", metavar="NAME,...",
                        help="players left out of the order and the correlation (the common "
                             "opponent of a file of games against one)")
    parser.add_argument("--json", metavar="PATH", default=None)
    args = parser.parse_args(argv)
    exclude = [name.strip() for name in args.exclude.split(",") if name.strip()]
    result = run(args.records, level=args.level, seed=args.seed, processes=args.processes,
                 time_limit_ms=args.time_limit_ms, exclude=exclude)
    print(render(result), end="")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as stream:
            json.dump(plain(result), stream, indent=1)
            stream.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
