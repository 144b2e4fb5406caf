"""The public state of an Indian rummy deal, as one player sees it, checked and replayed.

What a player at the table may know: its own hand, the cut card (``wild_rank``:
it makes a rank wild and lies face up under the stock, never drawn), the
first card of the discard pile (``upcard``), the number of players, the
dealer, and the public history in order: who took the pile top (and which
card), who drew from the stock, who threw what, who dropped.
``IndianState.parse`` checks that the state could have arisen -- turns in
order round the table (dropped players skipped), a drop only at the start
of a turn, the pile equal to what the history left on it, no card in more
copies than the decks hold, hand sizes that fit -- and raises
``InvalidStateError`` saying why and where otherwise.

Seats are ``0 .. players - 1`` in turn order; the player after the dealer
plays first.  Actions:

* ``take_discard`` -- take the pile top (``card``: which one); it may not be
  thrown back in the same turn;
* ``draw_stock`` -- draw from the stock (the card is not shown);
* ``discard`` -- throw ``card`` onto the pile;
* ``drop`` -- give up the deal at the start of a turn: before the player's
  first draw it pays ``drop_first``, later ``drop_middle``, to the winner;
* ``declare`` -- throw ``card`` and show ``melds`` (ends the deal).

The deal is over when someone declared, when every player but one dropped,
or when the last stock card was drawn and thrown without a declaration
(void: nobody pays).

>>> from solver.rules import make_deal, make_rules
>>> deal = make_deal(make_rules("indian13"), "7H")
>>> state = IndianState.parse(game="indian13", deal=deal, players=2, me=1, dealer=0,
...     hand="AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D", upcard="8C", history=[])
>>> state.phase, state.to_act, state.stock_count, state.can_drop
('draw', 1, 78, 'first')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from solver.cards import JOKER, NUM_CARD_TYPES, card_name, parse_card
from solver.errors import InvalidHandError, InvalidStateError
from solver.play.events import Event, parse_history
from solver.play.public import check_pile, check_players, check_seats, check_stock, hand_cards
from solver.rules import Deal, deck_copies

Phase = Literal["draw", "discard", "over"]
Drop = Literal["first", "middle"]
ACTIONS = frozenset({"take_discard", "draw_stock", "discard", "drop", "declare"})
MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True, slots=True)
class Seat:
    """What the table saw of one player."""

    seat: int
    size: int
    """Cards in its hand now."""
    known: tuple[int, ...]
    """Cards it took from the pile and has not thrown since (it holds them)."""
    discarded: tuple[int, ...]
    """Cards it threw, in order (it did not want them then)."""
    declined: tuple[int, ...]
    """Pile tops it could have taken and did not (it drew from the stock)."""
    turns: int
    """Turns it started by drawing (taking or drawing from the stock)."""
    dropped: Drop | None


@dataclass(frozen=True, slots=True)
class IndianState:
    """A checked public state (see the module docstring)."""

    game: str
    players: int
    me: int
    dealer: int
    hand: tuple[int, ...]
    upcard: int
    cut_card: int | None
    """The cut card when its suit is known (None: a bare rank)."""
    history: tuple[Event, ...]
    discard_pile: tuple[int, ...]
    stock_count: int
    phase: Phase
    to_act: int
    seats: tuple[Seat, ...]
    unseen: tuple[int, ...]
    """Every card (with copies) that is in the stock or an opponent's hand
    and not known to be in a hand: the cards the advisor deals out."""
    taken_this_turn: int | None
    """The card this player took from the pile this turn (not to be thrown back)."""

    @property
    def pile_top(self) -> int | None:
        """The card a draw may take (None: the pile is empty)."""
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def opponents(self) -> tuple[Seat, ...]:
        """The other players, in turn order after this one."""
        n = self.players
        return tuple(self.seats[(self.me + k) % n] for k in range(1, n))

    @property
    def active(self) -> tuple[int, ...]:
        """Seats still in the deal (not dropped), in turn order from this player."""
        n = self.players
        return tuple(s for s in ((self.me + k) % n for k in range(n))
                     if self.seats[s].dropped is None)

    @property
    def can_drop(self) -> Drop | None:
        """The drop this player may make now: at the start of a turn only."""
        if self.phase != "draw":
            return None
        return "first" if self.seats[self.me].turns == 0 else "middle"

    @classmethod
    def parse(cls, *, game: str, deal: Deal, players: int, me: int, dealer: int,
              hand: object, upcard: object, history: Sequence[object] | None,
              discard_pile: object = None, stock_count: int | None = None) -> IndianState:
        """Check and replay a public state given as plain data (card tokens);
        ``InvalidStateError`` (or ``InvalidHandError`` for a bad token) when it
        cannot arise."""
        players = check_players(players, MIN_PLAYERS, MAX_PLAYERS, game)
        size = deal.rules.hand_size
        total = sum(deck_copies(deal.rules))
        if players * size + 2 > total:
            raise InvalidStateError(f"{players} players of {size} cards do not fit the "
                                    f"{total}-card deck of {game}", code="wrong_player_count",
                                    loc=("players",))
        check_seats(players, me=me, dealer=dealer)
        cards = hand_cards(hand)
        first = parse_card(upcard, None, "upcard")
        events = parse_history(history, ACTIONS, players)
        replay = _Replay(deal, players, me, dealer, cards, first, events)
        pile = tuple(replay.pile)
        check_pile(discard_pile, pile)
        check_stock(stock_count, replay.stock)
        seats = tuple(replay.seat(s) for s in range(players))
        return cls(game, players, me, dealer, cards, first, deal.cut_card, events, pile,
                   replay.stock, replay.phase, replay.to_act, seats, replay.unseen(),
                   replay.taken_this_turn)


class _Replay:
    """Walks the history once: turn order, the pile, who holds which known card."""

    def __init__(self, deal: Deal, players: int, me: int, dealer: int, hand: tuple[int, ...],
                 upcard: int, events: tuple[Event, ...]) -> None:
        self.deal = deal
        self.players = players
        self.me = me
        self.hand = hand
        size = deal.rules.hand_size
        self.copies = deck_copies(deal.rules)
        self.pile: list[int] = [upcard]
        self.sizes = [size] * players
        self.known: list[list[int]] = [[] for _ in range(players)]
        self.discarded: list[list[int]] = [[] for _ in range(players)]
        self.declined: list[list[int]] = [[] for _ in range(players)]
        self.turns = [0] * players
        self.dropped: list[Drop | None] = [None] * players
        total = sum(self.copies)
        self.stock = total - players * size - 1 - 1  # the upcard and the cut card
        self.phase: Phase = "draw"
        self.to_act = (dealer + 1) % players
        self.taken: int | None = None
        self.last_event = -1
        # cards of the hand this player takes from the pile later in the
        # history: they were on the pile before, not in the hand
        self.takes_ahead = [0] * NUM_CARD_TYPES
        for event in events:
            if event.player == me and event.action == "take_discard" and event.card is not None:
                self.takes_ahead[event.card] += 1
        self._check_copies_now(None)
        for index, event in enumerate(events):
            self._apply(index, event)
            self.last_event = index
        self._check_end()

    # -- counting cards -------------------------------------------------------------
    def _placed(self) -> list[int]:
        """Copies of each card placed: the hand, the pile, known cards, the cut card."""
        placed = [0] * NUM_CARD_TYPES
        for card in self.hand:
            placed[card] += 1
        for card, ahead in enumerate(self.takes_ahead):
            placed[card] = max(0, placed[card] - ahead)
        for card in self.pile:
            placed[card] += 1
        for seat, cards in enumerate(self.known):
            if seat != self.me:
                for card in cards:
                    placed[card] += 1
        cut = self._cut()
        if cut is not None:
            placed[cut] += 1
        return placed

    def _cut(self) -> int | None:
        deal = self.deal
        if deal.joker_cut:
            return JOKER
        return deal.cut_card

    def _check_copies_now(self, index: int | None) -> None:
        placed = self._placed()
        for card, count in enumerate(placed):
            if count > self.copies[card]:
                where = "the hand, the pile, the cut card and the cards the history shows held"
                loc: tuple[str | int, ...] = ("hand",) if index is None else ("history", index)
                raise InvalidStateError(
                    f"{count} copies of {card_name(card)} are placed ({where}); the "
                    f"{self.deal.rules.name} deck holds {self.copies[card]}",
                    code="too_many_copies", loc=loc)

    def unseen(self) -> tuple[int, ...]:
        """The cards not placed (see ``IndianState.unseen``); with a bare-rank
        cut card, one card of that rank is taken out as the cut card (the suit
        with the most copies unplaced)."""
        placed = self._placed()
        left = [self.copies[c] - placed[c] for c in range(NUM_CARD_TYPES)]
        deal = self.deal
        if self._cut() is None and deal.wild_rank is not None:
            options = [s * 13 + deal.wild_rank for s in range(4)]
            cut = max(options, key=lambda c: (left[c], -c))
            left[cut] = max(0, left[cut] - 1)
        return tuple(c for c in range(NUM_CARD_TYPES) for _ in range(max(0, left[c])))

    def seat(self, s: int) -> Seat:
        """The public record of seat ``s``."""
        return Seat(s, self.sizes[s], tuple(self.known[s]), tuple(self.discarded[s]),
                    tuple(self.declined[s]), self.turns[s], self.dropped[s])

    @property
    def taken_this_turn(self) -> int | None:
        return self.taken if self.phase == "discard" and self.to_act == self.me else None

    # -- the end ----------------------------------------------------------------------
    def _check_end(self) -> None:
        me = self.me
        if len(self.hand) != self.sizes[me]:
            raise InvalidStateError(
                f"hand has {len(self.hand)} cards; the history leaves this player "
                f"{self.sizes[me]}", code="wrong_hand_size", loc=("hand",))
        held = list(self.hand)
        for card in self.known[me]:
            if card in held:
                held.remove(card)
            else:
                raise InvalidStateError(f"the history has this player take {card_name(card)} "
                                        "and not throw it, but it is not in the hand",
                                        code="card_in_two_places", loc=("hand",))
        if self.phase == "over":
            raise InvalidStateError("the deal is over: nothing to decide", code="hand_over",
                                    loc=("history",))
        if self.dropped[me] is not None:
            raise InvalidStateError("this player dropped: it has no more decisions",
                                    code="hand_over", loc=("history",))
        if self.to_act != me:
            raise InvalidStateError(f"it is seat {self.to_act}'s turn: advice is for the "
                                    "player to act", code="not_your_turn", loc=("history",))
        self._check_copies_now(None)

    # -- events -----------------------------------------------------------------------
    def _fail(self, index: int, message: str, code: str = "history_out_of_turn") -> None:
        raise InvalidStateError(f"history[{index}]: {message}", code=code, loc=("history", index))

    def _next_seat(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            other = (seat + k) % self.players
            if self.dropped[other] is None:
                return other
        return seat

    def _apply(self, index: int, event: Event) -> None:
        if self.phase == "over":
            self._fail(index, "the deal was already over", "hand_over")
        if event.player != self.to_act:
            self._fail(index, f"it was seat {self.to_act}'s turn, not seat {event.player}'s")
        seat = event.player
        action = event.action
        if self.phase == "draw":
            if action == "drop":
                self._drop(index, seat)
            elif action == "take_discard":
                self._take(index, seat, event)
            elif action == "draw_stock":
                self._draw(index, seat)
            else:
                self._fail(index, f"{action} is not a move at the start of a turn "
                                  "(take_discard, draw_stock or drop)")
            return
        if action == "drop":
            self._fail(index, "a drop is only allowed at the start of a turn, before drawing")
        if action not in ("discard", "declare"):
            self._fail(index, f"{action} is not a move after drawing: discard or declare")
        card = event.card
        if card is None:
            self._fail(index, f"{action} needs the card thrown", "invalid_event")
            return
        if card == self.taken:
            self._fail(index, f"{card_name(card)} was taken from the pile this turn: it may "
                              "not be thrown back in the same turn")
        if card in self.known[seat]:
            self.known[seat].remove(card)
        self.discarded[seat].append(card)
        self.pile.append(card)
        self.sizes[seat] -= 1
        self.taken = None
        self._check_copies_now(index)
        if action == "declare":
            self.phase = "over"
            return
        if self.stock == 0:  # the last stock card drawn and thrown: a void deal
            self.phase = "over"
            return
        self.to_act = self._next_seat(seat)
        self.phase = "draw"

    def _drop(self, index: int, seat: int) -> None:
        self.dropped[seat] = "first" if self.turns[seat] == 0 else "middle"
        left = [s for s in range(self.players) if self.dropped[s] is None]
        if len(left) <= 1:
            self.phase = "over"
            return
        self.to_act = self._next_seat(seat)

    def _take(self, index: int, seat: int, event: Event) -> None:
        if not self.pile:
            self._fail(index, "the discard pile is empty", "pile_mismatch")
        if event.card != self.pile[-1]:
            shown = "no card" if event.card is None else card_name(event.card)
            self._fail(index, f"takes {shown} but the pile top is {card_name(self.pile[-1])}",
                       "pile_mismatch")
        card = self.pile.pop()
        if seat == self.me and self.takes_ahead[card]:
            self.takes_ahead[card] -= 1
        self.known[seat].append(card)
        self.taken = card
        self._started(seat)

    def _draw(self, index: int, seat: int) -> None:
        if self.stock <= 0:
            self._fail(index, "the stock is empty", "stock_mismatch")
        if self.pile and seat != self.me:
            self.declined[seat].append(self.pile[-1])
        self.stock -= 1
        self.taken = None
        self._started(seat)

    def _started(self, seat: int) -> None:
        self.sizes[seat] += 1
        self.turns[seat] += 1
        self.phase = "discard"


def cut_card_of(deal: Deal) -> int | None:
    """The cut card's id when known (a printed joker, or a full card)."""
    if deal.joker_cut:
        return JOKER
    return deal.cut_card


__all__ = ["ACTIONS", "MAX_PLAYERS", "MIN_PLAYERS", "IndianState", "InvalidHandError", "Seat",
           "cut_card_of"]
