"""House rules for the lay-down advisor (Rummy 500, Rommy, basic rummy): the
knobs a table may change per call (``HOUSE_KNOBS``: card points, jokers, the
ace low only, Rommy's pile penalty, basic rummy's doubling) change the advice
the way the rules say, and every other knob is refused by name."""

from __future__ import annotations

import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from solver.cards import parse_card, parse_cards
from solver.errors import InvalidRulesError, InvalidStateError
from solver.play import advise
from solver.play.laydown.fast import FastPlayer
from solver.play.laydown.state import LayDownState
from solver.play.laydown.variant import HOUSE_KNOBS, VARIANTS

DRAWN: dict[str, Any] = {"players": 2, "me": 0, "dealer": 1, "upcard": "4D",
                         "history": [{"player": 0, "action": "draw_stock"}]}
"""Two players, seat 0 has drawn from the stock and plays its turn."""

REFUSED = [
    ("rummy500", {"decks": 2}, "decks"),  # the players decide the decks
    ("rummy500", {"hand_size": 10}, "hand_size"),
    ("rommy", {"min_run_length": 4}, "min_run_length"),
    ("basic", {"card_points": {"hand": {"K": 13}}}, "card_points"),
    ("rummy500", {"ace": "wrap"}, "ace"),
    ("rummy500", {"ace": "high"}, "ace"),
    ("rummy500", {"pile_penalty": 20}, "pile_penalty"),  # a deeper card must be used
    ("rommy", {"rummy_doubles": False}, "rummy_doubles"),  # net scoring: no rummy
    ("basic", {"joker_points": -1}, "joker_points"),  # out of range
    ("basic", {"jokers_per_deck": 2}, "jokers_per_deck"),  # basic's jokers are not wild
    ("rummy500", {"no_such_knob": 1}, "no_such_knob"),
]


@pytest.mark.parametrize(("game", "rules", "knob"), REFUSED,
                         ids=[f"{g}-{k}" for g, _, k in REFUSED])
def test_a_knob_the_advisor_does_not_play_is_refused_by_name(game: str, rules: dict[str, Any],
                                                            knob: str) -> None:
    with pytest.raises(InvalidRulesError) as caught:
        advise(game, **DRAWN, hand="AH 2H 3H 9S 9D KC 5C 6C 7C 8C QS" if game != "rummy500"
               else "AH 2H 3H 9S 9D KC 5C 6C 7C 8C QS 2D JD 4S", rules=rules, level="novice")
    assert caught.value.loc == ("rules", knob)
    assert knob in str(caught.value)


def test_the_api_refuses_a_knob_with_422_at_the_knob(inline_client: TestClient) -> None:
    body = {"game": "rommy", "players": 2, "me": 0, "dealer": 1, "upcard": "4D",
            "hand": "AH 2H 3H 9S 9D KC 5C", "rules": {"decks": 2}}
    response = inline_client.post("/v1/advise", json=body)
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"][-2:] == ["rules", "decks"]
    body["rules"] = {"joker_points": 40, "pile_penalty": 30}
    assert inline_client.post("/v1/advise", json=body).status_code == 200


def test_every_house_knob_is_a_knob_of_the_rule_book() -> None:
    from solver.rules import make_rules

    knobs = set(make_rules("rummy500").__dataclass_fields__)
    assert set(HOUSE_KNOBS) <= knobs


def test_with_the_ace_low_only_q_k_a_is_never_laid() -> None:
    hand = "QS KS AS 7H 8H 9H 2C 5D 8C TD 3C JH 6S 4C"
    high_low = advise("rummy500", **DRAWN, hand=hand, level="novice", seed=1)
    qka = sorted(parse_cards("QS KS AS"))
    assert any(qka in [sorted(m) for m in v.move.melds] for v in high_low.moves)
    low = advise("rummy500", **DRAWN, hand=hand, rules={"ace": "low"}, level="novice", seed=1)
    assert low.moves
    assert all(qka not in [sorted(m) for m in v.move.melds] for v in low.moves)
    fast = FastPlayer(VARIANTS["rummy500"].with_rules({"ace": "low"}).values)
    melds, _, _ = fast.melds(parse_cards("QS KS AS 7H 8H 9H"))
    assert [sorted(m) for m in melds] == [sorted(parse_cards("7H 8H 9H"))]


def test_the_house_points_are_the_points_laid() -> None:
    hand = "5H 6H JK 2S 8S KS JH 3D 9D 4C TC 7C QD AH"
    for rules, points in ((None, 5 + 6 + 15), ({"joker_points": 50}, 5 + 6 + 50),
                          ({"joker_points": 50, "pip_points": 5}, 5 + 5 + 50)):
        advice = advise("rummy500", **DRAWN, hand=hand, rules=rules, level="novice", seed=2)
        laying = [v for v in advice.moves if v.move.melds]
        assert laying
        for value in laying:
            assert [sorted(m) for m in value.move.melds] == [sorted(parse_cards("5H 6H JK"))]
            assert f"lays {points} points now" in value.reasons


def test_the_jokers_per_deck_set_the_deck() -> None:
    none = VARIANTS["rummy500"].with_rules({"jokers_per_deck": 0})
    state = LayDownState.parse(players=3, me=1, dealer=0, hand="AH 2H 3H 9S 9D KC 5C",
                                upcard="8C", history=[], variant=none)
    assert state.stock_count == 52 - 21 - 1
    with pytest.raises(InvalidStateError) as caught:
        LayDownState.parse(players=3, me=1, dealer=0, hand="AH 2H 3H 9S 9D KC JK",
                           upcard="8C", history=[], variant=none)
    assert caught.value.code == "too_many_jokers"  # the deck has none, as a solve says
    four = VARIANTS["rummy500"].with_rules({"jokers_per_deck": 4})
    state = LayDownState.parse(players=6, me=1, dealer=0, hand="AH 2H 3H 9S 9D KC 5C",
                                upcard="8C", history=[], variant=four)
    assert state.stock_count == 104 + 8 - 42 - 1  # two decks from five players


def test_rommys_pile_penalty_is_the_houses() -> None:
    history = [{"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "KS"},
               {"player": 0, "action": "draw_stock"},
               {"player": 0, "action": "discard", "card": "TD"},
               {"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "2C"}]
    state: dict[str, Any] = {"players": 2, "me": 0, "dealer": 0, "upcard": "4D",
                             "hand": "AH 2H 3H 9S 9D 5C 7S", "history": history}
    advice = advise("rommy", **state, rules={"pile_penalty": 30}, level="novice", seed=3)
    penalised = [r for v in advice.moves for r in v.reasons if "pile penalty" in r]
    assert penalised
    assert all("30-point pile penalty" in r for r in penalised)


def test_basic_rummy_without_the_doubling_pays_once() -> None:
    """Going out at once ends the round: every deal gives the same
    collection, and the rummy doubles it, or not."""
    history = [{"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "4H"},
               {"player": 0, "action": "take_discard", "card": "4H"}]
    state: dict[str, Any] = {"players": 2, "me": 0, "dealer": 0, "upcard": "KD",
                             "hand": "AH 2H 3H 9S 9D 9C 5C 6C 7C 8C 4H", "history": history}
    doubled = advise("basic", **state, level="novice", seed=4).recommended
    single = advise("basic", **state, rules={"rummy_doubles": False}, level="novice",
                    seed=4).recommended
    assert doubled.move == single.move and doubled.move.action == "go_out"
    assert doubled.expected_points == 2 * single.expected_points > 0
    assert any("Rummy!" in reason for reason in doubled.reasons)
    assert not any("Rummy!" in reason for reason in single.reasons)
    assert parse_card("4H") in [c for meld in single.move.melds for c in meld]
