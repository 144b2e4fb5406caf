"""A noisy version of any gin player: the player as it is, but at a draw or
a discard, with the seeded chance ``noise``, a random legal draw or plain
discard instead (never the card just taken; never instead of a knock, whose
plan the player keeps).  The player is always asked first, so what it keeps
within a hand stays its own; the coin is its own random stream, seeded per
hand.  Random tie-breaks are the players' own (``greedy_noisy`` plays
``GreedyHintPlayer(random_ties=True)``).
"""

from __future__ import annotations

from benchmarks.arena.core.noise import NoiseCoin
from benchmarks.arena.gin.protocol import (
    Action,
    ActionKind,
    Phase,
    Player,
    PlayerView,
    card_taken_this_turn,
)

NOISE = 0.1
"""The chance of a random draw or discard at each of those decisions."""
_DRAWS = (ActionKind.TAKE_DISCARD, ActionKind.DRAW_STOCK, ActionKind.PASS)


class NoisyPlayer:
    """``base`` with an occasional random draw or discard (see the module docstring)."""

    def __init__(self, base: Player, name: str, noise: float = NOISE) -> None:
        self.base = base
        self.name = name
        self.coin = NoiseCoin(noise)

    def start_hand(self, seat: int, seed: int) -> None:
        """The base player's new hand, and a coin of its own."""
        self.base.start_hand(seat, seed)
        self.coin.new_deal(seed)

    def act(self, view: PlayerView) -> Action:
        """The base player's action, or now and then a random one."""
        action = self.base.act(view)
        if view.phase in (Phase.FIRST_UPCARD, Phase.DRAW):
            options = [a for a in view.legal_actions if a.kind in _DRAWS]
        elif view.phase == Phase.DISCARD and action.kind == ActionKind.DISCARD:
            taken = card_taken_this_turn(view)
            options = [a for a in view.legal_actions
                       if a.kind == ActionKind.DISCARD and a.card != taken]
        else:
            return action
        return self.coin.perturb(options, action)
