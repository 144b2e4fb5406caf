"""The Rummy 500, Rommy and basic rummy referee: one round from a shuffled deck, every
action checked.

It shares no code with ``solver`` but the game's words (``solver.play.words``:
its phases, actions and event fields): its melds and points are
``benchmarks.arena.laydown.melds``, its card names
``benchmarks.arena.core.joker_cards``, and what tells the games apart is a
``Variant`` of ``benchmarks.arena.laydown.variants`` (Rummy 500's unless
told).  The rules, as docs/RULES.md's preset ``rummy500`` has them:

* the deal: one deck and two jokers (54 cards) for 2 to 4 players, two such
  decks shuffled together (108 cards: every card twice, four jokers) for 5
  to 8 (``Variant.cards_for``); seat ``p`` gets ``deck[h*p : h*(p+1)]``
  (``h`` = 13 cards with two players, 7 with three or more); the next card,
  face up, starts the discard pile (the upcard); the rest is the stock,
  drawn in order.  The dealer is the last seat unless told otherwise; the
  seat after it plays first;
* a turn is two actions.  The draw: ``draw_stock``; ``take_discard`` of a
  pile card, taking it and every card above it (the top card alone may be
  kept but not thrown back this turn -- where the game has two of that card
  (the jokers; with two decks, every card) another copy the player held may
  be thrown, the one taken staying; a deeper card must be melded or laid off in this turn's
  play; a card named that the pile holds twice is its topmost copy,
  ``take_depth``); or ``pass`` when the stock is empty, which ends the round.
  Cards are counted as a multiset everywhere (hands, pile, stock, table):
  with two decks a set still holds each suit once (no 7H 7H 7S) and a run
  each rank once.
  The play: new melds (meld order), then layoffs (a table meld's index and
  the whole meld afterwards, meld order; melds laid this turn count), then a
  card thrown onto the pile, or none when the hand is empty;
* the round ends at once when a hand is empty, when the stock is empty and
  the player to draw passes, or after ``max_turns`` turns (300: an arena
  stop, scored as it stands).  Each seat scores the points of the cards it
  laid down or laid off minus the points of the cards left in its hand.

Rommy (preset ``rommy``; ``variant=ROMMY``) differs
only where its ``Variant`` does: 2 to 6 players, 7 cards each; its own card
points (joker 25, ace 15 even melded low, T-K 10, 2-9 5); a deeper card taken
and not used this turn is no illegal play but costs ``pile_penalty`` (50)
points, once per take; and every turn ends with a throw: a play that leaves
no card, or only the top taken alone this turn, is illegal, and the round
ends when the throw empties the hand.

Basic rummy (preset ``basic``; ``variant=BASIC``)
differs where its ``Variant`` does: 52 cards and no joker, 2 to 6 players
(10 cards each for two, 7 for three or four, 6 for five or six); the ace low
only (Q-K-A is no run); ace 1, 2-9 their number, T-K 10; ``take_discard``
of the pile's top card only; a ``draw_stock`` from an empty stock first
turns the whole pile over, unshuffled, into the new stock (the upcard, the
pile's bottom card, is drawn first; the pile is then empty until the next
throw) -- no history event says so, every player can tell -- and there is
no ``pass`` (a draw with the stock and the pile both empty, which the rules
never bring about, ends the round ``void``); the round is scored by
``collect``: the player who went out scores the points of every card left
in the other hands, each of them minus its own, all doubled for a "rummy"
(the winner laid no card, meld or layoff, before its last turn:
``RoundResult.rummy``); a round stopped at ``max_turns`` scores 0 for all.

An action that is not legal raises ``IllegalActionError`` and changes
nothing; nothing is ever corrected.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from benchmarks.arena.core.joker_cards import card_name
from benchmarks.arena.laydown.melds import (
    InvalidMeldError,
    Meld,
    hand_points,
    read_extension,
    read_meld,
)
from benchmarks.arena.laydown.variants import CARDS, RUMMY500, Variant
from solver.play import words

DECK: tuple[int, ...] = RUMMY500.deck
"""Rummy 500's deck at 2 to 4 players (and Rommy's): 52 cards and two jokers
(``Variant.deck``; a table's: ``Variant.cards_for``)."""
HAND_SIZES = dict(RUMMY500.hand_sizes)
"""Rummy 500's cards each by the number of players (``Variant.hand_sizes``)."""
MAX_TURNS = 300


class Phase(enum.StrEnum):
    """The decision asked for."""

    DRAW = words.DRAW
    """Start of a turn: draw from the stock, take from the pile, or pass (where the game has it)."""
    PLAY = words.PLAY
    """After the draw: melds, layoffs and the throw, in one action."""


class Kind(enum.StrEnum):
    """What an action does."""

    DRAW_STOCK = words.DRAW_STOCK
    TAKE_DISCARD = words.TAKE_DISCARD
    PASS = words.PASS
    PLAY = words.PLAY
    """The play phase's one action: the melds, the layoffs and the throw."""


@dataclass(frozen=True, slots=True)
class Layoff:
    """Cards laid off onto table meld ``target``: ``extended`` is that meld afterwards (meld order)."""

    target: int
    extended: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Action:
    """A player's answer.  ``take_discard``: ``card`` is the deepest pile card
    taken.  ``play``: ``melds`` laid down, ``layoffs`` made (in order), then
    ``card`` thrown (None: the hand is empty, the player goes out)."""

    kind: Kind
    card: int | None = None
    melds: tuple[tuple[int, ...], ...] = ()
    layoffs: tuple[Layoff, ...] = ()


DRAW_STOCK = Action(Kind.DRAW_STOCK)
PASS = Action(Kind.PASS)


def take_discard(card: int) -> Action:
    """Take the pile from its top down to ``card`` (its topmost copy: ``take_depth``)."""
    return Action(Kind.TAKE_DISCARD, card)


def take_depth(pile: Sequence[int], card: int) -> int:
    """How many cards a take down to ``card`` takes from ``pile`` (bottom to
    top): down to its topmost copy, the only one a take can name (a joker;
    with two decks, any card, may lie there twice).

    >>> take_depth([52, 7, 52, 9], 52), take_depth([7, 9, 7, 3], 7)
    (2, 2)
    """
    return len(pile) - max(index for index, held in enumerate(pile) if held == card)


def play(melds: Sequence[Sequence[int]] = (), layoffs: Sequence[Layoff] = (),
         discard: int | None = None) -> Action:
    """The rest of a turn: lay down ``melds``, make ``layoffs``, throw ``discard``."""
    return Action(Kind.PLAY, discard, tuple(tuple(m) for m in melds), tuple(layoffs))


@dataclass(frozen=True, slots=True)
class Event:
    """One public event, as the spec's history gives it (``to_json``)."""

    seat: int
    action: str
    """One of the game's history actions, ``solver.play.words.LAY_DOWN.actions``."""
    card: int | None = None
    melds: tuple[tuple[int, ...], ...] = ()
    target: int | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"player": p, "action": ..., "card": "8H"}`` and so on, with card names."""
        data: dict[str, Any] = {words.PLAYER: self.seat, words.ACTION: self.action}
        if self.card is not None:
            data[words.CARD] = card_name(self.card)
        if self.target is not None:
            data[words.TARGET] = self.target
        if self.action in (words.MELD, words.LAY_OFF):
            data[words.MELDS] = [[card_name(c) for c in meld] for meld in self.melds]
        return data


@dataclass(frozen=True, slots=True)
class TableMeld:
    """A meld on the table in meld order, ``owners[i]`` the seat that laid ``cards[i]``."""

    cards: tuple[int, ...]
    owners: tuple[int, ...]
    kind: str


@dataclass(frozen=True, slots=True)
class PlayerView:
    """Everything one player may know when it acts (and nothing more)."""

    seat: int
    players: int
    dealer: int
    phase: Phase
    hand: tuple[int, ...]
    upcard: int
    """The first card of the discard pile."""
    pile: tuple[int, ...]
    """The discard pile, bottom to top."""
    table: tuple[TableMeld, ...]
    """The table melds, in the order they were laid down."""
    stock_size: int
    events: tuple[Event, ...]
    taken_top: int | None
    """The pile top this player took alone this turn: it may not be thrown back."""
    must_use: int | None
    """The deepest card this player took this turn: this play must meld or lay it off."""
    turn: int
    """Turns played so far in the round (by every player)."""
    max_turns: int
    legal_draws: tuple[Action, ...]
    """In the draw phase, the draws accepted now (a deep take still needs its card used)."""
    variant: Variant = RUMMY500
    """The game's rules (public: every player knows what game it plays)."""

    @property
    def history(self) -> list[dict[str, Any]]:
        """The public history in the spec's JSON form (a new list each time)."""
        return [event.to_json() for event in self.events]


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """One seat's round: ``points`` = ``laid_points`` - ``hand_points`` - ``penalty_points``
    (net scoring); collect scoring: the others' ``hand_points`` for the seat that went
    out, minus its own for every other seat (doubled for a rummy), 0 for all when
    nobody went out."""

    points: int
    laid_points: int
    hand_points: int
    went_out: bool
    pile_takes: int
    cards_taken: int
    """Cards taken from the pile, over every take."""
    turns: int
    hand: tuple[int, ...]
    """The cards left in hand at the end."""
    pile_penalties: int = 0
    """Deeper cards taken and not used in that turn (Rommy; Rummy 500 refuses such a play)."""
    penalty_points: int = 0
    """What those penalties cost: ``pile_penalties`` times the game's ``pile_penalty``."""


@dataclass(frozen=True, slots=True)
class RoundResult:
    """How a round ended and what each seat scored."""

    outcome: str
    """``went_out``, ``passed`` (stock empty, the player to draw did not take),
    ``turn_limit`` or ``void`` (a draw with the stock and the pile both empty)."""
    went_out: int | None
    seats: tuple[SeatRecord, ...]
    turns: int
    rummy: bool = False
    """The seat that went out laid no card (meld or layoff) before its last turn."""

    @property
    def points(self) -> tuple[int, ...]:
        """Each seat's round points."""
        return tuple(s.points for s in self.seats)


class IllegalActionError(ValueError):
    """A player answered an action that is not legal where it stands."""


@dataclass(slots=True)
class _Seat:
    hand: list[int]
    laid_points: int = 0
    pile_takes: int = 0
    cards_taken: int = 0
    turns: int = 0
    pile_penalties: int = 0
    laid_cards: int = 0


@dataclass(slots=True)
class _OnTable:
    meld: Meld
    owners: list[int] = field(default_factory=list)


class Rummy500Round:
    """The state of one round of ``variant`` (Rummy 500 unless told; ``ROMMY``,
    ``BASIC``) and its referee (players get ``view``s only)."""

    def __init__(self, deck: Sequence[int], players: int, dealer: int | None = None,
                 max_turns: int = MAX_TURNS, variant: Variant = RUMMY500) -> None:
        size = variant.hand_size(players)
        if sorted(deck) != sorted(variant.cards_for(players)):
            raise ValueError(_deck_problem(variant, players))
        self.variant = variant
        self.deck = tuple(deck)
        self.players = players
        self.dealer = players - 1 if dealer is None else dealer
        if not 0 <= self.dealer < players:
            raise ValueError(f"no seat {self.dealer} to deal")
        self.max_turns = max_turns
        self.seats = [_Seat(list(self.deck[size * p:size * (p + 1)])) for p in range(players)]
        self.upcard = self.deck[size * players]
        self.pile = [self.upcard]
        self.next_stock = size * players + 1
        self.turned: list[int] = []
        """The stock turned over from the pile (where the game does so), in drawing
        order, once the dealt stock ``deck[next_stock:]`` is empty."""
        self.table: list[_OnTable] = []
        self.phase = Phase.DRAW
        self.to_act = (self.dealer + 1) % players
        self.taken_top: int | None = None
        self.must_use: int | None = None
        self.turn = 0
        self.events: list[Event] = []
        self.result: RoundResult | None = None

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return len(self.deck) - self.next_stock + len(self.turned)

    @property
    def stock(self) -> tuple[int, ...]:
        """Referee-side: the stock's cards in drawing order."""
        return (*self.deck[self.next_stock:], *self.turned)

    @property
    def over(self) -> bool:
        """Whether the round has ended."""
        return self.result is not None

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """Referee-side: the cards ``seat`` holds."""
        return tuple(sorted(self.seats[seat].hand))

    def table_melds(self) -> tuple[TableMeld, ...]:
        """The table, as every player sees it."""
        return tuple(TableMeld(t.meld.cards, tuple(t.owners), t.meld.kind) for t in self.table)

    def legal_draws(self) -> tuple[Action, ...]:
        """The draws the seat to act may make now (the draw phase only)."""
        if self.result is not None or self.phase != Phase.DRAW:
            return ()
        out = [PASS] if not self.stock_size and self.variant.passes else [DRAW_STOCK]
        takeable = self.pile if self.variant.deep_takes else self.pile[-1:]
        out += [take_discard(card) for card in dict.fromkeys(reversed(takeable))]  # topmost copies
        return tuple(out)

    def view(self, seat: int) -> PlayerView:
        """What ``seat`` may know now."""
        acting = seat == self.to_act and self.result is None
        return PlayerView(
            seat, self.players, self.dealer, self.phase, tuple(sorted(self.seats[seat].hand)),
            self.upcard, tuple(self.pile), self.table_melds(), self.stock_size,
            tuple(self.events), self.taken_top if acting else None,
            self.must_use if acting else None, self.turn, self.max_turns,
            self.legal_draws() if acting else (), self.variant)

    # -- applying ---------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act; ``IllegalActionError`` if it is not legal."""
        if self.result is not None:
            raise IllegalActionError("the round is over")
        if not isinstance(action, Action):
            raise IllegalActionError(f"not an action: {action!r}")
        if self.phase == Phase.DRAW:
            self._draw(action)
        elif action.kind != Kind.PLAY:
            raise IllegalActionError(f"seat {self.to_act} must play (melds, layoffs, a throw) "
                                     f"after drawing, not {action.kind}")
        else:
            self._play(action)

    def _draw(self, action: Action) -> None:
        seat_index, seat = self.to_act, self.seats[self.to_act]
        if action.kind == Kind.DRAW_STOCK:
            if not self.stock_size and not self.variant.turn_over_pile:
                raise IllegalActionError(f"seat {seat_index} draws from an empty stock")
            if not self.stock_size:
                if not self.pile:  # never in practice: every turn that goes on throws
                    self.events.append(Event(seat_index, words.DRAW_STOCK))
                    seat.turns += 1
                    self.turn += 1
                    self._end("void", None)
                    return
                self.turned, self.pile = self.pile, []  # unshuffled: the upcard comes first
            if self.next_stock < len(self.deck):
                seat.hand.append(self.deck[self.next_stock])
                self.next_stock += 1
            else:
                seat.hand.append(self.turned.pop(0))
            self.events.append(Event(seat_index, words.DRAW_STOCK))
        elif action.kind == Kind.TAKE_DISCARD:
            card = action.card
            if card is None or card not in self.pile:
                raise IllegalActionError(f"seat {seat_index} takes {_name(card)}, not in the "
                                         f"pile ({' '.join(map(card_name, self.pile)) or 'empty'})")
            if not self.variant.deep_takes and card != self.pile[-1]:
                raise IllegalActionError(f"seat {seat_index} takes {card_name(card)} from below "
                                         f"the pile top {card_name(self.pile[-1])} "
                                         f"({self.variant.label} takes the top card only)")
            depth = take_depth(self.pile, card)
            taken = self.pile[len(self.pile) - depth:]
            del self.pile[len(self.pile) - depth:]
            seat.hand.extend(taken)
            seat.pile_takes += 1
            seat.cards_taken += len(taken)
            if depth == 1:
                self.taken_top = card
            else:
                self.must_use = card
            self.events.append(Event(seat_index, words.TAKE_DISCARD, card))
        elif action.kind == Kind.PASS:
            if not self.variant.passes:
                raise IllegalActionError(f"seat {seat_index} passes: {self.variant.label} has "
                                         "no pass (an empty stock is refilled from the pile)")
            if self.stock_size:
                raise IllegalActionError(f"seat {seat_index} passes with {self.stock_size} "
                                         "card(s) in the stock (pass only when it is empty)")
            self.events.append(Event(seat_index, words.PASS))
            seat.turns += 1
            self.turn += 1
            self._end("passed", None)
            return
        else:
            raise IllegalActionError(f"seat {seat_index} must draw ({Kind.DRAW_STOCK}, "
                                     f"{Kind.TAKE_DISCARD} or {Kind.PASS}), not {action.kind}")
        seat.turns += 1
        self.turn += 1
        self.phase = Phase.PLAY

    def _play(self, action: Action) -> None:
        seat_index, seat = self.to_act, self.seats[self.to_act]
        hand = Counter(seat.hand)
        who = f"seat {seat_index}"

        def spend(cards: Sequence[int], what: str) -> None:
            need = Counter(cards)
            short = [c for c in need if need[c] > hand[c]]
            if short:
                raise IllegalActionError(f"{who} {what} with {', '.join(map(card_name, short))} "
                                         "not in hand")
            hand.subtract(need)

        table = [_OnTable(t.meld, list(t.owners)) for t in self.table]
        used: list[int] = []
        laid = 0
        for meld_cards in action.melds:
            try:
                meld = read_meld(meld_cards, points=self.variant.points,
                                 ace_high=self.variant.ace_high)
            except InvalidMeldError as error:
                raise IllegalActionError(f"{who} lays down {error}") from None
            spend(meld_cards, f"lays down {' '.join(map(card_name, meld_cards))}")
            table.append(_OnTable(meld, [seat_index] * len(meld.cards)))
            used += meld_cards
            laid += meld.total
        for layoff in action.layoffs:
            if not isinstance(layoff, Layoff) or not 0 <= layoff.target < len(table):
                raise IllegalActionError(f"{who} lays off onto table meld "
                                         f"{getattr(layoff, 'target', layoff)!r}: the table has "
                                         f"{len(table)} meld(s)")
            target = table[layoff.target]
            try:
                extension = read_extension(target.meld, layoff.extended, self.variant.points,
                                           ace_high=self.variant.ace_high)
            except InvalidMeldError as error:
                raise IllegalActionError(f"{who} lays off onto table meld {layoff.target}: "
                                         f"{error}") from None
            spend(extension.added, f"lays off onto table meld {layoff.target}")
            target.owners = _owners(target, extension.meld, extension.offset, seat_index)
            target.meld = extension.meld
            used += extension.added
            laid += extension.points
        penalised = self.must_use is not None and self.must_use not in used
        if penalised and self.variant.pile_penalty is None:
            raise IllegalActionError(f"{who} took the pile down to {_name(self.must_use)} "
                                     "and must meld or lay it off this turn")
        left = sorted(hand.elements())
        if self.variant.must_throw:
            self._check_throw(who, left, action.card)
        if action.card is None:
            if left:
                raise IllegalActionError(f"{who} throws nothing but still holds "
                                         f"{' '.join(map(card_name, left))} (throw a card)")
        else:
            if hand[action.card] < 1:
                raise IllegalActionError(f"{who} throws {_name(action.card)}, not in hand after "
                                         "its melds and layoffs")
            if action.card == self.taken_top and hand[action.card] < 2:
                raise IllegalActionError(f"{who} throws back {card_name(action.card)}, the pile "
                                         "top it took alone this turn")
            left.remove(action.card)
        # legal: commit
        rummy = not left and seat.laid_cards == 0  # nothing laid before this turn
        seat.hand = left
        seat.laid_points += laid
        seat.laid_cards += len(used)
        seat.pile_penalties += penalised
        self.table = table
        if action.melds:
            self.events.append(Event(seat_index, words.MELD, melds=action.melds))
        for layoff in action.layoffs:
            self.events.append(Event(seat_index, words.LAY_OFF, melds=(tuple(layoff.extended),),
                                     target=layoff.target))
        if action.card is not None:
            self.pile.append(action.card)
            self.events.append(Event(seat_index, words.DISCARD, action.card))
        self.taken_top = self.must_use = None
        if not left:
            self._end("went_out", seat_index, rummy)
        elif self.turn >= self.max_turns:
            self._end("turn_limit", None)
        else:
            self.to_act = (seat_index + 1) % self.players
            self.phase = Phase.DRAW

    def _check_throw(self, who: str, left: Sequence[int], card: int | None) -> None:
        """A game where every turn ends with a throw: the play must leave a
        card that may be thrown, and throw one (``left``: the hand after the
        melds and layoffs, before the throw)."""
        if not left:
            raise IllegalActionError(f"{who}'s melds and layoffs leave no card to throw "
                                     f"({self.variant.label}: every turn ends with a throw)")
        if len(left) < 2 and all(c == self.taken_top for c in left):
            raise IllegalActionError(f"{who}'s melds and layoffs leave only {_name(self.taken_top)}, "
                                     "the pile top it took alone this turn, which it may not "
                                     "throw back: no card to throw")
        if card is None:
            raise IllegalActionError(f"{who} throws nothing but holds "
                                     f"{' '.join(map(card_name, left))} "
                                     f"({self.variant.label}: every turn ends with a throw)")

    def _end(self, outcome: str, went_out: int | None, rummy: bool = False) -> None:
        in_hand = [hand_points(seat.hand, self.variant.points) for seat in self.seats]
        records = []
        for index, seat in enumerate(self.seats):
            penalty = seat.pile_penalties * (self.variant.pile_penalty or 0)
            records.append(SeatRecord(
                self._points(index, in_hand, went_out, rummy) - penalty, seat.laid_points,
                in_hand[index], index == went_out, seat.pile_takes, seat.cards_taken,
                seat.turns, tuple(sorted(seat.hand)), seat.pile_penalties, penalty))
        self.result = RoundResult(outcome, went_out, tuple(records), self.turn, rummy)

    def _points(self, seat: int, in_hand: Sequence[int], went_out: int | None,
                rummy: bool) -> int:
        """What ``seat`` scores, its pile penalties aside (see ``SeatRecord``)."""
        if self.variant.scoring == "net":
            return self.seats[seat].laid_points - in_hand[seat]
        if went_out is None:  # nobody went out: nobody collects
            return 0
        times = 2 if rummy and self.variant.rummy_doubles else 1
        if seat == went_out:
            return times * sum(in_hand)
        return -times * in_hand[seat]


def _owners(target: _OnTable, extended: Meld, offset: int, seat: int) -> list[int]:
    """Who laid each card of ``extended``: the old cards keep their owners."""
    if extended.kind == "run":
        added_after = len(extended.cards) - offset - len(target.owners)
        return [seat] * offset + target.owners + [seat] * added_after
    old = list(zip(target.meld.cards, target.owners, strict=True))
    owners = []
    for card in extended.cards:
        match = next((i for i, (c, _) in enumerate(old) if c == card), None)
        owners.append(seat if match is None else old.pop(match)[1])
    return owners


def _deck_problem(variant: Variant, players: int) -> str:
    """What a deck of ``variant`` at ``players`` must hold (a deck that does not)."""
    decks = variant.decks(players)
    jokers = f" and {variant.jokers * decks} joker(s)" if variant.jokers else " and no joker"
    times = "once" if decks == 1 else "twice"
    return (f"the deck of {variant.label} at {players} players must hold {CARDS} "
            f"cards{jokers}, each card {times} ({variant.deck_label(players)})")


def _name(card: int | None) -> str:
    if card is None:
        return "nothing"
    try:
        return card_name(card)
    except (ValueError, TypeError, IndexError):
        return repr(card)


class Player(Protocol):
    """A bot the Rummy 500 (or Rommy, or basic rummy) arena can seat."""

    name: str

    def start_deal(self, seat: int, seed: int) -> None:
        """A new round begins; ``seed`` is this player's for the round."""

    def act(self, view: PlayerView) -> Action:
        """The draw (``view.phase`` draw) or the rest of the turn (play)."""
