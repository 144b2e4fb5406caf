"""Replaying a public history, for every game: what the table saw each player do.

Each game checks its own turn rules (``solver.play.gin.state``,
``solver.play.indian.state``, ``solver.play.laydown.state``); what they
share is here:

* ``PublicState`` -- what every game's checked state has: the player's seat,
  the dealer, its hand, the first upcard, the history, the pile and the stock;
* ``Seat`` -- the public record of one player: its hand size, the cards it
  is known to hold (taken from the pile and not played since), what it
  threw, what it took, the pile tops it let go by, its turns and, as the
  game has them, its drop, the points it laid and its pile penalties;
* ``Replay`` -- the walk of a history: whose turn it is, the pile, each
  seat's record, the failure of an event (``InvalidStateError`` at
  ``history[index]``), taking the pile top, and the checks of the final
  state (the hand's size, the known cards held, the hand over, the turn);
  ``run`` applies the events in turn by a deadline;
* ``replayed`` -- a request's fields parsed and its history replayed, the
  pile and stock a client sent checked against what the history leaves.

>>> replay = Replay(players=2, me=0, hand=(1, 2), pile=[5], hand_size=2, first=1)
>>> replay.take_top(0, 1, 5), replay.pile, replay.known
(5, [], [[], [5]])
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import NoReturn, TypeVar

from solver.cards import NUM_CARD_TYPES, card_name, parse_card
from solver.deadline import Deadline, Ticker
from solver.errors import InvalidStateError
from solver.play.events import EVENTS_PER_CHECK, Event, parse_history
from solver.play.public import check_pile, check_stock, hand_cards, pile_cards
from solver.play.words import Drop

R = TypeVar("R", bound="Replay")


@dataclass(frozen=True, slots=True)
class PublicState:
    """What every game's checked state holds (a game's state adds its own)."""

    me: int
    dealer: int
    hand: tuple[int, ...]
    upcard: int
    history: tuple[Event, ...]
    discard_pile: tuple[int, ...]
    """Bottom to top."""
    stock_count: int

    @property
    def pile_top(self) -> int | None:
        """The card a draw may take (None: the pile is empty)."""
        return self.discard_pile[-1] if self.discard_pile else None


@dataclass(frozen=True, slots=True)
class Seat:
    """What the table saw of one player."""

    seat: int
    size: int
    """Cards in its hand now."""
    known: tuple[int, ...]
    """Cards it took from the pile and has not played or thrown since (it holds them)."""
    discarded: tuple[int, ...]
    """Cards it threw, in order (it did not want them then)."""
    declined: tuple[int, ...] = ()
    """Pile tops it could have taken and did not (it drew from the stock or passed)."""
    took: tuple[int, ...] = ()
    """Every card it took from the pile, in order."""
    turns: int = 0
    """Turns it started by drawing (taking or drawing from the stock)."""
    dropped: Drop | None = None
    """Indian rummy: the drop it made, if it dropped."""
    laid_points: int = 0
    """The lay-down games: what the cards it laid down and laid off score."""
    penalties: int = 0
    """Rommy: pile penalties it paid (a card taken from below the top not used)."""
    laid_cards: int = 0
    """The lay-down games: cards it laid down or laid off."""


class Replay:
    """A history's walk (see the module docstring).  A game's replay
    subclasses it: ``apply`` each event in turn, then its final checks."""

    def __init__(self, *, players: int, me: int, hand: Sequence[int], pile: list[int],
                 hand_size: int, first: int) -> None:
        self.players = players
        self.me = me
        self.hand = tuple(hand)
        self.pile = pile
        self.sizes = [hand_size] * players
        self.known: list[list[int]] = [[] for _ in range(players)]
        self.discarded: list[list[int]] = [[] for _ in range(players)]
        self.declined: list[list[int]] = [[] for _ in range(players)]
        self.turns = [0] * players
        self.to_act = first
        self.stock = 0
        """Cards left in the stock (each game counts them)."""

    # -- the walk ----------------------------------------------------------------------
    def run(self, events: Sequence[Event], deadline: Deadline | None = None) -> None:
        """Apply ``events`` in turn, then check the final state;
        ``DeadlineExceeded`` once ``deadline`` passes (a hostile history of
        ``MAX_EVENTS`` must not run a request past it)."""
        ticker = Ticker(deadline, EVENTS_PER_CHECK)
        for index, event in enumerate(events):
            ticker.tick()
            self._apply(index, event)
        self._check_end()

    def _apply(self, index: int, event: Event) -> None:
        """The event at ``history[index]`` (each game's turn rules)."""
        raise NotImplementedError

    def _check_end(self) -> None:
        """The final state's checks (each game's)."""
        raise NotImplementedError

    # -- one event ---------------------------------------------------------------------
    @staticmethod
    def fail(index: int, message: str, code: str = "history_out_of_turn") -> NoReturn:
        """The event at ``history[index]`` could not have happened."""
        raise InvalidStateError(f"history[{index}]: {message}", code=code, loc=("history", index))

    def check_turn(self, index: int, player: int) -> None:
        """The event at ``index`` is by the player whose turn it is."""
        if player != self.to_act:
            self.fail(index, f"it was seat {self.to_act}'s turn, not seat {player}'s")

    def take_top(self, index: int, seat: int, card: int | None) -> int:
        """``seat`` takes the pile top, which the event names ``card``; it is
        known to hold it."""
        if not self.pile:
            self.fail(index, "the discard pile is empty", "pile_mismatch")
        if card != self.pile[-1]:
            shown = "no card" if card is None else card_name(card)
            self.fail(index, f"takes {shown} but the pile top is {card_name(self.pile[-1])}",
                      "pile_mismatch")
        top = self.pile.pop()
        self.known[seat].append(top)
        return top

    def throws_a_copy(self, index: int, card: int, taken: int | None, copies: Sequence[int],
                      what: str = "the pile") -> bool:
        """Whether the throw of ``card`` at ``index`` is another copy of the card
        ``taken`` from ``what`` this turn (with several decks a player may hold
        and throw one; the card taken itself may not go back the same turn).
        With one copy in the deck such a throw is refused."""
        if card != taken:
            return False
        if copies[card] < 2:
            self.fail(index, f"{card_name(card)} was taken from {what} this turn: it may not be "
                             "thrown back in the same turn")
        return True

    def forget_thrown(self, seat: int, card: int, another_copy: bool = False) -> None:
        """``card`` left ``seat``'s hand (thrown or laid): one copy it was known
        to hold is no longer held.  ``another_copy``: the throw is another copy
        of the card taken this turn (``throws_a_copy``), which stays held, so
        only a copy known from before goes (the player took a second copy of
        a card it was already known to hold and threw one back)."""
        if self.known[seat].count(card) > (1 if another_copy else 0):
            self.known[seat].remove(card)

    def decline_top(self, seat: int) -> None:
        """``seat`` drew from the stock over the pile top: it let that card go
        by (what the player to advise did itself is not a clue)."""
        if self.pile and seat != self.me:
            self.declined[seat].append(self.pile[-1])

    # -- the final state -------------------------------------------------------------------
    def check_hand_size(self) -> None:
        """The hand has the cards the history leaves this player."""
        size = self.sizes[self.me]
        if len(self.hand) != size:
            raise InvalidStateError(
                f"hand has {len(self.hand)} cards; the history leaves this player {size}",
                code="wrong_hand_size", loc=("hand",))

    def check_known_held(self, verb: str) -> None:
        """The cards this player took (and did not ``verb`` since) are in its hand."""
        held = list(self.hand)
        for card in self.known[self.me]:
            if card not in held:
                raise InvalidStateError(f"the history has this player take {card_name(card)} "
                                        f"and not {verb} it, but it is not in the hand",
                                        code="card_in_two_places", loc=("hand",))
            held.remove(card)

    @staticmethod
    def check_not_over(over: bool, noun: str) -> None:
        """A hand (deal, round) that is over has no decision left."""
        if over:
            raise InvalidStateError(f"the {noun} is over: nothing to decide", code="hand_over",
                                    loc=("history",))

    def check_my_turn(self, whose: str | None = None) -> None:
        """It is this player's turn (``whose``: how the message names the other's turn)."""
        if self.to_act != self.me:
            whose = whose or f"seat {self.to_act}'s"
            raise InvalidStateError(f"it is {whose} turn: advice is for the player to act",
                                    code="not_your_turn", loc=("history",))

    @staticmethod
    def unplaced(copies: Sequence[int], placed: Sequence[int]) -> tuple[int, ...]:
        """Every card (with copies) of the deck not ``placed``."""
        return tuple(c for c in range(NUM_CARD_TYPES) for _ in range(max(0, copies[c] - placed[c])))

    def seat(self, s: int) -> Seat:
        """The public record of seat ``s`` (a game with more to say overrides it)."""
        return Seat(s, self.sizes[s], tuple(self.known[s]), tuple(self.discarded[s]),
                    tuple(self.declined[s]), turns=self.turns[s])


def check_deck(copies: Sequence[int], game: str, hand: Sequence[int], upcard: int,
               events: Sequence[Event], pile: Sequence[int] = ()) -> None:
    """Every card of the request is one the game's deck holds: a printed joker
    in a game played without jokers is refused where it stands
    (``too_many_jokers``, as a solve refuses it)."""
    def refuse(card: int, loc: tuple[str | int, ...]) -> NoReturn:
        where = ".".join(str(part) for part in loc)
        raise InvalidStateError(f"{card_name(card)} at {where} is not a card of {game}: its "
                                "deck has no jokers", code="too_many_jokers", loc=loc)

    # in the request's order, the first card refused; a place's loc is built only for it
    # (building one for each of a long history's cards took longer than the rest of the check)
    for i, card in enumerate(hand):
        if not copies[card]:
            refuse(card, ("hand", i))
    if not copies[upcard]:
        refuse(upcard, ("upcard",))
    for i, card in enumerate(pile):
        if not copies[card]:
            refuse(card, ("discard_pile", i))
    for i, event in enumerate(events):
        if event.card is not None and not copies[event.card]:
            refuse(event.card, ("history", i, "card"))
        for j, meld in enumerate(event.melds):
            for k, card in enumerate(meld):
                if not copies[card]:
                    refuse(card, ("history", i, "melds", j, k))
        for k, card in enumerate(event.deadwood or ()):
            if not copies[card]:
                refuse(card, ("history", i, "deadwood", k))


def replayed(replay: Callable[[tuple[int, ...], int, tuple[Event, ...]], R], *, players: int,
             hand: object, upcard: object,
             history: Sequence[object] | None, discard_pile: object, stock_count: int | None,
             actions: Collection[str], copies: Sequence[int], game: str,
             deadline: Deadline | None = None) -> R:
    """The request's hand, upcard and history (its seats checked before:
    ``check_seats``) parsed and checked against the game's deck (``copies`` of each card), the history
    replayed (``replay(hand, upcard, events)`` is the game's walk, ``run`` by
    ``deadline``: ``DeadlineExceeded`` once it passes, the history's reading
    too), and the pile and
    stock the client sent checked against what the history leaves."""
    cards = hand_cards(hand)
    first = parse_card(upcard, None, "upcard")
    events = parse_history(history, actions, players, deadline)
    check_deck(copies, game, cards, first, events, pile_cards(discard_pile) or ())
    walk = replay(cards, first, events)
    walk.run(events, deadline)
    check_pile(discard_pile, walk.pile)
    check_stock(stock_count, walk.stock)
    return walk


__all__ = ["EVENTS_PER_CHECK", "PublicState", "Replay", "Seat", "check_deck", "replayed"]
