"""Today's greedy hint player: our library's hints played one turn at a time
(the "before" of the move advisor).  The only arena module that imports
``solver``; the referee still checks every move it makes.

* Draw (also the first upcard): ``solver.draw_hint(hand, top, "gin",
  seen=...)`` with ``seen`` = the pile under the top and the cards the
  opponent is known to hold (taken from the pile, not let go since); take
  when it recommends ``take_discard``.
* Discard: knock as soon as ``solver.knock_check`` allows, with its
  lowest-deadwood knocking discard and that arrangement's melds; else the
  first card of ``solver.discard_hint``'s best group.  Never the card just
  taken from the pile (the hints assume the standard rule; the arena's
  OpenSpiel rules would allow it).
* Defender: lay off and meld as ``solver.layoffs_hint`` (variant gin)
  recommends.  OpenSpiel's layoff rule lets a run grow by two cards at each
  end; a longer chain the hint lays off is laid as a meld of its own instead
  (the same cards leave the hand).  ``lay_off=False`` (``greedy_no_layoff``)
  never lays off: it lays ``solver.solve``'s melds.
* ``random_ties=True`` (``greedy_noisy``, with ``players.noisy``) throws a
  random card of ``discard_hint``'s best group (the discards it rates
  equal) instead of the first, seeded per hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import solver
from benchmarks.arena.gin.cards import card_name
from benchmarks.arena.gin.players.common import draw, next_layoff, next_meld, pieces
from benchmarks.arena.gin.protocol import (
    FINISH,
    KNOCK,
    PASS,
    Action,
    Phase,
    PlayerView,
    card_taken_this_turn,
    discard,
    knocker_melds,
    opponent_known_cards,
)
from solver.play import words

VARIANT = "gin"


def names(cards: Sequence[int]) -> list[str]:
    """Card names the library parses (the same encoding as ours)."""
    return [card_name(card) for card in cards]


def table_pieces(melds: Sequence[solver.Meld]) -> list[tuple[int, ...]]:
    """The library's melds as melds the table accepts (runs of 3-5)."""
    return pieces(m.cards for m in melds)


def laid_as_melds(layoff_plan: solver.layoffs.Layoff) -> tuple[list[int], list[tuple[int, ...]]]:
    """Split one planned layoff into the cards OpenSpiel's rule accepts (at
    most two per end of a run) and the chains of three or more, which are
    runs by themselves and are melded instead."""
    below, above = layoff_plan.cards[:layoff_plan.low], layoff_plan.cards[layoff_plan.low:]
    kept: list[int] = []
    melded: list[tuple[int, ...]] = []
    for chain in (below, above):
        if layoff_plan.extended.kind == "run" and len(chain) >= 3:
            melded.append(tuple(sorted(chain)))
        else:
            kept.extend(chain)
    return kept, melded


class GreedyHintPlayer:
    """The library's draw, knock, discard and layoff hints, greedily."""

    def __init__(self, lay_off: bool = True, random_ties: bool = False) -> None:
        self.lay_off = lay_off
        self.random_ties = random_ties
        self.name = "greedy" if lay_off else "greedy_no_layoff"
        self.start_hand(0, 0)

    def start_hand(self, seat: int, seed: int) -> None:
        """Forget the last hand's plans."""
        self._rng = random.Random(seed)
        self._knock_discard: int | None = None
        self._melds_to_lay: list[tuple[int, ...]] | None = None
        self._layoffs_to_make: list[int] | None = None

    def act(self, view: PlayerView) -> Action:
        """The hints' action for ``view``."""
        phase = view.phase
        if phase in (Phase.FIRST_UPCARD, Phase.DRAW):
            return draw(view, self._takes)
        if phase == Phase.DISCARD:
            return self._discard(view)
        if phase == Phase.WALL:
            top = view.discard_pile[-1]
            if KNOCK in view.legal_actions and self._knock_option([*view.hand, top], top) is not None:
                return KNOCK
            return PASS
        if phase == Phase.KNOCK_DISCARD:
            if self._knock_discard is None:  # knocked at the wall: the top is in hand now
                option = self._knock_option(view.hand, card_taken_this_turn(view))
                assert option is not None and option.discard is not None
                self._knock_discard = option.discard
                self._melds_to_lay = table_pieces(option.melds)
            return discard(self._knock_discard)
        if phase == Phase.LAYOFF:
            return self._layoff(view)
        # KNOCK_MELD, DEFENDER_MELD
        if self._melds_to_lay is None:
            self._melds_to_lay = table_pieces(solver.solve(names(view.hand), VARIANT).melds)
        return next_meld(view, self._melds_to_lay, skip_refused=False)

    @staticmethod
    def _takes(view: PlayerView, top: int) -> bool:
        seen = [*view.discard_pile[:-1], *opponent_known_cards(view)]
        hint = solver.draw_hint(names(view.hand), card_name(top), VARIANT, seen=names(seen))
        return bool(hint.recommendation == words.TAKE_DISCARD)

    def _knock_option(self, cards: Sequence[int], taken: int | None) -> solver.gin.KnockOption | None:
        """The lowest-deadwood way to knock with these 11 cards that does not
        throw back ``taken``."""
        report = solver.knock_check(names(cards))
        return next((o for o in report.options if o.discard != taken), None)

    def _discard(self, view: PlayerView) -> Action:
        taken = card_taken_this_turn(view)
        if KNOCK in view.legal_actions:
            option = self._knock_option(view.hand, taken)
            if option is not None and option.discard is not None:
                self._knock_discard = option.discard
                self._melds_to_lay = table_pieces(option.melds)
                return KNOCK
        for group in solver.discard_hint(names(view.hand), VARIANT).groups:
            cards = [card for card in group if card != taken]
            if cards:
                return discard(self._rng.choice(cards) if self.random_ties else cards[0])
        raise RuntimeError("no discard other than the card just taken")  # 11 cards: unreachable

    def _layoff(self, view: PlayerView) -> Action:
        if not self.lay_off:
            return FINISH
        if self._layoffs_to_make is None:
            table = [names(m) for m in knocker_melds(view)]
            best = solver.layoffs_hint(names(view.hand), table, VARIANT).best
            self._layoffs_to_make = []
            self._melds_to_lay = table_pieces(best.melds)
            for planned in best.layoffs:
                kept, melded = laid_as_melds(planned)
                self._layoffs_to_make.extend(kept)
                self._melds_to_lay.extend(melded)
        return next_layoff(view, self._layoffs_to_make)


