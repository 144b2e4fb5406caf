"""Our Python implementation of the policy of the EAAI-2021 challenge's
``SimpleGinRummyPlayer`` (Todd Neller's Java base code), adapted to the
arena's phases.

* Draw: take the face-up card only when it would be part of a meld with the
  hand; otherwise draw from the stock.
* Discard: among the cards whose discard leaves the least deadwood, a random
  one, never the face-up card just taken and never a (drawn, discarded) pair
  already played this hand (its guard against loops).
* Knock as soon as the discard leaves 10 or less; lay a random one of the
  least-deadwood meld sets.
* Defender: lay a random least-deadwood meld set of its own, and lay off
  its other cards onto the knocker's melds one by one, lowest card first,
  while one fits -- what the EAAI game does for it.  (The arena asks for the
  layoffs before the melds, as OpenSpiel does; the cards laid off are the
  same.)
* At the wall (the EAAI game simply cancels the hand there) it knocks when
  it can without throwing back the card it takes.
"""

from __future__ import annotations

import random

from benchmarks.arena.gin.cards import cards_of, mask_of, rank_of, suit_of
from benchmarks.arena.gin.melds import best_arrangements, min_deadwood
from benchmarks.arena.gin.players.common import draw, melds_with, next_meld, pieces
from benchmarks.arena.gin.protocol import (
    FINISH,
    KNOCK,
    PASS,
    Action,
    ActionKind,
    Phase,
    PlayerView,
    card_taken_this_turn,
    discard,
    layoff,
)


def merged_runs(melds: tuple[int, ...]) -> frozenset[tuple[int, ...]]:
    """A meld set with touching runs of one suit joined: the arrangement as
    EAAI's meld finder sees it (runs of any length)."""
    pieces = [cards_of(m) for m in melds]
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(pieces):
            for j, b in enumerate(pieces):
                if i != j and _is_run(a) and _is_run(b) and suit_of(a[0]) == suit_of(b[0]) \
                        and a[-1] + 1 == b[0]:
                    pieces[i] = a + b
                    del pieces[j]
                    merged = True
                    break
            if merged:
                break
    return frozenset(pieces)


def _is_run(cards: tuple[int, ...]) -> bool:
    return len({rank_of(c) for c in cards}) == len(cards)


def random_best_meld_set(hand: int, rng: random.Random) -> list[tuple[int, ...]]:
    """One least-deadwood meld set, uniformly among the distinct ones, in
    pieces of OpenSpiel's shapes."""
    distinct = sorted({merged_runs(melds) for melds, _ in best_arrangements(hand)}, key=sorted)
    chosen = rng.choice(distinct)
    return pieces(sorted(chosen))


class EaaiSimplePlayer:
    """The EAAI ``SimpleGinRummyPlayer`` policy (see the module doc)."""

    name = "eaai_simple"

    def __init__(self) -> None:
        self.start_hand(0, 0)

    def start_hand(self, seat: int, seed: int) -> None:
        """Forget the last hand."""
        self._rng = random.Random(seed)
        self._played_pairs: set[frozenset[int]] = set()
        self._knock_discard: int | None = None
        self._melds_to_lay: list[tuple[int, ...]] | None = None

    def act(self, view: PlayerView) -> Action:
        """The EAAI simple policy's action."""
        phase = view.phase
        hand = mask_of(view.hand)
        if phase in (Phase.FIRST_UPCARD, Phase.DRAW):
            return draw(view, lambda _, top: melds_with(hand, top))
        if phase == Phase.DISCARD:
            card = self._choose_discard(view)
            if min_deadwood(hand ^ (1 << card)) <= view.rules.knock_limit and KNOCK in view.legal_actions:
                self._knock_discard = card
                return KNOCK
            return discard(card)
        if phase == Phase.KNOCK_DISCARD:
            card = self._knock_discard if self._knock_discard is not None else self._choose_discard(view)
            return discard(card)
        if phase == Phase.WALL:
            with_top = hand | 1 << view.discard_pile[-1]
            if KNOCK in view.legal_actions and any(
                    min_deadwood(with_top ^ (1 << c)) <= view.rules.knock_limit for c in view.hand):
                self._knock_discard = None  # chosen once the top is in hand, never the top itself
                return KNOCK
            return PASS
        if phase in (Phase.KNOCK_MELD, Phase.DEFENDER_MELD):
            return self._next_meld(view, hand)
        return self._next_layoff(view, hand)

    def _choose_discard(self, view: PlayerView) -> int:
        hand = mask_of(view.hand)
        taken = card_taken_this_turn(view)
        drawn = view.drawn_card
        allowed = [discard_action.card for discard_action in view.legal_actions
                   if discard_action.kind == ActionKind.DISCARD and discard_action.card is not None]
        candidates = [c for c in allowed if c != taken
                      and frozenset((drawn, c) if drawn is not None else (c,)) not in self._played_pairs]
        if not candidates:  # every card guarded: drop the loop guard, keep the rule
            candidates = [c for c in allowed if c != taken] or allowed
        scored = [(min_deadwood(hand ^ (1 << c)), c) for c in candidates]
        least = min(score for score, _ in scored)
        card = self._rng.choice([c for score, c in scored if score == least])
        self._played_pairs.add(frozenset((drawn, card) if drawn is not None else (card,)))
        return card

    def _next_meld(self, view: PlayerView, hand: int) -> Action:
        if self._melds_to_lay is None:
            self._melds_to_lay = random_best_meld_set(hand, self._rng)
        return next_meld(view, self._melds_to_lay, skip_refused=True)

    def _next_layoff(self, view: PlayerView, hand: int) -> Action:
        if self._melds_to_lay is None:
            self._melds_to_lay = random_best_meld_set(hand, self._rng)
        melded = mask_of(card for piece in self._melds_to_lay for card in piece)
        for action in view.legal_actions:  # sorted: lowest card first
            if action.kind == ActionKind.LAYOFF and action.card is not None \
                    and not melded >> action.card & 1:
                return layoff(action.card)
        return FINISH
