"""The Rummy 500 advisor: states that cannot arise refused (422 on the wire,
saying why), the moves each phase allows and no other, reproducible for a
seed, anytime, and reachable through the API.  (Every recommended move is
played through the arena's independent referee in tests/test_arena_rummy500.py.)"""

from __future__ import annotations

import time
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from api.shared.examples import REQUESTS
from solver.cards import parse_card, parse_cards
from solver.deadline import Deadline
from solver.errors import InvalidStateError
from solver.play import advise
from solver.play.advice import Layoff, Move
from solver.play.laydown.state import LayDownState
from tests.advice_words import deals_in_words

OPENING: list[dict[str, Any]] = [
    {"player": 1, "action": "draw_stock"},
    {"player": 1, "action": "meld", "melds": [["AH", "2H", "3H"]]},
    {"player": 1, "action": "discard", "card": "KC"},
    {"player": 2, "action": "take_discard", "card": "8C"},  # 8C and KC above it
    {"player": 2, "action": "meld", "melds": [["8C", "9C", "TC"]]},
    {"player": 2, "action": "lay_off", "target": 0, "melds": [["AH", "2H", "3H", "4H"]]},
    {"player": 2, "action": "discard", "card": "KC"},
]
"""Three players, dealer 0: seat 1 lays A-2-3 of hearts, seat 2 goes into the
pile for 8C (must use it: 8-9-10 of clubs), lays off 4H and throws KC back."""
BASE: dict[str, Any] = {"players": 3, "me": 0, "dealer": 0, "upcard": "8C",
                        "hand": "5H 5S 5D 9D JK QS 7C", "history": OPENING}
"""Seat 0 to draw: the pile is KC; 5H fits the hearts run, 5S 5D make a set."""


def _state(**changes: Any) -> dict[str, Any]:
    return {**BASE, **changes}


def _after(*events: dict[str, Any], hand: str) -> dict[str, Any]:
    return _state(history=[*OPENING, *events], hand=hand)


def _joker_run_laid_off(extended: str) -> dict[str, Any]:
    """Seat 1 lays 5H 6H JK (the joker is 7H), seat 2 lays off onto it: the
    run ``extended`` afterwards."""
    history = [{"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "meld", "melds": [["5H", "6H", "JK"]]},
               {"player": 1, "action": "discard", "card": "KC"},
               {"player": 2, "action": "draw_stock"},
               {"player": 2, "action": "lay_off", "target": 0, "melds": [extended.split()]},
               {"player": 2, "action": "discard", "card": "QD"}]
    return _state(hand="5S 5D 9D QS 7C 2C 3C", history=history)


# -- states that cannot arise ------------------------------------------------------------
BAD_STATES = [
    ("wrong_player_count", _state(players=9), ("players",)),
    ("wrong_player_count", _state(players=1), ("players",)),
    ("wrong_hand_size", _state(hand="5H 5S 5D 9D JK QS"), ("hand",)),
    ("not_your_turn", _state(me=1), ("history",)),
    ("too_many_copies", _state(hand="5H 5S 5D 9D JK QS 9C"), ("hand",)),  # 9C is on the table
    ("history_out_of_turn", _state(history=[{"player": 2, "action": "draw_stock"}]),
     ("history", 0)),
    ("pile_mismatch", _state(history=[{"player": 1, "action": "take_discard", "card": "9H"}]),
     ("history", 0)),
    ("invalid_meld", _state(history=[{"player": 1, "action": "draw_stock"},
                                     {"player": 1, "action": "meld",
                                      "melds": [["KH", "AH", "2H"]]}]), ("history", 1)),
    ("invalid_meld", _state(history=[{"player": 1, "action": "draw_stock"},
                                     {"player": 1, "action": "meld",
                                      "melds": [["KS", "KH", "KD", "KC", "JK"]]}]),
     ("history", 1)),
    ("invalid_meld", _state(history=[*OPENING[:5], {"player": 2, "action": "lay_off", "target": 0,
                                                    "melds": [["AH", "2H", "3H", "5H"]]}]),
     ("history", 5)),
    ("invalid_event", _state(history=[*OPENING[:5], {"player": 2, "action": "lay_off",
                                                     "target": 4,
                                                     "melds": [["AH", "2H", "3H", "4H"]]}]),
     ("history", 5)),
    # went into the pile for 8C and threw without using it
    ("history_out_of_turn", _state(history=[*OPENING[:4], {"player": 2, "action": "discard",
                                                           "card": "QD"}]), ("history", 4)),
    # took the top alone and threw it back
    ("history_out_of_turn", _state(history=[{"player": 1, "action": "take_discard", "card": "8C"},
                                            {"player": 1, "action": "discard", "card": "8C"}]),
     ("history", 1)),
    ("history_out_of_turn", _state(history=[{"player": 1, "action": "pass"}]), ("history", 0)),
    ("stock_mismatch", _state(stock_count=12), ("stock_count",)),
    ("pile_mismatch", _state(discard_pile=["QC"]), ("discard_pile",)),
    ("field_not_for_game", {**_state(), "wild_rank": "7"}, ("wild_rank",)),
    # the joker of 5H 6H JK stands for 7H: 7H laid beside it would move it to 4H (or 8H)
    ("invalid_meld", _joker_run_laid_off("5H 6H JK 7H"), ("history", 4)),
    ("invalid_state", _state(me=2, hand="2S 5D 9H JD QS 4C 7H KC 8C",  # 8C fits nothing
                             history=[*OPENING[:3],
                                      {"player": 2, "action": "take_discard", "card": "8C"}]),
     ("history", 3)),
    ("invalid_meld", _state(history=[{"player": 1, "action": "draw_stock"},
                                     {"player": 1, "action": "meld",
                                      "melds": [["6H", "JK", "5H"]]}]), ("history", 1)),
    ("invalid_meld", _joker_run_laid_off("7H 5H 6H JK"), ("history", 4)),
]


@pytest.mark.parametrize(("code", "state", "loc"), BAD_STATES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(BAD_STATES)])
def test_a_state_that_cannot_arise_is_refused_saying_why(code: str, state: dict[str, Any],
                                                         loc: tuple[object, ...]) -> None:
    with pytest.raises(InvalidStateError) as caught:
        advise("rummy500", **state, level="novice")
    assert caught.value.code == code
    assert tuple(caught.value.loc) == loc
    assert str(caught.value)


def test_a_play_moving_a_tables_joker_is_not_legal() -> None:
    """The card a run's joker stands for is no layoff beside it: asked for
    (a game review's played move), it is refused, not valued."""
    history = [{"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "meld", "melds": [["5H", "6H", "JK"]]},
               {"player": 1, "action": "discard", "card": "KC"},
               {"player": 2, "action": "draw_stock"},
               {"player": 2, "action": "discard", "card": "QD"},
               {"player": 0, "action": "draw_stock"}]
    state = _state(hand="7H 5S 5D 9D QS 7C 2C 3C", history=history)
    moved = Move("discard", card=parse_card("QS"),
                 layoffs=(Layoff(0, (parse_card("7H"),), tuple(parse_cards("5H 6H JK 7H"))),))
    with pytest.raises(InvalidStateError) as caught:
        advise("rummy500", **state, level="novice", consider=[moved])
    assert caught.value.code == "illegal_move"
    listed = advise("rummy500", **state, level="novice").moves
    assert not any(lay.cards == (parse_card("7H"),) for m in listed for lay in m.move.layoffs)


def test_a_considered_layoff_is_the_layoff_its_meld_makes() -> None:
    """A layoff to consider names the cards its meld adds, onto a table meld
    that exists: one claiming the card that must be used (8C, taken from
    below the top) while its meld adds 4H, or aimed at table meld -1, is
    refused, not valued as a legal play."""
    took = _state(me=2, hand="9C TC 4H JD QS 4C 7S KC 8C",
                  history=[*OPENING[:3], {"player": 2, "action": "take_discard", "card": "8C"}])
    drew = _state(me=2, hand="9C TC 4H JD QS 4C 7S 5C",
                  history=[*OPENING[:3], {"player": 2, "action": "draw_stock"}])
    run = tuple(parse_cards("AH 2H 3H 4H"))
    for state, target, card in ((took, 0, "8C"), (drew, -1, "4H")):
        move = Move("discard", card=parse_card("JD"),
                    layoffs=(Layoff(target, (parse_card(card),), run),))
        with pytest.raises(InvalidStateError) as caught:
            advise("rummy500", **state, level="novice", consider=[move])
        assert caught.value.code == "illegal_move"
    legal = Move("discard", card=parse_card("JD"), melds=(tuple(parse_cards("8C 9C TC")),),
                 layoffs=(Layoff(0, (parse_card("4H"),), run),))
    assert advise("rummy500", **took, level="novice", consider=[legal]).moves


def test_a_lay_off_onto_an_empty_table_says_so() -> None:
    history = [{"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "lay_off", "target": 0, "melds": [["AH", "2H", "3H"]]}]
    with pytest.raises(InvalidStateError) as caught:
        advise("rummy500", **_state(history=history), level="novice")
    assert (caught.value.code, caught.value.loc) == ("invalid_event", ("history", 1))
    assert "no meld has been laid yet" in str(caught.value)
    assert "-1" not in str(caught.value)


def test_the_replay_keeps_the_table_and_each_players_points() -> None:
    state = LayDownState.parse(**BASE)
    assert [tm.meld.cards for tm in state.table] == [tuple(parse_cards("AH 2H 3H 4H")),
                                                      tuple(parse_cards("8C 9C TC"))]
    # A-2-3 of hearts laid low: 1 + 2 + 3; seat 2: 8 + 9 + 10 and the 4H laid off
    assert [seat.laid_points for seat in state.seats] == [0, 6, 31]
    assert state.discard_pile == (parse_card("KC"),)
    assert [seat.size for seat in state.seats] == [7, 4, 4]
    assert state.stock_count == 54 - 21 - 1 - 1
    assert len(state.unseen) == state.stock_count + 4 + 4  # the others' hands
    assert state.seats[2].took == tuple(parse_cards("KC 8C"))


def test_a_joker_taken_from_the_pile_is_the_upper_of_two() -> None:
    history = [{"player": 1, "action": "draw_stock"}, {"player": 1, "action": "discard", "card": "JK"},
               {"player": 2, "action": "draw_stock"}, {"player": 2, "action": "discard", "card": "5C"},
               {"player": 0, "action": "draw_stock"}, {"player": 0, "action": "discard", "card": "JK"},
               {"player": 1, "action": "draw_stock"}, {"player": 1, "action": "discard", "card": "7S"},
               {"player": 2, "action": "take_discard", "card": "JK"},
               {"player": 2, "action": "meld", "melds": [["7S", "JK", "9S"]]},
               {"player": 2, "action": "discard", "card": "2D"}]
    state = LayDownState.parse(players=3, me=0, dealer=0, hand="5H 5S 5D 9D QS 7C 3C",
                                upcard="8C", history=history)
    assert state.discard_pile == tuple(parse_cards("8C JK 5C 2D"))
    assert state.seats[2].took == tuple(parse_cards("7S JK"))
    advice = advise("rummy500", players=3, me=0, dealer=0, hand="5H 5S 5D 9D QS 7C 3C",
                    upcard="8C", history=history, level="novice")
    takes = [m.move.card for m in advice.moves if m.move.action == "take_discard"]
    assert len(takes) == len(set(takes))  # the lower joker is not a second "take JK"


# -- the answer ------------------------------------------------------------------------------
def test_the_draw_offers_the_stock_and_every_usable_pile_depth() -> None:
    state = _after({"player": 0, "action": "draw_stock"},
                   {"player": 0, "action": "discard", "card": "QS"},
                   {"player": 1, "action": "draw_stock"},
                   {"player": 1, "action": "discard", "card": "6D"},
                   {"player": 2, "action": "draw_stock"},
                   {"player": 2, "action": "discard", "card": "9S"},
                   hand="5H 5S 5D 9D JK 7C 6C")
    advice = advise("rummy500", **state, level="novice", seed=1)
    assert advice.phase == "draw"
    offered = {(m.move.action, m.move.card) for m in advice.moves}
    # the pile (bottom to top): KC QS 6D 9S.  The top may always be taken; 6D
    # can be used at once (5D 6D and the joker, or 6C 6D and the joker); no
    # meld or table meld takes QS or KC (the clubs run 8-9-10 wants 7C or JC).
    assert offered == {("draw_stock", None), ("take_discard", parse_card("9S")),
                       ("take_discard", parse_card("6D"))}
    for value in advice.moves:
        assert value.samples >= 1 and value.reasons


def test_after_going_into_the_pile_every_move_uses_the_card() -> None:
    state = _after({"player": 0, "action": "take_discard", "card": "KC"},
                   hand="5H 5S 5D 9D JK QS 7C KC")
    advice = advise("rummy500", **state, level="novice", seed=2)
    assert advice.phase == "play"
    kc = parse_card("KC")
    assert {m.move.card for m in advice.moves} >= set(parse_cards("5H 5S 5D 9D JK QS 7C")) - \
        {parse_card("5H"), parse_card("7C")}  # each card may be thrown (bar the laid ones)
    for value in advice.moves:
        # KC was the top taken alone: kept or laid, never thrown back
        assert value.move.card != kc
    state = _after({"player": 0, "action": "draw_stock"},
                   {"player": 0, "action": "discard", "card": "QS"},
                   {"player": 1, "action": "draw_stock"},
                   {"player": 1, "action": "discard", "card": "KS"},
                   {"player": 2, "action": "draw_stock"},
                   {"player": 2, "action": "discard", "card": "9S"},
                   {"player": 0, "action": "take_discard", "card": "QS"},
                   hand="5H 5S 5D 9D JK 7C 6C QS KS 9S")
    advice = advise("rummy500", **state, level="novice", seed=2)
    qs = parse_card("QS")
    for value in advice.moves:
        move = value.move
        used = [c for meld in move.melds for c in meld] + \
               [c for lay in move.layoffs for c in lay.cards]
        assert qs in used, str(move)


def test_a_hand_that_can_be_melded_whole_goes_out() -> None:
    state = _after({"player": 0, "action": "take_discard", "card": "KC"},
                   hand="5H 5S 5D KS KD JK QS KC")
    advice = advise("rummy500", **state, level="standard", seed=3)
    outs = [m for m in advice.moves if m.move.action == "go_out"]
    discards_out = [m for m in advice.moves if m.move.action == "discard"
                    and len(m.move.melds) + len(m.move.layoffs) > 0]
    assert outs or discards_out
    best = advice.recommended.move
    laid = sum(len(m) for m in best.melds) + sum(len(lay.cards) for lay in best.layoffs)
    assert laid + (best.card is not None) == 8  # the whole hand leaves: the round ends


def test_the_same_seed_gives_the_same_advice() -> None:
    for level in ("novice", "standard"):
        one = advise("rummy500", **BASE, level=level, seed=11).to_dict()
        two = advise("rummy500", **BASE, level=level, seed=11).to_dict()
        assert one == two


def test_the_deadline_is_kept() -> None:
    state = _after({"player": 0, "action": "draw_stock"}, hand="5H 5S 5D 9D JK QS 7C 2C")
    advise("rummy500", **state, level="novice")  # warm
    started = time.monotonic()
    advice = advise("rummy500", **state, level="expert", time_limit_ms=40)
    assert time.monotonic() - started < 0.04 + 0.15
    assert not advice.complete and advice.phase == "play"


@pytest.mark.parametrize("game", ["rummy500", "rommy", "basic"])
def test_a_move_the_clock_stopped_before_any_deal_shows_no_figures(game: str) -> None:
    """A deadline already past: no move is played out.  Such a move shows 0
    deals and says it was not played out, rather than "round score +0.0
    against the others' mean over 1 deals" (a placeholder read as a deal)."""
    hand = {"rummy500": "AS 2S 3S 7H 7D 7C KD QH 4C 9S JK 5D 6D", "rommy": "AS 2S 3S 7H 7D 7C KD",
            "basic": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}[game]
    advice = advise(game, hand=hand, upcard="8C", level="expert",
                    deadline=Deadline(time.monotonic() - 1))
    assert advice.moves and all(m.samples == 0 and m.confidence == "rough"
                                for m in advice.moves)
    deals_in_words(advice.moves)


@pytest.mark.parametrize("game", ["rummy500", "rommy", "basic"])
def test_no_move_without_figures_is_put_above_one_with_them(game: str) -> None:
    """Clocks cut at several points of the first pass: a move no deal was
    played for ranks below every move with figures (its stand-in 0 would
    otherwise outrank every move whose deals lose points), with no gap."""
    hand = {"rummy500": "AS 2S 3S 7H 7D 7C KD QH 4C 9S JK 5D 6D", "rommy": "AS 2S 3S 7H 7D 7C KD",
            "basic": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}[game]
    for ms in (3, 6, 12, 25):
        advice = advise(game, hand=hand, upcard="8C", level="expert",
                        deadline=Deadline(time.monotonic() + ms / 1000))
        shown = [m.samples > 0 for m in advice.moves]
        assert shown == sorted(shown, reverse=True), (ms, advice.moves)
        assert all(m.gap is None for m in advice.moves if m.samples == 0)


def test_a_cancelled_request_stops_its_search_at_once() -> None:
    """A client that goes away stops the playouts within milliseconds, not at
    the end of a round (at eight players an expert decision plays a second
    or more in one round): the API's solver process would otherwise be
    killed and replaced once it ignored its cancel flag for a second."""
    state: dict[str, Any] = {"players": 8, "me": 1, "dealer": 0, "upcard": "8C", "history": [],
             "hand": "3H 9S KD 5C 5C QH 2D"}
    advise("rummy500", **state, level="novice")  # warm
    cancelled_at = time.monotonic() + 0.05
    advice = advise("rummy500", **state, level="expert",
                    deadline=Deadline(time.monotonic() + 5.0,
                                      lambda: time.monotonic() >= cancelled_at))
    assert time.monotonic() - cancelled_at < 0.15
    assert not advice.complete and advice.moves


# -- the API ---------------------------------------------------------------------------------
def test_the_api_answers_the_rummy500_example(inline_client: TestClient) -> None:
    bodies = [body for body in REQUESTS["advise"] if body["game"] == "rummy500"]
    assert bodies
    for body in bodies:
        response = inline_client.post("/v1/advise", json=body)
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["game"] == "rummy500" and data["moves"][0] == data["recommended"]
        library = advise(**body).to_dict()
        assert [m["move"] for m in data["moves"]] == [m["move"] for m in library["moves"]]


def test_the_api_refuses_an_impossible_state_with_422(inline_client: TestClient) -> None:
    body = {"game": "rummy500", **_state(history=[{"player": 2, "action": "draw_stock"}])}
    response = inline_client.post("/v1/advise", json=body)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"][0]
    assert detail["type"] == "history_out_of_turn"
    assert detail["loc"] == ["body", "history", 0]
    body = {"game": "rummy500", **_state(history=[{"player": 1, "action": "lay_off",
                                                   "target": -1}])}
    assert inline_client.post("/v1/advise", json=body).status_code == 422


# -- five to eight players: two decks ------------------------------------------------------
SIX: dict[str, Any] = {"players": 6, "me": 0, "dealer": 5, "upcard": "KC",
                       "hand": "7H 7H 8H 8H 9H 9H 2C", "history": []}
"""Six players (two decks of 54): seat 0 to draw first, holding two copies of
7H, 8H and 9H."""


def test_five_to_eight_players_share_two_decks() -> None:
    for players in range(5, 9):
        state = LayDownState.parse(**{**SIX, "players": players, "dealer": players - 1})
        assert state.stock_count == 108 - 7 * players - 1
        assert len(state.unseen) == 108 - 7 - 1
        assert state.unseen.count(parse_card("7H")) == 0  # both copies in the hand
        assert state.unseen.count(parse_card("JK")) == 4
    with pytest.raises(InvalidStateError) as caught:  # one deck at four players
        LayDownState.parse(**{**SIX, "players": 4, "dealer": 3})
    assert caught.value.code == "too_many_copies"
    with pytest.raises(InvalidStateError) as caught:  # a third KC
        LayDownState.parse(**{**SIX, "hand": "KC KC 8H 8H 9H 9H 2C"})
    assert caught.value.code == "too_many_copies"


def test_the_api_advises_eight_players_and_refuses_nine(inline_client: TestClient) -> None:
    body = {"game": "rummy500", **SIX, "players": 8, "dealer": 7, "level": "novice"}
    response = inline_client.post("/v1/advise", json=body)
    assert response.status_code == 200, response.text
    assert response.json()["phase"] == "draw"
    response = inline_client.post("/v1/advise", json={**body, "players": 9})
    assert response.status_code == 422, response.text
    assert response.json()["detail"][0]["loc"] == ["body", "players"]


def test_with_two_decks_a_set_still_needs_its_suits_apart() -> None:
    laid_twice = [{"player": 1, "action": "draw_stock"},
                  {"player": 1, "action": "meld", "melds": [["4S", "5S", "6S"]]},
                  {"player": 1, "action": "discard", "card": "QD"},
                  {"player": 2, "action": "draw_stock"},
                  {"player": 2, "action": "meld", "melds": [["4S", "5S", "6S"]]},
                  {"player": 2, "action": "discard", "card": "QD"}]
    state = LayDownState.parse(**{**SIX, "dealer": 0, "me": 3, "history": laid_twice})
    assert [tm.meld.cards for tm in state.table] == [tuple(parse_cards("4S 5S 6S"))] * 2
    assert state.discard_pile == tuple(parse_cards("KC QD QD"))
    same_suit = [{"player": 1, "action": "draw_stock"},
                 {"player": 1, "action": "meld", "melds": [["4S", "4S", "4H"]]}]
    with pytest.raises(InvalidStateError) as caught:
        LayDownState.parse(**{**SIX, "dealer": 0, "me": 3, "history": same_suit})
    assert caught.value.code == "invalid_meld"


def test_a_take_names_the_upper_of_two_copies() -> None:
    history = [{"player": 0, "action": "draw_stock"},
               {"player": 0, "action": "discard", "card": "5D"},
               {"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "5D"},
               {"player": 2, "action": "take_discard", "card": "KC"}]  # the upcard: 3 cards
    before: dict[str, Any] = {"players": 6, "me": 2, "dealer": 5, "upcard": "KC",
                              "hand": "KS KH 3C 4C 6H 8D 9D", "history": history[:4]}
    state = LayDownState.parse(**before)
    advice = advise("rummy500", **before, level="novice", seed=4)
    takes = [m.move.card for m in advice.moves if m.move.action == "take_discard"]
    assert len(takes) == len(set(takes))
    assert parse_card("KC") in takes  # KS KH KC: the take down to the upcard melds
    assert state.discard_pile == tuple(parse_cards("KC 5D 5D"))
    after = LayDownState.parse(players=6, me=2, dealer=5,
                               hand="KS KH 3C 4C 6H 8D 9D KC 5D 5D", upcard="KC",
                               history=history)
    assert after.discard_pile == () and after.must_use == parse_card("KC")


def test_the_advisor_lays_both_copies_of_a_run() -> None:
    drawn = [{"player": 0, "action": "take_discard", "card": "KC"}]
    advice = advise("rummy500", **{**SIX, "history": drawn,
                                   "hand": "7H 7H 8H 8H 9H 9H 2C KC"}, level="novice", seed=5)
    assert advice.phase == "play"
    laying = [m for m in advice.moves if m.move.melds]
    assert laying, "the best play is among the moves"
    for value in laying:
        runs = sorted(sorted(meld) for meld in value.move.melds)
        assert runs == [sorted(parse_cards("7H 8H 9H"))] * 2
        assert "lays 48 points now" in value.reasons


# -- the fast player of the playouts -----------------------------------------------------
@pytest.mark.parametrize(("game", "players"),
                         [("rummy500", 2), ("rummy500", 6), ("rommy", 2), ("basic", 2)])
def test_the_fast_players_melds_are_melds_worth_at_most_the_exact_best(game: str,
                                                                        players: int) -> None:
    """On random hands: every meld the fast player lays reads as a meld under
    the rules, its points are what the solver's reading scores, and the total
    is the exact best play's (empty table) -- never more, and the same when the
    hand has no joker (its natural search is exhaustive).  Both maximise the
    net: melded points less the points left in hand."""
    import random

    from solver.classify import readings
    from solver.deadline import Deadline
    from solver.layoffs import LayoffSearch
    from solver.play.laydown.fast import FastPlayer
    from solver.play.laydown.variant import VARIANTS

    variant = VARIANTS[game].seated(players)
    deal = variant.deal
    fast = FastPlayer(variant.values)
    deck = [card for card, copies in enumerate(variant.copies) for _ in range(copies)]
    for index in range(300):
        rng = random.Random(index)
        hand = rng.sample(deck, rng.choice([7, 8, 10, 13, 20] if players > 4 else [7, 8, 10, 13]))
        melds, rest, points = fast.melds(hand)
        assert sorted([*(c for m in melds for c in m), *rest]) == sorted(hand)
        scored = 0
        for meld in melds:
            read = readings(meld, deal)
            assert read, meld
            scored += max(r.points for r in read)
        assert scored >= points  # a joker-helped run's low ace may be read higher
        _, best = LayoffSearch(deal, [], Deadline.never()).best(hand)
        net = points - sum(deal.points[c] for c in rest)
        assert net <= best.net_points, (hand, melds)
        if 52 not in hand:
            assert net == best.net_points, (hand, melds)


def test_the_integration_guides_example_is_a_state_the_advisor_answers() -> None:
    import json
    import re
    from pathlib import Path

    guide = (Path(__file__).resolve().parent.parent / "docs" / "INTEGRATION.md").read_text()
    section = guide.split("## A Rummy 500 round with the advisor", 1)[1]
    body = json.loads(re.search(r"```json\n(.*?)```", section, re.S).group(1))  # type: ignore[union-attr]
    assert body == {"game": "rummy500", **BASE}
    advice = advise(**body, level="novice")
    assert advice.phase == "draw" and advice.moves


def _huge(players: int, turns: int) -> dict[str, Any]:
    """The players draw and throw back ``turns`` times; then seat 0 takes the
    whole pile down to the upcard (a card it must use at once): 38 cards to
    lay down and throw at two players (one deck), 56 with copies at eight
    (two decks)."""
    import random

    from solver.cards import card_name
    from solver.play.laydown.variant import VARIANTS

    variant = VARIANTS["rummy500"].seated(players)
    deck = [card for card, copies in enumerate(variant.copies) for _ in range(copies)]
    random.Random(3).shuffle(deck)
    size = variant.hand_size(players)
    mine, upcard, stock = deck[:size], deck[size * players], deck[size * players + 1:]
    history: list[dict[str, Any]] = []
    pile = [upcard]
    for turn in range(turns):
        card = stock.pop(0)
        history += [{"player": turn % players, "action": "draw_stock"},
                    {"player": turn % players, "action": "discard", "card": card_name(card)}]
        pile.append(card)
    history.append({"player": 0, "action": "take_discard", "card": card_name(upcard)})
    return {"players": players, "me": 0, "dealer": players - 1, "upcard": card_name(upcard),
            "hand": [card_name(c) for c in [*mine, *pile]], "history": history}


@pytest.mark.parametrize(("players", "turns"), [(2, 24), (8, 48)])
def test_a_huge_hand_is_advised_within_the_deadline(players: int, turns: int) -> None:
    """The fast player's meld search is bounded, the exact search stops at the
    deadline, and each play's table is read once for all its throws."""
    state = _huge(players, turns)
    started = time.monotonic()
    advice = advise("rummy500", **state, level="expert", time_limit_ms=300)
    assert time.monotonic() - started < 0.3 + 0.4
    assert advice.phase == "play" and advice.moves


@pytest.mark.parametrize("players", [2, 8])
def test_a_deadline_that_cuts_the_search_still_offers_moves_using_the_card(players: int) -> None:
    """A legal take is never a 422 for want of time: when the deadline stops
    the search for the ways to use the card taken from below the top, one is
    found without it (a layoff, or a three-card meld holding it)."""
    state = _huge(players, 24 if players == 2 else 48)
    upcard = parse_card(state["upcard"])
    advice = advise("rummy500", **state, level="novice", time_limit_ms=1)
    assert advice.moves and not advice.complete
    for value in advice.moves:
        used = [c for meld in value.move.melds for c in meld] + \
               [c for lay in value.move.layoffs for c in lay.cards]
        assert upcard in used, str(value.move)


def test_with_two_decks_a_copy_of_the_top_taken_may_be_thrown() -> None:
    """Five players play Rummy 500 with two decks: after taking the pile top a
    player holding another copy of it may throw that copy (the top it took
    stays in hand); with one copy the top may not go back."""
    from solver.play import advise

    taken: dict[str, Any] = {
        "hand": "AH 5S 9D 9C KD QD 8C 8C", "upcard": "8C", "players": 5, "me": 0, "dealer": 4,
        "history": [{"player": 0, "action": "take_discard", "card": "8C"}]}
    advice = advise("rummy500", **taken, level="novice")
    assert any(m.move.action == "discard" and m.move.to_dict()["card"] == "8C"
               for m in advice.moves)
    thrown: dict[str, Any] = {**taken, "hand": "AH 5S 9D 9C KD QD 8C",
              "history": [*taken["history"], {"player": 0, "action": "discard", "card": "8C"},
                          *({"player": s, "action": "draw_stock"} if i == 0 else
                            {"player": s, "action": "discard", "card": card}
                            for s, card in ((1, "2S"), (2, "3S"), (3, "4S"), (4, "6S"))
                            for i in range(2))]}
    assert advise("rummy500", **thrown, level="novice").phase == "draw"
    alone: dict[str, Any] = {**taken, "hand": "AH 5S 9D 9C KD QD 2D 8C"}
    advice = advise("rummy500", **alone, level="novice")
    assert not any(m.move.action == "discard" and m.move.to_dict()["card"] == "8C"
                   for m in advice.moves)
