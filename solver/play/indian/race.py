"""Who declares first: the rest of a deal as a race between the players' distances.

A player ``d`` cards from a declaration gets one card nearer on a turn with
chance ``IndianParams.step(d)`` (measured: two fast players (``policy.FastPolicy``) over
thousands of simulated turns of ``indian13``, ``python -m
benchmarks.speed.indian_steps``; a hand's own outs replace the first step's chance
when they are known), and declares on the turn it
reaches 0.  ``turns(d)`` is then the law of the turns it needs; ``race``
combines the players' laws in turn order into the chance that each
declares first before the stock runs out (the rest: a void deal).

It is the advisor's playout of everything after the moves it plays out
card by card: cheap enough to run for every move in every dealt world.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from solver.play.indian.params import INDIAN_PARAMS, IndianParams


@functools.lru_cache(maxsize=256)
def _tail(distance: int, params: IndianParams) -> tuple[float, ...]:
    """P(the declaration comes on turn t), t = 0..horizon, from ``distance``
    (turn 0: already there)."""
    horizon = params.horizon
    law = [0.0] * (horizon + 1)
    law[0] = 1.0
    for d in range(distance, 0, -1):
        law = _geometric(law, params.step(d))
    return tuple(law)


def _geometric(law: Sequence[float], chance: float) -> list[float]:
    """``law`` followed by a wait of one or more turns with ``chance`` per turn."""
    horizon = len(law) - 1
    out = [0.0] * (horizon + 1)
    miss = 1.0 - chance
    for start, p in enumerate(law):
        if p < 1e-9:
            continue
        weight = p * chance
        for t in range(start + 1, horizon + 1):
            out[t] += weight
            weight *= miss
    return out


@functools.lru_cache(maxsize=4096)
def turns(distance: int, first: float | None = None,
          params: IndianParams = INDIAN_PARAMS) -> tuple[float, ...]:
    """The law of the turn (1, 2, ...) on which a player at ``distance``
    (its hand before drawing) declares: index t is P(on turn t); ``first``
    replaces the chance of the first step (the hand's own outs)."""
    if distance <= 0:
        law = [0.0] * (params.horizon + 1)
        law[1] = 1.0  # any card drawn, thrown again: the show
        return tuple(law)
    chance = params.step(distance) if first is None else first
    # the last step lands on the declaration in the same turn
    return tuple(_geometric(_tail(distance - 1, params), chance))


def given_survived(law: Sequence[float], played: int) -> tuple[float, ...]:
    """``law`` of a player who has played ``played`` turns without declaring,
    counted from now (its hand was dealt ``played`` turns ago)."""
    if played <= 0:
        return tuple(law)
    horizon = len(law) - 1
    rest = law[played + 1:]
    total = sum(rest)
    if total < 1e-9:  # it should have declared already: soon, then
        out = [0.0] * (horizon + 1)
        out[1] = 1.0
        return tuple(out)
    shifted = [0.0] + [p / total for p in rest]
    return tuple(shifted + [0.0] * (horizon + 1 - len(shifted)))


def race(laws: Sequence[Sequence[float]], rounds: int) -> list[float]:
    """The chance that each player declares first; ``laws[i]`` is the law of
    the i-th player in turn order from the next to play, and every player
    gets ``rounds`` more turns at most (the stock)."""
    return race_and_length(laws, rounds)[0]


def race_and_length(laws: Sequence[Sequence[float]], rounds: int) -> tuple[list[float], float]:
    """``race`` and the mean round (1, 2, ...) in which the winner declares,
    given that someone does (``rounds`` when nobody can): the hands shrink
    until then, so what the loser pays depends on it."""
    n = len(laws)
    horizon = max((len(law) - 1 for law in laws), default=0)
    alive = [1.0] * n  # P(player i has not declared by its previous turn)
    first = [0.0] * n
    nobody = 1.0
    ended = 0.0
    for t in range(1, min(rounds, horizon) + 1):
        for i, law in enumerate(laws):
            p = law[t] if t < len(law) else 0.0
            if p <= 0.0:
                continue
            survive = alive[i]
            if survive <= 1e-12:
                continue
            hazard = p / survive
            won = nobody * hazard
            first[i] += won
            ended += won * t
            nobody -= won
            alive[i] = survive - p
        if nobody < 1e-6:
            break
    decided = 1.0 - nobody
    return first, ended / decided if decided > 1e-9 else float(max(1, rounds))
