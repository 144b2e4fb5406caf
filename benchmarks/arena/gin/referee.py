"""The gin referee: one hand of gin from a shuffled deck, every action checked.

It shares no code with ``solver`` but the game's words (``solver.play.words``,
through ``protocol``): it is the independent check of every move and every
score, its melds and deadwood come from ``benchmarks.arena.gin.melds``.
The rules are OpenSpiel's (``benchmarks.arena.gin.rules``), phase by phase:

* the deal: seat 0 (the non-dealer) gets ``deck[0:10]``, seat 1
  ``deck[10:20]``, ``deck[20]`` is the upcard, the stock is the rest, drawn
  in order;
* the first upcard: seat 0 may take it or pass, then seat 1; when both
  pass, seat 0 draws from the stock;
* a turn: take the pile top or draw from the stock, then discard, or knock
  when some discard leaves at most ``knock_limit`` points of deadwood (the
  exact minimum over every discard);
* a knock: the knocker discards (keeping within the limit), lays melds one at
  a time and finishes once the cards left are within the limit; the defender
  lays off (not after gin), then lays its own melds; each side's deadwood is
  what it did not lay;
* the wall: when a discard leaves two cards in the stock, the next player
  may only knock with the pile top or pass (the hand ends unscored);
* a hand also ends unscored on the 50th draw of the pile top, or when two
  turns in a row throw back the card they took (OpenSpiel's guards against
  endless hands; discarding the card just taken is otherwise legal there).

An action that is not in ``legal_actions()`` raises ``IllegalActionError``;
nothing is ever corrected.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from benchmarks.arena.gin.cards import DECK_SIZE, HAND_SIZE, cards_of, cards_text, mask_of, points_of
from benchmarks.arena.gin.melds import (
    layoff_targets,
    melds_in,
    min_deadwood,
    min_deadwood_after_discard,
)
from benchmarks.arena.gin.protocol import (
    DRAW_STOCK,
    FINISH,
    KNOCK,
    PASS,
    TAKE_DISCARD,
    Action,
    ActionKind,
    Event,
    Phase,
    PlayerView,
    discard,
    layoff,
    meld,
)
from benchmarks.arena.gin.rules import ARENA_RULES, MAX_UPCARD_DRAWS, WALL_STOCK, GinRules, settle

Outcome = Literal["knock", "gin", "undercut", "wall", "upcard_limit", "repeated_discard"]


class IllegalActionError(ValueError):
    """A player answered an action that is not legal where it stands."""

    def __init__(self, seat: int, phase: Phase, action: object, legal: Sequence[Action]) -> None:
        shown = ", ".join(str(a) for a in legal)
        super().__init__(f"seat {seat} played {action!s} in phase {phase}; legal: {shown}")
        self.seat = seat
        self.phase = phase
        self.action = action


@dataclass(frozen=True, slots=True)
class HandResult:
    """How a hand ended.  ``points`` go to ``winner`` (None: nobody
    scored); ``deadwood`` is each seat's final deadwood after a knock."""

    outcome: Outcome
    knocker: int | None
    winner: int | None
    points: int
    deadwood: tuple[int, int] | None

    def points_for(self, seat: int) -> int:
        """The points of the hand for ``seat``: positive won, negative lost."""
        if self.winner is None:
            return 0
        return self.points if self.winner == seat else -self.points


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One applied action, referee-side (never shown to a player): the card
    it gave the actor (a take, a stock draw, the wall knock's pile top), the
    actor's hand right after it and the stock size then."""

    seat: int
    phase: Phase
    action: Action
    received: int | None
    hand_after: tuple[int, ...]
    stock_size: int


def shuffled_deck_is_valid(deck: Sequence[int]) -> bool:
    """Whether ``deck`` holds every card once."""
    return len(deck) == DECK_SIZE and sorted(deck) == list(range(DECK_SIZE))


class GinHand:
    """The state of one hand and its referee.  Players never get this
    object: they get ``view(seat)``."""

    def __init__(self, deck: Sequence[int], rules: GinRules = ARENA_RULES) -> None:
        if not shuffled_deck_is_valid(deck):
            raise ValueError("deck must hold each of the 52 cards once")
        self.rules = rules
        self._deck = tuple(deck)
        self._hands = [mask_of(deck[:HAND_SIZE]), mask_of(deck[HAND_SIZE:2 * HAND_SIZE])]
        self._pile = [deck[2 * HAND_SIZE]]
        self._next_stock = 2 * HAND_SIZE + 1
        self._phase = Phase.FIRST_UPCARD
        self._to_act = 0
        self._passed_upcard = [False, False]
        self._drawn: int | None = None
        self._top_when_drawn: int | None = None  # OpenSpiel's "prev upcard"
        self._threw_back_last_turn = False
        self._upcard_draws = 0
        self._knocker: int | None = None
        self._knocker_melds: list[int] = []
        self._laid_off: list[int] = []
        self._history: list[Event] = []
        self._log: list[LogEntry] = []
        self._turns = [0, 0]
        self._result: HandResult | None = None
        self._legal_cache: tuple[Action, ...] | None = None

    # -- what the arena may read ------------------------------------------------

    @property
    def phase(self) -> Phase:
        """The decision asked for now."""
        return self._phase

    @property
    def to_act(self) -> int:
        """The seat that acts now."""
        return self._to_act

    @property
    def result(self) -> HandResult | None:
        """How the hand ended, or None while it runs."""
        return self._result

    @property
    def over(self) -> bool:
        """Whether the hand has ended."""
        return self._result is not None

    @property
    def stock_size(self) -> int:
        """Cards left in the stock."""
        return DECK_SIZE - self._next_stock

    @property
    def log(self) -> tuple[LogEntry, ...]:
        """Every applied action with the actor's hand after it."""
        return tuple(self._log)

    @property
    def turns(self) -> tuple[int, int]:
        """Draws each seat made (a knock at the wall counts as one)."""
        return self._turns[0], self._turns[1]

    @property
    def deck(self) -> tuple[int, ...]:
        """The shuffled deck the hand was dealt from."""
        return self._deck

    def hand_of(self, seat: int) -> tuple[int, ...]:
        """Referee-side: the cards ``seat`` holds."""
        return cards_of(self._hands[seat])

    @property
    def pile(self) -> tuple[int, ...]:
        """The discard pile, bottom to top."""
        return tuple(self._pile)

    # -- legal actions ----------------------------------------------------------

    def legal_actions(self) -> tuple[Action, ...]:
        """Every legal action of the seat to act, sorted."""
        if self._result is not None:
            return ()
        if self._legal_cache is None:
            self._legal_cache = tuple(sorted(self._compute_legal()))
        return self._legal_cache

    def _compute_legal(self) -> list[Action]:
        hand = self._hands[self._to_act]
        limit = self.rules.knock_limit
        phase = self._phase
        if phase == Phase.FIRST_UPCARD:
            return [DRAW_STOCK] if all(self._passed_upcard) else [TAKE_DISCARD, PASS]
        if phase == Phase.DRAW:
            return [TAKE_DISCARD, DRAW_STOCK]
        if phase == Phase.DISCARD:
            out = [discard(card) for card in cards_of(hand)]
            if min_deadwood_after_discard(hand) <= limit:
                out.append(KNOCK)
            return out
        if phase == Phase.KNOCK_DISCARD:
            return [discard(card) for card in cards_of(hand) if min_deadwood(hand ^ (1 << card)) <= limit]
        if phase == Phase.KNOCK_MELD:
            out = [meld(cards_of(m)) for m in melds_in(hand) if min_deadwood(hand ^ m) <= limit]
            if points_of(hand) <= limit:
                out.append(FINISH)
            return out
        if phase == Phase.LAYOFF:
            targets = layoff_targets(self._knocker_melds, self._laid_off) & hand
            return [FINISH, *(layoff(card) for card in cards_of(targets))]
        if phase == Phase.DEFENDER_MELD:
            return [FINISH, *(meld(cards_of(m)) for m in melds_in(hand))]
        # Phase.WALL: knocking takes the pile top into the hand
        out = [PASS]
        if min_deadwood_after_discard(hand | 1 << self._pile[-1]) <= limit:
            out.append(KNOCK)
        return out

    # -- views ------------------------------------------------------------------

    def view(self, seat: int, *, my_match_points: int = 0, opponent_match_points: int = 0,
             match_target: int | None = None) -> PlayerView:
        """What ``seat`` may know now; legal actions only for the seat to act."""
        acting = seat == self._to_act and self._result is None
        return PlayerView(
            seat=seat,
            phase=self._phase,
            hand=cards_of(self._hands[seat]),
            drawn_card=self._drawn if acting else None,
            discard_pile=tuple(self._pile),
            history=tuple(self._history),
            stock_size=self.stock_size,
            legal_actions=self.legal_actions() if acting else (),
            rules=self.rules,
            my_match_points=my_match_points,
            opponent_match_points=opponent_match_points,
            match_target=match_target,
        )

    # -- applying an action -----------------------------------------------------

    def apply(self, action: Action) -> None:
        """Play ``action`` for the seat to act; ``IllegalActionError`` if it
        is not legal (the state is then unchanged)."""
        seat, phase = self._to_act, self._phase
        if self._result is not None:
            raise IllegalActionError(seat, phase, action, ())
        legal = self.legal_actions()
        if not isinstance(action, Action) or action not in legal:
            raise IllegalActionError(seat, phase, action, legal)
        self._legal_cache = None
        before = self._hands[seat]
        handler = {
            Phase.FIRST_UPCARD: self._first_upcard,
            Phase.DRAW: self._draw,
            Phase.DISCARD: self._discard,
            Phase.KNOCK_DISCARD: self._knock_discard,
            Phase.KNOCK_MELD: self._knock_meld,
            Phase.LAYOFF: self._layoff,
            Phase.DEFENDER_MELD: self._defender_meld,
            Phase.WALL: self._wall,
        }[phase]
        handler(seat, action)
        gained = self._hands[seat] & ~before
        received = gained.bit_length() - 1 if gained else None
        self._log.append(LogEntry(seat, phase, action, received, cards_of(self._hands[seat]),
                                  self.stock_size))

    def _event(self, seat: int, kind: ActionKind, card: int | None = None,
               cards: tuple[int, ...] = ()) -> None:
        self._history.append(Event(seat, kind, card, cards))

    def _take_top(self, seat: int) -> None:
        card = self._pile.pop()
        self._hands[seat] |= 1 << card
        self._drawn = self._top_when_drawn = card
        self._turns[seat] += 1
        self._event(seat, ActionKind.TAKE_DISCARD, card)

    def _draw_stock(self, seat: int) -> None:
        card = self._deck[self._next_stock]
        self._next_stock += 1
        self._hands[seat] |= 1 << card
        self._top_when_drawn = self._pile[-1]
        self._drawn = card
        self._turns[seat] += 1
        self._event(seat, ActionKind.DRAW_STOCK)

    def _first_upcard(self, seat: int, action: Action) -> None:
        if action.kind == ActionKind.PASS:
            self._passed_upcard[seat] = True
            self._event(seat, ActionKind.PASS)
            self._to_act = 1 - seat
            return
        if action.kind == ActionKind.TAKE_DISCARD:
            self._take_top(seat)
        else:
            self._draw_stock(seat)
        self._phase = Phase.DISCARD

    def _draw(self, seat: int, action: Action) -> None:
        if action.kind == ActionKind.TAKE_DISCARD:
            self._upcard_draws += 1
            if self._upcard_draws >= MAX_UPCARD_DRAWS:
                self._end("upcard_limit")
                return
            self._take_top(seat)
        else:
            self._draw_stock(seat)
        self._phase = Phase.DISCARD

    def _discard(self, seat: int, action: Action) -> None:
        if action.kind == ActionKind.KNOCK:
            self._knocker = seat
            self._event(seat, ActionKind.KNOCK)
            self._phase = Phase.KNOCK_DISCARD
            return
        card = action.card
        assert card is not None
        self._hands[seat] ^= 1 << card
        self._pile.append(card)
        self._drawn = None
        self._event(seat, ActionKind.DISCARD, card)
        threw_back = card == self._top_when_drawn
        if threw_back and self._threw_back_last_turn:
            self._end("repeated_discard")
            return
        self._threw_back_last_turn = threw_back
        self._to_act = 1 - seat
        self._phase = Phase.WALL if self.stock_size == WALL_STOCK else Phase.DRAW

    def _knock_discard(self, seat: int, action: Action) -> None:
        card = action.card
        assert card is not None
        self._hands[seat] ^= 1 << card
        self._pile.append(card)
        self._drawn = None
        self._event(seat, ActionKind.DISCARD, card)
        self._phase = Phase.KNOCK_MELD

    def _knock_meld(self, seat: int, action: Action) -> None:
        if action.kind == ActionKind.MELD:
            cards = mask_of(action.meld)
            self._hands[seat] ^= cards
            self._knocker_melds.append(cards)
            self._event(seat, ActionKind.MELD, cards=action.meld)
            return
        self._event(seat, ActionKind.FINISH)
        self._to_act = 1 - seat
        # No layoffs onto gin: the defender goes straight to its melds.
        self._phase = Phase.DEFENDER_MELD if self._hands[seat] == 0 else Phase.LAYOFF

    def _layoff(self, seat: int, action: Action) -> None:
        if action.kind == ActionKind.LAYOFF:
            card = action.card
            assert card is not None
            self._hands[seat] ^= 1 << card
            self._laid_off.append(card)
            self._event(seat, ActionKind.LAYOFF, card)
            return
        self._event(seat, ActionKind.FINISH)
        self._phase = Phase.DEFENDER_MELD

    def _defender_meld(self, seat: int, action: Action) -> None:
        if action.kind == ActionKind.MELD:
            self._hands[seat] ^= mask_of(action.meld)
            self._event(seat, ActionKind.MELD, cards=action.meld)
            return
        self._event(seat, ActionKind.FINISH)
        knocker = self._knocker
        assert knocker is not None
        knocker_dead = points_of(self._hands[knocker])
        defender_dead = points_of(self._hands[seat])
        outcome, knocker_points = settle(knocker_dead, defender_dead, self.rules)
        deadwood = (knocker_dead, defender_dead) if knocker == 0 else (defender_dead, knocker_dead)
        if knocker_points > 0:
            winner: int | None = knocker
        elif knocker_points < 0:
            winner = seat
        else:
            winner = None
        self._result = HandResult(outcome, knocker, winner, abs(knocker_points), deadwood)

    def _wall(self, seat: int, action: Action) -> None:
        if action.kind == ActionKind.PASS:
            self._event(seat, ActionKind.PASS)
            self._end("wall")
            return
        self._take_top(seat)
        self._knocker = seat
        self._event(seat, ActionKind.KNOCK)
        self._phase = Phase.KNOCK_DISCARD

    def _end(self, outcome: Outcome) -> None:
        self._result = HandResult(outcome, None, None, 0, None)

    def __repr__(self) -> str:
        return (f"GinHand(phase={self._phase}, to_act={self._to_act}, stock={self.stock_size}, "
                f"hands=[{cards_text(cards_of(self._hands[0]))} | {cards_text(cards_of(self._hands[1]))}])")
