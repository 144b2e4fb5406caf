"""Integer inputs of any integer type (``solver.errors.plain_int``): a count,
score, seat, seed or knob read from numpy or pandas is taken as the ``int``
it is, at every public entry point -- the same answer as the plain int, and
an answer (and its wire form) that holds plain ints only.  A ``bool`` and a
float are refused as before, with the same messages."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from solver import (
    PRESETS,
    card_name,
    gin_score,
    knock_check,
    make_rules,
    score_round,
    solve,
    validate,
)
from solver.config import BOUNDS, CONFIG, configure
from solver.errors import (
    InvalidHandError,
    InvalidOptionError,
    InvalidRulesError,
    InvalidStateError,
    SolverInputError,
    plain_int,
)
from solver.play import Move, advise
from solver.review import review
from solver.review.openspiel import from_openspiel
from solver.round_scoring import PlayerHand
from solver.rules import INT_BOUNDS, KNOB_NAMES, MAX_POINTS
from tests.test_review_openspiel import DEAL
from tests.test_review_record import GIN

Integer = Callable[[int], Any]


class Index:
    """An integer that is not an ``int``, as numpy's ``int64`` is not: it
    has ``__index__`` and nothing else (no ``__eq__``, no ``__hash__`` of
    the number), so a value the library kept instead of converting shows."""

    __slots__ = ("value",)

    def __init__(self, value: int) -> None:
        self.value = value

    def __index__(self) -> int:
        return self.value

    def __repr__(self) -> str:
        return f"Index({self.value})"


@pytest.fixture(params=["index", "numpy"])
def integer(request: pytest.FixtureRequest) -> Integer:
    """Makes an integer of a type that is not ``int``."""
    if request.param == "numpy":
        numpy = pytest.importorskip("numpy")
        return numpy.int64  # type: ignore[no-any-return]
    return Index


def _plain(value: object) -> None:
    """Every integer in ``value`` (a wire form) is a plain ``int`` or
    ``bool``, and the whole of it is JSON."""
    json.dumps(value)
    if isinstance(value, dict):
        for item in value.values():
            _plain(item)
    elif isinstance(value, list | tuple):
        for item in value:
            _plain(item)
    elif hasattr(value, "__index__"):
        assert type(value) in (int, bool), f"{value!r} is a {type(value).__name__}"


def _knob_value(variant: str, knob: str) -> int:
    """A value of the integer ``knob`` that ``variant`` takes: its own, else a bound."""
    low, high = INT_BOUNDS[knob]
    own = getattr(PRESETS[variant], knob)
    for value in ([own] if own is not None else []) + [low, high]:
        try:
            make_rules(variant, {knob: value})
        except InvalidRulesError:
            continue
        return int(value)
    raise AssertionError(f"no value of {knob} fits {variant}")


def test_plain_int_takes_any_integer_but_a_bool(integer: Integer) -> None:
    assert plain_int(integer(7)) == 7 and type(plain_int(integer(7))) is int
    assert plain_int(-3) == -3
    for refused in (True, False, 5.0, 5.5, "5", None, [5]):
        assert plain_int(refused) is None


def test_plain_int_refuses_numpy_bools_and_floats() -> None:
    numpy = pytest.importorskip("numpy")
    assert plain_int(numpy.True_) is None and plain_int(numpy.float64(5.0)) is None
    assert plain_int(numpy.uint8(200)) == 200


@pytest.mark.parametrize("variant", ["gin", "indian13", "rummy500", "rommy"])
def test_every_integer_knob_takes_any_integer(variant: str, integer: Integer) -> None:
    for knob in INT_BOUNDS:
        value = _knob_value(variant, knob)
        rules = make_rules(variant, {knob: integer(value)})
        assert rules is make_rules(variant, {knob: value}), knob  # the same, interned
        assert all(type(getattr(rules, k)) in (int, bool, str, type(None), tuple)
                   or k in ("card_points",) for k in KNOB_NAMES), knob
        _plain(rules.to_dict())


def test_requirements_card_points_and_contracts_take_any_integer(integer: Integer) -> None:
    given = make_rules("indian13", {
        "requirements": [{"kind": "sequence", "count": integer(2)},
                         {"kind": "pure_sequence", "count": integer(1), "exact": False}],
        "card_points": {"hand": {"A": integer(15), "JK": integer(25)}, "ace_low": integer(1)}})
    plain = make_rules("indian13", {
        "requirements": [{"kind": "sequence", "count": 2}, {"kind": "pure_sequence", "count": 1}],
        "card_points": {"hand": {"A": 15, "JK": 25}, "ace_low": 1}})
    assert given is plain
    assert all(type(item.count) is int for item in given.requirements)
    _plain(given.to_dict())
    legacy = make_rules("indian13", {"min_sequences": integer(3)})
    assert legacy is make_rules("indian13", {"min_sequences": 3})
    # a contract round sets the round's hand size and contract as the int does
    contract = make_rules("rommy", {"contract_round": integer(5)})
    assert contract is make_rules("rommy", {"contract_round": 5})
    assert contract.hand_size == make_rules("rommy", {"contract_round": 5}).hand_size


@pytest.mark.parametrize(("overrides", "message"), [
    ({"knock_limit": True}, "knob 'knock_limit' must be null or an integer from 0 to 200; got True"),
    ({"knock_limit": 5.0}, "knob 'knock_limit' must be null or an integer from 0 to 200; got 5.0"),
    ({"requirements": [{"kind": "sequence", "count": True}]},
     "requirement count must be an integer from 0 to 10; got True"),
    ({"requirements": [{"kind": "sequence", "count": 2.0}]},
     "requirement count must be an integer from 0 to 10; got 2.0"),
    ({"card_points": {"hand": {"A": 15.0}}},
     f"card_points.hand.A must be an integer from 0 to {MAX_POINTS}; got 15.0"),
    ({"min_sequences": False}, "knob 'min_sequences' must be an integer from 0 to 10; got False"),
])
def test_rules_refuse_a_bool_or_a_float_as_before(overrides: dict[str, Any], message: str) -> None:
    with pytest.raises(InvalidRulesError) as info:
        make_rules("gin" if "knock_limit" in overrides else "indian13", overrides)
    assert info.value.message == message


def test_solve_takes_any_integer_time_limit(integer: Integer) -> None:
    hand = "AS 2S 3S 7H 7D 7C KD QH 4C 9S"
    given = solve(hand, "gin", time_limit_ms=integer(5_000), rules={"knock_limit": integer(9)})
    assert given.to_dict() == solve(hand, "gin", time_limit_ms=5_000,
                                    rules={"knock_limit": 9}).to_dict()
    _plain(given.to_dict())
    refusals: list[Any] = [True, 5_000.0]
    for refused in refusals:
        with pytest.raises(InvalidOptionError) as info:
            solve(hand, "gin", time_limit_ms=refused)
        assert info.value.code == "invalid_time_limit"
        assert info.value.message.endswith(f"; got {refused!r}")


def test_engine_settings_take_any_integer(integer: Integer) -> None:
    before = CONFIG.node_budget
    try:
        configure(node_budget=integer(before + 1))
        assert CONFIG.node_budget == before + 1 and type(CONFIG.node_budget) is int
        refusals: list[Any] = [True, float(before)]
        for refused in refusals:
            with pytest.raises(InvalidOptionError) as info:
                configure(node_budget=refused)
            assert info.value.message == (f"engine setting node_budget must be an integer from "
                                          f"{BOUNDS['node_budget'][0]} to "
                                          f"{BOUNDS['node_budget'][1]}; got {refused!r}")
    finally:
        configure(node_budget=before)


def test_gin_knock_check_and_score_take_any_integer_knock_limit(integer: Integer) -> None:
    hand = "AS 2S 3S 7H 7D 7C KD QH 4C 9S"
    given = knock_check(hand, knock_limit=integer(20), time_limit_ms=integer(5_000))
    assert given.to_dict() == knock_check(hand, knock_limit=20, time_limit_ms=5_000).to_dict()
    _plain(given.to_dict())
    knocker, defender = "AS 2S 3S 7H 7D 7C 8D 9D TD 4C", "KS KH KD 5C 6C 8C 2H 3H 9S QC"
    score = gin_score(knocker, defender, knock_limit=integer(10))
    assert score.to_dict() == gin_score(knocker, defender, knock_limit=10).to_dict()
    _plain(score.to_dict())
    refusals: list[Any] = [True, 10.0]
    for refused in refusals:
        with pytest.raises(InvalidHandError) as info:
            knock_check(hand, knock_limit=refused)
        assert info.value.code == "invalid_knock_limit"
        assert info.value.message == f"knock_limit must be an integer from 0 to 200; got {refused!r}"


def test_score_round_takes_any_integer_pile_penalties(integer: Integer) -> None:
    def players(penalties: object) -> list[PlayerHand]:
        return [PlayerHand(melded=[["5D", "6D", "7D"]], hand="AS JK",
                           pile_penalties=penalties),  # type: ignore[arg-type]
                PlayerHand(melded=[["KS", "KH", "KD"]], hand="", went_out=True)]

    given = score_round(players(integer(1)), "rommy", time_limit_ms=integer(5_000))
    assert given.to_dict() == score_round(players(1), "rommy").to_dict()
    _plain(given.to_dict())
    for refused in (True, 1.0):
        with pytest.raises(InvalidHandError) as info:
            score_round(players(refused), "rommy")
        assert info.value.code == "invalid_pile_penalties"


def test_card_ids_of_any_integer_type(integer: Integer) -> None:
    assert card_name(integer(0)) == "AS" and card_name(integer(52)) == "JK"
    report = validate([[integer(0), integer(1), integer(2)]], [integer(13)], "gin")
    assert report.to_dict() == validate([[0, 1, 2]], [13], "gin").to_dict()
    _plain(report.to_dict())
    for refused in (True, 0.0):
        with pytest.raises(ValueError, match="not a card id"):
            card_name(refused)  # type: ignore[arg-type]


_GIN_STATE: dict[str, Any] = {"hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S", "upcard": "4S",
                              "level": "novice"}


def test_advise_takes_any_integer_seed_seats_stock_and_score(integer: Integer) -> None:
    state: dict[str, Any] = {**_GIN_STATE, "hand": "AS 2S 3S 4S 7H 7D 7C 8C 9C TC 2D"}  # 4S taken
    history = [{"player": integer(0), "action": "take_discard", "card": "4S"}]
    given = advise(**state, history=history, seed=integer(1), me=integer(0),
                   dealer=integer(1), stock_count=integer(31), time_limit_ms=integer(20_000),
                   score={"me": integer(10), "opponent": integer(20), "target": integer(100)},
                   consider=[Move("discard", integer(27))])  # 2D
    plain = advise(**state, history=[{"player": 0, "action": "take_discard", "card": "4S"}],
                   seed=1, me=0, dealer=1, stock_count=31, time_limit_ms=20_000,
                   score={"me": 10, "opponent": 20, "target": 100},
                   consider=[Move("discard", 27)])
    assert given.to_dict() == plain.to_dict()
    _plain(given.to_dict())


def test_advise_takes_any_integer_player_count(integer: Integer) -> None:
    state: dict[str, Any] = {"hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S 5H 6H 8D", "upcard": "4S",
                             "wild_rank": "5C", "level": "novice"}
    given = advise("indian13", **state, players=integer(3), dealer=integer(2), seed=integer(2))
    assert given.to_dict() == advise("indian13", **state, players=3, dealer=2, seed=2).to_dict()
    _plain(given.to_dict())


@pytest.mark.parametrize(("field", "value", "kind", "message"), [
    ("seed", True, InvalidOptionError, "seed must be an integer; got True"),
    ("seed", 1.0, InvalidOptionError, "seed must be an integer; got 1.0"),
    ("me", True, InvalidStateError, "me must be seat 0 or 1; got True"),
    ("dealer", 1.0, InvalidStateError, "dealer must be seat 0 or 1; got 1.0"),
    ("stock_count", True, InvalidStateError, "stock_count must be a number of cards; got True"),
    ("score", {"me": 1.0}, InvalidStateError, "score.me must be a whole number of points"),
    ("score", {"me": True}, InvalidStateError, "score.me must be a whole number of points"),
])
def test_advise_refuses_a_bool_or_a_float_as_before(field: str, value: Any,
                                                    kind: type[SolverInputError],
                                                    message: str) -> None:
    with pytest.raises(kind) as info:
        advise(**_GIN_STATE, **{field: value})
    assert info.value.message == message


def test_advise_still_takes_a_whole_float_stock_count() -> None:
    whole: Any = 31.0
    assert advise(**_GIN_STATE, stock_count=whole).to_dict() == advise(**_GIN_STATE).to_dict()


def test_review_takes_any_integer_seats_scores_and_seed(integer: Integer) -> None:
    given = copy.deepcopy(GIN)
    given.update(dealer=integer(1), score=[integer(10), integer(20)], target=integer(100))
    for event in given["events"]:
        event["player"] = integer(event["player"])
    plain = copy.deepcopy(GIN)
    plain.update(score=[10, 20], target=100)
    answer = review(given, seed=integer(3), seats=[integer(0)], level="novice",
                    time_limit_ms=integer(60_000))
    assert answer.to_dict() == review(plain, seed=3, seats=[0], level="novice",
                                      time_limit_ms=60_000).to_dict()
    _plain(answer.to_dict())
    refusals: list[Any] = [True, 3.0]
    for refused in refusals:
        with pytest.raises(InvalidOptionError) as info:
            review(plain, seed=refused)
        assert info.value.message == f"seed must be an integer; got {refused!r}"
    with pytest.raises(InvalidStateError) as state_info:
        review({**plain, "dealer": True})
    assert state_info.value.message == "dealer must be a seat from 0 to 1; got True"


def test_an_openspiel_history_of_any_integer_type(integer: Integer) -> None:
    history = [*DEAL, 54, 54]
    given = from_openspiel([integer(action) for action in history])
    assert given.to_dict() == from_openspiel(history).to_dict()
    _plain(given.to_dict())
    with pytest.raises(InvalidStateError, match="True is not a gin_rummy action"):
        from_openspiel([*DEAL, True])
