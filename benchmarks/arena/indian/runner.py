"""The Indian rummy arena: rotated deals between named players, summed up as plain data.

* A **deal** is one shuffled deck (two decks and two jokers) played once per
  rotation of the lineup: with ``n`` players, ``n`` games, the player in
  lineup place ``k`` sitting in seat ``(k + r) % n`` in rotation ``r``, so
  every player holds every seat's cards once and the luck of the deal
  cancels inside a deal.  A deal (its rotations together) is the unit of
  every interval.
* A player's **points per deal** are its mean over the rotations of the
  points the referee gave it (+ collected, - paid).
* Decks and the players' seeds derive from ``seed`` and the deal's place
  only, so a run is reproducible (the decision times aside); deals are
  shared out to ``workers`` processes in order and summed up in order.

An illegal action (``IllegalActionError``) stops that game, unscored, and
is counted against the player that made it; the run then fails.
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

from benchmarks.arena.indian.players import ENTRANTS, Player, make_player
from benchmarks.arena.indian.referee import (
    DECK,
    DealResult,
    IllegalActionError,
    IndianDeal,
    IndianRules,
    Kind,
)

Z_95 = 1.959964
MAX_ACTIONS = 2_000
"""A game longer than this is a player looping (never reached by a legal game:
the stock runs out first); it is stopped as illegal."""


def deck_for(seed: int, deal: int) -> tuple[int, ...]:
    """The shuffled deck of deal ``deal``."""
    deck = list(DECK)
    random.Random(f"indian/{seed}/{deal}").shuffle(deck)
    return tuple(deck)


def seed_for(seed: int, deal: int, rotation: int, seat: int) -> int:
    """A player's seed for one game."""
    text = f"indian/{seed}/{deal}/{rotation}/{seat}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=6).digest(), "big")


@dataclass(slots=True)
class GameRecord:
    """One game of a deal: who sat where and what the referee said."""

    seats: tuple[str, ...]
    """The player in each seat."""
    result: DealResult | None
    """None: stopped by an illegal action."""
    dropped: tuple[str | None, ...]
    """``first``/``middle`` by seat, None when it did not drop."""
    turns: int
    violation: tuple[int, str] | None = None
    """(seat, message) of an illegal action."""
    wrong_shows: int = 0
    decision_ms: dict[str, list[float]] = field(default_factory=dict)

    def points(self, seat: int) -> int:
        """The points of ``seat`` (0 when the game was stopped)."""
        return 0 if self.result is None else self.result.points[seat]


def play_game(deck: Sequence[int], seats: Sequence[str], seeds: Sequence[int],
              rules: IndianRules, players: Sequence[Player] | None = None) -> GameRecord:
    """One game of ``deck`` with the players ``seats`` (names) in seat order
    (``players``: those players themselves, else new ones made by name)."""
    deal = IndianDeal(deck, len(seats), rules)
    players = [make_player(name) for name in seats] if players is None else list(players)
    for index, player in enumerate(players):
        player.start_deal(index, seeds[index])
    times: dict[str, list[float]] = {name: [] for name in seats}
    actions = 0
    violation: tuple[int, str] | None = None
    while not deal.over:
        seat = deal.to_act
        view = deal.view(seat)
        started = time.perf_counter()
        try:
            action = players[seat].act(view)
        except Exception as error:  # a crashing player is reported, not fatal
            violation = (seat, f"{seats[seat]} raised {type(error).__name__}: {error}")
            break
        times[seats[seat]].append((time.perf_counter() - started) * 1000)
        try:
            deal.apply(action)
        except IllegalActionError as error:
            violation = (seat, f"{seats[seat]}: {error}")
            break
        actions += 1
        if actions > MAX_ACTIONS:
            violation = (seat, f"{seats[seat]}: more than {MAX_ACTIONS} actions")
            break
    dropped = tuple(s.dropped for s in deal.seats)
    turns = sum(1 for e in deal.history if e.kind in (Kind.TAKE_DISCARD, Kind.DRAW_STOCK))
    return GameRecord(tuple(seats), deal.result if violation is None else None, dropped, turns,
                      violation, deal.wrong_shows, times)


def play_deal(lineup: Sequence[str], seed: int, deal: int,
              rules: IndianRules) -> list[GameRecord]:
    """Every rotation of ``lineup`` over deal ``deal``'s deck."""
    deck = deck_for(seed, deal)
    n = len(lineup)
    games = []
    for rotation in range(n):
        seats = [""] * n
        for place, name in enumerate(lineup):
            seats[(place + rotation) % n] = name
        seeds = [seed_for(seed, deal, rotation, s) for s in range(n)]
        games.append(play_game(deck, seats, seeds, rules))
    return games


def _play_chunk(args: tuple[tuple[str, ...], int, int, int, IndianRules]) -> list[list[GameRecord]]:
    lineup, seed, start, stop, rules = args
    return [play_deal(lineup, seed, deal, rules) for deal in range(start, stop)]


def play_deals(lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
               rules: IndianRules | None = None, chunk: int = 5, progress: bool = True,
               max_seconds: float | None = None) -> list[list[GameRecord]]:
    """``deals`` deals, each in every rotation of ``lineup``, in deal order;
    with ``max_seconds``, no chunk of deals starts after that long (the
    deals done by then are the answer: as many as fit)."""
    rules = rules or IndianRules()
    for name in lineup:
        if name not in ENTRANTS:
            raise KeyError(f"unknown Indian player {name!r}; known: {', '.join(ENTRANTS)}")
    lineup = tuple(lineup)
    jobs = [(lineup, seed, start, min(deals, start + chunk), rules)
            for start in range(0, deals, chunk)]
    out: list[list[GameRecord]] = []
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
        pending: deque[Future[list[list[GameRecord]]]] = deque()
        queue = deque(jobs)
        while queue or pending:
            while queue and len(pending) < 2 * workers and not late():
                pending.append(pool.submit(_play_chunk, queue.popleft()))
            if not pending:
                break
            out.extend(pending.popleft().result())  # in order: the same deals for any timing
            note()
    return out


@dataclass(frozen=True, slots=True)
class MeanInterval:
    """A mean and the half-width of its normal 95 % interval."""

    mean: float
    half_width: float
    n: int

    def to_dict(self) -> dict[str, float | int]:
        """Plain data."""
        return {"mean": self.mean, "half_width": self.half_width, "n": self.n}


def mean_interval(values: Sequence[float]) -> MeanInterval:
    """Mean and normal 95 % interval of independent ``values``."""
    n = len(values)
    if n == 0:
        return MeanInterval(math.nan, math.nan, 0)
    spread = statistics.stdev(values) if n > 1 else math.nan
    return MeanInterval(statistics.fmean(values), Z_95 * spread / math.sqrt(n), n)


def _share(part: int, whole: int) -> float:
    return part / whole if whole else math.nan


def summarize(lineup: Sequence[str], deals: Sequence[Sequence[GameRecord]]) -> dict[str, Any]:
    """Per player: points per deal (interval over deals), wins, drops, wrong
    shows and illegal actions, decision times; pairwise differences per deal;
    and the mean points of each seat whoever sits there."""
    names = list(dict.fromkeys(lineup))
    seats = len(lineup)
    per_deal: dict[str, list[float]] = {name: [] for name in names}
    games = {name: 0 for name in names}
    wins = Counter[str]()
    drops = Counter[str]()
    first_drops = Counter[str]()
    wrong = Counter[str]()
    illegal = Counter[str]()
    times: dict[str, list[float]] = {name: [] for name in names}
    seat_points: list[list[float]] = [[] for _ in range(seats)]
    outcomes = Counter[str]()
    violations: list[str] = []
    drop_points: dict[str, list[float]] = {name: [] for name in names}
    play_points: dict[str, list[float]] = {name: [] for name in names}
    for deal_index, deal in enumerate(deals):
        totals = dict.fromkeys(names, 0.0)
        sits = dict.fromkeys(names, 0)
        for game in deal:
            outcomes[game.result.outcome if game.result else "illegal"] += 1
            if game.violation is not None:
                seat, message = game.violation
                illegal[game.seats[seat]] += 1
                violations.append(f"deal {deal_index}: {message}")
            for seat, name in enumerate(game.seats):
                points = game.points(seat)
                totals[name] += points
                sits[name] += 1
                games[name] += 1
                seat_points[seat].append(points)
                if game.dropped[seat] is not None:
                    drops[name] += 1
                    first_drops[name] += game.dropped[seat] == "first"
                    drop_points[name].append(points)
                else:
                    play_points[name].append(points)
                if game.result is not None and game.result.winner == seat:
                    wins[name] += 1
                if game.result is not None and game.result.outcome == "wrong_show" \
                        and points < 0:
                    wrong[name] += 1
            for name, ms in game.decision_ms.items():
                times[name].extend(ms)
        for name in names:
            per_deal[name].append(totals[name] / max(1, sits[name]))
    players: dict[str, Any] = {}
    for name in names:
        ms = sorted(times[name])
        players[name] = {
            "description": ENTRANTS[name].description,
            "points_per_deal": mean_interval(per_deal[name]).to_dict(),
            "games": games[name],
            "win_rate": _share(wins[name], games[name]),
            "drop_rate": _share(drops[name], games[name]),
            "first_drop_rate": _share(first_drops[name], games[name]),
            "points_when_dropping": mean_interval(drop_points[name]).to_dict(),
            "points_when_playing_on": mean_interval(play_points[name]).to_dict(),
            "wrong_declarations": wrong[name],
            "illegal_actions": illegal[name],
            "decisions": len(ms),
            "decision_median_ms": statistics.median(ms) if ms else math.nan,
            "decision_p99_ms": ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else math.nan,
        }
    pairs: dict[str, Any] = {}
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            diff = [x - y for x, y in zip(per_deal[a], per_deal[b], strict=True)]
            pairs[f"{a} - {b}"] = mean_interval(diff).to_dict()
    return {
        "game": "indian13",
        "lineup": list(lineup),
        "players_at_table": seats,
        "deals": len(deals),
        "games": sum(len(d) for d in deals),
        "players": players,
        "differences": pairs,
        "seats": [mean_interval(p).to_dict() for p in seat_points],
        "outcomes": dict(outcomes),
        "per_deal": {name: per_deal[name] for name in names},
        "violations": violations,
        "wrong_declarations": sum(wrong.values()),
    }


def run_indian_arena(lineup: Sequence[str], deals: int, *, seed: int = 0, workers: int = 1,
                     rules: IndianRules | None = None, progress: bool = True,
                     max_seconds: float | None = None) -> dict[str, Any]:
    """Play and sum up (see the module docstring and ``play_deals``)."""
    started = time.monotonic()
    played = play_deals(lineup, deals, seed=seed, workers=workers, rules=rules,
                        progress=progress, max_seconds=max_seconds)
    results = summarize(lineup, played)
    rules = rules or IndianRules()
    results.update(seed=seed, workers=workers, wall_s=time.monotonic() - started,
                   rules={"cap": rules.cap, "drop_first": rules.drop_first,
                          "drop_middle": rules.drop_middle,
                          "wrong_declaration": rules.wrong_declaration})
    return results
