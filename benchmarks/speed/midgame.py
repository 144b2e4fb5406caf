"""Mid-game positions for the hint suites: hands improved by several turns of play.

Real positions are not fresh deals: players keep their melds and shed loose
high cards, so a hand several turns in holds more melds, pairs and near-runs
(and, in Indian rummy, the wild cards it drew).  Two seeded sources:

* ``greedy_position`` -- deals as the solve suites do (the preset's real deck,
  the cut card for Indian variants: ``benchmarks.speed.suites``), then two seats
  play turns with a plain greedy policy written for the benchmark: take the
  pile top when it lowers the exact optimum of the hand (``solve()``), else
  draw from the stock; discard what ``solve(..., discard=True)`` says leaves
  the least.  A seat whose kept hand is declarable (Indian: a declaration;
  gin: a knock) ends the game.
* ``arena_position`` (gin) -- one hand of the arena (``benchmarks.arena``:
  OpenSpiel's gin rules, its referee) between our greedy hint player and the
  EAAI simple player, watched from the referee's side.

Either way the position of seat 0 is recorded at the start of its turn
``turn`` (a draw: ``turn - 1`` turns played, the pile top and the cards seen:
the pile beneath the top, the cut card, in the arena also the cards the
opponent is known to hold) or after that turn's draw (a discard: one card
more than is kept).  A game that ends before seat 0 reaches the turn is
dropped and the next one dealt, so the positions are those of games still
running at that turn.  Everything is a pure function of the seed and the
position's place (the arena's decision times aside).

>>> case = greedy_position("indian13", "draw", 3, random.Random(1))
>>> len(case.hand), case.turn, len(case.seen)  # the cut card, the 4 cards under the top
(13, 3, 5)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from benchmarks.arena.gin.game import play_hand
from benchmarks.arena.gin.players.eaai_simple import EaaiSimplePlayer
from benchmarks.arena.gin.players.greedy_hint import GreedyHintPlayer
from benchmarks.arena.gin.protocol import Phase, Player, opponent_known_cards
from benchmarks.arena.gin.referee import GinHand
from benchmarks.arena.gin.runner import deck_for, seed_for
from benchmarks.speed.suites import cut_token, preset_deck
from solver import Solution, solve
from solver.cards import card_name
from solver.rules import PRESETS

HAND_CARDS = {"indian13": 13, "indian21": 21, "gin": 10}
"""Cards dealt to each seat, per variant."""
MAX_DEALS = 200
"""Games tried per position before giving up (every one ended too early)."""


@dataclass(frozen=True, slots=True)
class Position:
    """A recorded position of seat 0: its cards, the pile top (draw), the
    cards it has seen leave play, the cut card and its turn."""

    hand: tuple[int, ...]
    top: int
    seen: tuple[int, ...]
    wild_rank: str | None
    turn: int


def _optimum(cards: Sequence[int], variant: str, wild_rank: str | None,
             discard: bool) -> Solution:
    return solve([card_name(c) for c in cards], variant, wild_rank=wild_rank, discard=discard,
                 engine="search")


def greedy_position(variant: str, kind: str, turn: int, rng: random.Random) -> Position:
    """Seat 0's position at its turn ``turn`` (see the module docstring) in a
    greedy game dealt from ``rng``; ``kind`` is ``"draw"`` or ``"discard"``."""
    for _ in range(MAX_DEALS):
        found = _greedy_game(variant, kind, turn, rng)
        if found is not None:
            return found
    raise RuntimeError(f"{variant}: every game of {MAX_DEALS} ended before turn {turn}")


def _greedy_game(variant: str, kind: str, turn: int, rng: random.Random) -> Position | None:
    rules = PRESETS[variant]
    size = HAND_CARDS[variant]
    deck = preset_deck(rules)
    rng.shuffle(deck)
    hands = [sorted(deck[:size]), sorted(deck[size:2 * size])]
    position = 2 * size
    wild_rank, seen_fixed = None, []
    if rules.cut_joker:
        cut = deck[position]
        wild_rank, seen_fixed = cut_token(rules, cut), [cut]
        position += 1
    pile = [deck[position]]
    stock = deck[position + 1:]
    values: list[int | None] = [None, None]  # each seat's optimum, known after its first turn
    for played in range(turn):
        for seat in (0, 1):
            hand = hands[seat]
            if seat == 0 and played == turn - 1 and kind == "draw":
                return Position(tuple(hand), pile[-1], tuple(seen_fixed + pile[:-1]), wild_rank,
                                turn)
            if not stock:
                return None
            current = values[seat]
            if current is None:
                current = _optimum(hand, variant, wild_rank, False).deadwood_points
            top = pile[-1]
            after = _optimum([*hand, top], variant, wild_rank, True)
            if after.deadwood_points < current:
                # Lower than the hand's own optimum: the top is kept (its best
                # discard is another card, or another copy of the top).
                drawn = pile.pop()
            else:
                drawn = stock.pop(0)
                after = _optimum([*hand, drawn], variant, wild_rank, True)
            held = sorted([*hand, drawn])
            if seat == 0 and played == turn - 1:
                return Position(tuple(held), pile[-1] if pile else drawn,
                                tuple(seen_fixed + pile), wild_rank, turn)
            assert after.discard is not None
            held.remove(after.discard)
            pile.append(after.discard)
            hands[seat] = held
            values[seat] = after.deadwood_points
            if after.declarable:
                return None  # the seat declares (knocks): the game is over
    return None


def arena_position(kind: str, turn: int, seed: int, index: int) -> Position:
    """Seat 0's position at its turn ``turn`` in an arena hand of gin (greedy
    hint player against the EAAI simple player, seats alternating with
    ``index``), the decks from ``seed`` and ``index``."""
    for attempt in range(MAX_DEALS):
        greedy, simple = GreedyHintPlayer(), EaaiSimplePlayer()
        players: tuple[Player, Player] = (greedy, simple) if index % 2 == 0 else (simple, greedy)
        recorder = _Recorder(kind, turn)
        place = ("hint positions", kind, turn, index, attempt)
        play_hand(deck_for(seed, *place), players,
                  (seed_for(seed, *place, 0), seed_for(seed, *place, 1)), watchers=[recorder])
        if recorder.found is not None:
            return recorder.found
    raise RuntimeError(f"gin arena: every hand of {MAX_DEALS} ended before turn {turn}")


class _Recorder:
    """A referee-side watcher keeping seat 0's position at one turn."""

    def __init__(self, kind: str, turn: int) -> None:
        self.kind, self.turn = kind, turn
        self.found: Position | None = None

    def hand_started(self, hand: object) -> None:
        """Nothing to record at the deal."""

    def before_action(self, hand: object) -> None:
        """Record seat 0's position when it is at the asked phase and turn."""
        assert isinstance(hand, GinHand)
        if self.found is not None or hand.to_act != 0:
            return
        drawn = hand.turns[0]
        if self.kind == "draw" and hand.phase == Phase.DRAW and drawn == self.turn - 1:
            view = hand.view(0)
            seen = (*view.discard_pile[:-1], *opponent_known_cards(view))
            self.found = Position(tuple(sorted(view.hand)), view.discard_pile[-1], seen, None,
                                  self.turn)
        elif self.kind == "discard" and hand.phase == Phase.DISCARD and drawn == self.turn:
            pile = hand.pile
            self.found = Position(tuple(sorted(hand.hand_of(0))), pile[-1] if pile else 0,
                                  pile, None, self.turn)

    def after_action(self, hand: object, action: object) -> None:
        """Nothing to record after an action."""

    def hand_ended(self, hand: object) -> None:
        """Nothing to record at the end."""
