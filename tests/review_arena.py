"""Replaying a recorded game in the arena's referee of its game (``benchmarks/arena``).

The referees share no rules with ``solver`` (only the words and the card
numbers), so they are the independent check of a review: ``replay(record,
also)`` plays every move of the record in the referee (each must be legal
there), and before the decisions numbered in ``also`` it plays the move
given for them on a copy of the referee (the review's best: it must be legal
too).  A record is dealt to the referee as its deck: the hands in seat order,
the cut card (Indian rummy), the upcard, then the stock.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from benchmarks.arena.gin import protocol as gin
from benchmarks.arena.gin.referee import GinHand
from benchmarks.arena.gin.rules import GinRules
from benchmarks.arena.indian import referee as indian
from benchmarks.arena.indian.variants import VARIANTS as INDIAN_VARIANTS
from benchmarks.arena.laydown import referee as laydown
from benchmarks.arena.laydown.variants import BASIC, ROMMY, RUMMY500
from solver.cards import parse_card
from solver.play.advice import Move
from solver.review import Record
from solver.review.openspiel import pieces
from solver.review.table import walk

LAY_DOWN = {"rummy500": RUMMY500, "rommy": ROMMY, "basic": BASIC}


def _deck(record: Record) -> list[int]:
    dealt = record.dealt
    assert dealt.stock is not None, "the arena deals a record whose stock is known"
    cut = [] if dealt.wild_rank is None else [parse_card(dealt.wild_rank)]
    return [*(c for hand in dealt.hands for c in hand), *cut, dealt.upcard, *dealt.stock]


def referee_of(record: Record) -> Any:
    """A fresh referee dealt the record's deal."""
    deck = _deck(record)
    if record.game == "gin":
        tie = bool((record.rules or {}).get("undercut_on_tie", True))
        return GinHand(deck, GinRules(undercut_on_tie=tie))
    if record.game in INDIAN_VARIANTS:
        return indian.IndianDeal(deck, record.seats, variant=INDIAN_VARIANTS[record.game])
    return laydown.Rummy500Round(deck, record.seats, record.dealer,
                                 variant=LAY_DOWN[record.game])


def play_move(referee: Any, move: Move) -> None:
    """``move`` (the advisor's terms) played in ``referee``, step by step
    (``IllegalActionError`` when one is not legal)."""
    if isinstance(referee, GinHand):
        _gin(referee, move)
    elif isinstance(referee, indian.IndianDeal):
        _indian(referee, move)
    else:
        _laydown(referee, move)


def _gin(hand: GinHand, move: Move) -> None:
    action = move.action
    if action == "pass":
        hand.apply(gin.PASS)
    elif action == "take_discard":
        hand.apply(gin.KNOCK if hand.phase == gin.Phase.WALL else gin.TAKE_DISCARD)
    elif action == "draw_stock":
        hand.apply(gin.DRAW_STOCK)
    elif action == "discard":
        assert move.card is not None
        hand.apply(gin.discard(move.card))
    elif action == "knock":
        assert move.card is not None
        if hand.phase != gin.Phase.KNOCK_DISCARD:  # at the wall the knock came with the take
            hand.apply(gin.KNOCK)
        hand.apply(gin.discard(move.card))
        for meld in move.melds:
            for piece in pieces(meld):
                hand.apply(gin.meld(piece))
        hand.apply(gin.FINISH)
    elif action == "lay_off":
        if hand.phase == gin.Phase.LAYOFF:
            left = [c for lay in move.layoffs for c in lay.cards]
            while left:  # a run takes its cards one end at a time: any order the referee takes
                card = next((c for c in left if gin.layoff(c) in hand.legal_actions()), left[0])
                hand.apply(gin.layoff(card))
                left.remove(card)
            hand.apply(gin.FINISH)
        for meld in move.melds:
            for piece in pieces(meld):
                hand.apply(gin.meld(piece))
        hand.apply(gin.FINISH)
    else:
        raise AssertionError(f"no gin move {action}")


def _indian(deal: indian.IndianDeal, move: Move) -> None:
    action = move.action
    if action == "take_discard":
        deal.apply(indian.TAKE)
    elif action == "draw_stock":
        deal.apply(indian.DRAW)
    elif action == "drop":
        deal.apply(indian.DROP)
    elif action == "discard":
        deal.apply(indian.Action(indian.Kind.DISCARD, move.card))
    elif action == "declare":
        deal.apply(indian.Action(indian.Kind.DECLARE, move.card, move.melds))
        assert deal.result is not None and deal.result.outcome != "wrong_show", \
            f"the referee finds declaring {move} a wrong show"
    else:
        raise AssertionError(f"no Indian move {action}")


def _laydown(round_: laydown.Rummy500Round, move: Move) -> None:
    action = move.action
    if action == "draw_stock":
        round_.apply(laydown.DRAW_STOCK)
    elif action == "pass":
        round_.apply(laydown.PASS)
    elif action == "take_discard":
        assert move.card is not None
        round_.apply(laydown.take_discard(move.card))
    else:
        layoffs = [laydown.Layoff(lay.target, lay.extended) for lay in move.layoffs]
        round_.apply(laydown.play(move.melds, layoffs, move.card))


def replay(record: Record, also: Mapping[int, Move] = {}) -> Any:
    """Play the record in its referee (see the module docstring); the referee after it."""
    referee = referee_of(record)
    for number, decision in enumerate(walk(record, replay=False).decisions):
        if number in also:
            play_move(copy.deepcopy(referee), also[number])
        play_move(referee, decision.move)
    return referee
