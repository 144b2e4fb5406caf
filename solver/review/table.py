"""A record walked with every card face up: each seat's hand, the decisions, the result.

``walk(record)`` follows the cards of a ``Record`` event by event -- the
deal fits the game's deck, each seat plays only cards it holds, a stock
draw draws a card the stock still holds (the next one when its order is
known), a knock or a declaration shows exactly the cards held, a gin reply
lays off only what the knocker's melds take -- and, with ``replay``, has
the advisor's own replay (``solver.play.GAMES[game].position``) check the
public history: turn order, the pile, the phases.  A record that cannot
have happened raises ``InvalidStateError`` whose ``loc`` names the event
(``("events", 12, "card")``) or the deal.

What it answers (``Walked``): the decisions in order (``Decision``: the
seat, its events, its cards before them, the card a stock draw drew), the
cards each seat holds at the end, how the hand ended and each seat's
points in the advisor's units (``result``): gin, the knock's points
(``solver.play.gin.scoring``); Indian rummy, what each player collects or
pays (``solver.round_scoring``); Rummy 500 and Rommy, a player's round
score less the mean of the others'; basic rummy, what it collects or pays.

A decision is one choice of a player as the advisor answers it: gin and
Indian rummy, each event; the lay-down games, a draw, and the rest of a
turn (its melds, layoffs and throw, or going out) as one (a turn the
events stop inside, before its throw, is not one yet: its play is not
known whole).

>>> record = read_record({"game": "gin", "players": ["ann", "bob"], "dealer": 1,
...     "deal": {"hands": ["AS 2S 3S 4S 5S 6S 7S 8S 9S KD", "AH 2H 3H 4H 5H 6H 7H 8H 9H KC"],
...              "upcard": "QC"},
...     "events": [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
...                {"player": 0, "action": "draw_stock", "drawn": "TS"},
...                {"player": 0, "action": "knock", "card": "KD",
...                 "melds": [["AS", "2S", "3S", "4S", "5S"], ["6S", "7S", "8S", "9S", "TS"]],
...                 "deadwood": []},
...                {"player": 1, "action": "lay_off",
...                 "melds": [["AH", "2H", "3H", "4H", "5H"], ["6H", "7H", "8H", "9H"]],
...                 "deadwood": ["KC"]}]})
>>> walked = walk(record)
>>> walked.ending, walked.result, [d.first for d in walked.decisions]
('gin', (35.0, -35.0), [0, 1, 2, 3, 4])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NoReturn

from solver.cards import card_name, rank_of, suit_of
from solver.classify import is_meld
from solver.deadline import Deadline, Ticker
from solver.errors import InvalidHandError, InvalidStateError, SolverInputError
from solver.gin import gin_deal, resolve_knock_limit
from solver.layoffs import TableMeld, read_table_meld
from solver.play.advice import Layoff, Move
from solver.play.gin.scoring import knock_points
from solver.play.gin.state import DECK_COPIES as GIN_COPIES
from solver.play.gin.state import HAND as GIN_HAND
from solver.play.indian.state import MAX_PLAYERS as INDIAN_MAX
from solver.play.indian.state import MIN_PLAYERS as INDIAN_MIN
from solver.play.laydown.state import added_cards, moved_joker, take_depth
from solver.play.laydown.variant import VARIANTS, Variant
from solver.play.model import GAMES, Request
from solver.play.public import names
from solver.play.replay import EVENTS_PER_CHECK
from solver.play.words import (
    DECLARE,
    DISCARD,
    DRAW_STOCK,
    DROP,
    FIRST_DROP,
    GO_OUT,
    KNOCK,
    LAY_OFF,
    MELD,
    MIDDLE_DROP,
    PASS,
    TAKE_DISCARD,
)
from solver.review.record import Record, Step, in_events, refuse
from solver.round_scoring import PlayerHand, score_round
from solver.rules import Deal, deck_copies, make_deal, make_rules

Loc = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Decision:
    """One choice of one seat: its events ``first`` to ``last`` (one but for
    a lay-down turn's play), the cards it held before them, the move, and
    for a stock draw the card drawn."""

    seat: int
    first: int
    last: int
    hand: tuple[int, ...]
    move: Move
    """The move played, in the advisor's terms (a lay-down turn's melds,
    layoffs and throw as one move)."""
    drawn: int | None = None


@dataclass(frozen=True, slots=True)
class Walked:
    """What the walk of a record found (see the module docstring)."""

    decisions: tuple[Decision, ...]
    hands: tuple[tuple[int, ...], ...]
    """Each seat's cards after the last event."""
    over: bool
    ending: str
    """How the hand ended: ``knock``, ``gin``, ``undercut``, ``wall`` (gin);
    ``declare``, ``wrong_declaration``, ``drops``, ``void`` (Indian rummy);
    ``out``, ``stock_out`` (the lay-down games); ``unfinished``: the events
    stop before the end."""
    result: tuple[float, ...] | None
    """Each seat's points (None: unfinished and no result given)."""


RESULT_TOLERANCE = 0.005
"""How far a record's ``result`` may be from what its events score: a result
written to two decimals (a Rummy 500 margin over three players is a third of
a point) agrees."""


TURN_CODES = ("history_out_of_turn", "hand_over")
"""The advisor's replay's codes of an event played out of turn or out of its
phase: said of an event before what its cards get wrong."""


def walk(record: Record, replay: bool = True, deadline: Deadline | None = None) -> Walked:
    """Walk ``record`` (see the module docstring); ``DeadlineExceeded`` once
    ``deadline`` passes (the walk of ``MAX_EVENTS`` events and their replay
    take tens of milliseconds)."""
    if record.game == "gin":
        walker: _Walk = _GinWalk(record)
    elif record.game in ("indian13", "indian21"):
        walker = _IndianWalk(record)
    else:
        walker = _LayDownWalk(record)
    walker.check_fields()
    walker.check_deal()
    ticker = Ticker(deadline, EVENTS_PER_CHECK)
    for index, step in enumerate(record.steps):
        ticker.tick()
        try:
            if walker.over:
                walker.fail(index, "the hand was already over", "hand_over")
            walker.apply(index, step)
        except InvalidStateError:
            if replay:  # an event out of turn or phase, this one or before, is the fault
                # (not this one past the end: the walk says so, and gin's public
                # history, without the reply, would not know the hand over)
                walker.replay_before(index, itself=not walker.over, deadline=deadline)
            raise
    if replay:
        walker.replay(deadline)
    decisions = walker.decisions
    if not walker.over and decisions and decisions[-1].move.action == GO_OUT:
        decisions = decisions[:-1]  # a lay-down turn the events stop inside: no play yet
    result = walker.result() if walker.over else None
    if record.result is not None:
        if result is not None and any(abs(a - b) > RESULT_TOLERANCE for a, b in
                                      zip(result, record.result, strict=True)):
            refuse(f"result is {list(record.result)} but the events score "
                   f"{[round(r, 6) for r in result]}", ("result",), "result_mismatch")
        result = record.result
    return Walked(tuple(decisions), tuple(tuple(h) for h in walker.hands), walker.over,
                  walker.ending if walker.over else "unfinished", result)


def read_record(data: object) -> Record:
    """The record ``data`` (its wire form), checked like a state (``walk``
    with the advisor's replay); ``InvalidStateError`` naming where it cannot
    have happened."""
    record = Record.from_dict(data)
    walk(record, replay=True)
    return record


def check_record(record: Record | Mapping[str, Any]) -> None:
    """``InvalidStateError`` when ``record`` (a ``Record`` or its wire form)
    cannot have happened (see ``walk``)."""
    walk(Record.of(record), replay=True)


def public_history(record: Record, before: int) -> list[dict[str, Any]]:
    """The public history a decision starting at event ``before`` sees (a
    gin reply is never part of one: it closes the hand)."""
    return [step.public() for step in record.steps[:before] if step.action != LAY_OFF
            or record.game != "gin"]


def game_fields(record: Record, seat: int) -> dict[str, Any]:
    """The game's own fields of ``advise`` for ``seat`` (the match score
    from its side, the cut card, the number of players)."""
    fields: dict[str, Any] = {}
    if record.score is not None:  # gin's (any other game refuses it by name)
        fields["score"] = {"me": record.score[seat],
                           "opponent": max(s for k, s in enumerate(record.score) if k != seat),
                           "target": record.target}
    if record.oklahoma:
        fields["oklahoma"] = True
    if record.dealt.wild_rank is not None or record.game in ("indian13", "indian21"):
        fields["wild_rank"] = record.dealt.wild_rank
    if record.game != "gin":
        fields["players"] = record.seats
    return fields


def request_for(record: Record, seat: int, hand: Sequence[int], before: int) -> Request:
    """The public state ``seat`` decides from at event ``before``, as the
    advisor's ``Request``."""
    return Request([card_name(c) for c in hand], card_name(record.dealt.upcard),
                   public_history(record, before), seat, record.dealer, None, None,
                   record.rules, game_fields(record, seat))


class _Walk:
    """What every game's walk shares: hands, the pile, the stock."""

    copies: Sequence[int]
    hand_size: int
    seats_allowed: tuple[int, int]
    keeps_taken = True
    """The card taken alone from the pile top may not be thrown back the same
    turn; another copy the seat holds may (docs/RULES.md).  The advisor's
    replay sees no hands, so where the deck has two of the card (the jokers,
    two decks) it takes such a throw for the other copy; the walk sees them.
    Gin reads a throw-back as it happened (OpenSpiel allows it)."""

    def __init__(self, record: Record) -> None:
        self.record = record
        self.seats = record.seats
        self.hands: list[list[int]] = [list(h) for h in record.dealt.hands]
        self.pile: list[int] = [record.dealt.upcard]
        self.stock_order: list[int] | None = None if record.dealt.stock is None \
            else list(record.dealt.stock)
        self.decisions: list[Decision] = []
        self.over = False
        self.ending = "unfinished"
        self.turns = [0] * self.seats
        self.turned = False
        """Basic rummy: the pile was turned over into the stock (its order known)."""
        self.taken_top: int | None = None
        """The card taken alone from the pile top this turn."""

    # -- the deal ----------------------------------------------------------------------
    def cut(self) -> int | None:
        """The cut card lying under the stock, when known (Indian rummy)."""
        return None

    def stock_size(self) -> int:
        """Cards in the stock after the deal."""
        return sum(self.copies) - self.seats * self.hand_size - 1 - \
            (0 if self.cut() is None and not self.cut_is_rank() else 1)

    def cut_is_rank(self) -> bool:
        """A cut card given by its rank only (its suit unknown)."""
        return False

    def check_fields(self) -> None:
        """The game takes the record's fields and its number of players."""
        record = self.record
        low, high = self.seats_allowed
        if not low <= self.seats <= high:
            refuse(f"{record.game} seats {low} to {high} players; the record has "
                   f"{self.seats}", ("players",), "wrong_player_count")
        request = Request((), record.dealt.upcard, None, 0, record.dealer, None, None,
                          record.rules, game_fields(record, 0))
        try:
            model = GAMES[record.game]
            model.check_fields(request)
            model.check_rules(request)
        except SolverInputError as error:
            if error.loc == ("wild_rank",):
                raise InvalidStateError(error.message, code=error.code,
                                        loc=("deal", "wild_rank")) from None
            raise

    def check_deal(self) -> None:
        """Every dealt card is one the deck holds, each hand is a full hand,
        a stock given is the rest of the deck."""
        dealt = self.record.dealt
        for seat, hand in enumerate(dealt.hands):
            if len(hand) != self.hand_size:
                refuse(f"deal.hands[{seat}] has {len(hand)} cards; {self.record.game} deals "
                       f"{self.hand_size} to each of {self.seats} players",
                       ("deal", "hands", seat), "wrong_hand_size")
        left = list(self.copies)
        places: list[tuple[int, Loc]] = [
            *((c, ("deal", "hands", s, k)) for s, hand in enumerate(dealt.hands)
              for k, c in enumerate(hand)), (dealt.upcard, ("deal", "upcard"))]
        cut = self.cut()
        if cut is not None:
            places.append((cut, ("deal", "wild_rank")))
        stock_from = len(places)
        places += [(c, ("deal", "stock", k)) for k, c in enumerate(dealt.stock or ())]
        self.unseen = left
        """Copies of each card in the stock (when its order is unknown, any may be drawn)."""
        for number, (card, loc) in enumerate(places):
            if number == stock_from:
                self.unseen = list(left)
            where = ".".join(map(str, loc))
            self.in_deck(card, where, loc)
            if left[card] <= 0:
                refuse(f"{card_name(card)} at {where} is one card too many: the "
                       f"{self.record.game} deck holds {self.copies[card]} of "
                       f"{card_name(card)}", loc, "too_many_copies")
            left[card] -= 1
        if stock_from == len(places):
            self.unseen = list(left)
        self.stock_left = self.stock_size()
        if dealt.stock is not None and len(dealt.stock) != self.stock_left:
            refuse(f"deal.stock has {len(dealt.stock)} cards; after the deal the stock holds "
                   f"{self.stock_left}", ("deal", "stock"), "stock_mismatch")

    def in_deck(self, card: int, where: str, loc: Loc) -> None:
        """``too_many_jokers`` when ``card`` is a joker and the game's deck
        has none (as the advisor's replay says it: ``check_deck``)."""
        if not self.copies[card]:
            refuse(f"{card_name(card)} at {where} is not a card of {self.record.game}: its deck "
                   "has no jokers", loc, "too_many_jokers")

    # -- events ------------------------------------------------------------------------
    @staticmethod
    def fail(index: int, message: str, code: str = "invalid_event",
             part: str | None = None) -> NoReturn:
        """Event ``index`` cannot have happened."""
        loc: Loc = ("events", index) if part is None else ("events", index, part)
        raise InvalidStateError(f"events[{index}]: {message}", code=code, loc=loc)

    def apply(self, index: int, step: Step) -> None:  # pragma: no cover - each game's
        """Apply one event."""
        raise NotImplementedError

    def decide(self, index: int, step: Step, layoffs: tuple[Layoff, ...] = ()) -> None:
        """Event ``index`` is a decision of its own."""
        event = step.event
        move = Move(event.action, event.card, event.melds, event.deadwood or (), layoffs)
        self.decisions.append(Decision(step.player, index, index,
                                       tuple(self.hands[step.player]), move))

    def drew(self, card: int) -> None:
        """The last decision drew ``card`` from the stock."""
        self.decisions[-1] = replace(self.decisions[-1], drawn=card)

    def give_up(self, index: int, seat: int, cards: Sequence[int], part: str = "card") -> None:
        """``cards`` leave ``seat``'s hand (``card_not_held`` when it does not hold them)."""
        hand = self.hands[seat]
        for card in cards:
            if card not in hand:
                self.fail(index, f"seat {seat} plays {card_name(card)} but holds "
                                 f"{names(sorted(hand))}", "card_not_held", part)
            hand.remove(card)

    def draw(self, index: int, step: Step) -> int:
        """The card a stock draw drew, checked against the stock; it joins the hand."""
        if self.stock_left <= 0:
            self.fail(index, "the stock is empty", "stock_mismatch")
        drawn = step.drawn
        if self.stock_order is not None:
            card = self.stock_order.pop(0)
            if drawn is not None and drawn != card:
                self.fail(index, f"draws {card_name(drawn)} but the stock's next card is "
                                 f"{card_name(card)}", "drawn_mismatch", "drawn")
            drawn = card
        elif drawn is None:
            self.fail(index, "a draw_stock needs the card drawn (drawn), or the record the "
                             "stock's order (deal.stock)", "drawn_missing", "drawn")
        else:
            self.in_deck(drawn, f"events[{index}].drawn", ("events", index, "drawn"))
            if self.unseen[drawn] <= 0:
                self.fail(index, f"draws {card_name(drawn)}, which is not in the stock (every "
                                 "copy is elsewhere)", "drawn_mismatch", "drawn")
        if not self.turned:
            self.unseen[drawn] -= 1
        self.stock_left -= 1
        self.hands[step.player].append(drawn)
        self.turns[step.player] += 1
        self.taken_top = None
        return drawn

    def take_top(self, index: int, step: Step) -> int:
        """The pile's top taken (the event names it)."""
        card = step.event.card
        if not self.pile or card != self.pile[-1]:
            top = card_name(self.pile[-1]) if self.pile else "nothing (the pile is empty)"
            self.fail(index, f"takes {'no card' if card is None else card_name(card)} but the "
                             f"pile top is {top}", "pile_mismatch", "card")
        self.pile.pop()
        self.hands[step.player].append(card)
        self.turns[step.player] += 1
        self.taken_top = card
        return card

    def throw(self, index: int, step: Step) -> int:
        """The event's card from its seat's hand onto the pile."""
        card = step.event.card
        if card is None:
            self.fail(index, f"{step.action} needs the card thrown", part="card")
        if self.keeps_taken and card == self.taken_top \
                and self.hands[step.player].count(card) < 2:
            self.fail(index, f"{card_name(card)} was taken from the pile top this turn: it may "
                             f"not be thrown back in the same turn (seat {step.player} holds no "
                             "other copy)", "history_out_of_turn")
        self.give_up(index, step.player, [card])
        self.pile.append(card)
        self.taken_top = None
        return card

    # -- the advisor's replay ---------------------------------------------------------------
    def replay(self, deadline: Deadline | None = None) -> None:
        """The advisor's replay of the whole public history (as the last
        seat to act saw it) accepts every event."""
        error = self._replay_to(len(self.record.steps), deadline)
        if error is None or (error.code in ("hand_over", "not_your_turn", "wrong_hand_size",
                                            "card_in_two_places", "too_many_copies")
                             and error.loc[:1] in (("history",), ("hand",))):
            return  # the end state's checks: the walk followed the hands itself
        raise in_events(error) from None

    def _replay_to(self, end: int, deadline: Deadline | None = None) -> SolverInputError | None:
        """The advisor's replay of the events before ``end``, as the last seat
        to act saw them: raises where one of them cannot have happened
        (``in_events``); answers any other refusal (about the hands walked so
        far), or None."""
        record = self.record
        public = public_history(record, end)
        seat = public[-1]["player"] if public else (record.dealer + 1) % record.seats
        try:
            GAMES[record.game].position(request_for(record, seat, self.hands[seat], end),
                                        deadline)
        except SolverInputError as error:
            if len(error.loc) >= 2 and error.loc[0] == "history":
                raise in_events(error) from None
            return error
        return None

    def replay_before(self, end: int, itself: bool = True,
                      deadline: Deadline | None = None) -> None:
        """When the walk fails at event ``end``: the advisor's replay of the
        events before it (and, with ``itself``, of it), raising where one
        before it cannot have happened (the cards follow any order, so a turn
        played by the wrong seat shows in them only later) or where it is
        itself out of turn or out of phase (``TURN_CODES``: a referee says
        "not your turn" before looking at the cards); any other refusal is
        about the hands walked so far or the event's cards, and the cards'
        own error stands."""
        try:
            self._replay_to(end + 1 if itself else end, deadline)
        except InvalidStateError as error:
            if error.loc[:2] != ("events", end) or error.code in TURN_CODES:
                raise

    def result(self) -> tuple[float, ...]:  # pragma: no cover - each game's
        """Each seat's points."""
        raise NotImplementedError


# -- gin ----------------------------------------------------------------------------------
class _GinWalk(_Walk):
    copies = GIN_COPIES
    hand_size = GIN_HAND
    seats_allowed = (2, 2)
    keeps_taken = False

    def __init__(self, record: Record) -> None:
        super().__init__(record)
        self.deal = gin_deal(record.rules)
        oklahoma = card_name(record.dealt.upcard) if record.oklahoma else None
        self.limit, _ = resolve_knock_limit(self.deal, upcard=oklahoma)
        self.played = False  # a turn was played: a pass now is at the wall
        self.knocker: int | None = None
        self.knocker_melds: tuple[tuple[int, ...], ...] = ()
        self.knocker_deadwood = 0
        self.defender_deadwood = 0

    def points(self, cards: Sequence[int]) -> int:
        return sum(self.deal.points[c] for c in cards)

    def apply(self, index: int, step: Step) -> None:
        action = step.action
        seat = step.player
        if action != LAY_OFF:
            self.decide(index, step)
        if action == PASS:
            if self.played:
                self.over, self.ending = True, "wall"
        elif action == TAKE_DISCARD:
            self.take_top(index, step)
        elif action == DRAW_STOCK:
            self.drew(self.draw(index, step))
        elif action == DISCARD:
            self.throw(index, step)
            self.played = True
        elif action == KNOCK:
            self.throw(index, step)
            self._knock(index, step)
        elif action == LAY_OFF:
            self._reply(index, step, seat)

    def _melds(self, index: int, melds: Sequence[Sequence[int]]) -> None:
        for meld in melds:
            if not is_meld(meld, self.deal):
                self.fail(index, f"{names(meld)} is not a gin meld", "invalid_meld", "melds")

    def _knock(self, index: int, step: Step) -> None:
        event = step.event
        seat = event.player
        hand = sorted(self.hands[seat])
        shown = [c for meld in event.melds for c in meld]
        self._melds(index, event.melds)
        if sorted(shown) != sorted(set(shown)) or any(c not in hand for c in shown):
            self.fail(index, f"the knock's melds ({' / '.join(names(m) for m in event.melds)}) "
                             f"are not cards the knocker holds once each ({names(hand)})",
                      "invalid_knock", "melds")
        rest = [c for c in hand if c not in shown]
        if event.deadwood is not None and sorted(event.deadwood) != rest:
            self.fail(index, f"the knock shows deadwood {names(event.deadwood)} but the "
                             f"knocker's other cards are {names(rest)}", "invalid_knock",
                      "deadwood")
        deadwood = self.points(rest)
        if deadwood > self.limit:
            self.fail(index, f"the knocker's deadwood is {deadwood}, over the knock limit "
                             f"({self.limit})", "cannot_knock")
        self.knocker, self.knocker_melds, self.knocker_deadwood = seat, event.melds, deadwood

    def _reply(self, index: int, step: Step, seat: int) -> None:
        event = step.event
        if self.knocker is None or seat == self.knocker:
            self.fail(index, "lay_off is the defender's reply to a knock", "history_out_of_turn",
                      "action")
        hand = sorted(self.hands[seat])
        self._melds(index, event.melds)
        kept = [c for meld in event.melds for c in meld] + list(event.deadwood or ())
        if len(kept) != len(set(kept)) or any(c not in hand for c in kept):
            self.fail(index, f"the reply's melds and deadwood are not cards the defender holds "
                             f"once each ({names(hand)})", "card_not_held", "melds")
        laid = [c for c in hand if c not in kept]
        if laid and self.knocker_deadwood == 0:
            self.fail(index, f"nothing may be laid off onto gin; the reply leaves {names(laid)} "
                             "out of its melds and deadwood", "invalid_meld", "deadwood")
        if step.layoffs:
            self._check_layoffs(index, step, laid)
            layoffs = step.layoffs
        else:
            found = gin_layoffs(self.knocker_melds, laid)
            if found is None:
                self.fail(index, f"{names(laid)} (neither melded nor in the deadwood) cannot all "
                                 "be laid off onto the knocker's melds", "invalid_meld",
                          "deadwood")
            layoffs = found
        self.decide(index, step, layoffs)
        self.hands[seat] = [c for c in hand if c in kept]
        self.defender_deadwood = self.points(event.deadwood or ())
        self.over = True
        score = knock_points(self.deal.rules, self.knocker_deadwood, self.defender_deadwood)
        self.ending = "gin" if self.knocker_deadwood == 0 else "undercut" if score < 0 \
            else "knock"

    def _check_layoffs(self, index: int, step: Step, laid: Sequence[int]) -> None:
        melds = [list(m) for m in self.knocker_melds]
        placed: list[int] = []
        for lay in step.layoffs:
            if lay.target >= len(melds):
                self.fail(index, f"layoff target {lay.target}: the knocker showed "
                                 f"{len(melds)} melds", "invalid_meld", "layoffs")
            melds[lay.target] += lay.cards
            placed += lay.cards
        if sorted(placed) != sorted(laid) or not all(is_meld(m, self.deal) for m in melds):
            self.fail(index, f"the layoffs ({names(placed)}) are not the cards left out of the "
                             f"reply's melds and deadwood ({names(laid)}) each extending its "
                             "target", "invalid_meld", "layoffs")

    def result(self) -> tuple[float, ...]:
        if self.knocker is None:
            return (0.0, 0.0)
        points = knock_points(self.deal.rules, self.knocker_deadwood, self.defender_deadwood)
        out = [0.0, 0.0]
        out[self.knocker] = float(points)
        out[1 - self.knocker] = float(-points)
        return tuple(out)


def layoff_target(melds: Sequence[Sequence[int]], card: int) -> int | None:
    """The gin meld of ``melds`` that ``card`` extends (one deck, no wild
    card: a run at either end, a three-card set its fourth suit), a run
    first: a card that could end a run or fill a set does better in the run,
    where the next card may follow it; None when none takes it."""
    for number, meld in enumerate(melds):
        if len({suit_of(c) for c in meld}) == 1 and suit_of(card) == suit_of(meld[0]):
            ranks = sorted(rank_of(c) for c in meld)
            if len(set(ranks)) == len(ranks) and rank_of(card) in (ranks[0] - 1, ranks[-1] + 1):
                return number
    for number, meld in enumerate(melds):
        if len(meld) == 3 and len({rank_of(c) for c in meld}) == 1 \
                and rank_of(card) == rank_of(meld[0]):
            return number
    return None


def gin_layoffs(melds: Sequence[Sequence[int]], cards: Sequence[int]) -> tuple[Layoff, ...] | None:
    """Where each of ``cards`` is laid off onto the knocker's ``melds``
    (cards that extend a run go on, and the next may follow them), or None
    when they cannot all be.

    >>> from solver.cards import parse_cards
    >>> gin_layoffs([parse_cards("4S 5S 6S"), parse_cards("9H 9D 9C")], parse_cards("8S 7S 9S"))
    (Layoff(target=0, cards=(6, 7, 8), extended=()),)
    """
    table = [list(m) for m in melds]
    placed: dict[int, list[int]] = {}
    left = sorted(cards)
    while left:
        for card in left:
            target = layoff_target(table, card)
            if target is not None:
                table[target].append(card)
                placed.setdefault(target, []).append(card)
                left.remove(card)
                break
        else:
            return None
    return tuple(Layoff(target, tuple(sorted(added))) for target, added in sorted(placed.items()))


# -- Indian rummy ----------------------------------------------------------------------------
class _IndianWalk(_Walk):
    seats_allowed = (INDIAN_MIN, INDIAN_MAX)

    def __init__(self, record: Record) -> None:
        wild_rank = record.dealt.wild_rank
        if wild_rank is None:
            refuse(f"{record.game} needs deal.wild_rank: the cut card ('7H', '7' or 'JK')",
                   ("deal", "wild_rank"), "missing")
        try:
            self.deal: Deal = make_deal(make_rules(record.game, record.rules), wild_rank)
        except InvalidHandError as error:
            raise InvalidStateError(error.message, code=error.code,
                                    loc=("deal", "wild_rank")) from None
        self.copies = deck_copies(self.deal.rules)
        self.hand_size = self.deal.rules.hand_size
        super().__init__(record)
        self.dropped: list[str | None] = [None] * self.seats
        self.declarer: int | None = None
        self.shown: tuple[tuple[int, ...], ...] = ()

    def cut(self) -> int | None:
        return self.deal.known_cut

    def cut_is_rank(self) -> bool:
        return self.deal.cut_card is None and not self.deal.joker_cut

    def apply(self, index: int, step: Step) -> None:
        action = step.action
        seat = step.player
        self.decide(index, step)
        if action == TAKE_DISCARD:
            self.take_top(index, step)
        elif action == DRAW_STOCK:
            self.drew(self.draw(index, step))
        elif action == DROP:
            self.dropped[seat] = FIRST_DROP if self.turns[seat] == 0 else MIDDLE_DROP
            standing = [s for s in range(self.seats) if self.dropped[s] is None]
            if len(standing) <= 1:
                self.over, self.ending = True, "drops"
        elif action in (DISCARD, DECLARE):
            self.throw(index, step)
            if action == DECLARE:
                shown = sorted(c for meld in step.event.melds for c in meld)
                if shown != sorted(self.hands[seat]):
                    self.fail(index, f"a declaration shows every card held once "
                                     f"({names(sorted(self.hands[seat]))}); it shows "
                                     f"{names(shown)}", "invalid_knock", "melds")
                self.declarer, self.shown = seat, step.event.melds
                self.over, self.ending = True, "declare"
            elif self.stock_left == 0:
                self.over, self.ending = True, "void"

    def result(self) -> tuple[float, ...]:
        if self.ending == "void":
            return (0.0,) * self.seats
        players = []
        for seat in range(self.seats):
            won = seat == self.declarer
            players.append(PlayerHand(
                hand=() if won else [card_name(c) for c in self.hands[seat]],
                melded=[[card_name(c) for c in meld] for meld in self.shown] if won else None,
                went_out=won, dropped=self.dropped[seat],  # type: ignore[arg-type]
                had_turn=self.turns[seat] > 0, rummy=won and self.turns[seat] == 1))
        score = score_round(players, self.record.game, wild_rank=self.record.dealt.wild_rank,
                            rules=self.record.rules)
        if self.declarer is not None and score.winner is None:
            self.ending = "wrong_declaration"
        return tuple(float(p) for p in score.points)


# -- Rummy 500, Rommy, basic rummy -----------------------------------------------------------
class _LayDownWalk(_Walk):
    def __init__(self, record: Record) -> None:
        variant: Variant = VARIANTS[record.game].with_rules(record.rules)
        self.seats_allowed = (variant.min_players, variant.max_players)
        if not variant.min_players <= record.seats <= variant.max_players:
            refuse(f"{record.game} seats {variant.min_players} to {variant.max_players} "
                   f"players; the record has {record.seats}", ("players",),
                   "wrong_player_count")
        self.variant = variant.seated(record.seats)
        self.copies = self.variant.copies
        self.hand_size = self.variant.hand_size(record.seats)
        super().__init__(record)
        self.table: list[TableMeld] = []
        self.laid = [0] * self.seats
        self.penalties = [0] * self.seats
        self.laid_before = [False] * self.seats
        """Who laid a card in an earlier turn (a basic "rummy" goes out with none)."""
        self.laid_now = False
        self.must_use: int | None = None
        self.out: int | None = None
        self.turn_melds: list[tuple[int, ...]] = []
        self.turn_layoffs: dict[int, tuple[list[int], tuple[int, ...]]] = {}
        """The turn's layoffs so far: per table meld, the cards added and the meld after."""

    def apply(self, index: int, step: Step) -> None:
        action = step.action
        seat = step.player
        if action in (DRAW_STOCK, TAKE_DISCARD, PASS):
            self._start_turn(index, step)
            return
        last = self.decisions[-1] if self.decisions else None
        if last is None or last.seat != seat or last.move.action in (DRAW_STOCK, TAKE_DISCARD,
                                                                       PASS):
            self.turn_melds, self.turn_layoffs = [], {}
            self.decisions.append(Decision(seat, index, index, tuple(self.hands[seat]),
                                           Move(GO_OUT)))
        card = None
        if action == MELD:
            self._meld(index, step)
        elif action == LAY_OFF:
            self._lay_off(index, step)
        elif action == DISCARD:
            card = self.throw(index, step)
            if self.must_use is not None:
                self.penalties[seat] += 1  # the advisor's replay refuses it where not allowed
                self.must_use = None
            if self.hands[seat]:  # a throw that goes out ends the last turn: a rummy's
                self._end_turn(seat)
        layoffs = tuple(Layoff(target, tuple(added), extended) for target, (added, extended)
                        in sorted(self.turn_layoffs.items()))
        move = Move(GO_OUT if card is None else DISCARD, card, tuple(self.turn_melds), (),
                    layoffs)
        self.decisions[-1] = replace(self.decisions[-1], last=index, move=move)
        if not self.hands[seat] and not self.over:
            self.out = seat
            self.over, self.ending = True, "out"

    def _start_turn(self, index: int, step: Step) -> None:
        action = step.action
        seat = step.player
        self.decide(index, step)
        self.laid_now = False
        self.must_use = None
        self.taken_top = None
        if action == PASS:
            self.over, self.ending = True, "stock_out"
        elif action == DRAW_STOCK:
            if self.stock_left <= 0 and self.variant.turn_over_pile and self.pile:
                # the pile turned over, unshuffled: its bottom card is drawn first
                self.stock_order, self.pile = list(self.pile), []
                self.stock_left = len(self.stock_order)
                self.turned = True
            self.drew(self.draw(index, step))
        else:
            card = step.event.card
            if card is None or card not in self.pile:
                self.fail(index, f"takes {'no card' if card is None else card_name(card)}, "
                                 f"which is not in the discard pile ({names(self.pile)})",
                          "pile_mismatch", "card")
            depth = take_depth(self.pile, card)
            taken = self.pile[len(self.pile) - depth:]
            del self.pile[len(self.pile) - depth:]
            self.hands[seat] += taken
            self.turns[seat] += 1
            self.must_use = card if depth > 1 else None
            self.taken_top = card if depth == 1 else None

    def _used(self, cards: Sequence[int]) -> None:
        if self.must_use is not None and self.must_use in cards:
            self.must_use = None

    def _meld(self, index: int, step: Step) -> None:
        seat = step.player
        if not step.event.melds:
            self.fail(index, "meld needs the melds laid down", part="melds")
        for group in step.event.melds:
            self.give_up(index, seat, group, "melds")
            self.table.append(self._read(index, group, len(self.table)))
            self.turn_melds.append(tuple(group))
            self.laid[seat] += self.table[-1].meld.points
            self._used(group)
        self.laid_now = True

    def _lay_off(self, index: int, step: Step) -> None:
        seat = step.player
        target = step.event.target
        if target is None or not 0 <= target < len(self.table) or len(step.event.melds) != 1:
            self.fail(index, "lay_off needs a table meld (target) and that meld afterwards "
                             "(one meld in melds)", part="target")
        old = self.table[target]
        new = step.event.melds[0]
        added = added_cards(old, new)
        if not added:
            self.fail(index, f"{names(new)} is not table meld {target} "
                             f"({names(old.meld.cards)}) with cards added", "invalid_meld",
                      "melds")
        self.give_up(index, seat, added, "melds")
        extended = self._read(index, new, target)
        moved = moved_joker(old, extended, new, target)
        if moved is not None:
            self.fail(index, moved, "invalid_meld", "melds")
        self.table[target] = extended
        before = self.turn_layoffs.get(target, ([], ()))[0]
        self.turn_layoffs[target] = ([*before, *added], tuple(new))
        self.laid[seat] += self.table[target].meld.points - old.meld.points
        self._used(added)
        self.laid_now = True

    def _read(self, index: int, cards: Sequence[int], at: int) -> TableMeld:
        try:
            return read_table_meld(cards, at, self.variant.deal)
        except InvalidHandError as error:
            self.fail(index, error.message, "invalid_meld", "melds")

    def _end_turn(self, seat: int) -> None:
        if self.laid_now:
            self.laid_before[seat] = True

    def result(self) -> tuple[float, ...]:
        points = self.variant.values.hand
        held = [sum(points[c] for c in hand) for hand in self.hands]
        n = self.seats
        if self.variant.scoring == "collect":
            if self.out is None:
                return (0.0,) * n
            rummy = self.variant.rummy_doubles and not self.laid_before[self.out]
            owed = [h * (2 if rummy else 1) for h in held]
            return tuple(float(sum(owed)) if s == self.out else float(-owed[s])
                         for s in range(n))
        penalty = self.variant.pile_penalty or 0
        scores = [self.laid[s] - penalty * self.penalties[s] - held[s] for s in range(n)]
        return tuple(float(scores[s] - (sum(scores) - scores[s]) / (n - 1)) for s in range(n))


__all__ = ["Decision", "Walked", "check_record", "game_fields", "gin_layoffs", "layoff_target",
           "public_history", "read_record", "request_for", "walk"]
