"""The one search: how the advisor of every game spends its budget on one decision.

A decision's legal moves are valued by information-set search: the cards
the player cannot see are dealt out (``worlds``, consistent with what it
may know), each move is played in each world and the hand played out by a
fast policy (each game's ``play``), and the moves compare on the same worlds.

* ``Level`` -- how hard the advisor thinks: the deals a move may be played
  on, the moves the judgement puts first that are searched in full, the
  deals the judgement reads, the playouts in all; counted, not timed, so a
  seed gives the same answer on any machine.
* ``Budget`` -- a level and the request's deadline; ``until`` is when the
  search stops, ``MARGIN_S`` (or a tenth of the time left) before it, to
  leave time to write the answer.
* ``Tally`` -- one move's outcomes (points, wins), with its mean and
  standard error (``mean_and_error``).
* The ways to spend the budget: ``race`` (deal by deal in batches, a move
  that is clearly worse than the best, by a paired comparison on the same
  deals, stops being played), ``every_world`` (every move on every world)
  and ``halving`` (successive halving of a number of playouts).

The search is anytime: at ``until`` it stops, and the answer is the best
found (``complete`` false).

>>> tally = Tally(Move("draw_stock"), points=[1.0, 3.0])
>>> tally.mean(), mean_and_error(tally.points)
(2.0, (2.0, 1.0))
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from solver.deadline import Deadline
from solver.play.advice import Move

MARGIN_S = 0.01
"""The search stops this long (or a tenth of the time left) before the
deadline, to leave time to write the answer."""
FIRST_DEALS = 3
"""``halving``: deals every move gets in the first round, whatever the budget."""

World = TypeVar("World")
World_contra = TypeVar("World_contra", contravariant=True)


@dataclass(frozen=True, slots=True)
class Level:
    """How hard the advisor thinks (see the module docstring).  ``worlds``:
    the deals one move may be played on; ``shortlist``: the moves the
    judgement puts first that the search plays in full (None: every move;
    0: the judgement alone chooses, the deals only give the figures);
    ``judged``: the deals the judgement reads before the search;
    ``playouts``: the playouts of the whole decision at most (None: no cap
    but the worlds)."""

    name: str
    worlds: int = 0
    shortlist: int | None = None
    judged: int = 0
    playouts: int | None = None


def levels(*each: Level) -> dict[str, Level]:
    """A game's levels by name, in order."""
    return {level.name: level for level in each}


@dataclass(frozen=True, slots=True)
class Budget:
    """A level and the request's deadline: what one decision may spend."""

    level: Level
    deadline: Deadline

    def until(self) -> float:
        """The clock time (``time.monotonic``) the search stops at: ``MARGIN_S``,
        or a tenth of the time left, before the deadline."""
        return self.deadline.at - max(MARGIN_S, self.deadline.remaining_ms() / 10_000.0)


def mean_and_error(points: Sequence[float]) -> tuple[float, float | None]:
    """The mean of a move's points over its deals and the standard error of
    that mean (None from a single deal).

    >>> mean_and_error([1.0, 3.0])
    (2.0, 1.0)
    """
    n = len(points)
    mean = sum(points) / n
    if n < 2:
        return mean, None
    return mean, math.sqrt(sum((p - mean) ** 2 for p in points) / (n - 1) / n)


@dataclass(slots=True)
class Tally:
    """One move's outcomes over the deals it was played on (see the module
    docstring).  ``line`` is how the player goes on after the move in the
    playout (gin: its knock plan; None where a game has one way); ``prior``
    and ``order`` place it in the judgement's order; ``alive`` while the
    search still plays it; ``stage`` the last round of a halving it was in;
    ``searched`` when the search compared it in full."""

    move: Move
    prior: float = 0.0
    points: list[float] = field(default_factory=list)
    wins: list[float] = field(default_factory=list)
    alive: bool = True
    line: Hashable = None
    order: int = 0
    stage: int = 0
    searched: bool = True
    exact: bool = False

    def mean(self) -> float:
        """The mean points (minus infinity before the first deal)."""
        return sum(self.points) / len(self.points) if self.points else -math.inf


# -- race -----------------------------------------------------------------------------------
class RacedDecision(Protocol[World]):
    """What ``race`` asks of a decision."""

    def sample(self, count: int, until: float) -> list[World]:
        """``count`` more worlds (fewer when the clock reaches ``until``)."""

    def play(self, move: Move, lines: Sequence[Hashable], world: World) -> list[float]:
        """The move's points in a copy of ``world``, under each of ``lines``."""

    def utility(self, points: float) -> float:
        """What one outcome is worth to the player (its points, or its match chance)."""


@dataclass(frozen=True, slots=True)
class Racing:
    """How ``race`` decides: ``batch`` deals between checks, a move ``drop_z``
    paired standard errors behind the best is dropped, ``floor``: the least
    standard error assumed (so a few equal deals do not end a move)."""

    batch: int
    drop_z: float
    floor: float


def race(decision: RacedDecision[World], tallies: list[Tally], worlds: list[World],
         budget: Budget, racing: Racing, until: float) -> bool:
    """Play the alive moves deal by deal, in batches, dealing more worlds as
    needed up to the level's count, dropping the clearly worse after each
    batch, until the deals or the time run out; True when the level's deals
    were all used (or one move was left)."""
    level_worlds = budget.level.worlds
    batch = racing.batch
    done = 0
    while done < level_worlds:
        if time.monotonic() >= until or budget.deadline.expired():
            return False
        if done >= len(worlds):
            worlds.extend(decision.sample(min(batch, level_worlds - len(worlds)), until))
        chunk = range(done, min(done + batch, len(worlds)))
        moves: dict[Move, list[Tally]] = {}
        for tally in tallies:
            if tally.alive:
                moves.setdefault(tally.move, []).append(tally)
        for move, lines in moves.items():  # a move's lines share each deal's play
            if time.monotonic() >= until:
                return False
            outcomes = [decision.play(move, [t.line for t in lines], worlds[i]) for i in chunk]
            for k, tally in enumerate(lines):
                tally.points.extend(points[k] for points in outcomes)
        done = chunk.stop
        drop_the_clearly_worse(tallies, decision.utility, racing)
        if sum(t.alive for t in tallies) <= 1 and done >= 4 * batch:
            return True
    return True


def drop_the_clearly_worse(tallies: Sequence[Tally], utility: Callable[[float], float],
                           racing: Racing) -> None:
    """Stop playing each alive move that is ``racing.drop_z`` standard errors
    of the paired differences behind the best (once every alive move has two
    batches of deals)."""
    alive = [t for t in tallies if t.alive]
    if len(alive) < 2 or len(alive[0].points) < 2 * racing.batch:
        return
    worth = {id(t): [utility(p) for p in t.points] for t in alive}
    best = max(alive, key=lambda t: sum(worth[id(t)]))
    for tally in alive:
        if tally is best:
            continue
        diffs = [a - b for a, b in zip(worth[id(tally)], worth[id(best)], strict=True)]
        mean = sum(diffs) / len(diffs)
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (len(diffs) - 1) / len(diffs))
        if mean + racing.drop_z * max(spread, racing.floor) < 0:
            tally.alive = False


# -- every world ---------------------------------------------------------------------------
class WorldlyDecision(Protocol[World]):
    """What ``every_world`` asks of a decision."""

    def sample(self, count: int, until: float) -> list[World]:
        """``count`` worlds (fewer when the clock reaches ``until``)."""

    def play_all(self, tallies: Sequence[Tally], world: World) -> None:
        """Every move of ``tallies`` played in ``world``, its outcome added."""


def every_world(decision: WorldlyDecision[World], tallies: list[Tally], wanted: int,
                sampling_share: float, until: float) -> bool:
    """Deal ``wanted`` worlds (taking at most ``sampling_share`` of the time
    left), then play every move on each, world by world, until the worlds or
    the time run out; True when every wanted world was played."""
    now = time.monotonic()
    worlds = decision.sample(wanted, now + sampling_share * max(0.0, until - now))
    complete = len(worlds) >= wanted
    for index, world in enumerate(worlds):
        if index and time.monotonic() >= until:
            return False
        decision.play_all(tallies, world)
    return complete


# -- halving ----------------------------------------------------------------------------------
def halving_plan(moves: int, playouts: int) -> list[tuple[int, int]]:
    """Successive halving: per round, how many moves are still in and the deals
    each has been played on by the end of it; each round has an even share of
    ``playouts`` and keeps the better half, down to two.

    >>> halving_plan(14, 200)
    [(14, 3), (7, 10), (4, 22), (2, 47)]
    >>> halving_plan(1, 200)
    [(1, 20)]
    """
    if moves <= 1:
        return [(moves, max(FIRST_DEALS, playouts // 10))]
    sizes = [moves]
    while sizes[-1] > 2:
        sizes.append((sizes[-1] + 1) // 2)
    share = playouts / len(sizes)
    plan: list[tuple[int, int]] = []
    deals = 0
    for size in sizes:
        deals += max(FIRST_DEALS if not plan else 1, int(share / size))
        plan.append((size, deals))
    return plan


class HalvedDecision(Protocol[World]):
    """What ``halving`` asks of a decision."""

    def world(self, index: int) -> World:
        """World ``index`` (dealt when first asked for)."""

    def play_out(self, tally: Tally, world: World, until: float) -> tuple[float, float] | None:
        """The move's points and win in ``world``; None when the clock
        passed ``until`` first."""


def halving(decision: HalvedDecision[World], tallies: list[Tally], playouts: int,
            until: float) -> bool:
    """Successive halving (``halving_plan``) of ``playouts`` over the moves:
    every move gets a few deals, the better half more, and so on down to the
    best two; each tally's ``stage`` is the last round it was in.  True when
    the plan was played to its end."""
    alive = list(tallies)
    for stage, (size, deals) in enumerate(halving_plan(len(tallies), playouts)):
        alive = sorted(alive, key=lambda t: (-t.mean(), t.order))[:size]
        for tally in alive:
            tally.stage = stage
        for index in range(deals):
            world = decision.world(index)
            for tally in alive:
                if len(tally.points) > index:
                    continue
                outcome = decision.play_out(tally, world, until)
                if outcome is None:  # the deadline came first
                    return False
                tally.points.append(outcome[0])
                tally.wins.append(outcome[1])
    return True


__all__ = ["MARGIN_S", "Budget", "HalvedDecision", "Level", "RacedDecision", "Racing", "Tally",
           "WorldlyDecision", "drop_the_clearly_worse", "every_world", "halving", "halving_plan",
           "levels", "mean_and_error", "race"]
