"""What a player sees and what it answers: the one contract between the
arena and every bot (the advisor is written against it too).  Its phases
and action kinds are the library's words for the gin table's steps
(``solver.play.words``): spelled once, shared by the referee and the bots.

* ``PlayerView`` -- built by the referee for the player to act on: its own
  hand, the discard pile, the public history, the stock size, the phase and
  the legal actions, the match score.  Nothing else of the referee's state
  (no opponent hand, no stock order) is in it: every field is an immutable
  value, copied out of the referee.
* ``Action`` -- one of ``view.legal_actions``; the referee checks it, and an
  action that is not legal stops the hand with an error against the player.
* ``Player`` -- ``start_hand(seat, seed)`` then ``act(view)`` at each of its
  decisions.  A player may keep state within a hand (``start_hand`` resets
  it) but must not need anything but the views.

Cards are ints ``suit * 13 + rank`` (suits S H D C), the library's encoding.
Seat 0 is the non-dealer, who is offered the first upcard first.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from benchmarks.arena.gin.cards import card_name, cards_text
from benchmarks.arena.gin.rules import GinRules
from solver.play import words


class Phase(enum.StrEnum):
    """The decision a player is asked for."""

    FIRST_UPCARD = words.FIRST_UPCARD
    """Take the first upcard or pass (seat 0, then seat 1); when both passed,
    seat 0 must draw from the stock."""
    DRAW = words.DRAW
    """Take the pile top or draw from the stock."""
    DISCARD = words.AFTER_DRAW
    """Eleven cards: discard one, or knock (then choose the discard)."""
    KNOCK_DISCARD = words.KNOCK_DISCARD
    """The knocker discards a card that leaves it within the knock limit."""
    KNOCK_MELD = words.KNOCK_MELD
    """The knocker lays its melds one at a time, then finishes (legal once
    the cards left are within the knock limit)."""
    LAYOFF = words.LAYOFF
    """The defender lays cards off onto the knocker's melds, then finishes
    (skipped after gin)."""
    DEFENDER_MELD = words.DEFENDER_MELD
    """The defender lays its own melds, then finishes; what is left is its
    deadwood."""
    WALL = words.WALL
    """The stock is down to two cards: knock with the pile top, or pass (the
    hand ends unscored)."""


class ActionKind(enum.StrEnum):
    """What an action or a history event does."""

    TAKE_DISCARD = words.TAKE_DISCARD
    DRAW_STOCK = words.DRAW_STOCK
    PASS = words.PASS
    DISCARD = words.DISCARD
    KNOCK = words.KNOCK
    MELD = words.MELD
    LAYOFF = words.LAYOFF_STEP
    """One card laid off (the advisor's ``lay_off`` move is a run of these)."""
    FINISH = words.FINISH


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """A player's answer: ``card`` for discard and layoff, ``meld`` (sorted
    cards) for meld, neither for the rest."""

    kind: ActionKind
    card: int | None = None
    meld: tuple[int, ...] = ()

    def __str__(self) -> str:
        if self.card is not None:
            return f"{self.kind} {card_name(self.card)}"
        if self.meld:
            return f"{self.kind} {cards_text(self.meld)}"
        return str(self.kind)


TAKE_DISCARD = Action(ActionKind.TAKE_DISCARD)
DRAW_STOCK = Action(ActionKind.DRAW_STOCK)
PASS = Action(ActionKind.PASS)
KNOCK = Action(ActionKind.KNOCK)
FINISH = Action(ActionKind.FINISH)


def discard(card: int) -> Action:
    """Discard ``card`` (also the knocker's discard)."""
    return Action(ActionKind.DISCARD, card=card)


def meld(cards: tuple[int, ...] | list[int]) -> Action:
    """Lay the meld ``cards`` (a set of 3-4 or a run of 3-5)."""
    return Action(ActionKind.MELD, meld=tuple(sorted(cards)))


def layoff(card: int) -> Action:
    """Lay ``card`` off onto the knocker's melds."""
    return Action(ActionKind.LAYOFF, card=card)


@dataclass(frozen=True, slots=True)
class Event:
    """One public event of the hand, by ``seat``.  ``card`` is the card
    taken, discarded or laid off (``None`` for a stock draw: its card is
    private); ``meld`` the cards of a meld laid.  A knock at the wall shows
    as taking the pile top, then knocking."""

    seat: int
    kind: ActionKind
    card: int | None = None
    meld: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything one player may know when it acts (and nothing more)."""

    seat: int
    phase: Phase
    hand: tuple[int, ...]
    drawn_card: int | None
    """The card this player took or drew this turn (its own knowledge), else None."""
    discard_pile: tuple[int, ...]
    """Bottom to top; the last card is the one a draw may take."""
    history: tuple[Event, ...]
    stock_size: int
    legal_actions: tuple[Action, ...]
    rules: GinRules
    my_match_points: int = 0
    opponent_match_points: int = 0
    match_target: int | None = None
    """100 in a match, None for a single hand."""

    @property
    def pile_top(self) -> int | None:
        """The card a draw may take, if any."""
        return self.discard_pile[-1] if self.discard_pile else None

    def events_by(self, seat: int) -> tuple[Event, ...]:
        """The history events of ``seat``."""
        return tuple(event for event in self.history if event.seat == seat)


@runtime_checkable
class Player(Protocol):
    """A bot the arena can seat.  ``act`` must return one of
    ``view.legal_actions``."""

    name: str

    def start_hand(self, seat: int, seed: int) -> None:
        """A new hand begins in ``seat``; ``seed`` seeds any randomness."""

    def act(self, view: PlayerView) -> Action:
        """The action to play in ``view``."""


def knocker_melds(view: PlayerView) -> tuple[tuple[int, ...], ...]:
    """The melds the knocker laid, in order (empty before a knock)."""
    knocker = next((e.seat for e in view.history if e.kind == ActionKind.KNOCK), None)
    return tuple(e.meld for e in view.history if e.kind == ActionKind.MELD and e.seat == knocker)


def laid_off(view: PlayerView) -> tuple[int, ...]:
    """The cards laid off so far, in order."""
    return tuple(e.card for e in view.history if e.kind == ActionKind.LAYOFF and e.card is not None)


def opponent_known_cards(view: PlayerView) -> tuple[int, ...]:
    """Cards the opponent took from the pile and has not discarded, laid or
    laid off since: known to be in its hand."""
    held: list[int] = []
    for event in view.history:
        if event.seat == view.seat:
            continue
        if event.kind == ActionKind.TAKE_DISCARD and event.card is not None:
            held.append(event.card)
        elif event.kind in (ActionKind.DISCARD, ActionKind.LAYOFF) and event.card in held:
            held.remove(event.card)
        elif event.kind == ActionKind.MELD:
            held = [card for card in held if card not in event.meld]
    return tuple(held)




def card_taken_this_turn(view: PlayerView) -> int | None:
    """The card this player took from the pile this turn (the first upcard,
    a draw, or the pile top at the wall), or None: it drew from the stock, or
    has already discarded."""
    for event in reversed(view.history):
        if event.seat != view.seat or event.kind == ActionKind.KNOCK:
            continue
        if event.kind == ActionKind.TAKE_DISCARD:
            return event.card
        if event.kind in (ActionKind.DRAW_STOCK, ActionKind.DISCARD, ActionKind.PASS):
            return None
    return None
