"""The Rommy advisor (Danish "500", seed 002): what it shares with Rummy 500 is
tested in tests/test_play_rummy500.py; here, what differs -- 2 to 6 players
of 7 cards, the 50-point pile penalty instead of a refusal, a throw that ends
every turn (so closing is a discard and there is no going out by laying the
last card), Rommy's card points -- and the game on the wire.  (Every move the
advisor lists is played through the arena's independent referee in
tests/test_arena_rommy.py.)"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from api.shared.examples import REQUESTS
from solver.cards import card_name, parse_card, parse_cards
from solver.errors import InvalidStateError
from solver.play import advise
from solver.play.laydown.state import LayDownState
from solver.play.laydown.variant import VARIANTS

ROMMY = VARIANTS["rommy"]
DEEP_UNUSED: list[dict[str, Any]] = [
    {"player": 1, "action": "draw_stock"},
    {"player": 1, "action": "discard", "card": "4D"},
    {"player": 2, "action": "draw_stock"},
    {"player": 2, "action": "discard", "card": "KS"},
    {"player": 3, "action": "take_discard", "card": "4D"},  # KS and 4D: neither is used
    {"player": 3, "action": "discard", "card": "2C"},
]
"""Four players, dealer 0: seat 3 goes into the pile for 4D, uses nothing and
throws 2C -- legal in Rommy, for 50 points."""
BASE: dict[str, Any] = {"players": 4, "me": 0, "dealer": 0, "upcard": "6C",
                        "hand": "5C 7C 8D 8H 8S QH JK", "history": DEEP_UNUSED}
"""Seat 0 to draw: under 2C lies 6C, which makes 5-6-7 of clubs."""


def _parse(**changes: Any) -> LayDownState:
    return LayDownState.parse(**{**BASE, **changes}, variant=ROMMY)


def _laid(move: Any) -> list[int]:
    return [c for meld in move.melds for c in meld] + [c for lay in move.layoffs
                                                       for c in lay.cards]


# -- the state ----------------------------------------------------------------------------
def test_an_unused_deep_take_costs_the_penalty_in_rommy_and_is_refused_in_rummy500() -> None:
    state = _parse()
    assert [seat.penalties for seat in state.seats] == [0, 0, 0, 1]
    assert state.seats[3].size == 8
    assert state.discard_pile == (parse_card("6C"), parse_card("2C"))
    with pytest.raises(InvalidStateError) as caught:
        advise("rummy500", **BASE, level="novice")
    assert caught.value.code in ("wrong_player_count", "history_out_of_turn")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_gets_seven_cards_from_one_deck(players: int) -> None:
    state = LayDownState.parse(players=players, me=1, dealer=0, hand="AH 2H 3H 9S 9D KC 5C",
                                upcard="8C", history=[], variant=ROMMY)
    assert state.hand_size == 7
    assert state.stock_count == 54 - 7 * players - 1


BAD_STATES = [
    ("wrong_player_count", {"players": 7}, ("players",)),
    # lays every card: no card left to throw
    ("invalid_meld", {"players": 2, "me": 0, "dealer": 0, "hand": "AS 2S 3S 4S 5S 6S 7S",
                      "history": [{"player": 1, "action": "draw_stock"},
                                  {"player": 1, "action": "meld",
                                   "melds": [["9H", "TH", "JH", "QH"], ["2D", "2C", "2H", "JK"]]}]},
     ("history", 1)),
    # keeps only the top it took this turn
    ("invalid_meld", {"players": 2, "me": 0, "dealer": 0, "upcard": "KD",
                      "hand": "AS 2S 3S 4S 5S 6S 7S",
                      "history": [{"player": 1, "action": "take_discard", "card": "KD"},
                                  {"player": 1, "action": "meld",
                                   "melds": [["9H", "TH", "JH", "QH"], ["2D", "2C", "2H"]]}]},
     ("history", 1)),
]


@pytest.mark.parametrize(("code", "changes", "loc"), BAD_STATES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(BAD_STATES)])
def test_a_rommy_state_that_cannot_arise_is_refused_saying_why(
        code: str, changes: dict[str, Any], loc: tuple[object, ...]) -> None:
    with pytest.raises(InvalidStateError) as caught:
        advise("rommy", **{**BASE, **changes}, level="novice")
    assert caught.value.code == code
    assert tuple(caught.value.loc) == loc


# -- the moves ------------------------------------------------------------------------------
def test_the_draw_lists_the_usable_deep_take_and_penalised_ones_saying_so() -> None:
    history = [*DEEP_UNUSED, {"player": 0, "action": "draw_stock"},
               {"player": 0, "action": "discard", "card": "QH"},
               {"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "3S"},
               {"player": 2, "action": "draw_stock"},
               {"player": 2, "action": "discard", "card": "TD"},
               {"player": 3, "action": "draw_stock"},
               {"player": 3, "action": "discard", "card": "9S"}]
    # the pile, bottom to top: 6C 2C QH 3S TD 9S; the hand (after drawing 4H) holds 5C 7C
    advice = advise("rommy", **{**BASE, "history": history, "hand": "5C 7C 8D 8H 8S 4H JK"},
                    level="novice", seed=3)
    takes = {card_name(m.move.card): m for m in advice.moves
             if m.move.action == "take_discard" and m.move.card is not None}
    assert set(takes) == {"9S", "TD", "3S", "QH", "6C"}
    # 9S: the top; TD (depth 2) is usable in 8D JK TD; 3S and QH (depths 3 and 4) are not
    # (no card of theirs to pair with the joker); 6C (depth 6) makes 5-6-7 of clubs; 2C
    # (depth 5) is neither usable nor within the penalised depths listed
    for usable in ("TD", "6C"):
        assert "unless it is melded" in " ".join(takes[usable].reasons)
    for unusable in ("3S", "QH"):
        assert "pile penalty" in " ".join(takes[unusable].reasons)


def test_after_an_unusable_deep_take_every_play_pays_the_penalty_and_says_so() -> None:
    history = [*DEEP_UNUSED, {"player": 0, "action": "take_discard", "card": "6C"}]
    state = _parse(history=history, hand="5C 7C 8D 8H 8S QH JK 6C 2C")
    assert state.must_use == parse_card("6C")
    advice = advise("rommy", **{**BASE, "history": history,
                                "hand": "5C 7C 8D 8H 8S QH JK 6C 2C"}, level="novice", seed=2)
    six = parse_card("6C")
    for value in advice.moves:
        uses = six in _laid(value.move)
        assert ("pile penalty" in " ".join(value.reasons)) == (not uses), value
    assert any(six not in _laid(m.move) for m in advice.moves)  # holding is listed too
    assert six in _laid(advice.recommended.move)


def test_closing_is_a_throw_after_laying_every_other_card_and_never_a_go_out() -> None:
    state: dict[str, Any] = {"players": 3, "me": 1, "dealer": 0, "upcard": "KC",
             "history": [{"player": 1, "action": "draw_stock"}]}
    advice = advise("rommy", **state, hand="AH 2H 3H 4H 9S 9D 9C 9H", level="novice", seed=1)
    assert all(m.move.action == "discard" for m in advice.moves)
    best = advice.recommended
    assert len(_laid(best.move)) == 7
    assert any("closes" in reason for reason in best.reasons)
    # the same hand in Rummy 500 may go out laying all eight
    advice = advise("rummy500", **state, hand="AH 2H 3H 4H 9S 9D 9C 9H", level="novice", seed=1)
    assert advice.recommended.move.action == "go_out"


def test_the_top_taken_alone_is_never_thrown_back_nor_left_alone() -> None:
    history = [{"player": 1, "action": "take_discard", "card": "KC"}]
    advice = advise("rommy", players=3, me=1, dealer=0, upcard="KC", history=history,
                    hand="AH 2H 3H 9S 9D 9C 4C KC", level="novice", seed=1)
    king = parse_card("KC")
    for value in advice.moves:
        assert value.move.card != king
        left = [c for c in parse_cards("AH 2H 3H 9S 9D 9C 4C KC") if c not in _laid(value.move)]
        assert left != [king]


def test_rommy_points_reach_the_reasons() -> None:
    advice = advise("rommy", players=3, me=1, dealer=0, upcard="KC",
                    history=[{"player": 1, "action": "draw_stock"}],
                    hand="AH 5S 9D QC 7H 2D 4C 8S", level="novice", seed=1)
    words = {card_name(m.move.card): " ".join(m.reasons) for m in advice.moves
             if m.move.action == "discard" and not m.move.melds and m.move.card is not None}
    assert "(5 points out of the hand)" in words["9D"]  # 2-9 count 5 in Rommy
    assert "(15 points out of the hand)" in words["AH"]


def test_the_same_seed_gives_the_same_advice() -> None:
    first = advise("rommy", **BASE, level="novice", seed=11).to_dict()
    again = advise("rommy", **BASE, level="novice", seed=11).to_dict()
    first.pop("elapsed_ms", None)
    again.pop("elapsed_ms", None)
    assert first == again


# -- on the wire ----------------------------------------------------------------------------
def test_the_documented_rommy_example_is_answered(inline_client: TestClient) -> None:
    body = next(r for r in REQUESTS["advise"] if r["game"] == "rommy")
    answer = inline_client.post("/v1/advise", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["game"] == "rommy"
    assert data["phase"] == "draw"
    assert {m["move"]["action"] for m in data["moves"]} <= {"draw_stock", "take_discard"}


def test_seven_players_are_a_422_naming_the_field(inline_client: TestClient) -> None:
    answer = inline_client.post("/v1/advise", json={**BASE, "game": "rommy", "players": 7})
    assert answer.status_code == 422
    assert "players" in answer.text


def test_a_play_is_listed_once_whatever_the_order_of_its_melds() -> None:
    """Closing finds the play of the other cards again, its melds perhaps in
    another order than the hand's best play: the same move, listed (and
    searched) once.  A hand of sets and a joker, found from the corpus."""
    history = [{"player": 0, "action": "take_discard", "card": "JS"},
               {"player": 0, "action": "discard", "card": "7C"},
               {"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "meld", "melds": [["3S", "3D", "3C"]]},
               {"player": 1, "action": "discard", "card": "AS"},
               {"player": 2, "action": "draw_stock"},
               {"player": 2, "action": "discard", "card": "JH"},
               {"player": 0, "action": "take_discard", "card": "AS"}]
    advice = advise("rommy", players=3, me=0, dealer=2, hand="AS JS AH JH AD AC TC QC JK",
                    upcard="JS", history=history, level="novice", seed=1)
    plays = [(m.move.card, tuple(sorted(m.move.melds)), m.move.layoffs) for m in advice.moves]
    assert len(plays) == len(set(plays))
    assert any(len(m.move.melds) >= 2 for m in advice.moves)  # the plays of two melds are there
