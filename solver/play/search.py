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
  search stops, ``MARGIN_S`` (or ``MARGIN_SHARE`` of the time left) before
  it, to leave time to write the answer.
* ``Tally`` -- one move's outcomes (points, wins), with its mean and
  standard error (``mean_and_error``).
* ``spend`` -- the one way to spend the budget on the close calls: rounds
  of deals for every move still in; a move clearly worse than the best, by
  a paired comparison on the same deals, stops being played; with a
  ``playouts`` budget, successive halving (the better half of the moves
  goes on after each round); ``ranked`` orders the result.

The search is anytime: at ``until`` it stops, and the answer is the best
found (``complete`` false).

>>> tally = Tally(Move("draw_stock"), points=[1.0, 3.0])
>>> tally.mean(), mean_and_error(tally.points)
(2.0, (2.0, 1.0))
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, runtime_checkable

from solver.deadline import Deadline
from solver.play.advice import Confidence, Move

MARGIN_S = 0.01
"""The search stops this long, or ``MARGIN_SHARE`` of the time left, before
the deadline, to leave time to write the answer."""
MARGIN_SHARE = 0.1
"""The share of a decision's time left that is kept for writing the answer
(the words and figures of every move)."""

World = TypeVar("World")


@dataclass(frozen=True, slots=True)
class Level:
    """How hard the advisor thinks (see the module docstring).  ``worlds``:
    the deals one move may be played on (0: no cap but ``playouts``); ``shortlist``: the moves the
    judgement puts first that the search plays in full (None: every move;
    0: the judgement alone chooses, the deals only give the figures);
    ``judged``: the deals the judgement reads before the search;
    ``playouts``: the playouts of the whole decision at most (None: no cap
    but the worlds); ``turns``: with ``playouts``, the turns the decision's
    playouts may play in all (each playout counting its move as one), so a
    position whose playouts are short gets more of them, never fewer than
    ``playouts`` alone gives (0: no turn budget; only where the decision
    counts its turns, ``TurnCounting``)."""

    name: str
    worlds: int = 0
    shortlist: int | None = None
    judged: int = 0
    playouts: int | None = None
    turns: int = 0


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
        or ``MARGIN_SHARE`` of the time left, before the deadline."""
        if math.isinf(self.deadline.at):  # Deadline.never(): no time to keep back
            return math.inf
        return self.deadline.at - max(MARGIN_S,
                                      MARGIN_SHARE * self.deadline.remaining_ms() / 1000.0)


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


# -- the one way to spend a budget ------------------------------------------------------------
Outcome = tuple[float, float]
"""One playout's result for the player: its points and its win (1, 0, or a share of a tie)."""


@runtime_checkable
class TurnCounting(Protocol):
    """A decision that counts the turns its playouts played (``Level.turns``)."""

    def turns_played(self) -> int:
        """The turns every playout of the decision has played so far, each
        counting its move as one."""


class Decision(Protocol[World]):
    """What the search asks of a game's decision."""

    def sample(self, count: int, until: float) -> list[World]:
        """``count`` more worlds consistent with what the player may know
        (fewer, one at least, when the clock reaches ``until``)."""

    def play(self, move: Move, lines: Sequence[Hashable], world: World) -> list[Outcome] | None:
        """The move played in a copy of ``world`` and the hand played out by
        the fast policy: the outcome under each of ``lines`` (how the player
        goes on); None when the clock ran out first."""

    def utility(self, points: float) -> float:
        """What one outcome's points are worth to the player (its points, or
        its chance to win the match)."""


@dataclass(frozen=True, slots=True)
class Spending:
    """How the search spends a level on the close calls (see ``spend``):
    ``batch`` deals every move still in is played on between two checks;
    once every move has ``least`` deals, a move ``drop_z`` paired standard
    errors behind the best (``floor``: the least standard error assumed, so
    a few equal deals do not end a move) stops being played; with one move
    left after ``settle`` deals the search stops."""

    batch: int = 8
    drop_z: float = 2.5
    floor: float = 0.5
    least: int = 16
    settle: int = 32


def halving_sizes(moves: int) -> list[int]:
    """The moves still in per round of successive halving: all, then the
    better half, down to two.

    >>> halving_sizes(14), halving_sizes(2), halving_sizes(1)
    ([14, 7, 4, 2], [2], [1])
    """
    sizes = [moves]
    while sizes[-1] > 2:
        sizes.append((sizes[-1] + 1) // 2)
    return sizes


def stopped(until: float, deadline: Deadline) -> bool:
    """Whether a search must stop before its next playout: the clock reached
    ``until``, or the request was cancelled (its client went away: a round
    may play for seconds, eight players at the expert level, and must stop
    within a playout, not at its end)."""
    return time.monotonic() >= until or deadline.cancelled()


def spend(decision: Decision[World], tallies: list[Tally], worlds: list[World],
          budget: Budget, spending: Spending, until: float) -> bool:
    """Play the moves of the alive ``tallies`` round by round on the same
    worlds (dealt as needed after those ``worlds`` already holds) until the
    level is spent, the clock reaches ``until`` or one move is left; True
    when the level's budget was spent (not cut short by the clock).

    Each round plays every move still in on more deals: ``spending.batch``,
    or with a ``playouts`` budget its share of the round (successive
    halving: the budget is split evenly over the rounds, each round over the
    moves in it, and after each round the better half goes on).  After each
    round a move that is clearly worse than the best (``spending.drop_z``
    paired standard errors on the same deals) stops, so the deals go to the
    close calls.  A move's lines (ways to go on after it) share each deal's
    play.  Each tally's ``stage`` is the last round it was in.  With a
    ``turns`` budget (``Level.turns``), the playouts are those the turns
    allow at the mean length of the playouts so far (``turns_total``), read
    again after each half of a round's deals (a first batch of each move
    gives the first reading): each round has its share of those not yet
    played, and never fewer deals than the ``playouts`` budget alone gives it."""
    level = budget.level
    cap = level.worlds if level.worlds else math.inf
    sizes = halving_sizes(len({t.move for t in tallies if t.alive}))
    share = None if level.playouts is None else level.playouts / len(sizes)
    counter = decision if level.turns and isinstance(decision, TurnCounting) else None
    turns_before = counter.turns_played() if counter is not None else 0
    played = done = 0

    def play_to(target: int, moves: dict[Move, list[Tally]], alive: list[Tally]) -> bool:
        """Every move of ``moves`` played on the deals up to ``target``; False
        when the clock (or a cancel) cut it short (the moves left even)."""
        nonlocal played, done
        while len(worlds) < target:
            if worlds and stopped(until, budget.deadline):
                return False
            worlds.extend(decision.sample(target - len(worlds), until))
        for index in range(done, target):  # world by world: a cut leaves the moves even
            for move, lines in moves.items():
                outcomes = None if stopped(until, budget.deadline) else \
                    decision.play(move, [t.line for t in lines], worlds[index])
                if outcomes is None:
                    _even(alive, index)
                    return False
                for tally, (points, win) in zip(lines, outcomes, strict=True):
                    tally.points.append(points)
                    tally.wins.append(win)
                played += 1
        done = target
        return True

    for stage in itertools.count():
        alive = [t for t in tallies if t.alive]
        moves: dict[Move, list[Tally]] = {}
        for tally in alive:
            moves.setdefault(tally.move, []).append(tally)
        if not moves or done >= cap or (share is not None and stage >= len(sizes)):
            return True
        if stage and len(moves) <= 1 and done >= spending.settle:
            return True
        if time.monotonic() >= until or budget.deadline.expired():
            return False
        first = spending.batch if stage == 0 else 1
        step = spending.batch if share is None else max(first, int(share / len(moves)))
        if counter is not None and share is not None:
            begun, before = done, played
            if not played and not play_to(int(min(done + first, cap)), moves, alive):
                return False  # a first batch measures how long the playouts are
            while True:  # the round's deals, read again after each half of what is left
                total = turns_total(level.turns, played, counter.turns_played() - turns_before)
                goal = int(min(cap, begun + max(step, (total - before) / (len(sizes) - stage)
                                                / len(moves))))
                if done >= goal:
                    break
                if not play_to(done + (goal - done + 1) // 2, moves, alive):
                    return False
        elif not play_to(int(min(done + step, cap)), moves, alive):
            return False
        for tally in alive:
            tally.stage = stage
        if done >= spending.least:
            drop_the_clearly_worse(alive, decision.utility, spending)
        if share is not None and stage + 1 < len(sizes):
            _keep_the_better(alive, sizes[stage + 1], decision.utility)
    return True  # pragma: no cover -- the loop returns


def play_every_deal(decision: Decision[World], tallies: list[Tally], budget: Budget,
                    until: float) -> bool:
    """Every move of ``tallies`` played on each of the level's ``worlds``
    deals, the same for all, none dropped (a comparison no choice among the
    moves has touched: ``Game.compare``); False when the clock or a cancel
    cut it short."""
    deals = budget.level.worlds
    every = Spending(batch=deals, drop_z=math.inf, floor=0.0, least=deals + 1,
                     settle=deals + 1)
    return spend(decision, tallies, [], budget, every, until)


def turns_total(turns: int, played: int, turns_played: int) -> float:
    """The playouts a budget of ``turns`` (``Level.turns``) allows when
    ``played`` playouts took ``turns_played`` turns (each at least one):
    that many at their mean length.

    >>> turns_total(6000, 100, 1000)  # 10 turns a playout
    600.0
    """
    return turns * played / max(turns_played, played)


class FollowedDecision(Decision[World], Protocol):
    """What ``ismcts`` asks of a decision beyond ``Decision``: the player's
    choices at its next decision after a move, and a play that makes one."""

    def follows(self, move: Move) -> tuple[Hashable, ...]:
        """The choices of the player's next decision after ``move`` (none: the
        move ends what the tree looks at)."""

    def play_following(self, move: Move, lines: Sequence[Hashable], world: World,
                       follow: Hashable) -> list[Outcome] | None:
        """``play``, the player's next decision being ``follow``."""


def ismcts(decision: FollowedDecision[World], tallies: list[Tally], worlds: list[World],
           playouts: int, explore: float, until: float, deadline: Deadline) -> bool:
    """Information-set Monte Carlo tree search of two levels over the alive
    tallies' moves (the experiment of docs/experiments/gin-ismcts.md): each
    iteration takes the next world (a determinization), picks a move by UCB1
    over the worlds seen so far, then the player's next decision after it
    (``decision.follows``: open loop, the same choices in every world) by
    UCB1 under that move, and plays the rest out by the fast policy.  A
    move's outcomes go to its tallies (one per line) whatever the follow, so
    the figures are those of the move played by the tree.  ``playouts``
    iterations at most; True when they were all played (``stopped`` by
    ``until`` or a cancel of ``deadline`` before that: False)."""
    moves: dict[Move, list[Tally]] = {}
    for tally in tallies:
        if tally.alive:
            moves.setdefault(tally.move, []).append(tally)
    if not moves:
        return True
    order = list(moves)
    visits = dict.fromkeys(order, 0)
    score = dict.fromkeys(order, 0.0)
    under: dict[tuple[Move, Hashable], list[float]] = {}

    def best_line(outcomes: Sequence[Outcome]) -> float:
        return max(decision.utility(points) for points, _ in outcomes)

    def ucb(total: float, count: int, parent: int) -> float:
        return math.inf if count == 0 else \
            total / count + explore * math.sqrt(math.log(max(parent, 1)) / count)

    for index in range(playouts):
        if stopped(until, deadline):
            return False
        while len(worlds) <= index:
            worlds.extend(decision.sample(8, until))
        move = max(order, key=lambda m: ucb(score[m], visits[m], index))
        follows = decision.follows(move)
        lines = moves[move]
        if follows:
            stats = [under.setdefault((move, f), [0.0, 0.0]) for f in follows]
            choice = max(range(len(follows)),
                         key=lambda k: ucb(stats[k][1], int(stats[k][0]), visits[move]))
            outcomes = decision.play_following(move, [t.line for t in lines], worlds[index],
                                               follows[choice])
        else:
            outcomes = decision.play(move, [t.line for t in lines], worlds[index])
        if outcomes is None:
            return False
        value = best_line(outcomes)
        visits[move] += 1
        score[move] += value
        if follows:
            stats[choice][0] += 1
            stats[choice][1] += value
        for tally, (points, win) in zip(lines, outcomes, strict=True):
            tally.points.append(points)
            tally.wins.append(win)
    return True


def _even(alive: Sequence[Tally], deals: int) -> None:
    """A round cut short by the clock: every move still in keeps its first
    ``deals`` outcomes, so all compare on the same worlds."""
    for tally in alive:
        del tally.points[deals:]
        del tally.wins[deals:]


def _worth(tally: Tally, utility: Callable[[float], float]) -> float:
    return sum(utility(p) for p in tally.points) / len(tally.points) if tally.points \
        else -math.inf


def _keep_the_better(alive: Sequence[Tally], keep: int,
                     utility: Callable[[float], float]) -> None:
    """Successive halving: only the ``keep`` best moves (each by its best
    line) stay in."""
    best: dict[Move, float] = {}
    order: dict[Move, tuple[float, int]] = {}
    for tally in alive:
        if tally.alive:
            worth = _worth(tally, utility)
            if worth > best.get(tally.move, -math.inf) or tally.move not in best:
                best[tally.move] = worth
            order.setdefault(tally.move, (tally.prior, tally.order))
    kept = set(sorted(best, key=lambda m: (-best[m], order[m]))[:keep])
    for tally in alive:
        if tally.move not in kept:
            tally.alive = False


def drop_the_clearly_worse(tallies: Sequence[Tally], utility: Callable[[float], float],
                           spending: Spending) -> None:
    """Stop playing each alive move that is ``spending.drop_z`` standard
    errors of the paired differences behind the best (on the deals both played)."""
    alive = [t for t in tallies if t.alive and len(t.points) >= 2]
    if len(alive) < 2:
        return
    worth = {id(t): [utility(p) for p in t.points] for t in alive}
    best = max(alive, key=lambda t: sum(worth[id(t)]) / len(worth[id(t)]))
    for tally in alive:
        if tally is best:
            continue
        count = min(len(worth[id(tally)]), len(worth[id(best)]))
        diffs = [a - b for a, b in zip(worth[id(tally)][:count], worth[id(best)][:count],
                                        strict=True)]
        mean, error = mean_and_error(diffs)
        if mean + spending.drop_z * max(error or 0.0, spending.floor) < 0:
            tally.alive = False


def behind(best: Tally, tally: Tally,
           utility: Callable[[float], float]) -> tuple[float | None, float | None]:
    """How far ``tally`` is behind ``best`` on the deals both were played on
    (the first ones of each: every move is played on the same worlds in the
    same order), in ``utility`` units, and the paired standard error of
    that gap; None (and None) for ``best`` itself or without a common deal."""
    count = min(len(best.points), len(tally.points))
    if tally is best or count == 0:
        return None, None
    gap, error = mean_and_error([utility(a) - utility(b) for a, b in
                                 zip(best.points[:count], tally.points[:count], strict=True)])
    return gap, error


def clearly_ahead(best: Tally, plain: Tally, z: float, floor: float,
                  utility: Callable[[float], float]) -> bool:
    """Whether ``best`` leads ``plain`` by more than ``z`` paired standard
    errors (at least ``floor``) on the deals both were played on; with fewer
    than two common deals there is nothing to weigh and ``best`` stands."""
    count = min(len(best.points), len(plain.points))
    if plain is best or count < 2:
        return True
    lead, error = mean_and_error([utility(a) - utility(b) for a, b in
                                  zip(best.points[:count], plain.points[:count], strict=True)])
    return lead > z * max(error or 0.0, floor)


LEVEL = 1e-9
"""A lead below this is float rounding, shown as level: means of points that
are equal on every deal can differ by about 1e-16 (the lead is in points, or
in match-win chance with a score)."""


NOT_PLAYED = "not played out before the deadline: no figures yet"
"""The reason of a move the clock stopped before its first deal (its
figures are placeholders: 0 points, 0 deals)."""
MIN_RANKED = 3
"""A move played on fewer deals than this (the clock cut its search short)
has rough figures: too few to rank it, whatever its place in the list."""


def confidence_of(samples: int, exact: bool = False, searched: bool = True) -> Confidence:
    """How far a move's figures can be trusted (``MoveValue.confidence``):
    ``exact``; ``ranked`` when the search compared it in full on
    ``MIN_RANKED`` deals or more; else ``rough``.

    >>> confidence_of(40), confidence_of(2), confidence_of(40, searched=False)
    ('ranked', 'rough', 'rough')
    """
    if exact:
        return "exact"
    return "ranked" if searched and samples >= MIN_RANKED else "rough"


def ranked_below(best: Tally, gap: float, error: float | None) -> str:
    """The reason of a move placed below ``best`` though its figures are
    ``-gap`` better on the same deals (within the noise: the ranking rule decides)."""
    if -gap < LEVEL:  # a difference of float rounding: the same points on every deal
        return f"level with {best.move} on the same deals: the ranking rule puts it first"
    noise = "" if error is None else f" (± {error:.2g})"
    return (f"{-gap:+.2g} over {best.move} on the same deals, within the noise{noise}: the "
            f"ranking rule puts {best.move} first")


def stand_in_for_unplayed(tallies: Sequence[Tally]) -> set[int]:
    """The tallies (``id``) the clock stopped before their first deal.  Each
    gets a stand-in deal of 0 points, so that its figures can be read (an
    advisor shows it with 0 deals and ``NOT_PLAYED``, no gap), and ``stage``
    -1, so that ``ranked`` puts it below every move that was played, in the
    judgement's order: a stand-in is no evidence for or against a move.

    >>> played, cut = Tally(Move("discard", card=1), points=[-30.0]), Tally(Move("discard", card=2))
    >>> stand_in_for_unplayed([played, cut]) == {id(cut)}, cut.points, cut.stage
    (True, [0.0], -1)
    >>> [t.move.card for t in ranked([cut, played], lambda points: points)]
    [1, 2]
    """
    unplayed = {id(t) for t in tallies if not t.points}
    for tally in tallies:
        if id(tally) in unplayed:
            tally.points.append(0.0)
            tally.wins.append(0.0)
            tally.stage = -1
    return unplayed


def ranked(tallies: Sequence[Tally], utility: Callable[[float], float]) -> list[Tally]:
    """The searched moves best first, each under its best line: the moves
    that stayed in longest first (one never played, ``stand_in_for_unplayed``,
    last), then by worth (mean utility), then by the judgement's order."""
    worth = {id(t): _worth(t, utility) for t in tallies if t.searched}
    searched = sorted((t for t in tallies if t.searched),
                      key=lambda t: (-t.stage, -worth[id(t)], -t.mean(), t.prior, t.order))
    seen: set[Move] = set()
    out = []
    for tally in searched:
        if tally.move not in seen:
            seen.add(tally.move)
            out.append(tally)
    return out


__all__ = [
    "MARGIN_S",
    "MIN_RANKED",
    "NOT_PLAYED",
    "Budget",
    "Decision",
    "FollowedDecision",
    "Level",
    "Outcome",
    "Spending",
    "Tally",
    "TurnCounting",
    "behind",
    "clearly_ahead",
    "confidence_of",
    "drop_the_clearly_worse",
    "halving_sizes",
    "ismcts",
    "levels",
    "mean_and_error",
    "play_every_deal",
    "ranked",
    "ranked_below",
    "spend",
    "stand_in_for_unplayed",
    "turns_total",
]
