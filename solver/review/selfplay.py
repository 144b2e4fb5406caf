"""Recorded games played by the advisor's moves: a deal, players choosing from ``advise``, a record.

For the review's tests and speed figures: ``play(game, policies, seed)``
shuffles a deck (``seed``), deals it as the game does (each seat's hand, the
cut card for Indian rummy, the upcard, the stock in order), and lets each
seat's policy choose among the moves ``advise`` lists for its public state,
until the hand is over (the advisor asked as ``solver.play.advise`` asks
it, at one of its levels or the review's); the answer is the ``Record`` of that game (its
stock given, so every draw is known), checked.  ``follow`` plays the
advisor's recommendation, ``at_random`` any move it lists.  The moves are
the advisor's, so every one is legal by the advisor's rules; the arena's
referees (``benchmarks/arena``) are the independent check.

>>> record = play("gin", [follow, at_random], seed=3, level="novice")
>>> record.game, len(record.players), record.steps[0].player
('gin', 2, 0)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from solver.cards import NUM_CARD_TYPES, card_name
from solver.deadline import play_deadline
from solver.play import GAMES
from solver.play.advice import Advice, Move
from solver.play.events import Event
from solver.play.laydown.variant import VARIANTS
from solver.play.words import (
    DECLARE,
    DISCARD,
    DROP,
    GO_OUT,
    KNOCK,
    LAY_OFF,
    MELD,
    PASS,
    TAKE_DISCARD,
)
from solver.review.params import REVIEW_LEVEL, REVIEW_PARAMS, ReviewParams
from solver.review.record import Dealt, Record, Step
from solver.review.table import check_record, request_for, walk
from solver.rules import deck_copies, make_rules

Policy = Callable[[Advice, random.Random], Move]
"""A player: the move it makes, from the advice on its decision."""
MAX_DECISIONS = 400
"""A game stops (unfinished) after this many decisions."""

def follow(advice: Advice, rng: random.Random) -> Move:
    """The advisor's recommendation."""
    return advice.recommended.move

def at_random(advice: Advice, rng: random.Random) -> Move:
    """Any move the advisor lists, alike."""
    return rng.choice(advice.moves).move

def _deck(game: str, seats: int, rules: Mapping[str, Any] | None) -> list[int]:
    if game == "gin":
        copies = [1] * 52 + [0]
    elif game in ("indian13", "indian21"):
        copies = deck_copies(make_rules(game, rules))
    else:
        copies = VARIANTS[game].with_rules(rules).seated(seats).copies
    return [card for card in range(NUM_CARD_TYPES) for _ in range(copies[card])]

def _hand_size(game: str, seats: int, rules: Mapping[str, Any] | None) -> int:
    if game == "gin":
        return 10
    if game in ("indian13", "indian21"):
        return make_rules(game, rules).hand_size
    return VARIANTS[game].hand_size(seats)

def deal(game: str, seats: int, seed: int, rules: Mapping[str, Any] | None = None) -> Dealt:
    """A shuffled deal of ``game`` at ``seats`` players (see the module docstring)."""
    rng = random.Random(f"deal/{game}/{seats}/{seed}")
    deck = _deck(game, seats, rules)
    rng.shuffle(deck)
    size = _hand_size(game, seats, rules)
    hands = tuple(tuple(deck[s * size:(s + 1) * size]) for s in range(seats))
    rest = deck[seats * size:]
    wild_rank = None
    if game in ("indian13", "indian21"):
        wild_rank = card_name(rest.pop(0))
    upcard = rest.pop(0)
    return Dealt(hands, upcard, wild_rank, tuple(rest))

def events_of(move: Move, seat: int) -> list[Step]:
    """The events a move of the advisor's makes (a lay-down turn: its melds,
    its layoffs one table meld each, its throw)."""
    action = move.action
    if action in (DISCARD, GO_OUT) and (move.melds or move.layoffs):
        steps = []
        if move.melds:
            steps.append(Step(Event(seat, MELD, melds=move.melds)))
        steps += [Step(Event(seat, LAY_OFF, melds=(lay.extended,), target=lay.target))
                  for lay in move.layoffs]
        if action == DISCARD:
            steps.append(Step(Event(seat, DISCARD, card=move.card)))
        return steps
    if action == LAY_OFF:
        return [Step(Event(seat, LAY_OFF, melds=move.melds, deadwood=move.deadwood),
                     layoffs=move.layoffs)]
    if action == KNOCK:
        return [Step(Event(seat, KNOCK, card=move.card, melds=move.melds,
                           deadwood=move.deadwood))]
    if action == DECLARE:
        return [Step(Event(seat, DECLARE, card=move.card, melds=move.melds))]
    return [Step(Event(seat, action, card=move.card))]

def play(game: str, policies: Sequence[Policy], *, seed: int = 0, level: str = "novice",
         players: Sequence[str] | None = None, dealer: int | None = None,
         rules: Mapping[str, Any] | None = None, score: Sequence[int] | None = None,
         max_decisions: int = MAX_DECISIONS, params: ReviewParams = REVIEW_PARAMS) -> Record:
    """A game of ``game`` between ``policies`` (one per seat), recorded
    (see the module docstring).  ``level`` is one of the advisor's, or
    ``review``: the review's own level and parameters (``params``), so a
    follower plays as the review judges."""
    seats = len(policies)
    ids = tuple(players) if players is not None else tuple(f"seat {s}" for s in range(seats))
    dealer = seats - 1 if dealer is None else dealer
    record = Record(game, ids, dealer, deal(game, seats, seed, rules), (),
                    None if score is None else tuple(score), 100, rules)
    rng = random.Random(f"play/{game}/{seed}")
    seat = (dealer + 1) % seats
    for number in range(max_decisions):
        walked = walk(record, replay=False)
        if walked.over:
            break
        model = GAMES[game]
        position = model.position(request_for(record, seat, walked.hands[seat],
                                              len(record.steps)))
        advice = model.advise(position, params.advisor_params(game) if level == REVIEW_LEVEL
                              else model.params, params.level(game, level),
                              seed * 10_007 + number, play_deadline(None, None))
        move = policies[seat](advice, rng)
        record = Record(game, ids, dealer, record.dealt, record.steps + tuple(
            events_of(move, seat)), record.score, record.target, rules)
        seat = _next(record, seat, move, advice.phase)
    check_record(record)
    return record

def _next(record: Record, seat: int, move: Move, phase: str) -> int:
    """Who acts after ``seat`` played ``move``."""
    seats = record.seats
    action = move.action
    if record.game == "gin":
        if action in (TAKE_DISCARD, "draw_stock"):
            return seat
        return 1 - seat  # a pass, a throw, a knock (the defender replies)
    if record.game in ("indian13", "indian21"):
        if action in (TAKE_DISCARD, "draw_stock"):
            return seat
        walked = walk(record, replay=False)
        dropped = {d.seat for d in walked.decisions if d.move.action == DROP}
        for k in range(1, seats + 1):
            other = (seat + k) % seats
            if other not in dropped:
                return other
        return seat
    if action in (TAKE_DISCARD, "draw_stock", PASS):
        return seat
    return (seat + 1) % seats

__all__ = ["Policy", "at_random", "deal", "events_of", "follow", "play"]
