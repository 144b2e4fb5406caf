"""Example requests of every endpoint, and the real answers to them.

``REQUESTS`` are the request examples the OpenAPI document shows (and Swagger
UI's "Try it out" sends), keyed by operation name (``api.shared.operations``);
``EXAMPLES`` are the service's own answers to them, stored in
``examples.json`` next to this module.  Regenerate that file after changing
an answer's format or a rule with ``python -m api.server.export_examples``; a test
fails while it is stale (timings aside).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

EXAMPLES_PATH = Path(__file__).with_name("examples.json")

CUSTOM_RULES: dict[str, Any] = {
    "requirements": [{"kind": "run", "count": 2, "exact": True},
                     {"kind": "set", "count": 0, "exact": True}],
    "min_run_length": 4,
    "min_meld_points": 30,
}
"""A house variant defined per request: basic, but the first lay-down must be
exactly two runs of four or more cards, worth at least 30 points."""

REVIEW_DEAL: dict[str, Any] = {
    "hands": [["KH", "5C", "4S", "4D", "TS", "9C", "KS", "4C", "AD", "3C"],
              ["8D", "6H", "6S", "7D", "6D", "9D", "8H", "QC", "KC", "AC"]],
    "upcard": "KD"}
"""The deal of the review examples: a short gin hand."""

REQUESTS: dict[str, list[dict[str, Any]]] = {
    "solve_hand": [
        {"variant": "gin", "hand": ["AS", "2S", "3S", "7H", "7D", "7C", "KD", "QH", "4C", "9S"]},
        {"variant": "indian13", "wild_rank": "9", "hand": "AH 2H 3H 4S 5S 9D 7S KC KD KS 5D 6D 7D"},
        {"variant": "rummy500", "hand": "5C 5H 4S 3D 2S 3S 3C JK 2C AD 5D JK AC"},
        {"variant": "gin", "hand": "AS 2S 3S 4S 7H 7D 7C KD QH 4C 9S", "discard": True,
         "rules": {"knock_limit": 10}, "engine": "auto", "time_limit_ms": 500},
        {"variant": "contract", "rules": {"contract_round": 2},
         "hand": "7S 7H 7D 4C 5C 6C 7C KD 2H 9S"},
        {"variant": "kalooki", "hand": "QS KS AS 9H 9D 9C JK 4D 5D 6D 2C 3H TS", "discard": True},
        {"variant": "basic", "rules": CUSTOM_RULES, "hand": "4H 5H 6H 7H 9C TC JC QC 2S KD"},
    ],
    "solve_batch": [
        {"requests": [{"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"},
                      {"variant": "gin", "hand": "AS 2S ZZ"}]},
    ],
    "validate_hand": [
        {"variant": "indian13", "wild_rank": "9",
         "melds": [["AH", "2H", "3H"], ["4S", "5S", "9D", "7S"], ["KC", "KD", "KS"],
                   ["5D", "6D", "7D"]],
         "deadwood": []},
        {"variant": "gin", "melds": [["AS", "2S", "4S"], ["7H", "7D", "7S"]],
         "deadwood": ["KD", "QH", "4C", "9S"]},
        {"variant": "contract", "rules": {"contract_round": 1},
         "melds": [["7S", "7H", "7D"], ["KS", "KH", "KC"], ["4C", "5C", "6C", "7C"]],
         "deadwood": ["2H", "9S"]},
    ],
    "gin_knock": [
        {"hand": "2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D"},
        {"hand": ["AS", "2S", "3S", "7H", "7D", "7C", "8C", "9C", "TC", "4H"], "upcard": "4D"},
        {"hand": "AS 2S 3S 7H 7D 7C 8C 9C TC 4H", "knock_limit": 5, "rules": {"gin_bonus": 20}},
    ],
    "gin_score": [
        {"knocker": "5H 4H 4D 3H 6H 3C 4C 6C 2C 5C", "defender": "6D 3S 7S TD 9D 4S 9H 8D 7H TS"},
        {"knocker": "5H 6H 7H 8H 9S 9D 9C 2C 3C 4C 5C", "defender": "4H TH 2S 3S KD KC QS JD 6C 6D",
         "rules": {"big_gin_bonus": 50}},
    ],
    "hint_discard": [
        {"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C 8C 9C TC KH QD"},
        {"variant": "indian13", "wild_rank": "7", "hand": "3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C",
         "time_limit_ms": 2000},
    ],
    "hint_draw": [
        {"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S", "discard_top": "4S",
         "seen": ["9H"]},
        {"variant": "rummy500", "hand": "AH 2H 5S 6S 9D 9C KC", "discard_top": "3H"},
    ],
    "hint_layoffs": [
        {"variant": "rummy500", "hand": "8H 9H 4H JK 8C QC 2D",
         "table": [["5H", "6H", "7H"], ["7S", "7D", "7C"], ["JK", "9C", "TC"]]},
        {"variant": "gin", "hand": "8H 9H KS 3C 4C 5C", "table": [["5H", "6H", "7H"]]},
        {"variant": "contract", "hand": "8H 9H KS KS 3C", "table": [["5H", "6H", "7H", "JK"],
                                                                   ["KD", "KH", "KC"]]},
    ],
    "hint_pile": [
        {"variant": "rummy500", "hand": "8H 9H 4H 2D 8C", "table": [["5H", "6H", "7H"]],
         "discard_pile": ["KS", "3C", "8D", "8S", "QD"]},
        {"variant": "rommy", "hand": "8H 9H 4H 2D 8C", "discard_pile": "KS 3C 8D 8S QD"},
    ],
    "advise": [
        {"game": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S", "upcard": "4S",
         "history": [], "me": 0, "dealer": 1, "level": "novice", "seed": 1},
        {"game": "gin", "hand": "AS 2S 3S 4S 7H 7D 7C KD QH 4C 9S", "upcard": "4S",
         "history": [{"player": 0, "action": "take_discard", "card": "4S"}],
         "me": 0, "dealer": 1, "seed": 7},
        {"game": "gin", "hand": "2C 3C 4C 8D 8S 8H JH QH KS 5D", "upcard": "4S",
         "history": [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
                     {"player": 0, "action": "draw_stock"},
                     {"player": 0, "action": "discard", "card": "9H"}],
         "me": 1, "dealer": 1, "score": {"me": 40, "opponent": 65, "target": 100}, "seed": 3,
         "level": "novice"},
        {"game": "gin", "hand": "3H 4H 6H 4S 5S 9S 9C JD JC 8C", "upcard": "5H",
         "history": [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
                     {"player": 0, "action": "draw_stock"},
                     {"player": 0, "action": "discard", "card": "KC"},
                     {"player": 1, "action": "draw_stock"},
                     {"player": 1, "action": "knock", "card": "QD",
                      "melds": [["AS", "2S", "3S"], ["7H", "7D", "7C"], ["4D", "5D", "6D"]],
                      "deadwood": ["2H"]}],
         "me": 0, "dealer": 1},
        {"game": "indian13", "players": 3, "wild_rank": "7H", "me": 2, "dealer": 0,
         "hand": "2S 4S 5S 6H 8H 9H JD QD 3C 3D 5C TC JK", "upcard": "QH",
         "history": [{"player": 1, "action": "draw_stock"},
                     {"player": 1, "action": "discard", "card": "9S"},
                     {"player": 2, "action": "draw_stock"},
                     {"player": 2, "action": "discard", "card": "KC"},
                     {"player": 0, "action": "drop"},
                     {"player": 1, "action": "take_discard", "card": "KC"},
                     {"player": 1, "action": "discard", "card": "4D"}],
         "discard_pile": ["QH", "9S", "4D"], "stock_count": 63, "level": "novice", "seed": 5},
        {"game": "indian13", "wild_rank": "7H", "me": 1, "dealer": 0,
         "hand": "AH 2H 3H 4C 5C 6C 9D 9C 9S 9H JK QD KD 2S", "upcard": "8D",
         "history": [{"player": 1, "action": "draw_stock"},
                     {"player": 1, "action": "discard", "card": "TD"},
                     {"player": 0, "action": "draw_stock"},
                     {"player": 0, "action": "discard", "card": "6C"},
                     {"player": 1, "action": "take_discard", "card": "6C"}],
         "level": "novice", "seed": 2},
        {"game": "rummy500", "players": 3, "me": 2, "dealer": 0,
         "hand": "9S 9D 5C JK", "upcard": "8C",
         "history": [{"player": 1, "action": "draw_stock"},
                     {"player": 1, "action": "meld", "melds": [["AH", "2H", "3H"]]},
                     {"player": 1, "action": "discard", "card": "KC"},
                     {"player": 2, "action": "take_discard", "card": "8C"},
                     {"player": 2, "action": "meld", "melds": [["8C", "9C", "TC"]]},
                     {"player": 2, "action": "lay_off", "target": 0,
                      "melds": [["AH", "2H", "3H", "4H"]]},
                     {"player": 2, "action": "discard", "card": "KC"},
                     {"player": 0, "action": "draw_stock"},
                     {"player": 0, "action": "discard", "card": "QS"},
                     {"player": 1, "action": "draw_stock"},
                     {"player": 1, "action": "discard", "card": "5H"}],
         "level": "novice", "seed": 4},
        {"game": "rommy", "players": 4, "me": 0, "dealer": 0,
         "hand": "5C 7C 8D 8H 8S QH JK", "upcard": "6C",
         "history": [{"player": 1, "action": "draw_stock"},
                     {"player": 1, "action": "discard", "card": "4D"},
                     {"player": 2, "action": "draw_stock"},
                     {"player": 2, "action": "discard", "card": "KS"},
                     {"player": 3, "action": "take_discard", "card": "4D"},
                     {"player": 3, "action": "discard", "card": "2C"}],
         "level": "novice", "seed": 6},
        {"game": "basic", "players": 2, "me": 0, "dealer": 0,
         "hand": "AH 2H 3H 9S 9D 9C 5C 6C 8C QS 7C", "upcard": "KD",
         "history": [{"player": 1, "action": "draw_stock"},
                     {"player": 1, "action": "meld", "melds": [["4D", "5D", "6D"]]},
                     {"player": 1, "action": "discard", "card": "7C"},
                     {"player": 0, "action": "take_discard", "card": "7C"}],
         "level": "novice", "seed": 7},
    ],
    "review_game": [
        {"game": "gin", "players": ["ann", "bob"], "dealer": 1,
         "deal": REVIEW_DEAL,
         "events": [{"player": 0, "action": "take_discard", "card": "KD"},
                    {"player": 0, "action": "discard", "card": "9C"},
                    {"player": 1, "action": "take_discard", "card": "9C"},
                    {"player": 1, "action": "discard", "card": "9D"},
                    {"player": 0, "action": "draw_stock", "drawn": "4H"},
                    {"player": 0, "action": "knock", "card": "TS",
                     "melds": [["4S", "4H", "4D"], ["KS", "KH", "KD"], ["3C", "4C", "5C"]],
                     "deadwood": ["AD"]},
                    {"player": 1, "action": "lay_off", "melds": [["6D", "7D", "8D"]],
                     "deadwood": ["6S", "6H", "8H", "AC", "9C", "QC"]}],
         "seed": 1},
        {"game": "gin", "players": ["ann", "bob"], "dealer": 1,
         "deal": REVIEW_DEAL,
         "events": [{"player": 0, "action": "take_discard", "card": "KD"},
                    {"player": 0, "action": "discard", "card": "9C"},
                    {"player": 1, "action": "take_discard", "card": "9C"},
                    {"player": 1, "action": "discard", "card": "9D"}],
         "score": [40, 65], "seats": [1], "level": "novice", "seed": 2},
    ],
    "review_openspiel": [
        {"history": [37, 12, 35, 23, 31, 3, 48, 38, 15, 46, 17, 22, 41, 16, 28, 40, 5, 24, 18,
                     13, 7, 54, 54, 53, 27, 31, 52, 41, 53, 25, 23, 52, 55, 17, 141, 84, 54,
                     54, 119, 54],
         "players": ["ann", "bob"], "level": "novice", "seed": 1},
    ],
    "score_round": [
        {"variant": "indian13", "wild_rank": "7", "players": [
            {"hand": "3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C", "went_out": True},
            {"hand": "2S 4S 6S 8S TS QS 2H 4H 6H 8H TH QH KD"},
            {"dropped": "first"},
        ]},
        {"variant": "basic", "players": [{"went_out": True, "rummy": True}, {"hand": "KS 2H 3D"}]},
        {"variant": "kalooki", "players": [{"went_out": True}, {"hand": "JK 7S 2D"},
                                           {"hand": "AH KC"}]},
        {"variant": "rummy500", "players": [
            {"melded": [["9S", "9D", "9C"]], "went_out": True,
             "laid_off": [{"cards": ["AH"], "onto": ["2H", "3H", "4H"]}]},
            {"hand": "KS QD", "melded": [["2H", "3H", "4H"]]},
        ]},
    ],
}

EXAMPLE_ELAPSED_MS = 1.5


def _load() -> dict[str, list[dict[str, Any]]]:
    if not EXAMPLES_PATH.exists():  # first generation: placeholders until answers exist
        return {key: [{} for _ in requests] for key, requests in REQUESTS.items()}
    data: dict[str, list[dict[str, Any]]] = json.loads(EXAMPLES_PATH.read_text(encoding="utf-8"))
    return data


EXAMPLES = _load()


def example(*path: str | int) -> Any:
    """The stored answer at ``path`` (``example("solve", 0, "melds", 0)``), or
    None while ``examples.json`` lacks it (before the first generation)."""
    value: Any = EXAMPLES
    for step in path:
        try:
            value = value[step]
        except (KeyError, IndexError, TypeError):
            return None
    return value
