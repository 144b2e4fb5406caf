"""OpenSpiel's ``SimpleGinRummyBot`` (C++, ``pyspiel.make_simple_gin_rummy_bot``)
as an arena player.

The bot chooses on the arena's ``OpenSpielShadow`` state, which follows the
referee action by action; its choice is mapped back to our action.  The bot
reads only its own observation tensor (its hand, the upcard, the discard
pile, the stock size, the melds laid) and the legal actions
(``simple_gin_rummy_bot.cc``), so it knows no more than a ``PlayerView``;
``tests/test_arena_openspiel.py`` checks that this observation agrees with
the view at every decision.  The bot keeps state within a hand (its knock
plan), so it is restarted at each hand.

When the shadow had to stop (the opponent knocked where OpenSpiel's 11-card
deadwood misses the knock, ``openspiel_shadow``), the bot's remaining
decisions are its own defender policy, written out here: no layoffs, lay a
least-deadwood meld group, finish; after gin it finishes at once, as the bot
does (its "no layoffs" pass ends the melding when there is no layoff phase).
"""

from __future__ import annotations

from typing import Any

from benchmarks.arena.gin.cards import cards_of, mask_of
from benchmarks.arena.gin.melds import best_melds, split_run
from benchmarks.arena.gin.openspiel_shadow import OpenSpielShadow
from benchmarks.arena.gin.protocol import FINISH, Action, ActionKind, Phase, PlayerView, meld


class OpenSpielBotPlayer:
    """OpenSpiel's SimpleGinRummyBot on the arena's shadow state."""

    name = "openspiel_simple"

    def __init__(self, shadow: OpenSpielShadow) -> None:
        import pyspiel  # type: ignore[import-not-found]  # no stubs; here: optional (bench extra)

        self.shadow = shadow
        params = shadow.game.get_parameters()
        self._bots: tuple[Any, Any] = (pyspiel.make_simple_gin_rummy_bot(params, 0),
                                       pyspiel.make_simple_gin_rummy_bot(params, 1))
        self._seat = 0
        self._fallback_melds: list[tuple[int, ...]] | None = None

    def start_hand(self, seat: int, seed: int) -> None:
        """Sit in ``seat``; the bot forgets its last hand's plan."""
        self._seat = seat
        self._bots[seat].restart()
        self._fallback_melds = None

    def act(self, view: PlayerView) -> Action:
        """The bot's choice on the shadow state."""
        if not self.shadow.synced:
            self.shadow.tally.bot_fallback_decisions += 1
            return self._defend(view)
        chosen = int(self._bots[self._seat].step(self.shadow.state))
        return self.shadow.actions.from_openspiel(chosen, view.phase)

    def _defend(self, view: PlayerView) -> Action:
        if view.phase == Phase.LAYOFF:
            return FINISH
        if view.phase != Phase.DEFENDER_MELD:
            raise RuntimeError(f"OpenSpiel lost the hand in phase {view.phase}; only defending is expected")
        if self._fallback_melds is None:
            # A defender without a layoff phase behind it (no FINISH of its
            # own yet) faces gin: the bot's first pass then ends the hand.
            after_gin = not any(e.seat == view.seat and e.kind == ActionKind.FINISH for e in view.history)
            hand = mask_of(view.hand)
            self._fallback_melds = [] if after_gin else [
                piece for m in best_melds(hand) for piece in split_run(cards_of(m))]
        return meld(self._fallback_melds.pop(0)) if self._fallback_melds else FINISH
