"""Rummy 500, Rommy and basic rummy players of other styles, for the
opponent panels (``benchmarks.arena.core.panels``):

* ``hoarder`` -- holds its melds: the greedy player's draws, throws and
  plays, but it lays nothing down or off while the stock holds more than
  ``HOARD_STOCK`` cards, unless that play goes out (leaves at most the card
  it throws) or must use a deeper card it took: a player waiting to go out
  in one go (a rummy, where that doubles the score), who risks the points
  held when another goes out first.
* noisy versions (``NoisyPlayer``: ``greedy_noisy``, ``careful_noisy``,
  ``hoarder_noisy``) -- the player as it is, but with the seeded chance
  ``noise`` at each decision a random one instead: at the draw the stock or
  the pile's top card alone (never a deeper take, which must be used), at
  the play the same melds and layoffs with a random card of those left
  thrown (never the top it took alone; a play that goes out stays as it is).
  The player is always asked first.
"""

from __future__ import annotations

from benchmarks.arena.core.noise import NoiseCoin
from benchmarks.arena.laydown.hint_players import GreedyHintPlayer, left_after
from benchmarks.arena.laydown.referee import Action, Kind, Phase, Player, PlayerView, take_discard

HOARD_STOCK = 10
"""The hoarder lays down freely once the stock is down to this many cards."""
NOISE = 0.2
"""The chance of a random draw or throw at each decision (the noisy versions:
random-ish)."""


class HoarderPlayer(GreedyHintPlayer):
    """Holds its melds until it can go out (see the module docstring)."""

    name = "hoarder"

    def play(self, view: PlayerView) -> Action:
        """Greedy's play when it goes out, must use a card, or the stock is
        low; else a throw only."""
        plan = self.first_play(view)
        if view.must_use is not None or view.stock_size <= HOARD_STOCK:
            return self.finish(view, plan)
        action = plan.action(None)
        if len(left_after(view, action)) <= 1:
            return self.finish(view, plan)
        plan.melds, plan.layoffs = [], []
        return self.finish(view, plan)


class NoisyPlayer:
    """``base`` with an occasional random draw or throw (see the module docstring)."""

    def __init__(self, base: Player, name: str, noise: float = NOISE) -> None:
        self.base = base
        self.name = name
        self.coin = NoiseCoin(noise)

    def start_deal(self, seat: int, seed: int) -> None:
        """The base player's new round, and a coin of its own."""
        self.base.start_deal(seat, seed)
        self.coin.new_deal(seed)

    def act(self, view: PlayerView) -> Action:
        """The base player's action, or now and then a random one."""
        action = self.base.act(view)
        if not self.coin.flip():
            return action
        if view.phase == Phase.DRAW:
            options = [a for a in view.legal_draws if a.kind == Kind.DRAW_STOCK]
            if view.pile and any(card != view.pile[-1] for card in view.hand) \
                    and take_discard(view.pile[-1]) in view.legal_draws:
                options.append(take_discard(view.pile[-1]))
            return self.coin.pick(options) if options else action
        if action.kind != Kind.PLAY or action.card is None:
            return action
        throwable = [card for card in left_after(view, action) if card != view.taken_top]
        if not throwable:
            return action
        return Action(Kind.PLAY, self.coin.pick(throwable), action.melds, action.layoffs)
