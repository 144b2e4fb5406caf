"""The arena's Rummy 500, Rommy and basic rummy rounds as recorded games
(docs/REVIEW.md), plain JSON dicts.

``round_record(played, variant)`` reads one round of a deal -- its deck, the
referee's public history (already in the project's event words,
``solver.play.words``: the draw, ``meld``, one ``lay_off`` per table meld
with that meld afterwards, the throw) and the card of each stock draw --
and writes the record the review reads:

* the deal as the referee dealt it: seat ``p`` the ``h`` cards from
  ``deck[h*p]``, then the upcard and the stock in drawing order (basic
  rummy turns the pile over when the stock is out: those draws' cards are
  in ``drawn``); the dealer is the last seat, so seat 0 plays first;
* each event as the players saw it, and ``drawn`` on every ``draw_stock``;
* ``result``: each seat's points **in the review's units**, from the points
  the referee gave it.  Basic rummy's are the referee's own (what the
  winner collects, what each other seat pays).  Rummy 500 and Rommy score
  each seat its own round (laid down and laid off, less what is left in
  hand, less Rommy's pile penalties); the review's unit is a seat's score
  less the mean of the others' (zero-sum, like the other games: a round
  where everybody scores well is no win for anybody), so the record's
  result is the referee's scores made relative that way.  ``read_record``
  recomputes them from the events and refuses a record where they differ:
  the cross-check of the two scorings;
* ``rules``: the table's house rules (``--house``), as the library's knobs.

A round a player stopped with an illegal action has no result and no record
(``ValueError``); a round stopped at the arena's turn limit is recorded
unfinished, with the referee's result.  Nothing here imports ``solver``
beyond its words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from benchmarks.arena.core.joker_cards import card_name, names
from benchmarks.arena.core.records import PlayedGame
from benchmarks.arena.laydown.referee import Event, RoundResult
from benchmarks.arena.laydown.variants import Variant
from solver.play import words

Played = PlayedGame[RoundResult, Event]
"""A runner's record of one game (``core.records.PlayedGame``)."""


def relative(points: Sequence[float]) -> list[float]:
    """Each seat's points less the mean of the others' (the review's unit of
    a net-scored round).

    >>> relative([30, 10, -10])
    [30.0, 0.0, -30.0]
    """
    n = len(points)
    total = sum(points)
    return [float(p - (total - p) / (n - 1)) for p in points]


def round_record(played: Played, variant: Variant) -> dict[str, Any]:
    """The recorded game of ``played``, a round of ``variant`` (see the module
    docstring)."""
    if played.result is None:
        raise ValueError("a round stopped by an illegal action has no result to record")
    if not played.deck:
        raise ValueError("the round's deck was not kept: play it with runner.play_round")
    seats = len(played.seats)
    size = variant.hand_size(seats)
    deck = played.deck
    points = list(played.result.points)
    record: dict[str, Any] = {
        "game": variant.name, "players": list(played.seats), "dealer": seats - 1,
        "deal": {"hands": [names(deck[size * p:size * (p + 1)]) for p in range(seats)],
                 "upcard": card_name(deck[size * seats]),
                 "stock": names(deck[size * seats + 1:])},
        "events": events_of(played.events, played.drawn),
    }
    if variant.house_rules:
        record["rules"] = dict(variant.house_rules)
    record["result"] = points if variant.scoring == "collect" else relative(points)
    return record


def events_of(history: Sequence[Event], drawn: Sequence[int]) -> list[dict[str, Any]]:
    """The referee's history as the record's events (``drawn``: the card of
    each stock draw, in order)."""
    draws = iter(drawn)
    out = []
    for event in history:
        data = event.to_json()
        if event.action == words.DRAW_STOCK:
            data["drawn"] = card_name(next(draws))
        out.append(data)
    return out


__all__ = ["Played", "events_of", "relative", "round_record"]
