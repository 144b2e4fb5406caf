"""A random legal player: smoke tests and the referee's cross-check."""

from __future__ import annotations

import random

from benchmarks.arena.gin.protocol import Action, PlayerView


class RandomPlayer:
    """Picks uniformly among the legal actions."""

    name = "random"

    def __init__(self) -> None:
        self._rng = random.Random(0)

    def start_hand(self, seat: int, seed: int) -> None:
        """Reseed for the hand."""
        self._rng = random.Random(seed)

    def act(self, view: PlayerView) -> Action:
        """Any legal action."""
        return self._rng.choice(view.legal_actions)
