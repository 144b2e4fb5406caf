"""solver.review.record: a recorded game reads back to itself, and one that cannot
have happened is refused saying where (the code and the ``loc`` of the event)."""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable
from typing import Any

import pytest

from solver.cards import parse_card
from solver.errors import SolverInputError
from solver.review import read_record
from solver.review.selfplay import at_random, follow, play
from solver.review.table import walk

GIN: dict[str, Any] = {
    "game": "gin", "players": ["ann", "bob"], "dealer": 1,
    "deal": {"hands": [["KH", "5C", "4S", "4D", "TS", "9C", "KS", "4C", "AD", "3C"],
                       ["8D", "6H", "6S", "7D", "6D", "9D", "8H", "QC", "KC", "AC"]],
             "upcard": "KD"},
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
}
"""A short gin hand: ann knocks, bob replies (laying KC off on the kings)."""
STOCK = ("4H AH QH 7H 3D 7C 2H 3H JD 8S 2D 2C AS QS 2S TC 8C 5D 5H 7S 9S JS JH TH 3S 5S TD 9H 6C "
         "JC QD")
"""The rest of GIN's deck, in the order it is drawn."""


def _changed(change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    data = copy.deepcopy(GIN)
    change(data)
    return data


def _set(path: tuple[str | int, ...], value: object) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        target: Any = data
        for part in path[:-1]:
            target = target[part]
        target[path[-1]] = value
    return change


def _drop_stock_and_drawn(data: dict[str, Any]) -> None:
    del data["events"][4]["drawn"]


BAD: list[tuple[str, Callable[[dict[str, Any]], None], str, tuple[str | int, ...]]] = [
    ("a card not held", _set(("events", 1, "card"), "2H"), "card_not_held",
     ("events", 1, "card")),
    ("a take that is not the pile top", _set(("events", 2, "card"), "9D"), "pile_mismatch",
     ("events", 2, "card")),
    ("a draw of a card dealt", _set(("events", 4, "drawn"), "AC"), "drawn_mismatch",
     ("events", 4, "drawn")),
    ("a draw without its card", _drop_stock_and_drawn, "drawn_missing",
     ("events", 4, "drawn")),
    ("a card dealt twice", _set(("deal", "hands", 1, 0), "KH"), "too_many_copies",
     ("deal", "hands", 1, 0)),
    ("a short hand", _set(("deal", "hands", 0), ["KH"]), "wrong_hand_size",
     ("deal", "hands", 0)),
    ("a knock over the limit", _set(("events", 5), {
        "player": 0, "action": "knock", "card": "TS",
        "melds": [["4S", "4H", "4D"], ["KS", "KH", "KD"]],
        "deadwood": ["AD", "3C", "4C", "5C"]}), "cannot_knock", ("events", 5)),
    ("a field records lack", _set(("winner",), 0), "invalid_record", ("winner",)),
    ("a result its events do not score", _set(("result",), [10, -10]), "result_mismatch",
     ("result",)),
    ("a result beyond any hand's points", _set(("result",), [1e308, -1e308]),
     "invalid_record", ("result", 0)),
    ("a result that is not a number", _set(("result",), [float("nan"), 0.0]),
     "invalid_record", ("result", 0)),
    ("a reply keeping cards it laid", _set(("events", 6, "deadwood"), ["6S", "6H"]),
     "invalid_meld", ("events", 6, "deadwood")),
    ("a cut card in gin", _set(("deal", "wild_rank"), "7H"), "field_not_for_game",
     ("deal", "wild_rank")),
    ("an event after the end", lambda d: d["events"].append({"player": 0, "action": "pass"}),
     "hand_over", ("events", 7)),
    ("an unknown action", _set(("events", 0, "action"), "declare"), "invalid_event",
     ("events", 0, "action")),
]


@pytest.mark.parametrize(("what", "change", "code", "loc"), BAD, ids=[b[0] for b in BAD])
def test_a_record_that_cannot_have_happened_says_where(
        what: str, change: Callable[[dict[str, Any]], None], code: str,
        loc: tuple[str | int, ...]) -> None:
    with pytest.raises(SolverInputError) as caught:
        read_record(_changed(change))
    assert (caught.value.code, caught.value.loc) == (code, loc), what


def test_a_joker_in_a_game_without_jokers_is_said_to_be_one() -> None:
    """A joker dealt in gin read "JK at deal.upcard is one card too many: the
    gin deck holds jokers", the opposite of what is wrong, and one drawn
    "every copy is elsewhere"."""
    with pytest.raises(SolverInputError) as caught:
        read_record(_changed(_set(("deal", "upcard"), "JK")))
    assert (caught.value.code, caught.value.loc) == ("too_many_jokers", ("deal", "upcard"))
    assert caught.value.message == "JK at deal.upcard is not a card of gin: its deck has no jokers"
    with pytest.raises(SolverInputError) as caught:
        read_record(_changed(_set(("events", 4, "drawn"), "JK")))
    assert (caught.value.code, caught.value.loc) == ("too_many_jokers", ("events", 4, "drawn"))


def test_out_of_turn_events_are_the_advisors_replays_to_refuse() -> None:
    """Every card is where the events put it, but bob throws without drawing
    first: the advisor's replay of the public history refuses it, said of the
    event."""
    data = copy.deepcopy(GIN)
    del data["events"][2]
    data["events"][-1]["deadwood"].remove("9C")
    with pytest.raises(SolverInputError) as caught:
        read_record(data)
    assert caught.value.code == "history_out_of_turn"
    assert caught.value.loc == ("events", 2)
    assert caught.value.message.startswith("events[2]:")


WRONG_TURNS: list[tuple[str, Callable[[dict[str, Any]], None], tuple[str | int, ...]]] = [
    ("bob takes the first upcard in ann's place", _set(("events", 0, "player"), 1),
     ("events", 0)),
    ("bob passes where he must throw", lambda d: d["events"].insert(
        3, {"player": 1, "action": "pass"}), ("events", 3)),
    # Out of turn and with cards its seat does not hold: the turn is the fault said.
    ("ann throws bob's card in his turn", _set(("events", 3, "player"), 0), ("events", 3)),
    ("bob knocks after ann's knock, his deadwood miscounted", _set(("events", 6), {
        "player": 1, "action": "knock", "card": "QC", "melds": [["6D", "7D", "8D"]],
        "deadwood": ["6S", "6H"]}), ("events", 6)),
    ("ann knocks twice", _set(("events", 6), {
        "player": 0, "action": "knock", "card": "AD", "melds": [["4S", "4H", "4D"]],
        "deadwood": []}), ("events", 6)),
    ("ann discards after her knock", _set(("events", 6), {
        "player": 0, "action": "discard", "card": "QC"}), ("events", 6)),
]


@pytest.mark.parametrize(("what", "change", "loc"), WRONG_TURNS, ids=[w[0] for w in WRONG_TURNS])
def test_a_turn_out_of_order_is_named_where_it_was_played(
        what: str, change: Callable[[dict[str, Any]], None],
        loc: tuple[str | int, ...]) -> None:
    """The cards follow any order of turns, so a turn played by the wrong seat,
    or a pass out of its phase, shows in them only events later (a meld of
    cards not held at the knock; a hand over at the next event): the error
    names the event that could not have happened (audit 5).  An event out of
    turn whose cards are wrong too is refused for its turn, as a referee says
    "not your turn" before looking at the cards: it was ``card_not_held`` or
    ``invalid_knock``, about cards its seat had no turn to play."""
    with pytest.raises(SolverInputError) as caught:
        read_record(_changed(change))
    assert (caught.value.code, caught.value.loc) == ("history_out_of_turn", loc), what


def test_a_result_written_to_two_decimals_agrees_with_its_events() -> None:
    """A Rummy 500 margin at four players is a third of a point: the result a
    caller writes rounded to hundredths agrees; one off by a hundredth more
    does not (audit 5: every rounded third was refused)."""
    # followers: their game ends in 75 events, random players' in 123 (three times the time)
    data = play("rummy500", [follow] * 4, seed=1, players=("a", "b", "c", "d")).to_dict()
    scored = walk(read_record(data)).result
    assert scored is not None and any(r != round(r, 2) for r in scored)
    assert walk(read_record({**data, "result": [round(r, 2) for r in scored]})).result == \
        tuple(round(r, 2) for r in scored)
    with pytest.raises(SolverInputError) as caught:
        read_record({**data, "result": [round(r, 2) + 0.01 for r in scored]})
    assert caught.value.code == "result_mismatch"


def test_the_result_field_says_a_lay_down_games_units() -> None:
    """A Rummy 500 record's result is each round score less the others' mean,
    not the round scores a table writes down: the field's description says
    so (it said "as the source scored the hand", and a client sending its
    round scores got result_mismatch)."""
    from api.shared.schemas_review import ReviewRequest

    record = play("rummy500", [follow] * 3, seed=2, players=("a", "b", "c"))
    scored = walk(read_record(record.to_dict())).result
    assert scored is not None and sum(scored) == pytest.approx(0)
    description = ReviewRequest.model_fields["result"].description or ""
    assert "less the others' mean" in description and "collects, or pays" in description


def test_a_stock_order_fixes_every_draw() -> None:
    data = copy.deepcopy(GIN)
    rest = STOCK.split()
    data["deal"]["stock"] = rest
    del data["events"][4]["drawn"]
    record = read_record(data)
    assert record.steps[4].drawn is None  # as given: the walk reads it off the stock
    assert walk(record).decisions[4].drawn == parse_card("4H")
    data["deal"]["stock"] = [rest[1], rest[0], *rest[2:]]
    data["events"][4]["drawn"] = "4H"
    with pytest.raises(SolverInputError) as caught:
        read_record(data)
    assert (caught.value.code, caught.value.loc) == ("drawn_mismatch", ("events", 4, "drawn"))


@pytest.mark.parametrize("game", ["gin", "indian13", "rummy500", "basic"])
def test_records_read_back_to_themselves(game: str) -> None:
    record = play(game, [follow, at_random], seed=11, level="novice", max_decisions=14)
    again = read_record(record.to_dict())
    assert again == record
    assert read_record(GIN).to_dict()["events"] == GIN["events"]


def test_indian_rummy_needs_its_cut_card() -> None:
    record = play("indian13", [follow, follow], seed=2, level="novice", max_decisions=4)
    data = record.to_dict()
    del data["deal"]["wild_rank"]
    with pytest.raises(SolverInputError) as caught:
        read_record(data)
    assert (caught.value.code, caught.value.loc) == ("missing", ("deal", "wild_rank"))


def test_a_lay_off_that_moves_a_meld_is_refused() -> None:
    record = play("rummy500", [follow, follow], seed=5, level="novice", max_decisions=40)
    data = record.to_dict()
    layoff = next((i, e) for i, e in enumerate(data["events"]) if e["action"] == "lay_off")
    index, event = layoff
    event["melds"] = [list(reversed(event["melds"][0]))[:-1]]
    with pytest.raises(SolverInputError) as caught:
        read_record(data)
    assert caught.value.loc[:2] == ("events", index)


def test_a_basic_rummy_that_goes_out_with_a_throw_is_paid_double() -> None:
    # ann lays her whole hand in her first turn and throws the card drawn:
    # a rummy (nothing laid in an earlier turn), so bob pays his 68 twice
    data = {"game": "basic", "players": ["ann", "bob"], "dealer": 1,
            "deal": {"hands": ["AS 2S 3S 4S 5H 5D 5C 9C TC JC",
                               "2H 3H 6D 7S 8D 9H QS KC 6C 7H"], "upcard": "4D"},
            "events": [{"player": 0, "action": "draw_stock", "drawn": "KD"},
                       {"player": 0, "action": "meld",
                        "melds": [["AS", "2S", "3S", "4S"], ["5H", "5D", "5C"],
                                  ["9C", "TC", "JC"]]},
                       {"player": 0, "action": "discard", "card": "KD"}]}
    walked = walk(read_record(data))
    assert (walked.ending, walked.result) == ("out", (136.0, -136.0))


@functools.cache
def _followed(game: str) -> dict[str, Any]:
    """Twenty decisions of two followers (the game's cases share one: each changes a copy)."""
    return play(game, [follow, follow], seed=1, level="novice", max_decisions=20).to_dict()


@pytest.mark.parametrize(("game", "action", "field", "value"), [
    ("rummy500", "draw_stock", "card", "QS"),
    ("rummy500", "discard", "melds", [["AS", "AH", "AC"]]),
    ("rummy500", "take_discard", "target", 0),
    ("indian13", "draw_stock", "card", "QS"),
    ("indian13", "discard", "deadwood", ["AS"]),
    ("gin", "draw_stock", "card", "QS"),
    ("gin", "take_discard", "layoffs", [{"target": 0, "cards": ["AS"]}]),
])
def test_a_field_its_action_does_not_take_is_refused(
        game: str, action: str, field: str, value: object) -> None:
    """A draw naming a card the stock did not give, a throw with melds never
    laid: each was read without a word, and the move it made the player's
    (``draw_stock QS``) is not one the advisor lists, so the decision came
    out ``unvalued``; a record that cannot have happened is refused naming
    the field (audit 6)."""
    data = copy.deepcopy(GIN if game == "gin" else _followed(game))
    index = next(k for k, event in enumerate(data["events"]) if event["action"] == action)
    data["events"][index][field] = value
    with pytest.raises(SolverInputError) as caught:
        read_record(data)
    assert (caught.value.code, caught.value.loc) == ("invalid_event", ("events", index, field))
    del data["events"][index][field]
    read_record(data)


def _take_and_throw_back(data: dict[str, Any], card: str) -> dict[str, Any]:
    data = copy.deepcopy(data)
    data["deal"].pop("stock", None)
    data["deal"]["hands"] = [hand.split() if isinstance(hand, str) else list(hand)
                             for hand in data["deal"]["hands"]]
    seat = (data["dealer"] + 1) % len(data["players"])
    data["events"] = [{"player": seat, "action": "take_discard", "card": card},
                      {"player": seat, "action": "discard", "card": card}]
    return data


RUMMY500_JOKER_UP: dict[str, Any] = {
    "game": "rummy500", "players": ["ann", "bob"], "dealer": 1,
    "deal": {"hands": ["2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
                       "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH"], "upcard": "JK"},
    "events": []}
"""A Rummy 500 deal whose upcard is one of the deck's two jokers."""


def test_the_card_taken_from_the_pile_top_may_not_be_thrown_back() -> None:
    """A card taken alone from the pile top may not be thrown back the same
    turn; with two of it in the deck (Indian rummy's decks, Rummy 500's
    jokers) another copy the seat holds may.  The advisor's replay sees no
    hands and takes such a throw for the other copy; the walk sees them, and
    accepted the card taken itself going back (audit 6)."""
    indian = play("indian13", [follow, follow], seed=1, level="novice",
                  max_decisions=0).to_dict()
    up = indian["deal"]["upcard"]
    assert up not in indian["deal"]["hands"][0] + indian["deal"]["hands"][1]
    for data, card in ((indian, up), (RUMMY500_JOKER_UP, "JK")):
        back = _take_and_throw_back(data, card)
        with pytest.raises(SolverInputError) as caught:
            read_record(back)
        assert (caught.value.code, caught.value.loc) == ("history_out_of_turn", ("events", 1))
        back["deal"]["hands"][0] = [card, *back["deal"]["hands"][0][1:]]  # another copy held
        assert walk(read_record(back)).hands[0].count(parse_card(card)) == 1
