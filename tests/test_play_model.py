"""The game model (``solver.play.model``): the registry of games, the fields and
knobs each takes, its parameters object, and the cards its deck holds."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from solver.errors import InvalidRulesError, InvalidStateError, SolverInputError
from solver.play import GAMES, advise
from solver.play.gin.params import GIN_PARAMS
from solver.play.indian.params import INDIAN_PARAMS
from solver.play.model import FIELDS
from solver.play.params import describe
from solver.play.words import FAMILIES

GIN: dict[str, Any] = {"hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S", "upcard": "5H", "me": 0,
                       "dealer": 1, "history": []}
INDIAN: dict[str, Any] = {"hand": "AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D", "upcard": "8C", "wild_rank": "7H",
          "players": 2, "me": 1, "dealer": 0}
BASIC: dict[str, Any] = {"hand": "AH 2H 3H 5S 6S 9D 9C 9S KD QD", "upcard": "8C", "players": 2, "me": 1,
         "dealer": 0}
STATES: dict[str, dict[str, Any]] = {"gin": GIN, "indian13": INDIAN, "basic": BASIC,
                                     "rummy500": {**BASIC, "hand": "AH 2H 3H 5S 6S 9D 9C 9S KD QD "
                                                                   "JK 4C 2D"},
                                     "rommy": {**BASIC, "hand": "AH 2H 3H 5S 6S 9D 9C"}}


def test_every_game_of_every_family_is_registered_with_its_words() -> None:
    assert sorted(GAMES) == sorted(g for family in FAMILIES for g in family.games)
    for name, game in GAMES.items():
        assert game.name == name and name in game.words.games
        assert game.default_level in game.levels
        assert set(game.takes) | set(game.refuses) == set(FIELDS)
        assert not set(game.takes) & set(game.refuses)


@pytest.mark.parametrize("game", ["gin", "indian13", "rummy500"])
def test_a_field_the_game_does_not_take_is_refused_by_name(game: str) -> None:
    model = GAMES[game]
    name = next(iter(model.refuses))
    value = {"score": {"me": 0, "opponent": 0}, "oklahoma": True, "wild_rank": "7H",
             "players": 2}[name]
    state = {**STATES[game], name: value}
    with pytest.raises(InvalidStateError) as info:
        advise(game, **state, level="novice")
    assert info.value.code == "field_not_for_game" and info.value.loc == (name,)
    assert model.refuses[name] in str(info.value)


@pytest.mark.parametrize(("game", "event", "field"), [
    ("gin", {"player": 0, "action": "pass", "card": "5H"}, "card"),
    ("indian13", {"player": 1, "action": "draw_stock", "card": "QS"}, "card"),
    ("rummy500", {"player": 1, "action": "draw_stock", "card": "QS"}, "card"),
    ("basic", {"player": 1, "action": "draw_stock", "target": 0}, "target"),
    ("indian13", {"player": 1, "action": "draw_stock", "drawn": "QS"}, "drawn"),
])
def test_an_event_field_its_action_does_not_take_is_refused_by_name(
        game: str, event: dict[str, Any], field: str) -> None:
    # A stock draw shows no card and a pass none either: an event naming one
    # cannot have happened, and read leniently it advised a hand other than
    # the one played (the record's review refuses the same events).
    with pytest.raises(InvalidStateError) as info:
        advise(game, **{**STATES[game], "history": [event]}, level="novice")
    assert info.value.code == "invalid_event" and info.value.loc == ("history", 0, field)


def test_a_keyword_no_game_has_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="colour"):
        advise("gin", **GIN, colour="red")


@pytest.mark.parametrize(("game", "knob", "suggested"), [
    ("gin", "cut_joker", None),            # Indian rummy's knob
    ("gin", "jokers_per_deck", None),
    ("gin", "knock_limt", "knock_limit"),  # a typo
    ("indian13", "knock_limit", None),     # gin's knob
    ("indian13", "drop_frist", "drop_first"),
    ("rummy500", "joker_pionts", "joker_points"),
])
def test_a_knob_the_game_does_not_play_is_refused_naming_its_knobs(
        game: str, knob: str, suggested: str | None) -> None:
    with pytest.raises(InvalidRulesError) as info:
        advise(game, **STATES[game], rules={knob: 1}, level="novice")
    message = str(info.value)
    assert info.value.loc == ("rules", knob) and info.value.code == "invalid_rules"
    assert all(k in message for k in GAMES[game].knobs)  # every knob it takes, not cut short
    assert (f"did you mean {suggested!r}" in message) == (suggested is not None)


def test_the_game_knobs_are_played() -> None:
    advice = advise("gin", **GIN, rules={"knock_limit": 0, "gin_bonus": 30}, level="novice")
    assert advice.moves


@pytest.mark.parametrize(("where", "state"), [
    (("upcard",), {**GIN, "upcard": "JK"}),
    (("hand", 9), {**GIN, "hand": "AS 2S 3S 7H 7D 7C KD QH 4C JK"}),
    (("history", 0, "card"), {**GIN, "history": [{"player": 0, "action": "take_discard",
                                                   "card": "JK"}]}),
    (("history", 1, "card"), {**GIN, "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S 2D", "me": 1,
                               "dealer": 0,
                               "history": [{"player": 0, "action": "pass"},
                                           {"player": 1, "action": "pass"},
                                           {"player": 0, "action": "draw_stock"},
                                           {"player": 0, "action": "discard", "card": "JK"}]}),
    (("discard_pile", 0), {**GIN, "discard_pile": ["JK"]}),
])
def test_a_printed_joker_in_gin_is_refused_where_it_stands(
        where: tuple[object, ...], state: dict[str, Any]) -> None:
    with pytest.raises(SolverInputError) as info:
        advise("gin", **state, level="novice")
    if where == ("history", 1, "card"):  # the stock draw comes first in that history
        where = ("history", 3, "card")
    assert info.value.code == "too_many_jokers" and info.value.loc == where


def test_a_printed_joker_in_basic_rummy_is_refused_like_a_solve() -> None:
    with pytest.raises(SolverInputError) as info:
        advise("basic", **{**BASIC, "hand": "AH 2H 3H 5S 6S JK 9D 9C 9S KD"}, level="novice")
    assert info.value.code == "too_many_jokers" and info.value.loc == ("hand", 5)


def test_params_are_the_games_parameters_object() -> None:
    plain = advise("gin", **GIN, level="novice", seed=3).to_dict()
    assert advise("gin", **GIN, level="novice", seed=3, params=GIN_PARAMS).to_dict() == plain
    with pytest.raises(TypeError, match="GinParams"):
        advise("gin", **GIN, level="novice", params=INDIAN_PARAMS)


def test_a_parameter_changes_the_play() -> None:
    """The judgement's pickup edge decides the first upcard at novice: a
    huge edge takes even a card that makes no meld."""
    state = {**GIN, "upcard": "KS"}
    assert advise("gin", **state, level="novice").recommended.move.action == "pass"
    bold = dataclasses.replace(GIN_PARAMS, take_edge=-100.0)
    assert advise("gin", **state, level="novice", params=bold).recommended.move.action == \
        "take_discard"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_parameter_says_what_it_means(game: str) -> None:
    rows = describe(GAMES[game].params)
    assert rows and all(row.meaning for row in rows)


# -- moves to consider besides the listed ones ---------------------------------------------
def test_a_move_to_consider_is_searched_on_the_same_deals() -> None:
    """Gin's standard level searches its shortlist of six discards; a discard it
    would not search is searched when asked for, on the same deals."""
    from solver.cards import parse_card
    from solver.play.advice import Move

    state = {**GIN, "hand": "AS 2S 3S 4S 7H 7D 7C 8C 9C 2D 5H", "upcard": "4S",
             "history": [{"player": 0, "action": "take_discard", "card": "4S"}]}
    plain = advise("gin", **state, seed=5)
    rough = [m for m in plain.moves if m.confidence == "rough" and m.move.action == "discard"]
    assert rough
    asked = rough[0].move
    advice = advise("gin", **state, seed=5, consider=[asked])
    value = next(m for m in advice.moves if m.move == asked)
    assert value.searched and value.confidence == "ranked" and value.gap is not None
    with pytest.raises(InvalidStateError) as info:
        advise("gin", **state, seed=5, consider=[Move("discard", card=parse_card("KH"))])
    assert info.value.code == "illegal_move" and info.value.loc == ("consider", 0)


def test_a_lay_down_play_the_advisor_did_not_list_is_valued_when_asked() -> None:
    """Rummy 500 lists a few plays per throw; a play of other melds is valued
    when asked for, and an impossible one is refused."""
    from solver.cards import parse_cards
    from solver.play.advice import Move

    state = {**BASIC, "hand": "AH 2H 3H 4H 9S 9D 9C KD QD 5C 6C", "me": 0, "dealer": 1,
             "history": [{"player": 0, "action": "draw_stock"}]}
    advice = advise("rummy500", **{**state, "hand": "AH 2H 3H 4H 9S 9D 9C KD QD 5C 6C 7C 2S 8S"},
                    level="novice", seed=2)
    listed = {m.move for m in advice.moves}
    run = tuple(parse_cards("AH 2H 3H"))  # a shorter run than the best play lays
    asked = Move("discard", card=parse_cards("KD")[0], melds=(run,))
    assert asked not in listed
    advice = advise("rummy500", **{**state, "hand": "AH 2H 3H 4H 9S 9D 9C KD QD 5C 6C 7C 2S 8S"},
                    level="novice", seed=2, consider=[asked])
    assert asked in {m.move for m in advice.moves}
    wrong = Move("discard", card=parse_cards("KD")[0], melds=(tuple(parse_cards("AH 2H 9S")),))
    with pytest.raises(InvalidStateError) as info:
        advise("rummy500", **{**state, "hand": "AH 2H 3H 4H 9S 9D 9C KD QD 5C 6C 7C 2S 8S"},
               level="novice", seed=2, consider=[wrong])
    assert info.value.code == "illegal_move"


def test_a_lay_down_play_laying_off_onto_its_own_new_meld_is_valued() -> None:
    """A recorded turn may lay a meld and then lay off onto it (an arena bot's
    turn, reviewed): asked for, the play is valued, not a crash."""
    from solver.cards import parse_cards
    from solver.play.advice import Layoff, Move

    hand = "AH 2H 3H 4H 9S 9D 9C KD QD 5C 6C 7C 2S 8S"
    state = {**BASIC, "hand": hand, "me": 0, "dealer": 1,
             "history": [{"player": 0, "action": "draw_stock"}]}
    run = tuple(parse_cards("AH 2H 3H"))
    onto_it = Layoff(target=0, cards=tuple(parse_cards("4H")),
                     extended=tuple(parse_cards("AH 2H 3H 4H")))
    asked = Move("discard", card=parse_cards("KD")[0], melds=(run,), layoffs=(onto_it,))
    advice = advise("rummy500", **state, level="novice", seed=2, consider=[asked])
    valued = {m.move: m for m in advice.moves}
    assert asked in valued
    assert valued[asked].expected_points is not None
