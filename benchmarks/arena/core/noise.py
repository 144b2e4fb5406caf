"""The coin of the arena's noisy players (``greedy_noisy``, ``careful_noisy``,
``eaai_noisy`` ...): each game's ``NoisyPlayer`` asks its base player for a
move and, now and then, plays a random one of the moves that decision
offers instead.  The coin is reseeded for every deal from the deal's seed,
so a noisy player's slips are the same on the same deals whatever the
other players do."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

Move = TypeVar("Move")


class NoiseCoin:
    """Heads with chance ``noise``; a random pick among the moves offered.

    >>> coin = NoiseCoin(1.0)
    >>> coin.new_deal(7)
    >>> coin.perturb(["a", "b"], "kept") in ("a", "b")
    True
    >>> NoiseCoin(0.0).perturb(["a", "b"], "kept")
    'kept'
    """

    def __init__(self, noise: float) -> None:
        self.noise = noise
        self.rng = random.Random(0)

    def new_deal(self, seed: int) -> None:
        """A new deal (or hand): the coin's stream for it."""
        self.rng = random.Random(f"noise/{seed}")

    def flip(self) -> bool:
        """Whether this decision slips (chance ``noise``)."""
        return self.rng.random() < self.noise

    def pick(self, options: Sequence[Move]) -> Move:
        """One of ``options`` at random."""
        return self.rng.choice(options)

    def perturb(self, options: Sequence[Move], move: Move) -> Move:
        """``move``, or with chance ``noise`` one of ``options`` at random
        (the coin is flipped only when there are options)."""
        if options and self.flip():
            return self.pick(options)
        return move
