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
from types import MappingProxyType
from typing import Any

from solver.cards import card_name
from solver.classify import is_meld
from solver.deadline import Deadline
from solver.errors import InvalidStateError, plain_int, shown
from solver.play.events import Event
from solver.play.gin.hands import GinHands, mask_of
from solver.play.replay import PublicState, Replay, replayed
from solver.play.words import (
    AFTER_DRAW,
    DISCARD,
    DRAW,
    DRAW_STOCK,
    FIRST_UPCARD,
    GIN,
    KNOCK,
    LAYOFF,
    OVER,
    PASS,
    TAKE_DISCARD,
)
from solver.play.words import WALL as WALL_PHASE
from solver.play.words import GinPhase as Phase
from solver.rules import Deal

ACTIONS = frozenset(GIN.actions)
DECK = 52
DECK_COPIES = (1,) * DECK + (0,)
"""One 52-card deck, no jokers: the deck the gin advisor plays."""
HAND = 10
WALL = 2
"""The hand ends unscored when a player's turn starts with this many cards
left in the stock and it does not knock (as OpenSpiel plays it)."""
MATCH_TARGET = 100
"""The points that win a match, when a score is given without a target."""
MATCH_SCORE: Mapping[str, int] = MappingProxyType({"me": 0, "opponent": 0, "target": MATCH_TARGET})
"""A match score's fields and the value of each one left out: a side not
given has no points yet (the start of a match), the target is ``MATCH_TARGET``
(the REST model takes its defaults from here)."""


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
class GinState(PublicState):
    """A checked public state (see the module docstring)."""

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
    """The match target (``MATCH_TARGET`` unless the score says) when scores are given, else
    None (one hand)."""

    @property
    def opponent(self) -> int:
        """The other seat."""
        return 1 - self.me

    @property
    def taken_this_turn(self) -> int | None:
        """The card this player took from the pile this turn (not to be
        thrown back this turn), or None."""
        if self.phase != AFTER_DRAW or not self.history:
            return None
        last = self.history[-1]
        if last.player == self.me and last.action == TAKE_DISCARD:
            return last.card
        return None

    @classmethod
    def parse(cls, *, me: int = 0, dealer: int = 1, hand: object, upcard: object,
              history: Sequence[object] | None = None, discard_pile: object = None,
              stock_count: int | None = None, score: Mapping[str, Any] | None = None,
              deadline: Deadline | None = None, **unknown: object) -> GinState:
        """Check and replay a public state given as plain data (card tokens);
        ``InvalidStateError`` (or ``InvalidHandError`` for a bad token) when
        it cannot arise; ``DeadlineExceeded`` when ``deadline`` passes first."""
        if unknown:
            name = next(iter(unknown))
            raise InvalidStateError(f"unknown state field {shown(name)}", code="invalid_state",
                                    loc=(name,))
        seats: list[int] = []
        for name, seat in (("me", me), ("dealer", dealer)):
            number = plain_int(seat)
            if number is None or number not in (0, 1):
                raise InvalidStateError(f"{name} must be seat 0 or 1; got {shown(seat)}",
                                        code="invalid_state", loc=(name,))
            seats.append(number)
        me, dealer = seats
        replay = replayed(lambda cards, first, events: _Replay(me, dealer, cards, first, events),
                          players=2, hand=hand, upcard=upcard,
                          history=history, discard_pile=discard_pile, stock_count=stock_count,
                          actions=ACTIONS, copies=DECK_COPIES, game="gin", deadline=deadline)
        my_score, opponent_score, target = _score(score)
        return cls(me, dealer, replay.hand, replay.upcard, replay.events, tuple(replay.pile),
                   replay.stock, replay.phase, replay.to_act, replay.knowledge(), replay.knock,
                   replay.turns_done, replay.stock_only, replay.must_knock, my_score,
                   opponent_score, target)


def knocker_held(state: GinState) -> list[int]:
    """The cards the opponent's knock does not show that it is known to hold
    (taken from the pile): part of its unshown deadwood, whatever the rest."""
    assert state.knock is not None
    melded = {c for meld in state.knock.melds for c in meld}
    return sorted(c for c in state.knowledge.opponent_known if c not in melded)


def check_knock(state: GinState, deal: Deal, knock_limit: int | None) -> None:
    """The knock the defender replies to is one the rules allow: each meld it
    shows is a meld of ``deal``, and its deadwood (shown, or the cheapest the
    unshown cards could be) is within ``knock_limit`` (None: not checked).
    ``InvalidStateError`` (``invalid_meld``, ``cannot_knock``) at the knock
    event, which is the history's last when the defender is to act."""
    knock = state.knock
    if knock is None:
        return
    index = len(state.history) - 1
    for j, meld in enumerate(knock.melds):
        if not is_meld(meld, deal):
            raise InvalidStateError(f"history[{index}]: the knock shows "
                                    f"{' '.join(card_name(c) for c in meld)}, which is not a "
                                    "meld", code="invalid_meld", loc=("history", index, "melds", j))
    if knock_limit is None:
        return
    points = deal.points
    if knock.deadwood is not None:
        deadwood, shown = sum(points[c] for c in knock.deadwood), "shows"
    else:  # the unshown cards: those it is known to hold, then the cheapest unseen
        held = knocker_held(state)
        count = HAND - sum(len(meld) for meld in knock.melds) - len(held)
        cheapest = sorted(points[c] for c in state.knowledge.unseen)[:max(0, count)]
        deadwood, shown = sum(points[c] for c in held) + sum(cheapest), "holds at least"
    if deadwood > knock_limit:
        raise InvalidStateError(f"history[{index}]: the knocker {shown} {deadwood} points of "
                                f"deadwood, over the knock limit ({knock_limit})",
                                code="cannot_knock", loc=("history", index))


def check_wall_take(state: GinState, hands: GinHands, knock_limit: int | None) -> None:
    """The pile top this player took at the wall (``must_knock``) was taken to
    knock: some discard other than that card leaves deadwood within
    ``knock_limit`` (None: no knock).  Else the take was no move of the rules
    and no move is left to advise: ``InvalidStateError`` (``cannot_knock``)
    at the take, the history's last event."""
    taken = state.taken_this_turn
    if not state.must_knock or taken is None:
        return
    limit = -1 if knock_limit is None else knock_limit
    least, _ = hands.best_discard(mask_of(state.hand), 1 << taken)
    if least > limit:
        index = len(state.history) - 1
        raise InvalidStateError(
            f"history[{index}]: {card_name(taken)} is taken at the wall, where the pile top "
            f"is taken only to knock, but the least deadwood after a discard other than it is "
            f"{least}, over the knock limit ({limit})", code="cannot_knock",
            loc=("history", index))


def _score(score: Mapping[str, Any] | None) -> tuple[int, int, int | None]:
    if score is None:
        return 0, 0, None
    if not isinstance(score, Mapping):
        raise InvalidStateError("score must be an object of me, opponent and target points; got "
                                f"{type(score).__name__}", code="invalid_state", loc=("score",))
    for key in score:
        if key not in MATCH_SCORE:
            raise InvalidStateError(f"score: {shown(key)} is not a field of a score; it has me, "
                                    "opponent and target", code="invalid_state",
                                    loc=("score", str(key)))
    values = []
    for key, default in MATCH_SCORE.items():
        value = plain_int(score.get(key, default))
        if value is None or value < 0:
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


class _Replay(Replay):
    """Walks the history once: turn order, the pile, who holds which known card."""

    def __init__(self, me: int, dealer: int, hand: tuple[int, ...], upcard: int,
                 events: tuple[Event, ...]) -> None:
        super().__init__(players=2, me=me, hand=hand, pile=[upcard], hand_size=HAND,
                         first=1 - dealer)
        self.upcard = upcard
        self.events = events
        self.stock = DECK - 2 * HAND - 1
        self.turns_done = 0
        self.knock: Knock | None = None
        self.phase: Phase = FIRST_UPCARD
        self.passes = 0
        self.stock_only = False  # both passed the upcard: the next draw is from the stock
        self.must_knock = False  # took the pile top at the wall: only a knock may follow
        if len(set(hand)) != len(hand):
            index = next(i for i, c in enumerate(hand) if c in hand[:i])
            raise InvalidStateError(f"{card_name(hand[index])} is in the hand twice",
                                    code="card_in_two_places", loc=("hand", index))

    def _check_end(self) -> None:
        me = self.me
        self.check_hand_size()
        self.check_known_held("throw")
        for index, card in enumerate(self.hand):
            if card in self.pile or card in self.known[1 - me]:
                where = "the discard pile" if card in self.pile else "the opponent's hand"
                raise InvalidStateError(f"{card_name(card)} is in the hand and in {where}",
                                        code="card_in_two_places", loc=("hand", index))
        self.check_not_over(self.phase == OVER, "hand")
        self.check_my_turn("the opponent's")

    def knowledge(self) -> Knowledge:
        """What the replay tells this player about the cards it cannot see."""
        me, them = self.me, 1 - self.me
        unseen = set(range(DECK)) - set(self.pile) - set(self.known[them]) - set(self.hand)
        return Knowledge(frozenset(self.known[them]), tuple(self.discarded[them]),
                         tuple(self.declined[them]), tuple(self.discarded[me]),
                         frozenset(unseen), self.sizes[them])

    def _apply(self, index: int, event: Event) -> None:
        if self.phase == OVER:
            self.fail(index, "the hand was already over")
        if self.phase == LAYOFF:
            self.fail(index, "after a knock only the defender's reply remains")
        self.check_turn(index, event.player)
        if self.phase == FIRST_UPCARD:
            self._first_upcard(index, event)
        elif self.phase in (DRAW, WALL_PHASE):
            self._draw(index, event)
        else:
            self._discard(index, event)

    def _first_upcard(self, index: int, event: Event) -> None:
        if event.action == PASS:
            self.passes += 1
            if event.player != self.me:
                self.declined[event.player].append(self.pile[-1])
            self.to_act = 1 - event.player
            if self.passes == 2:
                self.phase = DRAW
                self.stock_only = True
        elif event.action == TAKE_DISCARD:
            self._take_pile(index, event)
        else:
            self.fail(index, f"{event.action} is not a move when the first upcard is offered "
                             "(take_discard or pass)")

    def _draw(self, index: int, event: Event) -> None:
        if self.stock_only and event.action != DRAW_STOCK:
            self.fail(index, "both passed the upcard: the non-dealer draws from the stock")
        if event.action == TAKE_DISCARD and not self.stock_only:
            self.must_knock = self.phase == WALL_PHASE
            self._take_pile(index, event)
        elif event.action == DRAW_STOCK and self.phase == DRAW:
            if not self.stock_only:
                self.decline_top(event.player)
            self.stock_only = False
            self._take_stock()
            self.sizes[event.player] += 1
            self.phase = AFTER_DRAW
        elif event.action == PASS and self.phase == WALL_PHASE:
            self.phase = OVER
        elif self.phase == WALL_PHASE:
            self.fail(index, f"{event.action} is not a move at the wall (the stock is down to "
                             f"{WALL} cards): knock with the pile top, or pass")
        else:
            self.fail(index, f"{event.action} is not a move at the start of a turn "
                             "(take_discard or draw_stock)")

    def _take_pile(self, index: int, event: Event) -> None:
        self.take_top(index, event.player, event.card)
        self.sizes[event.player] += 1
        self.phase = AFTER_DRAW

    def _take_stock(self) -> None:
        self.stock -= 1
        if self.stock < 0:
            raise InvalidStateError("the history draws more cards than the stock holds",
                                    code="stock_mismatch", loc=("history",))

    def _discard(self, index: int, event: Event) -> None:
        if event.action not in (DISCARD, KNOCK):
            self.fail(index, f"{event.action} is not a move after drawing: discard or knock")
        if self.must_knock and event.action != KNOCK:
            self.fail(index, "the pile top was taken at the wall: only a knock may follow")
        card = event.card
        if card is None:
            self.fail(index, f"{event.action} needs the card thrown", "invalid_event")
        player, other = event.player, 1 - event.player
        if card in self.pile or card in self.known[other]:
            self.fail(index, f"{card_name(card)} is already elsewhere", "card_in_two_places")
        if card in self.known[player]:
            self.known[player].remove(card)
        self.discarded[player].append(card)
        self.pile.append(card)
        self.sizes[player] -= 1
        self.turns_done += 1
        if event.action == KNOCK:
            self._knock(index, event, card)
            return
        self.to_act = other
        self.phase = WALL_PHASE if self.stock <= WALL else DRAW

    def _knock(self, index: int, event: Event, card: int) -> None:
        shown = [c for meld in event.melds for c in meld] + list(event.deadwood or ())
        whole = event.deadwood is not None
        if len(shown) != len(set(shown)) or (len(shown) != HAND if whole else len(shown) > HAND):
            self.fail(index, f"a knock shows the knocker's {HAND} cards (melds, and deadwood "
                             f"when shown) once each; got {len(shown)}", "invalid_knock")
        player = event.player
        clash = [c for c in shown if c in self.pile or c in self.known[1 - player]
                 or (player != self.me and c in self.hand)]
        if clash:
            self.fail(index, f"the knock shows {card_name(clash[0])}, which is elsewhere",
                      "card_in_two_places")
        missing = [c for c in self.known[player] if c not in shown]
        if missing and whole:
            self.fail(index, f"the knocker took {card_name(missing[0])} and does not show it",
                      "invalid_knock")
        if len(shown) + len(missing) > HAND:  # its unshown deadwood holds the cards it took
            self.fail(index, f"the knock shows {len(shown)} cards and the knocker also holds "
                             f"{' '.join(card_name(c) for c in missing)}, taken from the pile: "
                             f"more than its {HAND} cards", "invalid_knock")
        self.knock = Knock(player, card, event.melds, event.deadwood)
        self.known[player] = list(dict.fromkeys([*shown, *([] if whole else self.known[player])]))
        self.phase = LAYOFF
        self.to_act = 1 - player
