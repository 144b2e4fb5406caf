"""A recorded game: the deal, every action in order, and who sat where.

A ``Record`` is one hand (gin), deal (Indian rummy) or round (Rummy 500,
Rommy, basic rummy) as the table saw it with every card face up:

* ``game`` -- one of the advisor's games (``solver.play.GAMES``);
* ``players`` -- an id per seat (1 to 64 printable characters: the same id in many records
  sums up one player across games); their number is the table's size;
* ``dealer`` -- the dealer's seat (the seat after it plays first);
* ``deal`` -- ``hands`` (each seat's dealt cards), ``upcard`` (the first
  card of the discard pile), ``wild_rank`` (Indian rummy: the cut card, as
  ``advise`` takes it) and, where known, ``stock`` (its cards in the order
  they are drawn, top first);
* ``events`` -- every action in order, in the words of the public history
  ``advise`` takes (``solver.play.words``: ``player``, ``action``, ``card``,
  ``melds``, ``deadwood``, ``target``), plus what only the table saw: the
  card a ``draw_stock`` drew (``drawn``; it may be left out when ``stock``
  is given).  A gin hand ends with the defender's reply to a knock: a
  ``lay_off`` event whose ``melds`` are its own melds and ``deadwood`` the
  cards it keeps unmelded; the cards in neither were laid off onto the
  knocker's melds (``layoffs``, ``[{"target", "cards"}]``, may say where);
* ``score`` and ``target`` -- gin: the match score before the hand, per
  seat, and the match's target (100);
* ``rules`` and ``oklahoma`` -- as ``advise`` takes them;
* ``result`` -- optional: each seat's points as the source scored the hand,
  in the review's units (Rummy 500 and Rommy: its round score less the
  others' mean; basic rummy: what it collects, or pays as a negative)
  (checked against the events' when they end the hand; the result of a hand
  the source stopped early, such as OpenSpiel's 50-pickup guard).

``Record.from_dict`` reads the wire form (each field's form checked);
``solver.review.table.read_record`` also checks it like a state: each seat's
hand is followed card by card, and the public history is replayed by the
advisor's own replay, so a record that cannot have happened is an
``InvalidStateError`` whose ``loc`` says where (``("events", 12)``,
``("deal", "hands", 1, 4)``).

>>> record = Record.from_dict({
...     "game": "gin", "players": ["ann", "bob"], "dealer": 1,
...     "deal": {"hands": ["AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "AH 2H 3H 4H 5H 6H 7H 8H 9H TH"],
...              "upcard": "KC"},
...     "events": [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
...                {"player": 0, "action": "draw_stock", "drawn": "QC"},
...                {"player": 0, "action": "knock", "card": "QC",
...                 "melds": [["AS", "2S", "3S", "4S", "5S"], ["6S", "7S", "8S", "9S", "TS"]],
...                 "deadwood": []},
...                {"player": 1, "action": "lay_off",
...                 "melds": [["AH", "2H", "3H", "4H", "5H"], ["6H", "7H", "8H", "9H", "TH"]],
...                 "deadwood": []}]})
>>> record.players, len(record.steps), record.steps[2].drawn
(('ann', 'bob'), 5, 50)
>>> record.to_dict()["events"][2]
{'player': 0, 'action': 'draw_stock', 'drawn': 'QC'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NoReturn

from solver.cards import card_name, parse_card, parse_cards
from solver.deadline import Deadline, Ticker
from solver.errors import InvalidStateError, SolverInputError, is_list, plain_int, shown
from solver.play.advice import Layoff
from solver.play.events import ACTION_FIELDS, EVENTS_PER_CHECK, Event, parse_event
from solver.play.gin.state import MATCH_TARGET
from solver.play.model import GAMES
from solver.play.words import (
    ACTION,
    CARD,
    DEADWOOD,
    DRAW_STOCK,
    KNOCK,
    LAY_OFF,
    MELDS,
    PLAYER,
    TARGET,
)

MAX_PLAYER_ID = 64
"""Characters of a player id at most."""
DRAWN = "drawn"
"""The event field of the card a ``draw_stock`` drew (not public)."""
LAYOFFS = "layoffs"
"""The event field of a gin reply's layoffs: ``[{"target", "cards"}]``."""
RECORD_FIELDS = ("game", "players", "dealer", "deal", "events", "score", "target", "rules",
                 "oklahoma", "result")
DEAL_FIELDS = ("hands", "upcard", "wild_rank", "stock")
STEP_TAKES: Mapping[str, tuple[str, ...]] = {**ACTION_FIELDS, DRAW_STOCK: (DRAWN,)}
"""The fields each recorded action takes besides ``player`` and ``action``:
an event's (``solver.play.events.ACTION_FIELDS``) and the card a stock
draw drew; in gin, ``lay_off`` is the defender's reply (``GIN_REPLY_TAKES``)."""
GIN_REPLY_TAKES: Mapping[str, tuple[str, ...]] = {**STEP_TAKES, LAY_OFF: (MELDS, DEADWOOD, LAYOFFS)}


def refuse(message: str, loc: tuple[str | int, ...], code: str = "invalid_record") -> NoReturn:
    """The record cannot be used: ``InvalidStateError`` at ``loc``."""
    raise InvalidStateError(message, code=code, loc=loc)


def in_events(error: SolverInputError) -> InvalidStateError:
    """An error the advisor's replay (or an event parser) raised about
    ``history[i]``, said of the record's ``events[i]``."""
    loc = error.loc
    if loc and loc[0] == "history":
        loc = ("events", *loc[1:])
    message = error.message.replace("history[", "events[").replace("the history", "the events")
    return InvalidStateError(message, code=error.code, loc=loc)


@dataclass(frozen=True, slots=True)
class Step:
    """One recorded event: the public ``event`` and what only the table saw
    (the card a stock draw drew; a gin reply's layoffs)."""

    event: Event
    drawn: int | None = None
    layoffs: tuple[Layoff, ...] = ()

    @property
    def player(self) -> int:
        """The seat that acted."""
        return self.event.player

    @property
    def action(self) -> str:
        """What it did (``solver.play.words``)."""
        return self.event.action

    def public(self) -> dict[str, Any]:
        """The event as the advisor's history takes it (no drawn card)."""
        event = self.event
        data: dict[str, Any] = {PLAYER: event.player, ACTION: event.action}
        if event.card is not None:
            data[CARD] = card_name(event.card)
        if event.melds:
            data[MELDS] = [[card_name(c) for c in meld] for meld in event.melds]
        if event.deadwood is not None:
            data[DEADWOOD] = [card_name(c) for c in event.deadwood]
        if event.target is not None:
            data[TARGET] = event.target
        return data

    def to_dict(self) -> dict[str, Any]:
        """Wire form: the public event, with ``drawn`` and ``layoffs`` where known."""
        data = self.public()
        if self.drawn is not None:
            data[DRAWN] = card_name(self.drawn)
        if self.layoffs:
            data[LAYOFFS] = [{"target": lay.target, "cards": [card_name(c) for c in lay.cards]}
                             for lay in self.layoffs]
        return data


@dataclass(frozen=True, slots=True)
class Dealt:
    """The deal: each seat's cards, the upcard, the cut card (Indian rummy),
    the stock's order when known (top first)."""

    hands: tuple[tuple[int, ...], ...]
    upcard: int
    wild_rank: str | None = None
    stock: tuple[int, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        """Wire form."""
        data: dict[str, Any] = {"hands": [[card_name(c) for c in hand] for hand in self.hands],
                                "upcard": card_name(self.upcard)}
        if self.wild_rank is not None:
            data["wild_rank"] = self.wild_rank
        if self.stock is not None:
            data["stock"] = [card_name(c) for c in self.stock]
        return data


@dataclass(frozen=True, slots=True)
class Record:
    """A recorded game (see the module docstring).  ``from_dict`` reads its
    wire form; ``solver.review.table.read_record`` reads it and checks it."""

    game: str
    players: tuple[str, ...]
    dealer: int
    dealt: Dealt
    steps: tuple[Step, ...]
    score: tuple[int, ...] | None = None
    target: int = MATCH_TARGET
    rules: Mapping[str, Any] | None = field(default=None, hash=False)
    oklahoma: bool = False
    result: tuple[float, ...] | None = None

    @property
    def seats(self) -> int:
        """Players at the table."""
        return len(self.players)

    @classmethod
    def of(cls, record: object, deadline: Deadline | None = None) -> Record:
        """``record`` itself when it is a ``Record``, else read from its wire
        form (``from_dict``): what every function taking a record accepts."""
        return record if isinstance(record, Record) else cls.from_dict(record, deadline)

    @classmethod
    def from_dict(cls, data: object, deadline: Deadline | None = None) -> Record:
        """The record ``data`` (its wire form), its fields' forms checked
        (``InvalidStateError`` naming the part that is wrong); whether it could
        have happened is ``solver.review.table.read_record``'s to check.
        ``DeadlineExceeded`` once ``deadline`` passes while its events are read
        (every ``EVENTS_PER_CHECK`` events, as the walk looks at it: a short
        record is read whatever the deadline)."""
        return _parse(data, deadline)

    def to_dict(self) -> dict[str, Any]:
        """Wire form (``from_dict`` reads it back to an equal record)."""
        data: dict[str, Any] = {"game": self.game, "players": list(self.players),
                                "dealer": self.dealer, "deal": self.dealt.to_dict(),
                                "events": [step.to_dict() for step in self.steps]}
        if self.score is not None:
            data["score"] = list(self.score)
            data["target"] = self.target
        if self.rules:
            data["rules"] = dict(self.rules)
        if self.oklahoma:
            data["oklahoma"] = True
        if self.result is not None:
            data["result"] = list(self.result)
        return data


# -- reading the wire form ---------------------------------------------------------------
def _parse(data: object, deadline: Deadline | None = None) -> Record:
    if not isinstance(data, Mapping):
        refuse("a record is an object: game, players, dealer, deal, events", ())
    for name in data:
        if name not in RECORD_FIELDS:
            refuse(f"{shown(name)} is not a field of a record; it has {', '.join(RECORD_FIELDS)}",
                   (str(name),))
    game = data.get("game")
    if not isinstance(game, str) or game not in GAMES:
        refuse(f"game must be one of {', '.join(GAMES)}; got {shown(game)}", ("game",),
               "unknown_variant")
    players = read_players(data.get("players"))
    given_dealer = data.get("dealer", len(players) - 1)
    dealer = plain_int(given_dealer)
    if dealer is None or not 0 <= dealer < len(players):
        refuse(f"dealer must be a seat from 0 to {len(players) - 1}; got {shown(given_dealer)}",
               ("dealer",))
    GAMES[game].check_field("score", data.get("score"))  # gin's alone, whatever its length
    GAMES[game].check_field("score", data.get("target"), given_as="target")
    dealt = _deal(data.get("deal"), len(players))
    steps = _steps(data.get("events"), str(game), len(players), deadline)
    score, target = read_score(data.get("score"), data.get("target"), len(players))
    rules = data.get("rules")
    if rules is not None and not isinstance(rules, Mapping):
        refuse("rules must be an object of knobs", ("rules",), "invalid_rules")
    oklahoma = data.get("oklahoma", False)
    if not isinstance(oklahoma, bool):
        refuse("oklahoma must be true or false", ("oklahoma",))
    result = _result(data.get("result"), len(players))
    return Record(str(game), players, dealer, dealt, steps, score, target,
                  None if rules is None else dict(rules), oklahoma, result)


def read_players(value: object) -> tuple[str, ...]:
    """A record's ``players``: an id per seat (``invalid_record`` naming the seat)."""
    if not is_list(value) or len(value) < 2:
        refuse("players must be a list of an id per seat (two at least)", ("players",))
    ids: list[str] = []
    for seat, name in enumerate(value):
        # printable: an id is echoed in reports, and a control character or a
        # line break there rewrites a terminal or forges a line of the report
        if not isinstance(name, str) or not 0 < len(name) <= MAX_PLAYER_ID \
                or not name.isprintable():
            refuse(f"players[{seat}] must be an id of 1 to {MAX_PLAYER_ID} printable characters "
                   "(no control characters or line breaks)", ("players", seat))
        ids.append(name)
    return tuple(ids)


def _deal(value: object, seats: int) -> Dealt:
    if not isinstance(value, Mapping):
        refuse("deal must be an object: hands, upcard (and wild_rank, stock)", ("deal",))
    for name in value:
        if name not in DEAL_FIELDS:
            refuse(f"{shown(name)} is not a field of a deal; it has {', '.join(DEAL_FIELDS)}",
                   ("deal", str(name)))
    hands = value.get("hands")
    if not is_list(hands) or len(hands) != seats:
        refuse(f"deal.hands must hold a hand per seat ({seats})", ("deal", "hands"))
    dealt = tuple(tuple(_cards(hand, f"deal.hands[{seat}]")) for seat, hand in enumerate(hands))
    if "upcard" not in value:
        refuse("deal.upcard is missing: the first card of the discard pile", ("deal", "upcard"),
               "missing")
    upcard = parse_card(value["upcard"], None, "deal.upcard")
    wild_rank = value.get("wild_rank")
    if wild_rank is not None and not isinstance(wild_rank, str):
        refuse("deal.wild_rank must be the cut card ('7H', '7' or 'JK')", ("deal", "wild_rank"),
               "invalid_wild_rank")
    stock = value.get("stock")
    order = None if stock is None else tuple(_cards(stock, "deal.stock"))
    return Dealt(dealt, upcard, wild_rank, order)


def _cards(value: object, where: str) -> list[int]:
    if not isinstance(value, str | list | tuple):
        refuse(f"{where} must be a list of cards", tuple(_loc(where)))
    return parse_cards(value, where)


def _loc(where: str) -> list[str | int]:
    from solver.errors import field_loc

    return list(field_loc(where))


def _steps(value: object, game: str, seats: int, deadline: Deadline | None) -> tuple[Step, ...]:
    if not is_list(value):
        refuse("events must be a list of events", ("events",))
    from solver.play.events import MAX_EVENTS

    if len(value) > MAX_EVENTS:
        refuse(f"events holds {len(value)} events; at most {MAX_EVENTS}", ("events",),
               "too_long")
    actions = set(GAMES[game].words.actions)
    if game == "gin":
        actions.add(LAY_OFF)  # the defender's reply closes a knocked hand
    ticker = Ticker(deadline, EVENTS_PER_CHECK)  # a megabyte of events takes 100 ms to read
    steps = []
    for index, item in enumerate(value):
        ticker.tick()
        steps.append(_step(item, index, actions, seats, game))
    return tuple(steps)


def _step(data: object, index: int, actions: set[str], seats: int, game: str) -> Step:
    try:
        event = parse_event(data, index, actions, seats,
                            GIN_REPLY_TAKES if game == "gin" else STEP_TAKES)
    except SolverInputError as error:
        raise in_events(error) from None
    assert isinstance(data, Mapping)
    drawn = data.get(DRAWN)
    card = None if drawn is None else parse_card(drawn, None, f"events[{index}].drawn")
    layoffs = _layoffs(data.get(LAYOFFS), index, event)
    if event.action == KNOCK and event.card is None:
        refuse(f"events[{index}]: a knock throws a card", ("events", index, CARD),
               "invalid_event")
    return Step(event, card, layoffs)


def _layoffs(value: object, index: int, event: Event) -> tuple[Layoff, ...]:
    if value is None:
        return ()
    where: tuple[str | int, ...] = ("events", index, LAYOFFS)
    if event.action != LAY_OFF or not is_list(value):
        refuse(f"events[{index}].layoffs: a gin reply's layoffs, a list of "
               "{target, cards}", where, "invalid_event")
    out = []
    for k, item in enumerate(value):
        target = plain_int(item.get("target")) if isinstance(item, Mapping) else None
        if target is None or target < 0:
            refuse(f"events[{index}].layoffs[{k}].target must be the knocker's meld (0 or "
                   "more)", (*where, k, "target"), "invalid_event")
        assert isinstance(item, Mapping)
        cards = _cards(item.get("cards"), f"events[{index}].layoffs[{k}].cards")
        out.append(Layoff(target, tuple(cards)))
    return tuple(out)


def read_score(value: object, target: object, seats: int) -> tuple[tuple[int, ...] | None, int]:
    """A gin record's ``score`` before the hand and the match's ``target``."""
    given_target = None if target is None else plain_int(target)
    if target is not None and (given_target is None or given_target < 1):
        refuse("target must be a whole number of points (the match's, 1 or more)", ("target",))
    goal = MATCH_TARGET if given_target is None else given_target
    if value is None:
        return None, goal
    if not is_list(value) or len(value) != seats:
        refuse(f"score must be the match score before the hand, a number per seat ({seats})",
               ("score",))
    points = []
    for seat, item in enumerate(value):
        number = plain_int(item)
        if number is None or not 0 <= number < goal:
            refuse(f"score[{seat}] must be a whole number of points below the target ({goal})",
                   ("score", seat), "match_over" if number is not None and number >= goal
                   else "invalid_record")
        points.append(number)
    return tuple(points), goal


MAX_RESULT = 100_000
"""The most points a seat's ``result`` may name either way: far beyond any
hand of the six games (an unfinished hand's result is taken as given, so a
bound keeps sums over millions of records finite)."""


def _result(value: object, seats: int) -> tuple[float, ...] | None:
    if value is None:
        return None
    if not is_list(value) or len(value) != seats:
        refuse(f"result must be each seat's points ({seats} numbers)", ("result",))
    out = []
    for seat, given in enumerate(value):
        number = plain_int(given)
        if number is None and (isinstance(given, bool) or not isinstance(given, int | float)):
            refuse(f"result[{seat}] must be a number", ("result", seat))
        item = given if number is None else number
        if not -MAX_RESULT <= item <= MAX_RESULT:  # also NaN, which no comparison holds
            refuse(f"result[{seat}] must be a hand's points, from {-MAX_RESULT:,} to "
                   f"{MAX_RESULT:,}; got {item}", ("result", seat))
        out.append(float(item))
    return tuple(out)


__all__ = ["DRAWN", "LAYOFFS", "MATCH_TARGET", "MAX_PLAYER_ID", "MAX_RESULT", "Dealt", "Record", "Step",
           "in_events", "refuse"]
