"""OpenSpiel ``gin_rummy`` action histories as recorded games, and back.

Research code and its bots (OpenSpiel's ``pyspiel``) record a game as the
list of integer actions ``state.history()`` gives, chance actions
included.  For OpenSpiel's default gin parameters (knock card 10, gin bonus
25, undercut bonus 25, 52 cards, 10-card hands) an action is:

* ``0``-``51`` a card: a chance outcome (a card dealt or drawn) or a
  player's discard, a knocker's discard, a layoff; OpenSpiel numbers a card
  ``suit * 13 + rank`` with the suits in the order spades, clubs, diamonds,
  hearts (this library's order is spades, hearts, diamonds, clubs);
* ``52`` take the upcard (the pile top), ``53`` draw from the stock (a
  chance action then says which card), ``54`` pass (the first upcard, the
  wall, and the end of a run of melds or layoffs), ``55`` knock;
* ``56`` and up a meld laid down, one of 185: for each rank the four
  three-card sets (each without one suit, in suit order) and the four-card
  set, then the runs of three, four and five cards, suit by suit, lowest
  first.

The first 21 chance actions deal ten cards to player 0, ten to player 1
and the upcard; player 0 acts first (the dealer is player 1).  A knock is
``55``, the card thrown, the melds one by one and ``54``; the defender then
lays off cards (not after gin) and ``54``, lays its melds and ``54``.  At the
wall (two cards left in the stock) ``55`` takes the upcard and knocks, and
``54`` ends the hand unscored; a hand also ends unscored at the 50th pickup
of the upcard and when two turns in a row throw back the card they took.
OpenSpiel scores a tie of deadwood as no points (no undercut), so a record
it makes plays gin with ``undercut_on_tie`` off.

``from_openspiel(history)`` is the ``Record`` of such a history (checked;
an action history that is not a gin game is an ``InvalidStateError``
``invalid_openspiel_history`` at ``("history", i)``, the action at fault:
also a card dealt twice, a draw of a card already placed, a knock (55) no
discard allows, a knock's discard that leaves no meld within the limit, a
knock over the limit (at the 54 ending the knocker's melds, as OpenSpiel); a
history may stop between actions, not inside a draw or a knock);
``to_openspiel(record)`` gives the history back.

>>> deal = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 51]
>>> record = from_openspiel(deal + [54, 54, 53, 50, 50])
>>> [step.action for step in record.steps], record.steps[2].drawn
(['pass', 'pass', 'draw_stock', 'discard'], 24)
>>> to_openspiel(record) == deal + [54, 54, 53, 50, 50]
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from solver.cards import card_name, names, rank_of, suit_of
from solver.errors import InvalidStateError, is_list, plain_int, shown
from solver.gin import gin_deal, knock_check
from solver.play.advice import Layoff
from solver.play.events import Event
from solver.play.words import DISCARD, DRAW_STOCK, KNOCK, LAY_OFF, PASS, TAKE_DISCARD
from solver.review.record import (
    MATCH_TARGET,
    Dealt,
    Record,
    Step,
    read_players,
    read_score,
    refuse,
)
from solver.review.table import Decision, check_record, layoff_target, walk

CARDS = 52
DRAW_UPCARD = 52
DRAW_STOCK_ACTION = 53
PASS_ACTION = 54
KNOCK_ACTION = 55
MELD_BASE = 56
HAND = 10
WALL = 2
KNOCK_CARD = 10
"""OpenSpiel's knock limit (its ``knock_card`` parameter)."""
MAX_UPCARD_DRAWS = 50
"""OpenSpiel ends the hand unscored at the 50th pickup of the upcard."""
RULES = {"undercut_on_tie": False}
"""OpenSpiel's scoring in this library's knobs: a tie of deadwood is no undercut."""

_OURS = (0, 3, 2, 1)
"""This library's suit of each of OpenSpiel's (spades, clubs, diamonds, hearts)."""


def card_from_openspiel(card: int) -> int:
    """This library's card of OpenSpiel's card ``card``.

    >>> card_from_openspiel(13), card_from_openspiel(48)  # Ac, Th
    (39, 22)
    """
    return _OURS[card // 13] * 13 + card % 13


def card_to_openspiel(card: int) -> int:
    """OpenSpiel's card of this library's ``card``."""
    return _OURS.index(card // 13) * 13 + card % 13


def _meld_table() -> tuple[tuple[int, ...], ...]:
    """OpenSpiel's melds by id, as its cards (OpenSpiel's numbering)."""
    melds: list[tuple[int, ...]] = []
    for rank in range(13):
        for left_out in range(4):
            melds.append(tuple(suit * 13 + rank for suit in range(4) if suit != left_out))
        melds.append(tuple(suit * 13 + rank for suit in range(4)))
    for length in (3, 4, 5):
        for suit in range(4):
            for low in range(13 - length + 1):
                melds.append(tuple(suit * 13 + rank for rank in range(low, low + length)))
    return tuple(melds)


MELDS = _meld_table()
"""OpenSpiel's 185 melds by id (``action - 56``), in OpenSpiel's card numbers."""
_MELD_IDS = {frozenset(card_from_openspiel(c) for c in meld): number
             for number, meld in enumerate(MELDS)}


def meld_cards(action: int) -> tuple[int, ...]:
    """The cards (this library's) of meld action ``action``.

    >>> from solver.cards import names
    >>> names(meld_cards(56)), names(meld_cards(121))
    ('AH AD AC', 'AS 2S 3S')
    """
    return tuple(sorted(card_from_openspiel(c) for c in MELDS[action - MELD_BASE]))


def pieces(meld: Sequence[int]) -> list[tuple[int, ...]]:
    """``meld`` as OpenSpiel lays it: a run of more than five cards in runs of
    three to five (the lowest first), anything else whole.

    >>> from solver.cards import names, parse_cards
    >>> [names(p) for p in pieces(parse_cards("AS 2S 3S 4S 5S 6S 7S"))]
    ['AS 2S 3S', '4S 5S 6S 7S']
    """
    cards = sorted(meld, key=lambda c: (c // 13, c % 13))
    out = []
    while len(cards) > 5:
        size = 3 if len(cards) - 3 <= 5 or len(cards) == 8 else 5
        out.append(tuple(cards[:size]))
        cards = cards[size:]
    return [*out, tuple(cards)]


def _fail(index: int, message: str) -> NoReturn:
    raise InvalidStateError(f"history[{index}]: {message}", code="invalid_openspiel_history",
                            loc=("history", index))


class _Reader:
    """Walks an OpenSpiel history once, writing the events."""

    def __init__(self, history: Sequence[int]) -> None:
        self.history = list(history)
        self.at = 0
        self.steps: list[Step] = []
        self.actions: list[int] = []
        """The history index of the action each step stands for (where a
        fault the record's check finds in it is said to be)."""
        self.ended_unscored = False

    def next(self, what: str) -> int:
        if self.at >= len(self.history):
            raise _Stop
        given = self.history[self.at]
        action = plain_int(given)
        if action is None or not 0 <= action < MELD_BASE + len(MELDS):
            _fail(self.at, f"{shown(given)} is not a gin_rummy action (0 to "
                           f"{MELD_BASE + len(MELDS) - 1}); expected {what}")
        self.at += 1
        return action

    def card(self, what: str) -> int:
        action = self.next(what)
        if action >= CARDS:
            _fail(self.at - 1, f"expected {what} (a card, 0 to 51); got action {action}")
        return card_from_openspiel(action)


class _Stop(Exception):
    """The history ends here."""


MAX_ACTIONS = 1_000
"""Actions of one history at most: a hand ends by the 50th pickup of the
upcard or when the stock reaches the wall, a few hundred actions at most."""
LAST_ACTION = 240
"""OpenSpiel ``gin_rummy``'s highest action: the last of the 185 melds from 56."""


def from_openspiel(history: Sequence[int], players: Sequence[str] = ("player 0", "player 1"),
                   score: Sequence[int] | None = None, target: int = MATCH_TARGET) -> Record:
    """The ``Record`` of an OpenSpiel ``gin_rummy`` action history (see the
    module docstring): checked, with ``players`` as the seats' ids and
    ``score`` the match score before the hand (gin to ``target``)."""
    if not is_list(history):
        raise InvalidStateError("history must be a list of OpenSpiel actions",
                                code="invalid_openspiel_history", loc=("history",))
    names = read_players(players)
    if len(names) != 2:
        refuse(f"players must be an id per seat of gin's two; got {len(names)}", ("players",))
    match, goal = read_score(score, target, 2)
    reader = _Reader(history)
    hands: list[list[int]] = [[], []]
    dealt: dict[int, int] = {}  # each card dealt, at its index: a card is dealt once
    try:
        for seat in (0, 1):
            for _ in range(HAND):
                hands[seat].append(_deal(reader, "a card dealt", dealt))
        upcard = _deal(reader, "the upcard", dealt)
    except _Stop:
        raise InvalidStateError(f"an OpenSpiel gin history starts with {2 * HAND + 1} chance "
                                f"actions (the deal); it has {len(reader.history)}",
                                code="invalid_openspiel_history", loc=("history",)) from None
    _Play(reader, [list(h) for h in hands], upcard).run()
    record = Record("gin", names, 1, Dealt(tuple(map(tuple, hands)), upcard),
                    tuple(reader.steps), match, goal,
                    dict(RULES), False, (0.0, 0.0) if reader.ended_unscored else None)
    try:
        check_record(record)
    except InvalidStateError as error:
        at = _history_index(error.loc, reader.actions)
        if at is None:  # the caller's own fields (players, score)
            raise
        where = f"events[{error.loc[1]}]: " if error.loc[0] == "events" \
            else f" at {'.'.join(map(str, error.loc))}"
        _fail(at, error.message.replace(where, "", 1))
    return record


def _deal(reader: _Reader, what: str, dealt: dict[int, int]) -> int:
    """The next card dealt, refused where it is dealt again (the deal is
    read whole before the play: a card dealt twice to one hand was read
    on, and refused at a later action it made impossible)."""
    card = reader.card(what)
    if card in dealt:
        _fail(reader.at - 1, f"{card_name(card)} is dealt twice (history[{dealt[card]}] dealt "
                             "it): the gin deck holds one of each card")
    dealt[card] = reader.at - 1
    return card


def _history_index(loc: tuple[str | int, ...], actions: Sequence[int]) -> int | None:
    """The history index of the action a record check's ``loc`` names: a
    dealt card (the first 21 actions deal them in order), or an event (the
    action it was read from); None for a field that is not the history's."""
    if loc[:2] == ("deal", "upcard"):
        return 2 * HAND
    if loc[:2] == ("deal", "hands") and len(loc) >= 4 and isinstance(loc[2], int) \
            and isinstance(loc[3], int):
        return loc[2] * HAND + loc[3]
    if loc[:1] == ("events",) and len(loc) >= 2 and isinstance(loc[1], int) \
            and loc[1] < len(actions):
        return actions[loc[1]]
    return None


class _Play:
    """OpenSpiel's phases, action by action (see the module docstring)."""

    def __init__(self, reader: _Reader, hands: list[list[int]], upcard: int) -> None:
        self.reader = reader
        self.hands = hands
        self.top: int | None = upcard
        self.stock = CARDS - 2 * HAND - 1
        self.taken: int | None = None  # the card taken this turn (OpenSpiel's previous upcard)
        self.repeated = False
        self.upcard_draws = 0
        self.points = gin_deal(RULES).points
        self.placed = {*hands[0], *hands[1], upcard}
        """The cards out of the stock: dealt, the upcard, drawn (a card thrown
        stays placed, under the pile top or not)."""

    def emit(self, event: Event, drawn: int | None = None,
             layoffs: tuple[Layoff, ...] = (), at: int | None = None) -> None:
        """A step, read from the action at ``at`` (default: the last one read)."""
        self.reader.steps.append(Step(event, drawn, layoffs))
        self.reader.actions.append(self.reader.at - 1 if at is None else at)

    def run(self) -> None:
        """Every action of the history (up to its end, or the hand's: an
        action after the hand's end cannot have happened)."""
        reader = self.reader
        try:
            player = self._first_upcard()
            while True:
                player = self._turn(player)
        except _Stop:
            if reader.at < len(reader.history):
                _fail(reader.at, f"the hand is over; action {shown(reader.history[reader.at])} "
                                 "follows it")

    def _first_upcard(self) -> int:
        """The first upcard's decisions and the first turn; the next player."""
        reader = self.reader
        for player in (0, 1):
            action = reader.next("take the upcard (52) or pass (54)")
            if action == DRAW_UPCARD:
                self._take(player)
                self._throw_or_knock(player)
                return 1 - player
            if action != PASS_ACTION:
                _fail(reader.at - 1, f"the first upcard is taken (52) or passed (54); got {action}")
            self.emit(Event(player, PASS))
        action = reader.next("draw from the stock (53)")
        if action != DRAW_STOCK_ACTION:
            _fail(reader.at - 1, f"both passed the upcard: player 0 draws from the stock (53); "
                                 f"got {action}")
        self._draw(0)
        self._throw_or_knock(0)
        return 1

    def _take(self, player: int) -> None:
        assert self.top is not None
        self.emit(Event(player, TAKE_DISCARD, card=self.top))
        self.hands[player].append(self.top)
        self.taken, self.top = self.top, None

    def _draw(self, player: int) -> None:
        if self.stock <= 0:
            _fail(self.reader.at - 1, "the stock is empty")
        try:
            card = self.reader.card("the card drawn (a chance action)")
        except _Stop:  # a draw is whole or absent, as a knock: else the record loses it
            _fail(self.reader.at - 1, "the history ends inside a draw: 53 is followed by "
                                      "the card drawn (a chance action)")
        if card in self.placed:
            _fail(self.reader.at - 1, f"draws {card_name(card)}, which is not in the stock "
                                      "(dealt, drawn or in the discard pile already)")
        self.placed.add(card)
        self.stock -= 1
        self.emit(Event(player, DRAW_STOCK), drawn=card)
        self.hands[player].append(card)
        self.taken = None

    def _turn(self, player: int) -> int:
        """One turn of ``player`` (the wall's choice, a draw, a throw); the next player."""
        reader = self.reader
        if self.stock == WALL:
            action = reader.next("at the wall: knock (55) or pass (54)")
            if action == PASS_ACTION:
                self.emit(Event(player, PASS))
                raise _Stop
            if action != KNOCK_ACTION:
                _fail(reader.at - 1, f"at the wall only knock (55) or pass (54); got {action}")
            self._take(player)
            self._knock(player)
        action = reader.next("take the upcard (52) or draw (53)")
        if action == DRAW_UPCARD:
            self.upcard_draws += 1
            if self.upcard_draws == MAX_UPCARD_DRAWS:
                reader.ended_unscored = True
                raise _Stop
            self._take(player)
        elif action == DRAW_STOCK_ACTION:
            self._draw(player)
        else:
            _fail(reader.at - 1, f"a turn starts with take the upcard (52) or draw (53); got "
                                 f"{action}")
        self._throw_or_knock(player)
        return 1 - player

    def _throw_or_knock(self, player: int) -> None:
        reader = self.reader
        action = reader.next("a discard (a card) or knock (55)")
        if action == KNOCK_ACTION:
            self._knock(player)
            return
        card = card_from_openspiel(action) if action < CARDS else None
        if card is None or card not in self.hands[player]:
            _fail(reader.at - 1, f"expected a card of player {player}'s hand or knock (55); got "
                                 f"{action}")
        self.hands[player].remove(card)
        self.emit(Event(player, DISCARD, card=card))
        if card == self.taken:
            if self.repeated:
                self.reader.ended_unscored = True
                raise _Stop
            self.repeated = True
        else:
            self.repeated = False
        self.top, self.taken = card, None

    def _knock(self, player: int) -> None:
        reader = self.reader
        # as OpenSpiel: a knock (55) is legal only when some discard leaves
        # deadwood within the limit (a search cut short refuses nothing)
        report = knock_check([card_name(c) for c in self.hands[player]], rules=RULES)
        if report.optimal and not report.can_knock:
            _fail(reader.at - 1, f"player {player} knocks but cannot: its least deadwood after "
                                 f"any discard is {report.min_deadwood}, over the knock limit "
                                 f"({KNOCK_CARD})")
        try:
            card = reader.card("the knocker's discard")
            thrown_at = reader.at - 1
            hand = self.hands[player]
            if card not in hand:
                _fail(reader.at - 1, "the knocker throws a card it does not hold")
            hand.remove(card)
            # as OpenSpiel: the discard leaves a hand that melds within the
            # limit, and the melds laid do, at the 54 that ends them
            kept = knock_check([card_name(c) for c in hand], rules=RULES)
            if kept.optimal and not kept.can_knock:
                _fail(thrown_at, f"player {player} knocks throwing {card_name(card)}, which "
                                 f"leaves {kept.min_deadwood} deadwood at best, over the "
                                 f"knock limit ({KNOCK_CARD})")
            melds = self._melds(player, "the knocker's melds (56 and up) or 54")
            left = sum(self.points[c] for c in hand)
            if left > KNOCK_CARD:
                _fail(reader.at - 1, f"player {player} ends its knock's melds (54) with "
                                     f"{left} deadwood, over the knock limit ({KNOCK_CARD}): "
                                     "OpenSpiel takes 54 only within it")
            deadwood = tuple(sorted(hand))
            self.emit(Event(player, KNOCK, card=card, melds=melds, deadwood=deadwood),
                      at=thrown_at)
            self._reply(1 - player, melds, not deadwood)
        except _Stop:  # the history ran out inside the knock: its melds or the reply cut off
            _fail(len(reader.history) - 1,
                  f"the history ends inside player {player}'s knock: a knock is whole (the "
                  "discard, the melds and 54, the reply's layoffs, melds and 54) or absent")
        raise _Stop

    def _melds(self, player: int, what: str) -> tuple[tuple[int, ...], ...]:
        reader = self.reader
        melds: list[tuple[int, ...]] = []
        while (action := reader.next(what)) != PASS_ACTION:
            if action < MELD_BASE:
                _fail(reader.at - 1, f"expected {what}; got {action}")
            cards = meld_cards(action)
            hand = self.hands[player]
            if any(c not in hand for c in cards):
                _fail(reader.at - 1, "a meld of cards the player does not hold")
            for c in cards:
                hand.remove(c)
            melds.append(cards)
        return tuple(melds)

    def _reply(self, player: int, knocked: tuple[tuple[int, ...], ...], gin: bool) -> None:
        reader = self.reader
        hand = self.hands[player]
        table = [list(m) for m in knocked]
        layoffs: list[Layoff] = []
        if not gin:
            while (action := reader.next("a layoff (a card) or 54")) != PASS_ACTION:
                card = card_from_openspiel(action) if action < CARDS else None
                allowed = card is not None and card in hand and card in openspiel_layoffs(
                    knocked, [c for lay in layoffs for c in lay.cards])
                target = layoff_target(table, card) if allowed and card is not None else None
                if card is None or target is None:
                    _fail(reader.at - 1, f"expected a card of the defender's that extends a "
                                         f"knocker's meld (a run by two cards an end at most), "
                                         f"or 54; got {action}")
                hand.remove(card)
                table[target].append(card)
                layoffs.append(Layoff(target, (card,)))
        melds = self._melds(player, "the defender's melds (56 and up) or 54")
        self.emit(Event(player, LAY_OFF, melds=melds, deadwood=tuple(sorted(hand))),
                  layoffs=tuple(layoffs))


def _knock_deadwood(decisions: Sequence[Decision]) -> dict[int, list[int]]:
    """The knocker's unmelded cards at each knock, by event (a knock need not
    list its deadwood: it is the cards neither shown in a meld nor thrown)."""
    out = {}
    for decision in decisions:
        move = decision.move
        if move.action == KNOCK:
            shown = {c for meld in move.melds for c in meld} | {move.card}
            out[decision.first] = [c for c in decision.hand if c not in shown]
    return out


def _check_knocks(deadwoods: Mapping[int, Sequence[int]]) -> None:
    """Every knock is one OpenSpiel allows: deadwood at most its knock card
    (10) by its card points (a record played with another knock limit,
    Oklahoma or other card points may knock where OpenSpiel cannot)."""
    points = gin_deal(RULES).points
    for index, cards in deadwoods.items():
        deadwood = sum(points[c] for c in cards)
        if deadwood > KNOCK_CARD:
            raise InvalidStateError(
                f"events[{index}]: the knock's deadwood is {deadwood} by OpenSpiel's card "
                f"points, over its knock limit ({KNOCK_CARD}): not an OpenSpiel gin_rummy game",
                code="cannot_knock", loc=("events", index))


def openspiel_layoffs(melds: Sequence[Sequence[int]], laid: Sequence[int]) -> set[int]:
    """The cards OpenSpiel lets the defender lay off next onto the knocker's
    ``melds`` (as laid: runs of at most five) after ``laid``: a three-card
    set's fourth card, a run's next card at either end and, once that is
    laid, the one beyond it -- OpenSpiel extends a run by two cards an end
    at most, where this library's gin chains on.

    >>> from solver.cards import names, parse_cards
    >>> run = parse_cards("3H 4H 5H")
    >>> names(sorted(openspiel_layoffs([run], parse_cards("6H")))), names(sorted(
    ...     openspiel_layoffs([run], parse_cards("6H 7H"))))  # 8H never
    ('2H 7H', '2H 7H')
    """
    out: set[int] = set()
    for meld in melds:
        ranks = sorted(rank_of(c) for c in meld)
        if len(set(ranks)) == 1:
            if len(meld) == 3:
                out.update(c for c in range(CARDS) if rank_of(c) == ranks[0] and c not in meld)
            continue
        suit = suit_of(meld[0]) * 13
        ends = [suit + r for r in (ranks[0] - 1, ranks[-1] + 1) if 0 <= r < 13]
        reach = ranks + [rank_of(c) for c in laid if c in ends]
        out.update(suit + r for r in (min(reach) - 1, max(reach) + 1) if 0 <= r < 13)
    return out


def _layoff_order(index: int, melds: Sequence[Sequence[int]], cards: Sequence[int]) -> list[int]:
    """``cards`` in an order OpenSpiel lays them off onto the knocker's
    ``melds`` (``openspiel_layoffs``: one at a time, each extending a meld
    as it stands): their own order where OpenSpiel can lay them so (a
    history read back gives its layoffs in the order played), else each
    time the first of them it can lay; ``invalid_meld`` at event ``index``
    when OpenSpiel cannot lay them all."""
    left = list(cards)
    out: list[int] = []
    while left:
        card = next((c for c in left if c in openspiel_layoffs(melds, out)), None)
        if card is None:
            raise InvalidStateError(
                f"events[{index}]: OpenSpiel cannot lay off {names(left)}: it extends a run by "
                "two cards an end at most; not an OpenSpiel gin_rummy game", code="invalid_meld",
                loc=("events", index))
        left.remove(card)
        out.append(card)
    return out


def to_openspiel(record: Record | Mapping[str, Any]) -> list[int]:
    """The OpenSpiel ``gin_rummy`` action history of a gin ``record`` (a
    ``Record`` or its wire form) played
    by OpenSpiel's rules (the inverse of ``from_openspiel``); the record is
    checked first (``InvalidStateError`` where it cannot have happened), and
    a draw whose card only the stock's order says (``deal.stock``, no
    ``drawn``) writes that card.  OpenSpiel's player 0 is the seat that
    plays first: the record's seat 0, or seat 1 when seat 0 dealt.  A knock
    OpenSpiel could not make (deadwood over 10 by its card points: a record
    played with other knobs) is ``cannot_knock``, and an event after OpenSpiel's
    guards ended the hand (the 50th pickup of the upcard, a card thrown back
    twice in a row) ``hand_over``."""
    record = Record.of(record)
    if record.game != "gin":
        raise InvalidStateError("only gin records are OpenSpiel gin_rummy games",
                                code="unknown_variant", loc=("game",))
    # the walk knows each draw's card, from ``drawn`` or from the stock's order
    decisions = walk(record).decisions
    drawn = {d.first: d.drawn for d in decisions if d.drawn is not None}
    deadwoods = _knock_deadwood(decisions)
    _check_knocks(deadwoods)
    # a reply's layoffs as the walk found them (a record need not say where they went)
    laid = {d.first: [c for lay in d.move.layoffs for c in lay.cards] for d in decisions
            if d.move.action == LAY_OFF}
    knocked: tuple[tuple[int, ...], ...] = ()
    taken: int | None = None  # the card taken this turn (OpenSpiel's previous upcard)
    repeated = False
    ended: tuple[int, str] | None = None  # where OpenSpiel's guards ended the hand, and why
    first = (record.dealer + 1) % 2  # OpenSpiel deals its player 0, who plays first, first
    out = [card_to_openspiel(c) for seat in (first, 1 - first) for c in record.dealt.hands[seat]]
    out.append(card_to_openspiel(record.dealt.upcard))
    stock = CARDS - 2 * HAND - 1
    played = False
    upcard_draws = 0
    knocked_gin = False
    steps = record.steps
    for index, step in enumerate(steps):
        event = step.event
        action = event.action
        if ended is not None:
            raise InvalidStateError(
                f"events[{index}]: OpenSpiel's gin_rummy ended the hand unscored at "
                f"events[{ended[0]}] ({ended[1]}); a record that goes on is not an OpenSpiel "
                "game", code="hand_over", loc=("events", index))
        if action == PASS:
            out.append(PASS_ACTION)
        elif action == TAKE_DISCARD:
            if played and stock == WALL:
                out.append(KNOCK_ACTION)  # the wall's knock takes the upcard itself
                continue
            out.append(DRAW_UPCARD)
            upcard_draws += played
            taken = event.card
            if upcard_draws == MAX_UPCARD_DRAWS:
                ended = index, f"the {MAX_UPCARD_DRAWS}th pickup of the upcard"
        elif action == DRAW_STOCK:
            out += [DRAW_STOCK_ACTION, card_to_openspiel(drawn[index])]
            stock -= 1
            taken = None
        elif action == DISCARD:
            assert event.card is not None
            out.append(card_to_openspiel(event.card))
            played = True
            if event.card == taken and repeated:
                ended = index, "a card thrown back twice in a row"
            repeated, taken = event.card == taken, None
        elif action == KNOCK:
            assert event.card is not None
            wall = index > 0 and steps[index - 1].action == TAKE_DISCARD and played \
                and stock == WALL
            if not wall:
                out.append(KNOCK_ACTION)
            out.append(card_to_openspiel(event.card))
            out += [MELD_BASE + _MELD_IDS[frozenset(p)] for m in event.melds for p in pieces(m)]
            out.append(PASS_ACTION)
            knocked_gin = not deadwoods[index]  # after gin OpenSpiel has no layoffs
            knocked = event.melds
        elif action == LAY_OFF:
            if not knocked_gin:
                out += [card_to_openspiel(c) for c in _layoff_order(
                    index, [p for meld in knocked for p in pieces(meld)], laid[index])]
                out.append(PASS_ACTION)
            out += [MELD_BASE + _MELD_IDS[frozenset(p)] for m in event.melds for p in pieces(m)]
            out.append(PASS_ACTION)
    if record.result == (0.0, 0.0) and upcard_draws == MAX_UPCARD_DRAWS - 1 and steps \
            and steps[-1].action == DISCARD:
        out.append(DRAW_UPCARD)  # the 50th pickup ended the hand before it was made
    return out


__all__ = ["MELDS", "RULES", "card_from_openspiel", "card_to_openspiel", "from_openspiel",
           "meld_cards", "openspiel_layoffs", "pieces", "to_openspiel"]
