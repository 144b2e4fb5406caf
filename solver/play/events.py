"""The public history of a hand: what every player at the table saw happen, in order.

An ``Event`` is one public action: who did it (a seat number) and what
(``action``), with the card it showed when it showed one (a card taken from
or thrown onto the discard pile) and the melds a player laid down.  Cards a
player drew from the stock are not shown, so a ``draw_stock`` event has none.
Each game (``solver.play.gin`` ...) says which actions exist and checks that
its history could have happened.

>>> parse_event({"player": 1, "action": "discard", "card": "KD"}, 0, {"discard"})
Event(player=1, action='discard', card=38, melds=(), deadwood=None, target=None)
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from solver.cards import parse_card, parse_cards
from solver.deadline import Deadline, Ticker
from solver.errors import InvalidStateError, is_list, plain_int, shown
from solver.play.words import (
    ACTION,
    CARD,
    DEADWOOD,
    DECLARE,
    DISCARD,
    DRAW_STOCK,
    DROP,
    EVENT_FIELDS,
    KNOCK,
    LAY_OFF,
    MELD,
    MELDS,
    PASS,
    PLAYER,
    TAKE_DISCARD,
    TARGET,
)

MAX_EVENTS = 1_500
"""Events in one history at most: a round of 300 turns (the arena's stop) of
a draw, a meld, a layoff and a throw each, with room.  Gin and Indian hands
have a few dozen; a long basic-rummy round, its pile turned over several
times, has passed 400."""

EVENTS_PER_CHECK = 256
"""Events read, or replayed, between two looks at the deadline: a history of
1,500 events (``MAX_EVENTS``) takes tens of milliseconds to replay, a few
hundred a few, so a short history is never cut and a long one stops within a
few milliseconds of its deadline."""

ACTION_FIELDS: Mapping[str, tuple[str, ...]] = {
    PASS: (), DROP: (), DRAW_STOCK: (), TAKE_DISCARD: (CARD,), DISCARD: (CARD,),
    KNOCK: (CARD, MELDS, DEADWOOD), DECLARE: (CARD, MELDS), MELD: (MELDS,),
    LAY_OFF: (MELDS, TARGET)}
"""The fields each action takes besides ``player`` and ``action``.  A field
an action does not take is refused, not ignored: a ``draw_stock`` naming a
card, or a ``discard`` with melds, is an event that cannot have happened
(the stock's card is not shown; melds are laid by ``meld``), and reading it
leniently would advise (or review) a hand other than the one played."""


@dataclass(frozen=True, slots=True)
class Event:
    """One public action (see the module docstring)."""

    player: int
    action: str
    card: int | None = None
    melds: tuple[tuple[int, ...], ...] = ()
    deadwood: tuple[int, ...] | None = None
    """The cards a player showed unmelded (None: not shown)."""
    target: int | None = None
    """The table meld a layoff went onto (Rummy 500: by the order melds were laid)."""


def parse_event(data: object, index: int, actions: Collection[str],
                players: int = 2, fields: Mapping[str, Sequence[str]] = ACTION_FIELDS) -> Event:
    """The event ``data`` (a mapping with ``player``, ``action`` and the
    fields ``fields`` says its action takes: ``card``, ``melds``,
    ``deadwood``, ``target``) at ``history[index]``; ``InvalidStateError``
    naming the part that is wrong.  A caller whose events carry more (a
    recorded game's ``drawn``) passes its own ``fields``; the names it
    reads itself are then checked here too.

    >>> parse_event({"player": 0, "action": "discard", "card": "KD", "melds": [["AS", "2S", "3S"]]},
    ...             3, {"discard"})
    Traceback (most recent call last):
    ...
    solver.errors.InvalidStateError: history[3].melds: a discard has no melds (it takes card)
    """
    where = ("history", index)
    if isinstance(data, Event):
        return data
    if not isinstance(data, Mapping):
        raise InvalidStateError(f"history[{index}] must be an object with player and action",
                                code="invalid_event", loc=where)
    player = plain_int(data.get("player"))
    if player is None or not 0 <= player < players:
        raise InvalidStateError(f"history[{index}].player must be a seat from 0 to {players - 1}; "
                                f"got {shown(data.get('player'))}", code="invalid_event",
                                loc=(*where, "player"))
    action = data.get("action")
    if not isinstance(action, str) or action not in actions:
        raise InvalidStateError(f"history[{index}].action {shown(action)} is not an action of this "
                                f"game; choose one of {', '.join(sorted(actions))}",
                                code="invalid_event", loc=(*where, "action"))
    _refuse_untaken(data, index, action, fields)
    card_token = data.get("card")
    card = None if card_token is None else parse_card(card_token, None, f"history[{index}].card")
    melds = tuple(tuple(parse_cards(_cards(group), f"history[{index}].melds[{i}]"))
                  for i, group in enumerate(_groups(data.get("melds"), index)))
    showed = data.get("deadwood")
    deadwood = None
    if showed is not None:
        deadwood = tuple(parse_cards(_cards(showed), f"history[{index}].deadwood"))
    given = data.get("target")
    target = None if given is None else plain_int(given)
    if given is not None and (target is None or target < 0):
        raise InvalidStateError(f"history[{index}].target must be a table meld's number (0 "
                                f"or more); got {shown(given)}", code="invalid_event",
                                loc=(*where, "target"))
    return Event(player, str(action), card, melds, deadwood, target)


def _refuse_untaken(data: Mapping[object, object], index: int, action: str,
                    fields: Mapping[str, Sequence[str]]) -> None:
    """Refuse a name ``data`` has that is no event field, or a field its
    ``action`` does not take (a field given as null is absent)."""
    known = dict.fromkeys((*EVENT_FIELDS, *(name for taken in fields.values() for name in taken)))
    takes = fields.get(action, ())
    for name, value in data.items():
        if name not in known:
            raise InvalidStateError(f"history[{index}]: {shown(name)} is not a field of an event; it "
                                    f"has {', '.join(known)}", code="invalid_event",
                                    loc=("history", index, str(name)))
        if name not in (PLAYER, ACTION, *takes) and value is not None:
            raise InvalidStateError(f"history[{index}].{name}: a {action} has no {name} (it "
                                    f"takes {', '.join(takes) or 'nothing but player and action'})",
                                    code="invalid_event", loc=("history", index, str(name)))


def _cards(value: object) -> str | Sequence[object]:
    """Card tokens as given (one bad value is one bad token)."""
    return value if isinstance(value, str | list | tuple) else [value]


def _groups(value: object, index: int) -> Sequence[object]:
    if value is None:
        return ()
    if not is_list(value):
        raise InvalidStateError(f"history[{index}].melds must be a list of card lists",
                                code="invalid_event", loc=("history", index, "melds"))
    return value


def parse_history(history: Sequence[object] | None, actions: Collection[str],
                  players: int = 2, deadline: Deadline | None = None) -> tuple[Event, ...]:
    """Every event of ``history`` (see ``parse_event``), at most ``MAX_EVENTS``;
    ``DeadlineExceeded`` once ``deadline`` passes (checked as the replay checks
    it, every ``EVENTS_PER_CHECK`` events: a short history is never cut, and a
    long one of big melds, a megabyte of body, is not read whole past it)."""
    if history is None:
        return ()
    if not is_list(history):
        raise InvalidStateError("history must be a list of events", code="invalid_event",
                                loc=("history",))
    if len(history) > MAX_EVENTS:
        raise InvalidStateError(f"history has {len(history)} events; at most {MAX_EVENTS}",
                                code="invalid_event", loc=("history",))
    ticker = Ticker(deadline, EVENTS_PER_CHECK)
    events = []
    for i, item in enumerate(history):
        ticker.tick()
        events.append(parse_event(item, i, actions, players))
    return tuple(events)
