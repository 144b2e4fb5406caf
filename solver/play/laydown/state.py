"""The public state of a Rummy 500, Rommy or basic rummy round, as one player sees it, checked.

What a player at the table may know: its own hand, the first card of the
discard pile (``upcard``), the number of players, the dealer, and the public
history in order.  Everything else -- the pile, the melds on the table and
who laid which card, each player's hand size and the cards it is known to
hold (taken from the pile and not played since), the stock -- follows from
them.  ``LayDownState.parse`` checks that the state could have arisen and
raises ``InvalidStateError`` saying why and where otherwise.

Seats are ``0 .. players - 1`` in turn order; the player after the dealer
plays first.  One deck and two jokers serve Rummy 500 for 2 to 4 players (13
cards each for two, 7 for three or four), two such decks shuffled together
(108 cards, every card twice) for 5 to 8 (7 each), and Rommy for 2 to 6 (7
cards each); 52 cards serve basic rummy for 2 to 6 (10 cards each for two, 7 for
three or four, 6 for five or six).  What differs is the ``Variant``
(docs/RULES.md).  Actions:

* ``draw_stock`` -- the stock's top card (not shown; basic rummy: an empty
  stock is first refilled by turning the pile over, unshuffled, so every
  card drawn from it is known);
* ``take_discard`` -- the pile from the top down to ``card`` (every card
  above it comes too; with two copies of ``card`` in the pile, the upper);
  a card below the top must be used at once, this turn, in a new meld or a
  layoff (Rommy: else the player pays the pile penalty, 50); a card taken
  alone from the top may not be thrown back in the same turn (basic rummy:
  the top card only);
* ``meld`` -- new ``melds`` laid down, each in meld order (a run low to
  high with a joker where it stands, which fixes its meaning); table melds
  are numbered in the order they were laid, over all players;
* ``lay_off`` -- table meld ``target`` is now the one meld in ``melds``:
  its old cards in their places and the cards this player added (which
  score for this player);
* ``discard`` -- ``card`` onto the pile, ending the turn (Rommy: every turn,
  the last one too, so melds and layoffs must leave a card to throw);
* ``pass`` -- with the stock empty, the player does not take: the round ends
  (not in basic rummy).

The round also ends when a hand is empty (after laying down or after the
throw).

>>> state = LayDownState.parse(players=3, me=1, dealer=0,
...     hand="AH 2H 3H 9S 9D KC 5C", upcard="8C", history=[])
>>> state.phase, state.to_act, state.stock_count, state.hand_size
('draw', 1, 32, 7)
>>> state = LayDownState.parse(players=5, me=1, dealer=0, hand="AH 2H 3H 9S 9D KC 5C",
...     upcard="8C", history=[], variant=VARIANTS["rommy"])
>>> state.stock_count
18
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from solver.cards import NUM_CARD_TYPES, card_name
from solver.deadline import Deadline
from solver.errors import InvalidHandError, InvalidStateError, shown
from solver.layoffs import TableMeld, keeps_places, read_table_meld
from solver.play.events import Event
from solver.play.laydown.variant import VARIANTS, Variant
from solver.play.public import check_players, check_seats, names
from solver.play.replay import PublicState, Replay, Seat, replayed
from solver.play.words import (
    DISCARD,
    DRAW,
    DRAW_STOCK,
    LAY_DOWN,
    LAY_OFF,
    MELD,
    OVER,
    PASS,
    PLAY,
    TAKE_DISCARD,
)
from solver.play.words import LayDownPhase as Phase

ACTIONS = frozenset(LAY_DOWN.actions)


@dataclass(frozen=True, slots=True)
class LayDownState(PublicState):
    """A checked public state (see the module docstring)."""

    variant: Variant
    players: int
    table: tuple[TableMeld, ...]
    """The melds on the table, numbered in the order they were laid."""
    phase: Phase
    to_act: int
    seats: tuple[Seat, ...]
    unseen: tuple[int, ...]
    """Every card in the stock or an opponent's hand and not known to be held:
    the cards the advisor deals out."""
    taken_top: int | None
    """The card taken alone from the pile top this turn (not to be thrown back)."""
    must_use: int | None
    """The deepest card taken this turn from below the top, not used yet."""
    must_use_at: int | None = None
    """The index in ``history`` of the take of ``must_use``."""
    stock_order: tuple[int, ...] | None = None
    """Basic rummy, after the pile was turned over: the stock's cards in the
    order they will be drawn (every one known); None while the stock is the
    dealt one, unseen."""
    laid_this_turn: int = 0
    """Cards the player to act laid down or off this turn (a "rummy" needs
    nothing laid in an earlier turn)."""

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player."""
        return self.variant.hand_size(self.players)

    @property
    def opponents(self) -> tuple[Seat, ...]:
        """The other players, in turn order after this one."""
        n = self.players
        return tuple(self.seats[(self.me + k) % n] for k in range(1, n))

    @classmethod
    def parse(cls, *, players: int, me: int, dealer: int, hand: object, upcard: object,
              history: Sequence[object] | None, discard_pile: object = None,
              stock_count: int | None = None,
              variant: Variant = VARIANTS["rummy500"],
              deadline: Deadline | None = None) -> LayDownState:
        """Check and replay a public state given as plain data (card tokens);
        ``InvalidStateError`` (or ``InvalidHandError`` for a bad token) when it
        cannot arise; ``DeadlineExceeded`` when ``deadline`` passes first."""
        players = check_players(players, variant.min_players, variant.max_players, variant.game,
                                f" ({variant.deck_note})")
        variant = variant.seated(players)
        seated = variant
        me, dealer = check_seats(players, me=me, dealer=dealer)
        replay = replayed(
            lambda cards, first, events: _Replay(seated, players, me, dealer, cards, first,
                                                 events),
            players=players, hand=hand, upcard=upcard, history=history,
            discard_pile=discard_pile, stock_count=stock_count, actions=ACTIONS,
            copies=variant.copies, game=variant.game, deadline=deadline)
        playing = replay.phase == PLAY
        return cls(me=me, dealer=dealer, hand=replay.hand, upcard=replay.upcard,
                   history=replay.events, discard_pile=tuple(replay.pile),
                   stock_count=replay.stock, variant=variant, players=players,
                   table=tuple(replay.table), phase=replay.phase, to_act=replay.to_act,
                   seats=tuple(replay.seat(s) for s in range(players)), unseen=replay.unseen(),
                   taken_top=replay.taken_top if playing else None,
                   must_use=replay.must_use if playing else None,
                   must_use_at=replay.must_use_at if playing else None,
                   stock_order=None if replay.stock_order is None else tuple(replay.stock_order),
                   laid_this_turn=replay.laid_this_turn if playing else 0)


def take_depth(pile: Sequence[int], card: int) -> int:
    """How many cards a take down to ``card`` takes: to its topmost copy (with
    one deck the jokers are the only cards the pile can hold twice; with two,
    any card).

    >>> take_depth([52, 7, 52, 9], 52)
    2
    """
    return len(pile) - max(i for i, c in enumerate(pile) if c == card)


def added_cards(old: TableMeld, new: Sequence[int]) -> list[int] | None:
    """The cards ``new`` adds to table meld ``old`` with the old cards in their
    places (a run: one unbroken stretch in the same order), else None."""
    before = list(old.meld.cards)
    if old.kind == "run":
        n = len(before)
        for start in range(len(new) - n + 1):
            if list(new[start:start + n]) == before:
                return [*new[:start], *new[start + n:]]
        return None
    rest = list(new)
    for card in before:
        if card not in rest:
            return None
        rest.remove(card)
    return rest


def moved_joker(old: TableMeld, new: TableMeld, cards: Sequence[int], target: int) -> str | None:
    """Why laying off onto table meld ``target`` (``old``) to make ``new`` (the
    ``cards`` given) cannot have happened when it moves a joker
    (``keeps_places``), else None: the history replay's and the game review's
    words for it."""
    if keeps_places(old, new):
        return None
    return (f"{names(cards)} moves a joker of table meld {target} ({names(old.meld.cards)}, "
            f"standing for {names(old.meld.represents)}): a joker's meaning is fixed once "
            "melded")


class _Replay(Replay):
    """Walks the history once: turn order, the pile, the table, who holds what."""

    def __init__(self, variant: Variant, players: int, me: int, dealer: int,
                 hand: tuple[int, ...], upcard: int, events: tuple[Event, ...]) -> None:
        size = variant.hand_size(players)
        super().__init__(players=players, me=me, hand=hand, pile=[upcard], hand_size=size,
                         first=(dealer + 1) % players)
        self.upcard = upcard
        self.events = events
        self.variant = variant
        self.deal = variant.deal
        self.copies = variant.copies
        self.table: list[TableMeld] = []
        self.took: list[list[int]] = [[] for _ in range(players)]
        self.laid = [0] * players
        self.penalties = [0] * players
        self.laid_cards = [0] * players
        self.laid_this_turn = 0
        self.stock = sum(self.copies) - players * size - 1
        self.stock_order: list[int] | None = None
        self.phase: Phase = DRAW
        self.taken_top: int | None = None
        self.must_use: int | None = None
        self.must_use_at: int | None = None

    # -- counting cards -------------------------------------------------------------
    def _placed(self, with_hand: bool = True) -> list[int]:
        """Copies of each card placed: the pile, the table, the cards the history
        shows an opponent holds and (``with_hand``: the final state) the hand."""
        placed = [0] * NUM_CARD_TYPES
        for card in (*(self.hand if with_hand else ()), *self.pile, *(self.stock_order or ())):
            placed[card] += 1
        for tm in self.table:
            for card in tm.meld.cards:
                placed[card] += 1
        for seat, cards in enumerate(self.known):
            if seat != self.me:
                for card in cards:
                    placed[card] += 1
        return placed

    def _check_copies(self, with_hand: bool = True) -> None:
        placed = self._placed(with_hand)
        for card, count in enumerate(placed):
            if count > self.copies[card]:
                raise InvalidStateError(
                    f"{count} copies of {card_name(card)} are placed (the hand, the pile, the "
                    f"table and the cards the history shows held); the deck holds "
                    f"{self.copies[card]}", code="too_many_copies", loc=("hand",))

    def unseen(self) -> tuple[int, ...]:
        """The cards not placed (see ``LayDownState.unseen``)."""
        return self.unplaced(self.copies, self._placed())

    def seat(self, s: int) -> Seat:
        """The public record of seat ``s``."""
        return Seat(s, self.sizes[s], tuple(self.known[s]), tuple(self.discarded[s]),
                    tuple(self.declined[s]), took=tuple(self.took[s]), turns=self.turns[s],
                    laid_points=self.laid[s],
                    penalties=self.penalties[s], laid_cards=self.laid_cards[s])

    def _check_end(self) -> None:
        self.check_not_over(self.phase == OVER, "round")
        self.check_my_turn()
        self.check_hand_size()
        self.check_known_held("play")
        self._check_copies()

    # -- events -----------------------------------------------------------------------
    def _apply(self, index: int, event: Event) -> None:
        if self.phase == OVER:
            self.fail(index, "the round was already over", "hand_over")
        self.check_turn(index, event.player)
        action = event.action
        if self.phase == DRAW:
            if action == DRAW_STOCK:
                self._draw(index, event.player)
            elif action == TAKE_DISCARD:
                self._take(index, event)
            elif action == PASS:
                if self.variant.turn_over_pile:
                    self.fail(index, f"{self.variant.game} has no pass: an empty stock is "
                                      "refilled from the discard pile")
                if self.stock > 0:
                    self.fail(index, "pass ends the round only when the stock is empty")
                self.phase = OVER
            else:
                self.fail(index, f"{action} is not a move at the start of a turn "
                                  "(draw_stock, take_discard or pass)")
            return
        if action == MELD:
            self._meld(index, event)
        elif action == LAY_OFF:
            self._lay_off(index, event)
        elif action == DISCARD:
            self._discard(index, event)
        else:
            self.fail(index, f"{action} is not a move after drawing: meld, lay_off or discard")

    def _draw(self, index: int, seat: int) -> None:
        if self.stock > 0:
            self.decline_top(seat)
        if self.stock <= 0 and self.variant.turn_over_pile and self.pile:
            # the pile turned over, unshuffled: its bottom card is drawn first
            self.stock_order, self.pile = list(self.pile), []
            self.stock = len(self.stock_order)
        if self.stock <= 0:
            self.fail(index, "the stock is empty", "stock_mismatch")
        self.stock -= 1
        if self.stock_order is not None:
            card = self.stock_order.pop(0)
            self.known[seat].append(card)  # everyone saw it on the pile
        self._started(seat, 1)

    def _take(self, index: int, event: Event) -> None:
        seat = event.player
        if event.card is None or event.card not in self.pile:
            shown = "no card" if event.card is None else card_name(event.card)
            self.fail(index, f"takes {shown}, which is not in the discard pile "
                              f"({names(self.pile)})", "pile_mismatch")
            return
        depth = take_depth(self.pile, event.card)
        if depth > 1 and not self.variant.deep_takes:
            self.fail(index, f"{self.variant.game} takes the pile's top card only "
                              f"({card_name(self.pile[-1])}), not {card_name(event.card)}",
                       "pile_mismatch")
        taken = self.pile[len(self.pile) - depth:]
        del self.pile[len(self.pile) - depth:]
        self.known[seat].extend(taken)
        self.took[seat].extend(reversed(taken))
        self.taken_top = event.card if depth == 1 else None
        self.must_use = event.card if depth > 1 else None
        self.must_use_at = index
        self._started(seat, depth)
        self._check_copies_at(index)

    def _started(self, seat: int, cards: int) -> None:
        self.sizes[seat] += cards
        self.turns[seat] += 1
        self.laid_this_turn = 0
        self.phase = PLAY

    def _leave_hand(self, index: int, seat: int, cards: Sequence[int],
                    keep_known: bool = False) -> None:
        """``cards`` leave ``seat``'s hand (laid or thrown; ``keep_known``: the
        throw is another copy of the top taken this turn, which it still
        holds: ``forget_thrown``)."""
        if len(cards) > self.sizes[seat]:
            self.fail(index, f"seat {seat} plays {len(cards)} cards but holds "
                              f"{self.sizes[seat]}", "wrong_hand_size")
        self.sizes[seat] -= len(cards)
        for card in cards:
            self.forget_thrown(seat, card, keep_known)
            if card == self.must_use:
                self.must_use = None

    def _laid_cards(self, seat: int, count: int) -> None:
        self.laid_cards[seat] += count
        self.laid_this_turn += count

    def _meld(self, index: int, event: Event) -> None:
        if not event.melds:
            self.fail(index, "meld needs the melds laid down", "invalid_event")
        for group in event.melds:
            try:
                tm = read_table_meld(group, len(self.table), self.deal)
            except InvalidHandError as error:
                self.fail(index, str(error), "invalid_meld")
                return
            self._leave_hand(index, event.player, group)
            self._laid_cards(event.player, len(group))
            self.table.append(tm)
            self.laid[event.player] += tm.meld.points
        self._check_copies_at(index)
        self._check_throw_left(index, event.player)
        self._maybe_out(event.player)

    def _lay_off(self, index: int, event: Event) -> None:
        target = event.target
        if not self.table:
            self.fail(index, "lay_off needs a table meld to lay off onto, and no meld has "
                             "been laid yet", "invalid_event")
        if target is None or not 0 <= target < len(self.table):
            self.fail(index, f"lay_off needs a target from 0 to {len(self.table) - 1} (the "
                              f"table melds in the order laid); got {shown(target)}", "invalid_event")
            return
        if len(event.melds) != 1:
            self.fail(index, "lay_off gives the target meld as it is afterwards: one meld "
                              "in melds", "invalid_event")
        old = self.table[target]
        new = event.melds[0]
        added = added_cards(old, new)
        if not added:
            self.fail(index, f"{names(new)} is not table meld {target} "
                              f"({names(old.meld.cards)}) with cards added at its ends",
                       "invalid_meld")
            return
        try:
            tm = read_table_meld(new, target, self.deal)
        except InvalidHandError as error:
            self.fail(index, str(error), "invalid_meld")
            return
        if tm.kind != old.kind:
            self.fail(index, f"table meld {target} is a {old.kind}; {names(new)} is not",
                       "invalid_meld")
        moved = moved_joker(old, tm, new, target)
        if moved is not None:
            self.fail(index, moved, "invalid_meld")
        self._leave_hand(index, event.player, added)
        self._laid_cards(event.player, len(added))
        self.table[target] = tm
        self.laid[event.player] += tm.meld.points - old.meld.points
        self._check_copies_at(index)
        self._check_throw_left(index, event.player)
        self._maybe_out(event.player)

    def _discard(self, index: int, event: Event) -> None:
        seat = event.player
        card = event.card
        if card is None:
            self.fail(index, "discard needs the card thrown", "invalid_event")
            return
        # another copy of the top taken this turn may go; the one taken stays held
        copy = self.throws_a_copy(index, card, self.taken_top, self.copies, "the pile top")
        if self.must_use is not None:
            if self.variant.pile_penalty is None:
                self.fail(index, f"{card_name(self.must_use)} was taken from below the pile "
                                  "top and must be melded or laid off in the same turn")
            self.penalties[seat] += 1
            self.must_use = None
        self._leave_hand(index, seat, [card], keep_known=copy)
        self.discarded[seat].append(card)
        self.pile.append(card)
        self._check_copies_at(index)
        self.taken_top = None
        if not self._maybe_out(seat):
            self.to_act = (seat + 1) % self.players
            self.phase = DRAW

    def _check_throw_left(self, index: int, seat: int) -> None:
        """Rommy: melds and layoffs leave a card to throw (not the top just taken)."""
        if not self.variant.throw_to_close:
            return
        if self.sizes[seat] == 0:
            self.fail(index, f"every {self.variant.game} turn ends with a throw: this play "
                              "leaves no card to throw", "invalid_meld")
        if self.sizes[seat] == 1 and self.taken_top is not None \
                and self.taken_top in self.known[seat]:
            self.fail(index, f"every {self.variant.game} turn ends with a throw: this play "
                              f"leaves only {card_name(self.taken_top)}, taken from the pile "
                              "top this turn", "invalid_meld")

    def _maybe_out(self, seat: int) -> bool:
        if self.sizes[seat] == 0:
            self.phase = OVER
            return True
        return False

    def _check_copies_at(self, index: int) -> None:
        try:
            self._check_copies(with_hand=False)
        except InvalidStateError as error:
            self.fail(index, str(error), "too_many_copies")


__all__ = ["ACTIONS", "LayDownState", "Seat", "added_cards", "keeps_places", "moved_joker",
           "take_depth"]
