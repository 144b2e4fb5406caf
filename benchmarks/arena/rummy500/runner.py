"""The Rummy 500 arena: rotated deals between named players, summed up as plain data.

* A **deal** is one shuffled deck (52 cards and two jokers) played once per
  rotation of the lineup: with ``n`` players, ``n`` rounds, the player in
  lineup place ``k`` sitting in seat ``(k + r) % n`` in rotation ``r``, so
  every player holds every seat's cards once and the luck of the deal
  cancels inside a deal.  A deal (its rotations together) is the unit of
  every interval.  The dealer is the last seat: seat 0 plays first.
* A player's **points per deal** are its mean over the rotations of its
  round points (laid down and laid off, less what is left in hand).
* A round is **won** by the highest score of the round (shared equally on a
  tie).
* Decks and the players' seeds derive from ``seed`` and the deal's place
  only, so a run is reproducible (the decision times aside); deals are
  shared out to ``workers`` processes in order and summed up in order.

An illegal action (``IllegalActionError``) or a player's exception stops
that round, unscored, and is counted against the player; the run then fails.
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
import sys
import time
from collections import Counter, deque
from collections.abc import Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from benchmarks.arena.rummy500.players import ENTRANTS, Player, make_player
from benchmarks.arena.rummy500.referee import (
    DECK,
    MAX_TURNS,
    IllegalActionError,
    RoundResult,
    Rummy500Round,
)
from benchmarks.arena.stats import mean_interval, percentile

MAX_ACTIONS = 2 * MAX_TURNS + 2
"""A round never takes more actions than this (two a turn)."""


def deck_for(seed: int, deal: int) -> tuple[int, ...]:
    """The shuffled deck of deal ``deal``."""
    deck = list(DECK)
    random.Random(f"rummy500/{seed}/{deal}").shuffle(deck)
    return tuple(deck)


def seed_for(seed: int, deal: int, rotation: int, seat: int) -> int:
    """A player's seed for one round."""
    text = f"rummy500/{seed}/{deal}/{rotation}/{seat}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=6).digest(), "big")


@dataclass(slots=True)
class RoundRecord:
    """One round of a deal: who sat where and what the referee said."""

    seats: tuple[str, ...]
    """The player in each seat."""
    result: RoundResult | None
    """None: stopped by an illegal action."""
    violation: tuple[int, str] | None = None
    """(seat, message) of an illegal action."""
    decision_ms: dict[str, list[float]] = field(default_factory=dict)

    def points(self, seat: int) -> int:
        """The round points of ``seat`` (0 when the round was stopped)."""
        return 0 if self.result is None else self.result.points[seat]


def play_round(deck: Sequence[int], seats: Sequence[str], seeds: Sequence[int],
               players: Sequence[Player] | None = None) -> RoundRecord:
    """One round of ``deck`` with the players ``seats`` (names) in seat order
    (``players``: those players themselves, else new ones made by name)."""
    game = Rummy500Round(deck, len(seats))
    players = [make_player(name) for name in seats] if players is None else list(players)
    for index, player in enumerate(players):
        player.start_deal(index, seeds[index])
    times: dict[str, list[float]] = {name: [] for name in seats}
    violation: tuple[int, str] | None = None
    for _ in range(MAX_ACTIONS):
        if game.over:
            break
        seat = game.to_act
        view = game.view(seat)
        started = time.perf_counter()
        try:
            action = players[seat].act(view)
        except Exception as error:  # a crashing player is reported, not fatal
            violation = (seat, f"{seats[seat]} raised {type(error).__name__} in the "
                               f"{view.phase} phase: {error}")
            break
        times[seats[seat]].append((time.perf_counter() - started) * 1000)
        try:
            game.apply(action)
        except IllegalActionError as error:
            violation = (seat, f"{seats[seat]}: {error}")
            break
    else:
        violation = (game.to_act, f"the round did not end in {MAX_ACTIONS} actions")
    return RoundRecord(tuple(seats), game.result if violation is None else None, violation,
                       times)


def play_deal(lineup: Sequence[str], seed: int, deal: int) -> list[RoundRecord]:
    """Every rotation of ``lineup`` over deal ``deal``'s deck."""
    deck = deck_for(seed, deal)
    n = len(lineup)
    rounds = []
    for rotation in range(n):
        seats = [""] * n
        for place, name in enumerate(lineup):
            seats[(place + rotation) % n] = name
        seeds = [seed_for(seed, deal, rotation, s) for s in range(n)]
        rounds.append(play_round(deck, seats, seeds))
    return rounds


def _play_chunk(args: tuple[tuple[str, ...], int, int, int]) -> list[list[RoundRecord]]:
    lineup, seed, start, stop = args
    return [play_deal(lineup, seed, deal) for deal in range(start, stop)]


def play_deals(lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
               chunk: int = 5, progress: bool = True,
               max_seconds: float | None = None) -> list[list[RoundRecord]]:
    """``deals`` deals, each in every rotation of ``lineup``, in deal order;
    with ``max_seconds``, no chunk of deals starts after that long (the
    deals done by then are the answer: as many as fit)."""
    for name in lineup:
        if name not in ENTRANTS:
            raise KeyError(f"unknown Rummy 500 player {name!r}; known: {', '.join(ENTRANTS)}")
    lineup = tuple(lineup)
    jobs = [(lineup, seed, start, min(deals, start + chunk)) for start in range(0, deals, chunk)]
    out: list[list[RoundRecord]] = []
    started = time.monotonic()

    def late() -> bool:
        return max_seconds is not None and time.monotonic() - started > max_seconds

    def note() -> None:
        if progress:
            print(f"  {len(out)}/{deals} deals, {time.monotonic() - started:.0f} s",
                  file=sys.stderr, flush=True)

    if workers <= 1:
        for job in jobs:
            if late():
                break
            out.extend(_play_chunk(job))
            note()
        return out
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque[Future[list[list[RoundRecord]]]] = deque()
        queue = deque(jobs)
        while queue or pending:
            while queue and len(pending) < 2 * workers and not late():
                pending.append(pool.submit(_play_chunk, queue.popleft()))
            if not pending:
                break
            out.extend(pending.popleft().result())  # in order: the same deals for any timing
            note()
    return out


def _interval(values: Sequence[float]) -> dict[str, float | int]:
    found = mean_interval(values)
    return {"mean": found.mean, "half_width": found.half_width, "n": found.n}


def _share(part: float, whole: int) -> float:
    return part / whole if whole else math.nan


def _mean(values: Sequence[float]) -> float:
    return statistics.fmean(values) if values else math.nan


@dataclass(slots=True)
class _Tally:
    """One player's figures over the rounds it played."""

    rounds: int = 0
    wins: float = 0.0
    went_out: int = 0
    pile_takes: list[float] = field(default_factory=list)
    cards_taken: list[float] = field(default_factory=list)
    laid: list[float] = field(default_factory=list)
    in_hand: list[float] = field(default_factory=list)
    illegal: int = 0
    times: list[float] = field(default_factory=list)

    def add(self, result: RoundResult, seat: int) -> None:
        record = result.seats[seat]
        best = max(result.points)
        winners = sum(p == best for p in result.points)
        self.rounds += 1
        self.wins += (record.points == best) / winners
        self.went_out += record.went_out
        self.pile_takes.append(record.pile_takes)
        self.cards_taken.append(record.cards_taken)
        self.laid.append(record.laid_points)
        self.in_hand.append(record.hand_points)


def summarize(lineup: Sequence[str], deals: Sequence[Sequence[RoundRecord]]) -> dict[str, Any]:
    """Per player: points per deal (interval over deals), round wins, going
    out, pile takes, illegal actions, decision times; pairwise differences
    per deal; the mean points of each seat whoever sits there."""
    names = list(dict.fromkeys(lineup))
    per_deal: dict[str, list[float]] = {name: [] for name in names}
    tallies = {name: _Tally() for name in names}
    seat_points: list[list[float]] = [[] for _ in lineup]
    outcomes = Counter[str]()
    turns: list[float] = []
    violations: list[str] = []
    for deal_index, deal in enumerate(deals):
        totals = dict.fromkeys(names, 0.0)
        sits = dict.fromkeys(names, 0)
        for game in deal:
            outcomes[game.result.outcome if game.result else "illegal"] += 1
            if game.violation is not None:
                seat, message = game.violation
                tallies[game.seats[seat]].illegal += 1
                violations.append(f"deal {deal_index}: {message}")
            if game.result is not None:
                turns.append(game.result.turns)
            for seat, name in enumerate(game.seats):
                totals[name] += game.points(seat)
                sits[name] += 1
                seat_points[seat].append(game.points(seat))
                if game.result is not None:
                    tallies[name].add(game.result, seat)
            for name, ms in game.decision_ms.items():
                tallies[name].times.extend(ms)
        for name in names:
            per_deal[name].append(totals[name] / max(1, sits[name]))
    players: dict[str, Any] = {}
    for name in names:
        tally = tallies[name]
        players[name] = {
            "description": ENTRANTS[name].description,
            "points_per_deal": _interval(per_deal[name]),
            "rounds": tally.rounds,
            "round_win_rate": _share(tally.wins, tally.rounds),
            "going_out_rate": _share(tally.went_out, tally.rounds),
            "pile_takes_per_round": _mean(tally.pile_takes),
            "cards_taken_per_round": _mean(tally.cards_taken),
            "laid_points_per_round": _mean(tally.laid),
            "hand_points_per_round": _mean(tally.in_hand),
            "illegal_actions": tally.illegal,
            "decisions": len(tally.times),
            "decision_median_ms": statistics.median(tally.times) if tally.times else math.nan,
            "decision_p99_ms": percentile(tally.times, 0.99),
        }
    differences: dict[str, Any] = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            paired = [x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)]
            differences[f"{a} - {b}"] = _interval(paired)
    return {
        "game": "rummy500",
        "lineup": list(lineup),
        "players_at_table": len(lineup),
        "deals": len(deals),
        "rounds": sum(len(d) for d in deals),
        "players": players,
        "differences": differences,
        "seats": [_interval(p) for p in seat_points],
        "outcomes": dict(outcomes),
        "turns_per_round": _mean(turns),
        "per_deal": per_deal,
        "violations": violations,
        "illegal_actions": sum(t.illegal for t in tallies.values()),
    }


def run_rummy500_arena(lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
                       progress: bool = True,
                       max_seconds: float | None = None) -> dict[str, Any]:
    """Play and sum up (see the module docstring and ``play_deals``)."""
    started = time.monotonic()
    played = play_deals(lineup, deals, seed=seed, workers=workers, progress=progress,
                        max_seconds=max_seconds)
    results = summarize(lineup, played)
    results.update(seed=seed, workers=workers, wall_s=time.monotonic() - started,
                   max_turns=MAX_TURNS)
    return results
