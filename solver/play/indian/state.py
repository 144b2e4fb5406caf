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

from solver.cards import NUM_CARD_TYPES, card_name
from solver.deadline import Deadline
from solver.errors import InvalidHandError, InvalidStateError
from solver.play.events import Event
from solver.play.public import check_players, check_seats
from solver.play.replay import PublicState, Replay, Seat, replayed
from solver.play.words import (
    AFTER_DRAW,
    DECLARE,
    DISCARD,
    DRAW,
    DRAW_STOCK,
    DROP,
    FIRST_DROP,
    INDIAN,
    MIDDLE_DROP,
    OVER,
    TAKE_DISCARD,
    Drop,
)
from solver.play.words import IndianPhase as Phase
from solver.rules import Deal, deck_copies

ACTIONS = frozenset(INDIAN.actions)
MIN_PLAYERS = 2
MAX_PLAYERS = 6


@dataclass(frozen=True, slots=True)
class IndianState(PublicState):
    """A checked public state (see the module docstring)."""

    game: str
    players: int
    cut_card: int | None
    """The cut card when its suit is known (None: a bare rank)."""
    phase: Phase
    to_act: int
    seats: tuple[Seat, ...]
    unseen: tuple[int, ...]
    """Every card (with copies) that is in the stock or an opponent's hand
    and not known to be in a hand: the cards the advisor deals out."""
    taken_this_turn: int | None
    """The card this player took from the pile this turn (not to be thrown back)."""

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
        if self.phase != DRAW:
            return None
        return FIRST_DROP if self.seats[self.me].turns == 0 else MIDDLE_DROP

    @classmethod
    def parse(cls, *, game: str, deal: Deal, players: int, me: int, dealer: int,
              hand: object, upcard: object, history: Sequence[object] | None,
              discard_pile: object = None, stock_count: int | None = None,
              deadline: Deadline | None = None) -> IndianState:
        """Check and replay a public state given as plain data (card tokens);
        ``InvalidStateError`` (or ``InvalidHandError`` for a bad token) when it
        cannot arise; ``DeadlineExceeded`` when ``deadline`` passes first."""
        players = check_players(players, MIN_PLAYERS, MAX_PLAYERS, game)
        size = deal.rules.hand_size
        total = sum(deck_copies(deal.rules))
        if players * size + 2 > total:
            raise InvalidStateError(f"{players} players of {size} cards do not fit the "
                                    f"{total}-card deck of {game}", code="wrong_player_count",
                                    loc=("players",))
        me, dealer = check_seats(players, me=me, dealer=dealer)
        replay = replayed(
            lambda cards, first, events: _Replay(deal, players, me, dealer, cards, first, events),
            players=players, hand=hand, upcard=upcard, history=history,
            discard_pile=discard_pile, stock_count=stock_count, actions=ACTIONS,
            copies=deck_copies(deal.rules), game=game, deadline=deadline)
        return cls(me=me, dealer=dealer, hand=replay.hand, upcard=replay.upcard,
                   history=replay.events, discard_pile=tuple(replay.pile),
                   stock_count=replay.stock, game=game, players=players,
                   cut_card=deal.cut_card, phase=replay.phase, to_act=replay.to_act,
                   seats=tuple(replay.seat(s) for s in range(players)), unseen=replay.unseen(),
                   taken_this_turn=replay.taken_this_turn)


class _Replay(Replay):
    """Walks the history once: turn order, the pile, who holds which known card."""

    def __init__(self, deal: Deal, players: int, me: int, dealer: int, hand: tuple[int, ...],
                 upcard: int, events: tuple[Event, ...]) -> None:
        size = deal.rules.hand_size
        super().__init__(players=players, me=me, hand=hand, pile=[upcard], hand_size=size,
                         first=(dealer + 1) % players)
        self.upcard = upcard
        self.events = events
        self.deal = deal
        self.copies = deck_copies(deal.rules)
        self.dropped: list[Drop | None] = [None] * players
        total = sum(self.copies)
        self.stock = total - players * size - 1 - 1  # the upcard and the cut card
        self.phase: Phase = DRAW
        self.taken: int | None = None
        # cards of the hand this player takes from the pile later in the
        # history: they were on the pile before, not in the hand
        self.takes_ahead = [0] * NUM_CARD_TYPES
        for event in events:
            if event.player == me and event.action == TAKE_DISCARD and event.card is not None:
                self.takes_ahead[event.card] += 1
        self._check_copies_now(None)

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
        cut = self.deal.known_cut
        if cut is not None:
            placed[cut] += 1
        return placed

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
        deal = self.deal
        if deal.known_cut is None and deal.wild_rank is not None:
            left = [self.copies[c] - placed[c] for c in range(NUM_CARD_TYPES)]
            options = [s * 13 + deal.wild_rank for s in range(4)]
            cut = max(options, key=lambda c: (left[c], -c))
            if left[cut] > 0:
                placed[cut] += 1
        return self.unplaced(self.copies, placed)

    def seat(self, s: int) -> Seat:
        """The public record of seat ``s``."""
        return Seat(s, self.sizes[s], tuple(self.known[s]), tuple(self.discarded[s]),
                    tuple(self.declined[s]), turns=self.turns[s], dropped=self.dropped[s])

    @property
    def taken_this_turn(self) -> int | None:
        return self.taken if self.phase == AFTER_DRAW and self.to_act == self.me else None

    # -- the end ----------------------------------------------------------------------
    def _check_end(self) -> None:
        self.check_hand_size()
        self.check_known_held("throw")
        self.check_not_over(self.phase == OVER, "deal")
        if self.dropped[self.me] is not None:
            raise InvalidStateError("this player dropped: it has no more decisions",
                                    code="hand_over", loc=("history",))
        self.check_my_turn()
        self._check_copies_now(None)

    # -- events -----------------------------------------------------------------------
    def _next_seat(self, seat: int) -> int:
        for k in range(1, self.players + 1):
            other = (seat + k) % self.players
            if self.dropped[other] is None:
                return other
        return seat

    def _apply(self, index: int, event: Event) -> None:
        if self.phase == OVER:
            self.fail(index, "the deal was already over", "hand_over")
        self.check_turn(index, event.player)
        seat = event.player
        action = event.action
        if self.phase == DRAW:
            if action == DROP:
                self._drop(index, seat)
            elif action == TAKE_DISCARD:
                self.taken = self.take_top(index, seat, event.card)
                if seat == self.me and self.takes_ahead[self.taken]:
                    self.takes_ahead[self.taken] -= 1
                self._started(seat)
            elif action == DRAW_STOCK:
                self._draw(index, seat)
            else:
                self.fail(index, f"{action} is not a move at the start of a turn "
                                 "(take_discard, draw_stock or drop)")
            return
        if action == DROP:
            self.fail(index, "a drop is only allowed at the start of a turn, before drawing")
        if action not in (DISCARD, DECLARE):
            self.fail(index, f"{action} is not a move after drawing: discard or declare")
        card = event.card
        if card is None:
            self.fail(index, f"{action} needs the card thrown", "invalid_event")
        self.forget_thrown(seat, card, self.throws_a_copy(index, card, self.taken, self.copies))
        self.discarded[seat].append(card)
        self.pile.append(card)
        self.sizes[seat] -= 1
        self.taken = None
        self._check_copies_now(index)
        if action == DECLARE:
            self.phase = OVER
            return
        if self.stock == 0:  # the last stock card drawn and thrown: a void deal
            self.phase = OVER
            return
        self.to_act = self._next_seat(seat)
        self.phase = DRAW

    def _drop(self, index: int, seat: int) -> None:
        self.dropped[seat] = FIRST_DROP if self.turns[seat] == 0 else MIDDLE_DROP
        left = [s for s in range(self.players) if self.dropped[s] is None]
        if len(left) <= 1:
            self.phase = OVER
            return
        self.to_act = self._next_seat(seat)

    def _draw(self, index: int, seat: int) -> None:
        if self.stock <= 0:
            self.fail(index, "the stock is empty", "stock_mismatch")
        self.decline_top(seat)
        self.stock -= 1
        self.taken = None
        self._started(seat)

    def _started(self, seat: int) -> None:
        self.sizes[seat] += 1
        self.turns[seat] += 1
        self.phase = AFTER_DRAW


__all__ = ["ACTIONS", "MAX_PLAYERS", "MIN_PLAYERS", "IndianState", "InvalidHandError", "Seat"]
