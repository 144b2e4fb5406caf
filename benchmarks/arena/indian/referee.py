"""The Indian rummy referee: one deal from a shuffled deck, every action checked.

It shares no code with ``solver`` but the game's words (``solver.play.words``,
the values of ``Phase`` and ``Kind``): its melds, shows and counts are
``benchmarks.arena.indian.melds``.  One referee plays both Indian games, the
differences being data (``benchmarks.arena.indian.variants``): ``indian13``
and ``indian21`` (docs/RULES.md), phase by phase:

* the deal: ``indian13`` two decks and two printed jokers (106 cards), 13
  cards each; ``indian21`` three decks and three printed jokers (159 cards),
  21 cards each.  Seat ``p`` gets ``deck[h*p : h*p + h]`` (``h`` the hand
  size); the next card is the cut card (its rank is wild, and in
  ``indian21`` its lower and upper jokers too, the cards of its suit one
  rank below and above; a printed joker cut makes only the jokers wild),
  face up under the stock and never drawn; the next is the first card of
  the discard pile; the rest is the stock, drawn in order.  Seat 0 plays
  first (the dealer is the last seat), then seat 1, and so on round the
  table;
* a turn: drop (before the first draw: ``drop_first``, later ``drop_middle``),
  or take the pile top or draw from the stock; then discard, or declare:
  discard and show the other ``h`` cards in groups (``indian13``: two
  sequences, one of them pure; ``indian21``: three pure sequences, a tanala
  -- three identical cards -- counting as one).  The card taken from the
  pile may not be thrown in the same turn; another copy of it that the
  player held may (two decks hold two of every card);
* a valid show ends the deal: every other player pays the winner its least
  count (``indian13``: capped at 80; ``indian21``: uncapped, the count of
  docs/RULES.md 4.5; half, rounded down, for a player who had no turn yet;
  doubled for the others when the winner shows on its first turn) or its drop; a wrong show
  costs the declarer ``wrong_declaration`` and ends the deal; when every
  player but one dropped, that one collects the drops; when the last stock
  card has been drawn and thrown without a show, the deal is void;
* ``indian21``'s value cards: after a valid show (or when all others
  dropped) every player's value cards -- each copy of the cut card and of
  its lower and upper jokers it holds, 10 each, a marriage (one of each)
  100 instead of its three cards -- are settled between all players: each
  receives ``n * own - total`` (docs/RULES.md section 10), a dropped player
  with the cards it held when it dropped, the winner with the cards it
  showed.

Where the rule book is silent (``indian21``; the published Marriage rules
vary on these points), the referee chose:

* a wrong show and a void deal settle no value cards (the declarer pays its
  80, or nobody pays anything, as the library's round scoring does); a
  printed joker cut makes no value cards and no lower or upper jokers;
* value cards count wherever they lie in a hand, melded or not, and
  dropped players take part in the settlement (the rule book settles
  "between all players"; the Marriage tables that let only a player who
  has shown three pure sequences collect are not followed);
* the cut card itself lies under the stock and never plays: a player may
  hold two copies of it at most, and its marriages need one of them;
* the deal, the turn order, the drops, the halving and the first-turn
  doubling are ``indian13``'s: the rule book gives them for the ``indian``
  scoring of both games.

An action that is not legal raises ``IllegalActionError``; nothing is ever
corrected.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.arena.core.joker_cards import card_name
from benchmarks.arena.indian.melds import (
    deal_wild,
    least_count,
    marriage_count,
    show_problem,
    value_cards,
    value_points,
)
from benchmarks.arena.indian.variants import INDIAN13, IndianVariant
from benchmarks.arena.indian.variants import IndianRules as IndianRules  # where callers find it
from solver.play import words

HAND_SIZE = INDIAN13.hand_size
DECK: tuple[int, ...] = INDIAN13.deck
"""``indian13``'s cards (each variant's are ``variant.deck``)."""


class Phase(enum.StrEnum):
    """The decision asked for."""

    DRAW = words.DRAW
    """Start of a turn: take the pile top, draw from the stock, or drop."""
    DISCARD = words.AFTER_DRAW
    """After drawing: discard, or declare."""


class Kind(enum.StrEnum):
    """What an action or event does."""

    TAKE_DISCARD = words.TAKE_DISCARD
    DRAW_STOCK = words.DRAW_STOCK
    DROP = words.DROP
    DISCARD = words.DISCARD
    DECLARE = words.DECLARE


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
    game: str = INDIAN13.game
    """The game (``indian13``, ``indian21``): what the players ask the library about."""


@dataclass(frozen=True, slots=True)
class DealResult:
    """How a deal ended: ``points`` by seat (+ collects, - pays)."""

    outcome: str
    """``show``, ``wrong_show``, ``all_dropped`` or ``void``."""
    winner: int | None
    points: tuple[int, ...]
    counts: tuple[int | None, ...] = ()
    values: tuple[int, ...] = ()
    """``indian21``: each seat's value-card settlement (in ``points`` already)."""


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
                 rules: IndianRules | None = None, variant: IndianVariant = INDIAN13) -> None:
        self.deck = tuple(deck)
        self.players = players
        self.variant = variant
        self.rules = rules or variant.rules
        if sorted(self.deck) != list(variant.deck):
            raise ValueError(f"the deck must hold {variant.decks} decks and "
                             f"{variant.decks * variant.jokers_per_deck} jokers, each card once")
        if not 2 <= self.players <= 6:
            raise ValueError("2 to 6 players")
        n, size = self.players, variant.hand_size
        self.seats = [_Seat(list(self.deck[size * p:size * (p + 1)])) for p in range(n)]
        self.cut_card = self.deck[size * n]
        self.wild = deal_wild(self.cut_card, variant.neighbour_jokers)
        self.valued = value_cards(self.cut_card) if variant.value_cards else ()
        self.upcard = self.deck[size * n + 1]
        self.pile = [self.upcard]
        self.next_stock = size * n + 2
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

    @property
    def stock(self) -> tuple[int, ...]:
        """Referee-side: the cards still in the stock, in drawing order."""
        return self.deck[self.next_stock:]

    def count_of(self, cards: Sequence[int]) -> int:
        """The count a loser holding ``cards`` pays before halving or
        doubling (the variant's count, capped by the rules' cap)."""
        if self.variant.count == "cascade":
            return least_count(cards, self.wild, self.rules.cap)
        variant = self.variant
        count = marriage_count(cards, self.wild, pure_needed=variant.min_pure,
                               tanala=variant.tanala)
        return count if self.rules.cap is None else min(count, self.rules.cap)

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
        # the card taken from the pile stays this turn; another copy of it held may go
        return tuple(Action(Kind.DISCARD, card) for card in sorted(set(seat.hand))
                     if card != self.taken or seat.hand.count(card) >= 2)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now."""
        acting = seat == self.to_act and self.result is None
        return PlayerView(
            seat, self.players, self.phase, tuple(sorted(self.seats[seat].hand)), self.cut_card,
            self.upcard, tuple(self.pile), tuple(self.history), self.stock_size,
            tuple(s.turns for s in self.seats), tuple(s.dropped for s in self.seats),
            self.taken if acting else None, self.legal() if acting else (), self.variant.game)

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
        variant = self.variant
        problem = show_problem(action.groups, kept, self.wild, tanala=variant.tanala,
                               min_pure=variant.min_pure, min_sequences=variant.min_sequences)
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
                count = self.count_of(seat.hand)
                counts[index] = count
                # 003: no turn yet pays half; a first-turn show doubles the others
                pays = count // 2 if seat.turns == 0 else count * 2 if rummy else count
            points[index] -= pays
            points[winner] += pays
        values: tuple[int, ...] = ()
        if self.valued:
            held = [value_points(seat.hand, self.valued, rules.value_card_points,
                                 rules.marriage_points) for seat in self.seats]
            values = tuple(self.players * own - sum(held) for own in held)
            points = [p + v for p, v in zip(points, values, strict=True)]
        self.result = DealResult(outcome, winner, tuple(points), tuple(counts), values)


def _card(card: int | None) -> str:
    return "" if card is None else card_name(card)
