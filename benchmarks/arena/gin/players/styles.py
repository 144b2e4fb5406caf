"""Gin players of distinct styles for the opponent panels
(``benchmarks.arena.core.panels``), each written from a one-line description
of how a kind of human plays, on the arena's own meld code (no ``solver``):

* ``careful`` -- tracks the pile: it will not throw what the opponent
  collects.  Every card the opponent took from the pile and still holds
  makes the cards that meld with it (the same rank, the same suit within two
  ranks) dangerous: such a discard costs ``FEED_COST`` points of deadwood in
  its choice; a card the opponent threw or let go by makes its rank and
  suit neighbours safer (``SAFE_CREDIT``).  It takes the pile top when the
  card goes into a meld of the best ten cards kept after taking it and
  lowers their deadwood (``common.take_lowers_deadwood``, the MARJJ-style
  player's rule too); it knocks as soon as it can.
* ``low_knocker`` -- knocks only low: with ``LOW_KNOCK`` points of deadwood
  or fewer (gin always); at the wall whenever it can.  Draws and discards
  like the EAAI player (the least deadwood, ties at random).
* ``gin_hunter`` -- knocks only for gin, unless the stock is down to
  ``HUNT_STOCK`` cards, then as soon as it can.  It keeps the cards that
  work towards melds: its discard leaves the fewest loose cards (deadwood
  with no partner of the same rank or of its suit within two ranks), then
  the least deadwood; it takes the pile top when the card melds, or partners
  a loose card while the stock is long.

All three defend the same way, exactly: the layoffs and melds leaving the
least deadwood (``common.ExactDefence``, as the MARJJ-style player).  Every
player breaks ties at random (seeded per hand).  Their noisy versions are
``players.noisy``.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from benchmarks.arena.gin.cards import RANK_COUNT, cards_of, mask_of
from benchmarks.arena.gin.melds import best_melds, min_deadwood
from benchmarks.arena.gin.players.common import (
    ExactDefence,
    best_pieces,
    draw,
    melds_with,
    next_meld,
    take_lowers_deadwood,
)
from benchmarks.arena.gin.protocol import (
    KNOCK,
    PASS,
    Action,
    ActionKind,
    Phase,
    PlayerView,
    card_taken_this_turn,
    discard,
    opponent_known_cards,
)

FEED_COST = 6
"""Deadwood points the careful player gives up not to throw a card that
melds with one the opponent took from the pile."""
SAFE_CREDIT = 1
"""Deadwood points the careful player credits a card whose rank or suit
neighbour the opponent threw or let go by."""
LOW_KNOCK = 3
"""The most deadwood the low knocker knocks with (gin always)."""
HUNT_STOCK = 10
"""The gin hunter knocks short of gin once the stock is down to this many cards."""
PARTNER_STOCK = 20
"""The gin hunter takes a card that only partners a loose card while the
stock holds more than this many cards."""


def partners(card: int, other: int) -> bool:
    """Whether ``other`` can meld with ``card``: the same rank, or the same
    suit within two ranks."""
    if card == other:
        return False
    if card % RANK_COUNT == other % RANK_COUNT:
        return True
    return card // RANK_COUNT == other // RANK_COUNT and abs(card - other) <= 2


def loose_cards(mask: int) -> int:
    """Cards of ``mask`` in no meld of its least-deadwood arrangement and
    with no partner (``partners``) among that arrangement's other deadwood."""
    melded = mask_of(card for m in best_melds(mask) for card in cards_of(m))
    dead = [card for card in cards_of(mask) if not melded >> card & 1]
    return sum(1 for card in dead if not any(partners(card, other) for other in dead))


class StylePlayer:
    """What the styles share: the turn's skeleton, the knock's plan, the
    exact defence.  A style says what it takes (``takes``), what it throws
    (``score``: lower is better) and when it knocks (``knocks``)."""

    name = "style"

    def __init__(self) -> None:
        self.start_hand(0, 0)

    def start_hand(self, seat: int, seed: int) -> None:
        """Forget the last hand."""
        self.rng = random.Random(seed)
        self._knock_plan: tuple[int, list[tuple[int, ...]]] | None = None
        self._defence = ExactDefence(skip_refused=True)

    # -- the style's choices -------------------------------------------------------------
    def takes(self, view: PlayerView, top: int) -> bool:
        """Whether to take ``top`` (the pile top) instead of drawing blind."""
        raise NotImplementedError

    def score(self, view: PlayerView, hand: int, card: int) -> float:
        """How bad discarding ``card`` from ``hand`` (11 cards, a mask) is."""
        raise NotImplementedError

    def knocks(self, view: PlayerView, deadwood: int) -> bool:
        """Whether to knock with ``deadwood`` (within the limit) left."""
        raise NotImplementedError

    def knocks_at_wall(self, view: PlayerView, deadwood: int) -> bool:
        """Whether to knock at the wall (the hand otherwise ends unscored)."""
        return True

    # -- the turn --------------------------------------------------------------------------
    def act(self, view: PlayerView) -> Action:
        """The style's action for ``view``."""
        phase = view.phase
        if phase in (Phase.FIRST_UPCARD, Phase.DRAW):
            return draw(view, self.takes)
        if phase == Phase.DISCARD:
            return self._discard(view)
        if phase == Phase.WALL:
            top = view.discard_pile[-1]
            held = mask_of(view.hand) | 1 << top
            least = self._least_knock(held, (c for c in cards_of(held) if c != top))
            if KNOCK in view.legal_actions and least is not None \
                    and self.knocks_at_wall(view, least[0]):
                return KNOCK
            return PASS
        if phase == Phase.KNOCK_DISCARD:
            if self._knock_plan is None or discard(self._knock_plan[0]) not in view.legal_actions:
                # Knocked at the wall: the top is in hand now, and it may be the
                # only card whose discard knocks; choose among the legal discards.
                hand = mask_of(view.hand)
                least = self._least_knock(
                    hand, [a.card for a in view.legal_actions if a.card is not None])
                assert least is not None  # a knock's discard phase offers a discard
                card = least[1]
                self._knock_plan = (card, best_pieces(hand ^ (1 << card)))
            return discard(self._knock_plan[0])
        if phase == Phase.KNOCK_MELD:
            return next_meld(view, self._knock_plan[1] if self._knock_plan is not None else [],
                             skip_refused=True)
        if phase == Phase.LAYOFF:
            return self._defence.lay_off(view)
        return self._defence.meld(view)

    def _least_knock(self, hand: int, cards: Iterable[int]) -> tuple[int, int] | None:
        """The least deadwood a discard of one of ``cards`` leaves and that
        discard (ties at random, in the order of ``cards``), or None when
        there is none to discard."""
        options = [(min_deadwood(hand ^ (1 << card)), card) for card in cards]
        if not options:
            return None
        least = min(dead for dead, _ in options)
        return least, self.rng.choice([card for dead, card in options if dead == least])

    def _discard(self, view: PlayerView) -> Action:
        hand = mask_of(view.hand)
        taken = card_taken_this_turn(view)
        if KNOCK in view.legal_actions:
            least = self._least_knock(hand, (c for c in cards_of(hand) if c != taken))
            if least is not None and least[0] <= view.rules.knock_limit \
                    and self.knocks(view, least[0]):
                self._knock_plan = (least[1], best_pieces(hand ^ (1 << least[1])))
                return KNOCK
        scored = [(self.score(view, hand, card), card) for card in view.hand if card != taken]
        best = min(score for score, _ in scored)
        return discard(self.rng.choice([card for score, card in scored if score <= best + 1e-9]))



UPCARD = -1
"""The first upcard in the pile's replay, until the history names it."""


def opponent_let_go(view: PlayerView) -> tuple[int, ...]:
    """Cards the opponent threw, or left on the pile when it drew from the
    stock or passed (the pile replayed from the upcard, which is named when
    someone takes it, else lies at the pile's bottom)."""
    pile = [UPCARD]
    upcard = view.discard_pile[0] if view.discard_pile else None
    out: list[int] = []
    for event in view.history:
        theirs = event.seat != view.seat
        if event.kind in (ActionKind.PASS, ActionKind.DRAW_STOCK):
            if theirs and pile:
                out.append(pile[-1])
        elif event.kind == ActionKind.TAKE_DISCARD:
            if pile and pile.pop() == UPCARD:
                upcard = event.card
        elif event.kind == ActionKind.DISCARD and event.card is not None:
            pile.append(event.card)
            if theirs:
                out.append(event.card)
    named = [upcard if card == UPCARD else card for card in out]
    return tuple(card for card in named if card is not None)


def _fits(card: int, cards: Iterable[int]) -> bool:
    return any(partners(card, other) for other in cards)


class CarefulPlayer(StylePlayer):
    """Will not throw what the opponent collects (see the module docstring)."""

    name = "careful"

    def takes(self, view: PlayerView, top: int) -> bool:
        return take_lowers_deadwood(mask_of(view.hand), top)

    def score(self, view: PlayerView, hand: int, card: int) -> float:
        value = float(min_deadwood(hand ^ (1 << card)))
        if _fits(card, opponent_known_cards(view)):
            value += FEED_COST
        if _fits(card, opponent_let_go(view)):
            value -= SAFE_CREDIT
        return value

    def knocks(self, view: PlayerView, deadwood: int) -> bool:
        return True


class LowKnockerPlayer(StylePlayer):
    """Knocks only with ``LOW_KNOCK`` or less (see the module docstring)."""

    name = "low_knocker"

    def takes(self, view: PlayerView, top: int) -> bool:
        return melds_with(mask_of(view.hand), top)

    def score(self, view: PlayerView, hand: int, card: int) -> float:
        return float(min_deadwood(hand ^ (1 << card)))

    def knocks(self, view: PlayerView, deadwood: int) -> bool:
        return deadwood <= LOW_KNOCK


class GinHunterPlayer(StylePlayer):
    """Knocks for gin only until the stock runs low (see the module docstring)."""

    name = "gin_hunter"

    def takes(self, view: PlayerView, top: int) -> bool:
        hand = mask_of(view.hand)
        if melds_with(hand, top):
            return True
        if view.stock_size <= PARTNER_STOCK:
            return False
        melded = mask_of(card for m in best_melds(hand) for card in cards_of(m))
        dead = [card for card in view.hand if not melded >> card & 1]
        lonely = [card for card in dead if not any(partners(card, o) for o in dead)]
        return any(partners(top, card) for card in lonely)

    def score(self, view: PlayerView, hand: int, card: int) -> float:
        kept = hand ^ (1 << card)
        return 100.0 * loose_cards(kept) + min_deadwood(kept)

    def knocks(self, view: PlayerView, deadwood: int) -> bool:
        return deadwood == 0 or view.stock_size <= HUNT_STOCK
