"""The arena's Indian rummy games (``indian13``, ``indian21``) as recorded games
(docs/REVIEW.md), plain JSON dicts.

``game_record(game, variant)`` reads one game of a deal -- its deck, the
referee's public history and the card of each stock draw -- and writes the
record the review reads, in the project's event words
(``solver.play.words``):

* the deal as the referee dealt it: seat ``p`` the ``h`` cards from
  ``deck[h*p]``, the cut card next (``wild_rank``: its name, ``JK`` for a
  printed joker), then the upcard and the stock in drawing order; the
  dealer is the last seat, so seat 0 plays first;
* ``drop``, ``take_discard`` (the card taken), ``draw_stock`` (``drawn``),
  ``discard`` and ``declare`` (the card thrown and the show's groups as
  ``melds``).  A wrong show whose groups do not hold exactly the cards kept
  is written as one group of every card kept: no meld, so a wrong show
  still, and it pays the same;
* ``result``: each seat's points as the referee scored the game (+
  collected, - paid; ``indian21``: the value cards settled in them);
* ``rules``: the arena's ``IndianRules`` where they differ from the
  variant's default (by the library's knob names: ``points_cap``,
  ``drop_first``, ...).

A game a player stopped with an illegal action has no result and no record
(``ValueError``).  Nothing here imports ``solver`` beyond its words: the
review's ``read_record`` replays the record and scores it with code that
shares nothing with this referee, which makes it the independent check of
both.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from benchmarks.arena.core.joker_cards import card_name, names
from benchmarks.arena.core.records import PlayedGame
from benchmarks.arena.indian.referee import DealResult, Event, IndianRules, Kind
from benchmarks.arena.indian.variants import IndianVariant
from solver.play import words

KNOBS = {"cap": "points_cap", "drop_first": "drop_first", "drop_middle": "drop_middle",
         "wrong_declaration": "wrong_declaration", "value_card_points": "value_card_points",
         "marriage_points": "marriage_points"}
"""The library's knob of each field of ``IndianRules``."""


Played = PlayedGame[DealResult, Event]
"""A runner's record of one game (``core.records.PlayedGame``)."""


def rules_of(rules: IndianRules, variant: IndianVariant) -> dict[str, Any]:
    """The record's ``rules``: the knobs of ``rules`` that differ from the
    variant's default, by the library's names."""
    default = asdict(variant.rules)
    return {KNOBS[name]: value for name, value in asdict(rules).items()
            if default[name] != value}


def game_record(game: Played, variant: IndianVariant,
                rules: IndianRules | None = None) -> dict[str, Any]:
    """The recorded game of ``game`` (see the module docstring), played by
    ``variant`` under ``rules`` (the variant's by default)."""
    if game.result is None:
        raise ValueError("a game stopped by an illegal action has no result to record")
    if not game.deck:
        raise ValueError("the game's deck was not kept: play it with runner.play_game")
    seats = len(game.seats)
    size = variant.hand_size
    deck = game.deck
    dealt = size * seats
    record: dict[str, Any] = {
        "game": variant.game, "players": list(game.seats), "dealer": seats - 1,
        "deal": {"hands": [names(deck[size * p:size * (p + 1)]) for p in range(seats)],
                 "upcard": card_name(deck[dealt + 1]),
                 "wild_rank": card_name(deck[dealt]),
                 "stock": names(deck[dealt + 2:])},
        "events": events_of(game.events, game.drawn,
                            [deck[size * p:size * (p + 1)] for p in range(seats)]),
    }
    knobs = rules_of(rules or variant.rules, variant)
    if knobs:
        record["rules"] = knobs
    record["result"] = list(game.result.points)
    return record


def events_of(history: Sequence[Event], drawn: Sequence[int],
              hands: Sequence[Sequence[int]]) -> list[dict[str, Any]]:
    """The referee's history as the record's events (``drawn``: the card of
    each stock draw, in order; ``hands``: the cards dealt, to know what a
    declarer kept)."""
    draws = iter(drawn)
    held = [list(hand) for hand in hands]
    out: list[dict[str, Any]] = []
    for event in history:
        seat = event.seat
        data: dict[str, Any] = {words.PLAYER: seat, words.ACTION: str(event.kind)}
        if event.kind == Kind.DRAW_STOCK:
            card = next(draws)
            held[seat].append(card)
            data["drawn"] = card_name(card)
        elif event.card is not None:
            data[words.CARD] = card_name(event.card)
            if event.kind == Kind.TAKE_DISCARD:
                held[seat].append(event.card)
            else:
                held[seat].remove(event.card)
        if event.kind == Kind.DECLARE:
            shown = sorted(card for group in event.groups for card in group)
            groups = event.groups if shown == sorted(held[seat]) else (tuple(sorted(held[seat])),)
            data[words.MELDS] = [names(group) for group in groups]
        out.append(data)
    return out


__all__ = ["KNOBS", "Played", "events_of", "game_record", "rules_of"]
