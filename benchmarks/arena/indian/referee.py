"""The Indian rummy referee: one deal from a shuffled deck, every action checked.

It shares no code with ``solver``: its melds, shows and counts are
``benchmarks.arena.indian.melds``.  The rules are the project's ``indian13``
(docs/RULES.md), phase by phase:

* the deal: two decks and two printed jokers (106 cards); seat ``p`` gets
  ``deck[13p : 13p + 13]``; the next card is the cut card (its rank is wild;
  a printed joker cut makes only the jokers wild), face up under the stock
  and never drawn; the next is the first card of the discard pile; the rest
  is the stock, drawn in order.  Seat 0 plays first (the dealer is the last
  seat), then seat 1, and so on round the table;
* a turn: drop (before the first draw: ``drop_first``, later ``drop_middle``),
  or take the pile top or draw from the stock; then discard, or declare:
  discard and show the other 13 cards in groups.  The card taken from the
  pile may not be thrown in the same turn (not even an identical copy);
* a valid show ends the deal: every other player pays the winner its least
  count (capped at 80; half, rounded down, for a player who had no turn yet;
  doubled when the winner shows on its first turn) or its drop; a wrong show
  costs the declarer ``wrong_declaration`` and ends the deal; when every
  player but one dropped, that one collects the drops; when the last stock
  card has been drawn and thrown without a show, the deal is void.

An action that is not legal raises ``IllegalActionError``; nothing is ever
corrected.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.arena.indian.melds import least_count, show_problem, wild_cards
from benchmarks.arena.joker_cards import JOKER, RANKS, card_name

HAND_SIZE = 13
DECK: tuple[int, ...] = tuple(sorted([*range(52), *range(52), JOKER, JOKER]))


@dataclass(frozen=True, slots=True)
class IndianRules:
    """The scoring knobs of ``indian13`` the referee applies."""

    cap: int = 80
    drop_first: int = 10
    drop_middle: int = 40
    wrong_declaration: int = 80


class Phase(enum.StrEnum):
    """The decision asked for."""

    DRAW = "draw"
    """Start of a turn: take the pile top, draw from the stock, or drop."""
    DISCARD = "discard"
    """After drawing: discard, or declare."""


class Kind(enum.StrEnum):
    """What an action or event does."""

    TAKE_DISCARD = "take_discard"
    DRAW_STOCK = "draw_stock"
    DROP = "drop"
    DISCARD = "discard"
    DECLARE = "declare"


@dataclass(frozen=True, slots=True, order=True)
class Action:
    """A player's answer: ``card`` to discard (also when declaring),
    ``groups`` the show of a declaration."""

    kind: Kind
    card: int | None = None
    groups: tuple[tuple[int, ...], ...] = ()


TAKE = Action(Kind.TAKE_DISCARD)
DRAW = Action(Kind.DRAW_STOCK)
DROP = Action(Kind.DROP)


@dataclass(frozen=True, slots=True)
class Event:
    """One public event: the card taken or thrown (None for a stock draw)."""

    seat: int
    kind: Kind
    card: int | None = None
    groups: tuple[tuple[int, ...], ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything one player may know when it acts (and nothing more)."""

    seat: int
    players: int
    phase: Phase
    hand: tuple[int, ...]
    cut_card: int
    upcard: int
    """The first card of the discard pile."""
    discard_pile: tuple[int, ...]
    history: tuple[Event, ...]
    stock_size: int
    turns: tuple[int, ...]
    dropped: tuple[str | None, ...]
    taken: int | None
    """The card this player took from the pile this turn."""
    legal: tuple[Action, ...]
    """The legal actions without the declarations (any discard may declare)."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: ``points`` by seat (+ collects, - pays)."""

    outcome: str
    """``show``, ``wrong_show``, ``all_dropped`` or ``void``."""
    winner: int | None
    points: tuple[int, ...]
    counts: tuple[int | None, ...] = ()


class IllegalActionError(ValueError):
    """A player answered an action that is not legal where it stands."""


@dataclass(slots=True)
class _Seat:
    hand: list[int]
    turns: int = 0
    dropped: str | None = None


class IndianDeal:
    """The state of one deal and its referee (players get ``view``s only)."""

    def __init__(self, deck: Sequence[int], players: int,
                 rules: IndianRules | None = None) -> None:
        self.deck = tuple(deck)
        self.players = players
        self.rules = rules or IndianRules()
        if sorted(self.deck) != list(DECK):
            raise ValueError("the deck must hold two decks and two jokers, each card once")
        if not 2 <= self.players <= 6:
            raise ValueError("2 to 6 players")
        n = self.players
        self.seats = [_Seat(list(self.deck[HAND_SIZE * p:HAND_SIZE * (p + 1)])) for p in range(n)]
        self.cut_card = self.deck[HAND_SIZE * n]
        self.wild = wild_cards(None if self.cut_card == JOKER else self.cut_card % RANKS)
        self.upcard = self.deck[HAND_SIZE * n + 1]
        self.pile = [self.upcard]
        self.next_stock = HAND_SIZE * n + 2
        self.phase = Phase.DRAW
        self.to_act = 0
        self.taken: int | None = None
        self.history: list[Event] = []
        self.result: DealResult | None = None
        self.wrong_shows = 0

    @property
    def stock_size(self) -> int:
        return len(self.deck) - self.next_stock

    @property
    def over(self) -> bool:
        return self.result is not None

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """Referee-side: the cards ``seat`` holds."""
        return tuple(sorted(self.seats[seat].hand))

    # -- legal actions ----------------------------------------------------------------
    def legal(self) -> tuple[Action, ...]:
        """The legal actions of the seat to act, declarations aside."""
        if self.result is not None:
            return ()
        seat = self.seats[self.to_act]
        if self.phase == Phase.DRAW:
            out = [DROP]
            if self.pile:
                out.append(TAKE)
            if self.stock_size > 0:
                out.append(DRAW)
            return tuple(out)
        return tuple(Action(Kind.DISCARD, card) for card in sorted(set(seat.hand))
                     if card != self.taken)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now."""
        acting = seat == self.to_act and self.result is None
        return PlayerView(
            seat, self.players, self.phase, tuple(sorted(self.seats[seat].hand)), self.cut_card,
            self.upcard, tuple(self.pile), tuple(self.history), self.stock_size,
            tuple(s.turns for s in self.seats), tuple(s.dropped for s in self.seats),
            self.taken if acting else None, self.legal() if acting else ())

    # -- applying ---------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act; ``IllegalActionError`` if it is not legal."""
        if self.result is not None:
            raise IllegalActionError("the deal is over")
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        seat_index = self.to_act
        seat = self.seats[seat_index]
        if action.kind == Kind.DECLARE:
            discard = Action(Kind.DISCARD, action.card)
            if self.phase != Phase.DISCARD or discard not in self.legal():
                raise IllegalActionError(f"seat {seat_index} declares with "
                                         f"{_card(action.card)}, not a legal discard now")
            self._declare(seat_index, action)
            return
        if action not in self.legal():
            raise IllegalActionError(f"seat {seat_index} played {action.kind} {_card(action.card)} "
                                     f"in phase {self.phase}; legal: "
                                     + ", ".join(f"{a.kind} {_card(a.card)}" for a in self.legal()))
        if action.kind == Kind.DROP:
            seat.dropped = "first" if seat.turns == 0 else "middle"
            self.history.append(Event(seat_index, Kind.DROP))
            standing = [i for i, s in enumerate(self.seats) if s.dropped is None]
            if len(standing) == 1:
                self._settle(standing[0], "all_dropped", {})
                return
            self.to_act = self._next(seat_index)
        elif action.kind == Kind.TAKE_DISCARD:
            card = self.pile.pop()
            seat.hand.append(card)
            seat.turns += 1
            self.taken = card
            self.phase = Phase.DISCARD
            self.history.append(Event(seat_index, Kind.TAKE_DISCARD, card))
        elif action.kind == Kind.DRAW_STOCK:
            seat.hand.append(self.deck[self.next_stock])
            self.next_stock += 1
            seat.turns += 1
            self.taken = None
            self.phase = Phase.DISCARD
            self.history.append(Event(seat_index, Kind.DRAW_STOCK))
        else:
            assert action.card is not None
            seat.hand.remove(action.card)
            self.pile.append(action.card)
            self.taken = None
            self.history.append(Event(seat_index, Kind.DISCARD, action.card))
            if self.stock_size == 0:
                self.result = DealResult("void", None, (0,) * self.players)
                return
            self.to_act = self._next(seat_index)
            self.phase = Phase.DRAW

    def _next(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            other = (seat + k) % self.players
            if self.seats[other].dropped is None:
                return other
        return seat

    def _declare(self, seat_index: int, action: Action) -> None:
        seat = self.seats[seat_index]
        assert action.card is not None
        kept = list(seat.hand)
        kept.remove(action.card)
        seat.hand = kept
        self.pile.append(action.card)
        self.history.append(Event(seat_index, Kind.DECLARE, action.card, action.groups))
        problem = show_problem(action.groups, kept, self.wild)
        if problem is not None:
            self.wrong_shows += 1
            points = [0] * self.players
            points[seat_index] = -self.rules.wrong_declaration
            self.result = DealResult("wrong_show", None, tuple(points))
            return
        self._settle(seat_index, "show", {})

    def _settle(self, winner: int, outcome: str, _: dict[int, int]) -> None:
        rules = self.rules
        points = [0] * self.players
        counts: list[int | None] = [None] * self.players
        rummy = outcome == "show" and self.seats[winner].turns == 1
        for index, seat in enumerate(self.seats):
            if index == winner:
                continue
            if seat.dropped is not None:
                pays = rules.drop_first if seat.dropped == "first" else rules.drop_middle
            else:
                count = least_count(seat.hand, self.wild, rules.cap)
                counts[index] = count
                pays = count // 2 if seat.turns == 0 else count
                if rummy:
                    pays *= 2
            points[index] -= pays
            points[winner] += pays
        self.result = DealResult(outcome, winner, tuple(points), tuple(counts))


def _card(card: int | None) -> str:
    return "" if card is None else card_name(card)
