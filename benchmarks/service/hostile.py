"""Hostile request bodies: the legal inputs that once ran far past their deadline.

Each is ``(name, path, body)`` for the REST API; the bodies carry no
``time_limit_ms`` (the caller adds one).  ``tests/test_reliability.py`` sends
them to a real server and asserts the deadline + 100 ms; the ``deadline``
benchmark suite reports how long each took.  Sources: issue 9's figures (the
layoff listing with 16 wild card types, 29/30-card hints, the 50-meld pile,
8-deck solves, large batches) and later finds (a 30-card gin hand holding
seven ranks four times: 6^7 set choices for the table method; the Indian
advisor at six players, whose first valuation ran 100 ms past a 1 ms limit).
"""

from __future__ import annotations

import random
from typing import Any

from solver.cards import card_name

HEAVY_RULES = {"decks": 4, "jokers_per_deck": 4, "printed_jokers_wild": True,
               "cut_joker": True, "neighbour_jokers": True}


def deck(decks: int, jokers: int) -> list[str]:
    """Card names of ``decks`` decks plus ``jokers`` printed jokers."""
    return [card_name(c) for c in range(52) for _ in range(decks)] + ["JK"] * jokers


def _table(count: int) -> list[list[str]]:
    """``count`` valid table melds (runs and sets, repeated as needed)."""
    runs = [[f"{'A23456789TJQK'[r + k]}{'SHDC'[i % 4]}" for k in range(3)]
            for i, r in enumerate(range(1, 10))]
    sets = [[f"{r}S", f"{r}H", f"{r}D"] for r in "9TJQK23456"]
    return ((runs + sets) * 4)[:count]


def hostile_bodies() -> list[tuple[str, str, dict[str, Any]]]:
    """Every hostile body, in a fixed (seeded) order."""
    rng = random.Random(2026)
    deck4, deck8 = deck(4, 16), deck(8, 8)
    return [
        ("layoffs, 16 wild types around, 20 table melds", "/v1/layoffs",
         {"variant": "rummy500", "rules": HEAVY_RULES, "wild_rank": "7H",
          "hand": "JK 7S 7H 7D 7C 8H 6H JK", "table": _table(20)}),
        ("draw hint, 29 cards", "/v1/hints/draw",
         {"variant": "rummy500", "rules": {"decks": 4, "jokers_per_deck": 4},
          "hand": [*rng.sample(deck4[:-16], 27), "JK", "JK"], "discard_top": "5S"}),
        ("discard hint, 30 cards", "/v1/hints/discard",
         {"variant": "indian21", "rules": {"decks": 8, "ace": "wrap"}, "wild_rank": "7H",
          "hand": rng.sample(deck8, 30)}),
        ("pile hint, 16 jokers, 50 table melds, 10-card pile", "/v1/hints/pile",
         {"variant": "rummy500", "rules": {"decks": 8, "jokers_per_deck": 4},
          "hand": ["JK"] * 16 + ["5H", "6H", "9C", "KD"], "table": _table(50),
          "discard_pile": "2S 3S 4S 5S 6S 7S 8S 9S TS JS"}),
        ("solve, 30 cards, 8 decks, wrap", "/v1/solve",
         {"variant": "indian21", "rules": {"decks": 8, "ace": "wrap"}, "wild_rank": "7H",
          "hand": rng.sample(deck8, 30)}),
        ("solve with CP-SAT, 30 cards", "/v1/solve",
         {"variant": "indian21", "rules": {"decks": 8, "ace": "wrap"}, "wild_rank": "7H",
          "hand": rng.sample(deck8, 30), "engine": "cpsat"}),
        ("batch of 300 dense indian21 hands", "/v1/solve/batch",
         {"requests": [{"variant": "indian21", "wild_rank": "7H", "discard": True,
                        "rules": {"decks": 8}, "hand": rng.sample(deck8, 26)}
                       for _ in range(300)]}),
        ("solve gin, 30 cards, seven ranks held four times", "/v1/solve",
         {"variant": "gin", "hand": [card_name(s * 13 + r) for r in range(7) for s in range(4)]
          + ["9S", "JH"]}),
        ("discard hint gin, 30 cards, seven ranks held four times", "/v1/hints/discard",
         {"variant": "gin", "hand": [card_name(s * 13 + r) for r in range(7) for s in range(4)]
          + ["9S", "JH"]}),
        ("advise indian21, six players, expert, first turn", "/v1/advise",
         {"game": "indian21", "hand": rng.sample(deck(3, 0), 21), "upcard": "9D",
          "wild_rank": "7H", "players": 6, "me": 0, "dealer": 5, "level": "expert"}),
        ("advise indian13, six players, expert, first turn", "/v1/advise",
         {"game": "indian13", "hand": rng.sample(deck(2, 0), 13), "upcard": "9D",
          "wild_rank": "7H", "players": 6, "me": 0, "dealer": 5, "level": "expert"}),
        ("gin score with jokers and a high knock limit", "/v1/gin/score",
         {"knocker": "5H 6H 7H 8H 9S 9D 9C 2C 3C 4C 5C", "defender": "4H TH 2S 3S KD KC QS JD 6C 6D",
          "rules": {"jokers_per_deck": 2, "printed_jokers_wild": True, "knock_limit": 60}}),
    ]
