"""The public state of a gin hand, as one player sees it, checked and replayed.

What a player at the table may know: its own hand, the first upcard, the
discard pile (bottom to top), the public history in order, the dealer, the
match score; for the defender after a knock, the knocker's melds and
deadwood (they are in the knock event).  ``GinState.parse`` checks that the
state could have arisen -- every card in one place, turns in order, the
pile equal to what the history left on it, hand sizes that fit -- and raises
``InvalidStateError`` saying why and where otherwise.  Replaying the history
also gives what the advisor reasons from (``Knowledge``): the cards the
opponent is known to hold (taken from the pile), the cards it threw or
declined, the unseen cards.

Seats are 0 and 1; the non-dealer (``1 - dealer``) is offered the first
upcard first and plays first.  Actions:

* ``pass`` -- decline the first upcard (first-upcard phase only), or at the
  wall (stock down to ``WALL`` cards) end the hand without knocking;
* ``take_discard`` -- take the pile top (``card``: which one);
* ``draw_stock`` -- draw from the stock (the card is not shown);
* ``discard`` -- throw ``card`` onto the pile;
* ``knock`` -- throw ``card`` onto the pile and show ``melds`` and, where
  the table shows them, the ``deadwood`` cards (an empty list: gin); the hand
  ends with the defender's reply.

>>> state = GinState.parse(me=0, dealer=1, hand="AS 2S 3S 7H 7D 7C KD QH 4C 9S",
...                        upcard="5H", history=[])
>>> state.phase, state.to_act, state.stock_count
('first_upcard', 0, 31)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from solver.cards import card_name, parse_card
from solver.errors import InvalidStateError
from solver.play.events import Event, parse_history
from solver.play.public import check_pile, check_stock, hand_cards

Phase = Literal["first_upcard", "draw", "discard", "wall", "layoff", "over"]
ACTIONS = frozenset({"pass", "take_discard", "draw_stock", "discard", "knock"})
DECK = 52
HAND = 10
WALL = 2
"""The hand ends unscored when a player's turn starts with this many cards
left in the stock and it does not knock (as OpenSpiel plays it)."""


@dataclass(frozen=True, slots=True)
class Knowledge:
    """What the history tells one player about the cards it cannot see."""

    opponent_known: frozenset[int]
    """Cards the opponent took from the pile and still holds."""
    opponent_discarded: tuple[int, ...]
    """Cards the opponent threw, in order (it did not want them then)."""
    opponent_declined: tuple[int, ...]
    """Pile tops the opponent could have taken and did not (it drew or passed)."""
    my_discarded: tuple[int, ...]
    """Cards this player threw, in order."""
    unseen: frozenset[int]
    """Cards in the stock or the opponent's hand, not known where."""
    opponent_size: int
    """Cards in the opponent's hand."""


@dataclass(frozen=True, slots=True)
class Knock:
    """A knock on the table: who knocked, its melds and its deadwood cards
    (None when they were not shown: only their number is known)."""

    player: int
    discard: int
    melds: tuple[tuple[int, ...], ...]
    deadwood: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class GinState:
    """A checked public state (see the module docstring)."""

    me: int
    dealer: int
    hand: tuple[int, ...]
    upcard: int
    history: tuple[Event, ...]
    discard_pile: tuple[int, ...]
    stock_count: int
    phase: Phase
    to_act: int
    knowledge: Knowledge
    knock: Knock | None
    turns: int
    """Turns completed (a discard or a knock ends one)."""
    stock_only: bool = False
    """Both players passed the first upcard: this draw is from the stock."""
    must_knock: bool = False
    """The pile top was taken at the wall: only a knock may follow."""
    my_score: int = 0
    opponent_score: int = 0
    target: int | None = None
    """The match target (100) when scores are given, else None (one hand)."""

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.me

    @property
    def pile_top(self) -> int | None:
        """The card a draw may take (None: the pile is empty)."""
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def taken_this_turn(self) -> int | None:
        """The card this player took from the pile this turn (not to be
        thrown back this turn), or None."""
        if self.phase != "discard" or not self.history:
            return None
        last = self.history[-1]
        if last.player == self.me and last.action == "take_discard":
            return last.card
        return None

    @classmethod
    def parse(cls, *, me: int = 0, dealer: int = 1, hand: object, upcard: object,
              history: Sequence[object] | None = None, discard_pile: object = None,
              stock_count: int | None = None, score: Mapping[str, Any] | None = None,
              **unknown: object) -> GinState:
        """Check and replay a public state given as plain data (card tokens);
        ``InvalidStateError`` (or ``InvalidHandError`` for a bad token) when
        it cannot arise."""
        if unknown:
            name = next(iter(unknown))
            raise InvalidStateError(f"unknown state field {name!r}", code="invalid_state",
                                    loc=(name,))
        for name, seat in (("me", me), ("dealer", dealer)):
            if isinstance(seat, bool) or not isinstance(seat, int) or seat not in (0, 1):
                raise InvalidStateError(f"{name} must be seat 0 or 1; got {seat!r}",
                                        code="invalid_state", loc=(name,))
        cards = hand_cards(hand)
        first = parse_card(upcard, None, "upcard")
        events = parse_history(history, ACTIONS)
        replay = _Replay(me, dealer, cards, first, events)
        pile = replay.pile
        check_pile(discard_pile, pile)
        stock = DECK - 2 * HAND - 1 - replay.stock_draws
        check_stock(stock_count, stock)
        my_score, opponent_score, target = _score(score)
        return cls(me, dealer, cards, first, events, tuple(pile), stock, replay.phase,
                   replay.to_act, replay.knowledge(), replay.knock, replay.turns,
                   replay.stock_only, replay.must_knock, my_score, opponent_score, target)


def _score(score: Mapping[str, Any] | None) -> tuple[int, int, int | None]:
    if score is None:
        return 0, 0, None
    values = []
    for key in ("me", "opponent", "target"):
        value = score.get(key, 100 if key == "target" else 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise InvalidStateError(f"score.{key} must be a whole number of points",
                                    code="invalid_state", loc=("score", key))
        values.append(value)
    if values[2] < 1:
        raise InvalidStateError("score.target must be at least 1", code="invalid_state",
                                loc=("score", "target"))
    if max(values[0], values[1]) >= values[2]:
        raise InvalidStateError("the match is already over: a score has reached the target",
                                code="match_over", loc=("score",))
    return values[0], values[1], values[2]


class _Replay:
    """Walks the history once: turn order, the pile, who holds which known card."""

    def __init__(self, me: int, dealer: int, hand: tuple[int, ...], upcard: int,
                 events: tuple[Event, ...]) -> None:
        self.me = me
        self.hand = set(hand)
        self.pile: list[int] = [upcard]
        self.sizes = [HAND, HAND]
        self.known: list[set[int]] = [set(), set()]  # taken from the pile, still held
        self.discarded: list[list[int]] = [[], []]
        self.declined: list[int] = []
        self.stock_draws = 0
        self.turns = 0
        self.knock: Knock | None = None
        self.phase: Phase = "first_upcard"
        self.to_act = 1 - dealer
        self.passes = 0
        self.stock_only = False  # both passed the upcard: the next draw is from the stock
        self.must_knock = False  # took the pile top at the wall: only a knock may follow
        if len(self.hand) != len(hand):
            index = next(i for i, c in enumerate(hand) if c in hand[:i])
            raise InvalidStateError(f"{card_name(hand[index])} is in the hand twice",
                                    code="card_in_two_places", loc=("hand", index))
        for index, event in enumerate(events):
            self._apply(index, event)
        self._check_end(hand)

    @property
    def stock(self) -> int:
        return DECK - 2 * HAND - 1 - self.stock_draws

    def _check_end(self, hand: tuple[int, ...]) -> None:
        me = self.me
        if len(hand) != self.sizes[me]:
            raise InvalidStateError(
                f"hand has {len(hand)} cards; the history leaves this player {self.sizes[me]}",
                code="wrong_hand_size", loc=("hand",))
        for card in self.known[me]:
            if card not in self.hand:
                raise InvalidStateError(f"the history has this player take {card_name(card)} "
                                        "and not throw it, but it is not in the hand",
                                        code="card_in_two_places", loc=("hand",))
        for index, card in enumerate(hand):
            if card in self.pile or card in self.known[1 - me]:
                where = "the discard pile" if card in self.pile else "the opponent's hand"
                raise InvalidStateError(f"{card_name(card)} is in the hand and in {where}",
                                        code="card_in_two_places", loc=("hand", index))
        if self.phase == "over":
            raise InvalidStateError("the hand is over: nothing to decide", code="hand_over",
                                    loc=("history",))
        if self.to_act != me:
            raise InvalidStateError("it is the opponent's turn: advice is for the player to act",
                                    code="not_your_turn", loc=("history",))

    def knowledge(self) -> Knowledge:
        """What the replay tells this player about the cards it cannot see."""
        me, them = self.me, 1 - self.me
        unseen = set(range(DECK)) - set(self.pile) - self.known[them] - self.hand
        return Knowledge(frozenset(self.known[them]), tuple(self.discarded[them]),
                         tuple(self.declined), tuple(self.discarded[me]), frozenset(unseen),
                         self.sizes[them])

    def _fail(self, index: int, message: str, code: str = "history_out_of_turn") -> None:
        raise InvalidStateError(f"history[{index}]: {message}", code=code, loc=("history", index))

    def _apply(self, index: int, event: Event) -> None:
        if self.phase == "over":
            self._fail(index, "the hand was already over")
        if self.phase == "layoff":
            self._fail(index, "after a knock only the defender's reply remains")
        if event.player != self.to_act:
            self._fail(index, f"it was seat {self.to_act}'s turn, not seat {event.player}'s")
        if self.phase == "first_upcard":
            self._first_upcard(index, event)
        elif self.phase in ("draw", "wall"):
            self._draw(index, event)
        else:
            self._discard(index, event)

    def _first_upcard(self, index: int, event: Event) -> None:
        if event.action == "pass":
            self.passes += 1
            if event.player != self.me:
                self.declined.append(self.pile[-1])
            self.to_act = 1 - event.player
            if self.passes == 2:
                self.phase = "draw"
                self.stock_only = True
        elif event.action == "take_discard":
            self._take_pile(index, event)
        else:
            self._fail(index, f"{event.action} is not a move when the first upcard is offered "
                              "(take_discard or pass)")

    def _draw(self, index: int, event: Event) -> None:
        if self.stock_only and event.action != "draw_stock":
            self._fail(index, "both passed the upcard: the non-dealer draws from the stock")
        if event.action == "take_discard" and not self.stock_only:
            self.must_knock = self.phase == "wall"
            self._take_pile(index, event)
        elif event.action == "draw_stock" and self.phase == "draw":
            if self.pile and event.player != self.me and not self.stock_only:
                self.declined.append(self.pile[-1])
            self.stock_only = False
            self._take_stock()
            self.sizes[event.player] += 1
            self.phase = "discard"
        elif event.action == "pass" and self.phase == "wall":
            self.phase = "over"
        elif self.phase == "wall":
            self._fail(index, f"{event.action} is not a move at the wall (the stock is down to "
                              f"{WALL} cards): knock with the pile top, or pass")
        else:
            self._fail(index, f"{event.action} is not a move at the start of a turn "
                              "(take_discard or draw_stock)")

    def _take_pile(self, index: int, event: Event) -> None:
        if not self.pile:
            self._fail(index, "the discard pile is empty", "pile_mismatch")
        if event.card != self.pile[-1]:
            shown = "no card" if event.card is None else card_name(event.card)
            self._fail(index, f"takes {shown} but the pile top is {card_name(self.pile[-1])}",
                       "pile_mismatch")
        self.known[event.player].add(self.pile.pop())
        self.sizes[event.player] += 1
        self.phase = "discard"

    def _take_stock(self) -> None:
        self.stock_draws += 1
        if self.stock < 0:
            raise InvalidStateError("the history draws more cards than the stock holds",
                                    code="stock_mismatch", loc=("history",))

    def _discard(self, index: int, event: Event) -> None:
        if event.action not in ("discard", "knock"):
            self._fail(index, f"{event.action} is not a move after drawing: discard or knock")
        if self.must_knock and event.action != "knock":
            self._fail(index, "the pile top was taken at the wall: only a knock may follow")
        card = event.card
        if card is None:
            self._fail(index, f"{event.action} needs the card thrown", "invalid_event")
            return
        player, other = event.player, 1 - event.player
        if card in self.pile or card in self.known[other]:
            self._fail(index, f"{card_name(card)} is already elsewhere", "card_in_two_places")
        self.known[player].discard(card)
        self.discarded[player].append(card)
        self.pile.append(card)
        self.sizes[player] -= 1
        self.turns += 1
        if event.action == "knock":
            self._knock(index, event, card)
            return
        self.to_act = other
        self.phase = "wall" if self.stock <= WALL else "draw"

    def _knock(self, index: int, event: Event, card: int) -> None:
        shown = [c for meld in event.melds for c in meld] + list(event.deadwood or ())
        whole = event.deadwood is not None
        if len(shown) != len(set(shown)) or (len(shown) != HAND if whole else len(shown) > HAND):
            self._fail(index, f"a knock shows the knocker's {HAND} cards (melds, and deadwood "
                              f"when shown) once each; got {len(shown)}", "invalid_knock")
        player = event.player
        clash = [c for c in shown if c in self.pile or c in self.known[1 - player]
                 or (player != self.me and c in self.hand)]
        if clash:
            self._fail(index, f"the knock shows {card_name(clash[0])}, which is elsewhere",
                       "card_in_two_places")
        missing = [c for c in self.known[player] if c not in shown]
        if missing and whole:
            self._fail(index, f"the knocker took {card_name(missing[0])} and does not show it",
                       "invalid_knock")
        self.knock = Knock(player, card, event.melds, event.deadwood)
        self.known[player] = set(shown) | (set() if whole else self.known[player])
        self.phase = "layoff"
        self.to_act = 1 - player
