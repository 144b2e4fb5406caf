"""Rotated deals, the arena's unit for the games of 2 to 4 players (Indian
rummy, Rummy 500): the dealing, the sharing out to processes, and the
figures every such game sums up the same way.  Each game's runner keeps its
own game loop and its own figures.

* A **deal** is one shuffled deck played once per rotation of the lineup:
  with ``n`` players, ``n`` games, the player in lineup place ``k`` sitting
  in seat ``(k + r) % n`` in rotation ``r``, so every player holds every
  seat's cards once and the luck of the deal cancels inside a deal.  A deal
  (its rotations together) is the unit of every interval.
* A player's **points per deal** are its mean over the rotations of the
  points its game gave it (0 for a game stopped by an illegal action).
* Decks and the players' seeds derive from ``seed`` and the deal's place
  only, so a run is reproducible (the decision times aside); deals are
  shared out to ``workers`` processes in order and summed up in order.
"""

from __future__ import annotations

import hashlib
import math
import random
import statistics
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

from benchmarks.arena.core.stats import mean_interval, percentile

Record = TypeVar("Record")
"""A game's record of one game of a deal."""
Play = Callable[[tuple[int, ...], list[str], list[int]], Record]
"""One game: the deck, the player in each seat (names), each seat's seed."""


def deck_for(game: str, cards: Sequence[int], seed: int, deal: int) -> tuple[int, ...]:
    """The shuffled deck of deal ``deal`` (``game`` names the random stream:
    ``indian``, ``rummy500``)."""
    deck = list(cards)
    random.Random(f"{game}/{seed}/{deal}").shuffle(deck)
    return tuple(deck)


def seed_for(game: str, seed: int, deal: int, rotation: int, seat: int) -> int:
    """A player's seed for one game."""
    text = f"{game}/{seed}/{deal}/{rotation}/{seat}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=6).digest(), "big")


def play_deal(game: str, cards: Sequence[int], lineup: Sequence[str], seed: int, deal: int,
              play: Play[Record]) -> list[Record]:
    """Every rotation of ``lineup`` over deal ``deal``'s deck."""
    deck = deck_for(game, cards, seed, deal)
    n = len(lineup)
    games = []
    for rotation in range(n):
        seats = [""] * n
        for place, name in enumerate(lineup):
            seats[(place + rotation) % n] = name
        seeds = [seed_for(game, seed, deal, rotation, s) for s in range(n)]
        games.append(play(deck, seats, seeds))
    return games


@dataclass(frozen=True, slots=True)
class _Chunk(Generic[Record]):
    """Deals ``start`` to ``stop`` (excluded): what one worker plays at a time."""

    game: str
    cards: tuple[int, ...]
    lineup: tuple[str, ...]
    seed: int
    play: Play[Record]
    start: int
    stop: int


def _play_chunk(chunk: _Chunk[Record]) -> list[list[Record]]:
    return [play_deal(chunk.game, chunk.cards, chunk.lineup, chunk.seed, deal, chunk.play)
            for deal in range(chunk.start, chunk.stop)]


def play_deals(game: str, cards: Sequence[int], lineup: Sequence[str], play: Play[Record],
               deals: int, *, seed: int = 0, workers: int = 1, chunk: int = 5,
               progress: bool = True, max_seconds: float | None = None) -> list[list[Record]]:
    """``deals`` deals of ``cards``, each in every rotation of ``lineup``, in
    deal order (``play``, one game, goes to the worker processes: a function
    of a module, or a ``functools.partial`` of one); with ``max_seconds``, no
    chunk of deals starts after that long (the deals done by then are the
    answer: as many as fit)."""
    lineup, cards = tuple(lineup), tuple(cards)
    jobs = [_Chunk(game, cards, lineup, seed, play, start, min(deals, start + chunk))
            for start in range(0, deals, chunk)]
    out: list[list[Record]] = []
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
        pending: deque[Future[list[list[Record]]]] = deque()
        queue = deque(jobs)
        while queue or pending:
            while queue and len(pending) < 2 * workers and not late():
                pending.append(pool.submit(_play_chunk, queue.popleft()))
            if not pending:
                break
            out.extend(pending.popleft().result())  # in order: the same deals for any timing
            note()
    return out


# -- summing up ------------------------------------------------------------------------
def interval(values: Sequence[float]) -> dict[str, float | int]:
    """Mean and normal 95 % interval of independent ``values``, as plain data."""
    found = mean_interval(values)
    return {"mean": found.mean, "half_width": found.half_width, "n": found.n}


def share(part: float, whole: int) -> float:
    """``part / whole``, NaN when ``whole`` is 0."""
    return part / whole if whole else math.nan


def mean(values: Sequence[float]) -> float:
    """The mean, NaN when empty."""
    return statistics.fmean(values) if values else math.nan


class Outcome(Protocol):
    """What the summary reads of a game's result."""

    @property
    def outcome(self) -> str:
        """How the game ended."""


class Played(Protocol):
    """What the summary reads of a game's record."""

    @property
    def seats(self) -> tuple[str, ...]:
        """The player in each seat."""

    @property
    def result(self) -> Outcome | None:
        """None: stopped by an illegal action."""

    @property
    def violation(self) -> tuple[int, str] | None:
        """(seat, message) of an illegal action."""

    @property
    def decision_ms(self) -> dict[str, list[float]]:
        """Each player's decision times."""

    def points(self, seat: int) -> int:
        """The points of ``seat`` (0 when the game was stopped)."""


@dataclass(slots=True)
class Summary:
    """The figures every rotated-deal game sums up the same way."""

    lineup: list[str]
    deals: int = 0
    games: int = 0
    per_deal: dict[str, list[float]] = field(default_factory=dict)
    """Each player's points per deal (its mean over the deal's games)."""
    per_game: dict[str, list[list[float]]] = field(default_factory=dict)
    """Each player's points in each game of each deal, in rotation order (its
    mean over its seats when it sits twice; the ladder's per-game wins)."""
    sat: Counter[str] = field(default_factory=Counter)
    """The games each player sat in (stopped ones too)."""
    seat_points: list[list[float]] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)
    illegal: Counter[str] = field(default_factory=Counter)
    times: dict[str, list[float]] = field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        """The players, each once, in lineup order."""
        return list(self.per_deal)

    def player(self, name: str, description: str, figures: dict[str, Any]) -> dict[str, Any]:
        """One player's entry: points per deal, the game's own ``figures``,
        illegal actions and decision times."""
        times = self.times[name]
        return {
            "description": description,
            "points_per_deal": interval(self.per_deal[name]),
            **figures,
            "illegal_actions": self.illegal[name],
            "decisions": len(times),
            "decision_median_ms": statistics.median(times) if times else math.nan,
            "decision_p99_ms": percentile(times, 0.99),
        }

    def results(self, game: str, unit: str, players: dict[str, Any]) -> dict[str, Any]:
        """The run's plain data: ``players`` (by ``player``), their paired
        differences per deal, each seat's points, outcomes and violations
        (``unit``: what the game calls one game, ``games`` or ``rounds``)."""
        names = self.names
        differences: dict[str, Any] = {}
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                paired = [x - y for x, y in zip(self.per_deal[a], self.per_deal[b], strict=True)]
                differences[f"{a} - {b}"] = interval(paired)
        return {
            "game": game,
            "lineup": list(self.lineup),
            "players_at_table": len(self.lineup),
            "deals": self.deals,
            unit: self.games,
            "players": players,
            "differences": differences,
            "seats": [interval(p) for p in self.seat_points],
            "outcomes": dict(self.outcomes),
            "per_deal": self.per_deal,
            "per_game": self.per_game,
            "violations": self.violations,
        }


def sum_up(lineup: Sequence[str], deals: Sequence[Sequence[Played]]) -> Summary:
    """The common figures of ``deals`` (each deal's games in rotation order)."""
    names = list(dict.fromkeys(lineup))
    summary = Summary(list(lineup), len(deals), sum(len(d) for d in deals),
                      {name: [] for name in names}, {name: [] for name in names},
                      seat_points=[[] for _ in lineup],
                      times={name: [] for name in names})
    for deal_index, deal in enumerate(deals):
        totals = dict.fromkeys(names, 0.0)
        sits = dict.fromkeys(names, 0)
        games: dict[str, list[float]] = {name: [] for name in names}
        for game in deal:
            in_game: dict[str, list[int]] = {name: [] for name in names}
            summary.outcomes[game.result.outcome if game.result else "illegal"] += 1
            if game.violation is not None:
                seat, message = game.violation
                summary.illegal[game.seats[seat]] += 1
                summary.violations.append(f"deal {deal_index}: {message}")
            for seat, name in enumerate(game.seats):
                totals[name] += game.points(seat)
                sits[name] += 1
                summary.seat_points[seat].append(game.points(seat))
                in_game[name].append(game.points(seat))
            for name, points in in_game.items():
                games[name].append(sum(points) / len(points) if points else 0.0)
            for name, ms in game.decision_ms.items():
                summary.times[name].extend(ms)
        for name in names:
            summary.per_deal[name].append(totals[name] / max(1, sits[name]))
            summary.per_game[name].append(games[name])
            summary.sat[name] += sits[name]
    return summary
