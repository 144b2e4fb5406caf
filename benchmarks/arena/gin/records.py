"""The arena's gin hands as recorded games (docs/REVIEW.md), plain JSON dicts.

``hand_record(hand, players)`` reads a played hand -- its deck and the
referee's log of every applied action (``LogEntry``: the seat, the phase,
the action, the card it received, its hand after) -- and writes the record
the review reads, in the project's event words (``solver.play.words``):

* the deal: seat 0 (the non-dealer, who plays first) ``deck[0:10]``, seat 1
  (the dealer) ``deck[10:20]``, the upcard ``deck[20]``, and the stock in
  drawing order (``deck[21:]``);
* ``pass``, ``take_discard`` (the card taken), ``draw_stock`` (``drawn``:
  the card the log says it received), ``discard``;
* a knock, which the referee plays as OpenSpiel does (knock, the knocker's
  discard, its melds one by one, finish), is one ``knock`` event: the card
  thrown, the melds, the ``deadwood`` left; a knock at the wall takes the
  pile top first (a ``take_discard``, then the ``knock``);
* the defender's reply (its layoffs one card at a time, finish, its melds,
  finish) is one ``lay_off`` event: its own ``melds``, the ``deadwood`` it
  keeps, and ``layoffs`` (each card laid off, in order, with the knocker's
  meld it extended: a run where a card fits either, as OpenSpiel's reader
  places it -- a set takes only its fourth suit, which no later layoff
  needs);
* ``result``: each seat's points as the arena scored the hand (0 each for
  the wall and for OpenSpiel's guards: the 50th pickup of the upcard, which
  ends the hand before the card is taken and so is no event, and a card
  thrown back twice in a row);
* ``rules``: the arena's ``GinRules`` where they differ from its default
  (the library's gin defaults: a test checks it), e.g. OpenSpiel's scoring
  ``{"undercut_on_tie": false}``; ``score`` and ``target`` in a match.

A hand a player stopped with an illegal action has no result and no record
(``ValueError``).  Nothing here imports ``solver`` beyond its words: the
review's ``read_record`` replays the record with code that shares nothing
with this referee, which makes it the independent check of both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from benchmarks.arena.gin.cards import HAND_SIZE, card_name, rank_of, suit_of
from benchmarks.arena.gin.game import HandRecord
from benchmarks.arena.gin.protocol import ActionKind, Phase
from benchmarks.arena.gin.referee import LogEntry
from benchmarks.arena.gin.rules import ARENA_RULES, MATCH_TARGET, GinRules
from solver.play import words

GAME = "gin"


def _names(cards: Sequence[int]) -> list[str]:
    return [card_name(c) for c in cards]


def layoff_target(melds: Sequence[Sequence[int]], card: int) -> int:
    """The knocker's meld (its index) that ``card`` extends: a run of its
    suit at either end first, else a three-card set of its rank
    (``ValueError`` when none does: the referee let no such layoff through).

    >>> layoff_target([[13, 26, 39], [14, 15, 16]], 0)  # AS onto AH AD AC
    0
    >>> layoff_target([[13, 26, 39], [14, 15, 16]], 17)  # 5H onto 2H 3H 4H
    1
    """
    for number, meld in enumerate(melds):
        if len({suit_of(c) for c in meld}) == 1 and suit_of(card) == suit_of(meld[0]):
            ranks = sorted(rank_of(c) for c in meld)
            if len(set(ranks)) == len(ranks) and rank_of(card) in (ranks[0] - 1, ranks[-1] + 1):
                return number
    for number, meld in enumerate(melds):
        if len(meld) == 3 and len({rank_of(c) for c in meld}) == 1 \
                and rank_of(card) == rank_of(meld[0]):
            return number
    raise ValueError(f"{card_name(card)} extends none of the knocker's melds")


def rules_of(rules: GinRules) -> dict[str, Any]:
    """The record's ``rules``: the knobs of ``rules`` that differ from the
    arena's default (the library's gin defaults), by the library's names."""
    default = asdict(ARENA_RULES)
    return {name: value for name, value in asdict(rules).items() if default[name] != value}


def hand_record(hand: HandRecord, players: Sequence[str], *, rules: GinRules = ARENA_RULES,
                score: Sequence[int] | None = None,
                target: int = MATCH_TARGET) -> dict[str, Any]:
    """The recorded game of ``hand`` (see the module docstring): ``players``
    the names in seat 0 and seat 1, ``score`` the match score before the
    hand (by seat) in a match to ``target``."""
    if hand.result is None:
        raise ValueError("a hand stopped by an illegal action has no result to record")
    deck = hand.deck
    record: dict[str, Any] = {
        "game": GAME, "players": list(players), "dealer": 1,
        "deal": {"hands": [_names(deck[:HAND_SIZE]), _names(deck[HAND_SIZE:2 * HAND_SIZE])],
                 "upcard": card_name(deck[2 * HAND_SIZE]),
                 "stock": _names(deck[2 * HAND_SIZE + 1:])},
        "events": _events(hand.log),
    }
    if score is not None:
        record["score"] = list(score)
        record["target"] = target
    knobs = rules_of(rules)
    if knobs:
        record["rules"] = knobs
    record["result"] = [hand.points_for(0), hand.points_for(1)]
    return record


def _events(log: Sequence[LogEntry]) -> list[dict[str, Any]]:
    """The log's actions as the record's events."""
    events: list[dict[str, Any]] = []
    knock: dict[str, Any] = {}
    reply: dict[str, Any] = {}
    knocker_melds: list[list[int]] = []
    for entry in log:
        seat, phase, kind = entry.seat, entry.phase, entry.action.kind
        card = entry.action.card
        if kind == ActionKind.PASS:
            events.append({words.PLAYER: seat, words.ACTION: words.PASS})
        elif kind == ActionKind.DRAW_STOCK:
            assert entry.received is not None
            events.append({words.PLAYER: seat, words.ACTION: words.DRAW_STOCK,
                           "drawn": card_name(entry.received)})
        elif kind == ActionKind.TAKE_DISCARD:
            if entry.received is None:
                continue  # the 50th pickup of the upcard: the hand ended before the take
            events.append({words.PLAYER: seat, words.ACTION: words.TAKE_DISCARD,
                           words.CARD: card_name(entry.received)})
        elif kind == ActionKind.KNOCK:
            if phase == Phase.WALL:  # the wall's knock takes the pile top into the hand
                assert entry.received is not None
                events.append({words.PLAYER: seat, words.ACTION: words.TAKE_DISCARD,
                               words.CARD: card_name(entry.received)})
            knock = {words.PLAYER: seat, words.ACTION: words.KNOCK}
            knocker_melds = []
        elif kind == ActionKind.DISCARD and phase == Phase.KNOCK_DISCARD:
            assert card is not None
            knock[words.CARD] = card_name(card)
        elif kind == ActionKind.DISCARD:
            assert card is not None
            events.append({words.PLAYER: seat, words.ACTION: words.DISCARD,
                           words.CARD: card_name(card)})
        elif kind == ActionKind.MELD and phase == Phase.KNOCK_MELD:
            knocker_melds.append(list(entry.action.meld))
        elif kind == ActionKind.MELD:
            reply.setdefault(words.MELDS, []).append(_names(entry.action.meld))
        elif kind == ActionKind.LAYOFF:
            assert card is not None
            target = layoff_target(knocker_melds, card)
            knocker_melds[target].append(card)
            reply.setdefault("layoffs", []).append({"target": target,
                                                    "cards": [card_name(card)]})
        elif kind == ActionKind.FINISH and phase == Phase.KNOCK_MELD:
            knock[words.MELDS] = [_names(sorted(m)) for m in knocker_melds]
            knock[words.DEADWOOD] = _names(entry.hand_after)
            events.append(knock)
            reply = {words.PLAYER: 1 - seat, words.ACTION: words.LAY_OFF}
        elif kind == ActionKind.FINISH and phase == Phase.DEFENDER_MELD:
            reply.setdefault(words.MELDS, [])
            reply[words.DEADWOOD] = _names(entry.hand_after)
            events.append(_ordered(reply))
    return events


def _ordered(reply: dict[str, Any]) -> dict[str, Any]:
    """The reply's fields in the record's order (its layoffs last)."""
    order = (words.PLAYER, words.ACTION, words.MELDS, words.DEADWOOD, "layoffs")
    return {name: reply[name] for name in order if name in reply}


__all__ = ["hand_record", "layoff_target", "rules_of"]
