"""The library's contract with a careless or hostile caller: input it cannot use
raises a ``SolverInputError`` (a ``ValueError``) naming what is wrong, never a
``TypeError`` or ``AttributeError`` from inside, and never a wrong answer.

The cases come from an audit that called every public function with values of
every wrong kind (a one-shot iterator for a hand, None, numbers, strings for
flags, a deadline that is not a ``Deadline`` ...).
"""

from __future__ import annotations

import functools
import math
import random
from collections.abc import Callable
from typing import Any

import pytest

from solver import (
    card_name,
    discard_hint,
    knock_check,
    make_rules,
    score_round,
    solve,
    validate,
)
from solver import deadline as deadline_module
from solver.cards import card_tokens
from solver.deadline import Deadline
from solver.errors import InvalidRulesError, SolverInputError
from solver.play import Move, advise
from solver.review import Record, check_record, review, to_openspiel
from solver.review.selfplay import follow, play
from solver.rules import make_deal

GIN10 = "AS 2S 3S 7H 7D 7C KD QH 4C 9S"
DECK = [r + s for s in "SHDC" for r in "A23456789TJQK"]


def _outcome(call: Callable[[], Any]) -> object:
    """The answer of ``call``, or the code and loc of the input error it raised."""
    try:
        return call().to_dict()
    except SolverInputError as error:
        return error.code, error.loc


@pytest.mark.parametrize("variant", ["gin", "basic", "indian13", "rummy500"])
def test_a_hand_given_as_a_one_shot_iterator_is_read_as_the_same_list(variant: str) -> None:
    rng = random.Random(7)
    hands = [rng.sample(DECK, rng.randint(1, 14)) for _ in range(40)]
    hands += [["AS", "2S", "3S", "JK"], ["AS", "AS", "KD"], ["AS"] * 31, ["AS", "ZZ"], []]
    for hand in hands:
        listed = _outcome(functools.partial(solve, list(hand), variant, time_limit_ms=2000))
        once = _outcome(functools.partial(solve, iter(hand), variant, time_limit_ms=2000))
        assert once == listed, hand


@pytest.mark.parametrize("value", [None, 5, 1.5, True, {"AS": 1}, b"AS 2S", object()])
def test_cards_that_are_not_a_string_or_a_list_are_refused(value: object) -> None:
    calls: list[Callable[[], object]] = [
        lambda: solve(value), lambda: solve(value, "indian13"),  # type: ignore[arg-type]
        lambda: discard_hint(value, "gin"),  # type: ignore[arg-type]
        lambda: knock_check(value),  # type: ignore[arg-type]
        lambda: validate(value, []),  # type: ignore[arg-type]
        lambda: score_round(value, "basic"),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(SolverInputError):
            call()
    assert card_tokens(("AS", "2S")) == ["AS", "2S"]


@pytest.mark.parametrize("deadline", [0.5, 1, "x", object()])
def test_a_deadline_that_is_not_a_deadline_is_refused(deadline: object) -> None:
    calls: list[Callable[[], object]] = [
        lambda: solve(GIN10, "gin", deadline=deadline),  # type: ignore[arg-type]
        lambda: solve("AS 2S 3S", "indian13", deadline=deadline),  # type: ignore[arg-type]
        lambda: discard_hint(GIN10 + " 5D", "gin", deadline=deadline),  # type: ignore[arg-type]
        lambda: advise("gin", hand=GIN10, upcard="4S", history=[],
                       deadline=deadline),  # type: ignore[arg-type]
    ]
    for call in calls:
        with pytest.raises(SolverInputError) as raised:
            call()
        assert (raised.value.code, raised.value.loc) == ("invalid_deadline", ("deadline",))


@pytest.fixture(scope="module")
def gin_record() -> dict[str, Any]:
    return play("gin", [follow, follow], seed=3, level="novice").to_dict()


def test_a_review_without_any_deadline_reviews_every_decision(gin_record: dict[str, Any]) -> None:
    timed = review(gin_record, time_limit_ms=60_000)
    never = review(gin_record, deadline=Deadline.never())
    assert timed.complete and never.complete
    assert never.to_dict() | {"elapsed_ms": None} == timed.to_dict() | {"elapsed_ms": None}
    with pytest.raises(SolverInputError) as raised:
        review(gin_record, deadline=3)  # type: ignore[arg-type]
    assert raised.value.code == "invalid_deadline"


@pytest.mark.parametrize(("keywords", "loc"), [
    ({"seats": 0}, ("seats",)),
    ({"seats": "01"}, ("seats",)),
    ({"seats": []}, ("seats",)),  # the API refuses it too (audit 5): None is every seat
])
def test_review_options_of_the_wrong_kind_are_refused(gin_record: dict[str, Any],
                                                      keywords: dict[str, Any],
                                                      loc: tuple[object, ...]) -> None:
    with pytest.raises(SolverInputError) as raised:
        review(gin_record, **keywords)
    assert raised.value.loc == loc
    assert review(gin_record, params=None, time_limit_ms=60_000).complete  # the defaults


@pytest.mark.parametrize(("change", "loc"), [
    (lambda r: r.update(game=["gin"]), ("game",)),
    (lambda r: r["events"][0].update(action={}), ("events", 0, "action")),
])
def test_a_record_of_the_wrong_shape_is_refused(gin_record: dict[str, Any],
                                                change: Callable[[dict[str, Any]], None],
                                                loc: tuple[object, ...]) -> None:
    broken = {**gin_record, "events": [dict(e) for e in gin_record["events"]]}
    change(broken)
    with pytest.raises(SolverInputError) as raised:
        review(broken)
    assert raised.value.loc == loc


@pytest.mark.parametrize(("keywords", "loc"), [
    ({"game": ["gin"]}, ("rules", "game")),
    ({"level": []}, ("level",)),
    ({"score": 5}, ("score",)),
    ({"oklahoma": "false"}, ("oklahoma",)),
    ({"consider": None}, ("consider",)),
    ({"consider": ["discard 4S"]}, ("consider",)),
])
def test_advice_options_of_the_wrong_kind_are_refused(keywords: dict[str, Any],
                                                      loc: tuple[object, ...]) -> None:
    state: dict[str, Any] = {"game": "gin", "hand": GIN10, "upcard": "4S", "history": []}
    with pytest.raises(SolverInputError) as raised:
        advise(**(state | keywords))
    assert raised.value.loc == loc


@pytest.mark.parametrize("flag", ["went_out", "rummy"])
def test_a_flag_that_is_not_true_or_false_is_refused(flag: str) -> None:
    winner: dict[str, Any] = {"hand": [], "melded": [["3C", "4C", "5C"]], "went_out": True,
                              "rummy": False}
    players: list[dict[str, Any]] = [{"hand": "KS QD"}, winner]
    assert score_round(players, "basic").points == (0, 20)
    winner[flag] = "no"  # truthy: it used to count as true (and double the score)
    with pytest.raises(SolverInputError) as raised:
        score_round(players, "basic")
    assert raised.value.loc == ("players", 1, flag)


def test_had_turn_that_is_not_true_or_false_is_refused() -> None:
    players: list[dict[str, Any]] = [
        {"hand": "2S 4S 6S 8S TS QS 2H 4H 6H 8H TH QH KD", "had_turn": "no"},
               {"hand": "3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C", "went_out": True}]
    with pytest.raises(SolverInputError) as raised:
        score_round(players, "indian13", wild_rank="7")
    assert raised.value.loc == ("players", 0, "had_turn")


@pytest.mark.parametrize("value", [[1], {}, {1}, (1,)])
def test_a_contract_round_that_is_not_a_number_names_the_knob(value: object) -> None:
    with pytest.raises(InvalidRulesError) as raised:
        make_rules("basic", {"contract_round": value})
    assert raised.value.loc == ("rules", "contract_round")


@pytest.mark.parametrize("rules", [0, False, "", []])
def test_rules_that_are_empty_but_not_an_object_are_refused(rules: object) -> None:
    for call in (lambda: make_rules("basic", rules),  # type: ignore[arg-type]
                 lambda: solve(GIN10, "gin", rules=rules)):  # type: ignore[arg-type]
        with pytest.raises(InvalidRulesError):
            call()
    assert make_rules("basic", {}) is make_rules("basic", None)


def test_an_alias_is_named_as_the_caller_wrote_it() -> None:
    with pytest.raises(InvalidRulesError) as raised:
        make_rules("kalooki", {"opening_points": -1})
    assert raised.value.loc == ("rules", "opening_points")


def test_the_low_level_helpers_refuse_what_is_not_theirs() -> None:
    for value in (None, True, 1.5, "AS", -1, 53):
        with pytest.raises(ValueError, match="not a card id"):
            card_name(value)  # type: ignore[arg-type]
    assert [card_name(0), card_name(52)] == ["AS", "JK"]
    with pytest.raises(InvalidRulesError):
        make_deal("gin")  # type: ignore[arg-type]


def test_advice_without_any_deadline_is_the_advice_of_a_long_one() -> None:
    # Deadline.never() left the search no time (inf - inf): gin's first upcard was
    # judged on 1 deal instead of 4, and a review's decisions on 1 instead of 16.
    state: dict[str, Any] = {"hand": GIN10, "upcard": "4S", "history": [], "seed": 1}
    timed = advise("gin", **state, time_limit_ms=60_000).to_dict()
    never = advise("gin", **state, deadline=Deadline.never()).to_dict()
    assert never | {"elapsed_ms": None} == timed | {"elapsed_ms": None}
    assert never["recommended"]["samples"] == 4


def test_a_record_in_its_wire_form_is_read_by_every_record_function(
        gin_record: dict[str, Any]) -> None:
    # check_record and to_openspiel took only a Record: its wire form, which
    # review() takes, failed with AttributeError ('dict' object has no attribute 'game')
    record = Record.from_dict(gin_record)
    assert to_openspiel(gin_record) == to_openspiel(record)
    check_record(gin_record)
    for call in (to_openspiel, check_record):
        with pytest.raises(SolverInputError) as raised:
            call(None)  # type: ignore[arg-type]
        assert raised.value.code == "invalid_record"


@pytest.mark.parametrize("pile", [5, {"4S": 1}, {"4S"}, b"4S", iter(["4S"])])
def test_a_discard_pile_that_is_not_a_list_of_cards_is_refused(pile: object) -> None:
    # it was read as an empty pile: accepted when the history leaves none (the
    # upcard taken), and otherwise refused as "discard_pile is nothing"
    state: dict[str, Any] = {"hand": "AS 2S 3S 4S 7H 7D 7C KD QH 4C 9S", "upcard": "4S",
                             "history": [{"player": 0, "action": "take_discard", "card": "4S"}],
                             "me": 0, "dealer": 1, "level": "novice"}
    assert advise("gin", **state, discard_pile=[]).phase == "discard"
    with pytest.raises(SolverInputError) as raised:
        advise("gin", **state, discard_pile=pile)
    assert (raised.value.code, raised.value.loc) == ("invalid_state", ("discard_pile",))


@pytest.mark.parametrize("count", ["31", True, [31]])
def test_a_stock_count_that_is_not_a_number_is_refused(count: object) -> None:
    # "31" was a stock_mismatch saying "stock_count is 31 but the history leaves 31"
    state: dict[str, Any] = {"hand": GIN10, "upcard": "4S", "history": [], "level": "novice"}
    for right in (31, 31.0):  # a number of another type is compared as it was
        assert advise("gin", **state, stock_count=right).phase == "first_upcard"  # type: ignore[arg-type]
    with pytest.raises(SolverInputError) as raised:
        advise("gin", **state, stock_count=count)  # type: ignore[arg-type]
    assert (raised.value.code, raised.value.loc) == ("invalid_state", ("stock_count",))


@pytest.mark.parametrize("key", ["oponent", "mine", "score"])
def test_a_score_with_a_field_it_does_not_have_is_refused(key: str) -> None:
    # a typo was ignored: {"me": 50, "oponent": 90} advised as if the opponent had 0
    state: dict[str, Any] = {"hand": GIN10, "upcard": "4S", "history": [], "level": "novice"}
    assert advise("gin", **state, score={"me": 50, "opponent": 90}).phase == "first_upcard"
    with pytest.raises(SolverInputError) as raised:
        advise("gin", **state, score={"me": 50, key: 90})
    assert (raised.value.code, raised.value.loc) == ("invalid_state", ("score", key))


@pytest.mark.parametrize("game", ["gin", "indian13", "rummy500", "rommy", "basic"])
@pytest.mark.parametrize("rules", [True, -1, "ace", [("ace", "low")], 0, ""])
def test_advice_rules_that_are_not_an_object_are_refused(game: str, rules: object) -> None:
    # the lay-down games iterated them: TypeError for True or -1, a "knob" per
    # character of a string, and 0 or "" taken as no rules
    state: dict[str, Any] = {"hand": "5H 5S 5D 9D JK QS 7C", "upcard": "8C", "history": [],
                             "level": "novice", "players": 2}
    if game == "gin":
        state = {"hand": GIN10, "upcard": "4S", "history": [], "level": "novice"}
    elif game == "indian13":
        state = {**state, "hand": "AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D", "wild_rank": "7H"}
    with pytest.raises(InvalidRulesError) as raised:
        advise(game, **state, rules=rules)  # type: ignore[arg-type]
    assert raised.value.loc == ("rules",)


def test_a_deadline_with_no_budget_at_all_answers_instead_of_raising() -> None:
    # its work budget (-inf or NaN nodes) raised OverflowError / ValueError from int()
    hand = random.Random(99).sample(DECK * 2, 22)
    for call in (functools.partial(solve, hand, "indian21", wild_rank="7H"),
                 functools.partial(discard_hint, hand, "indian21", wild_rank="7H")):
        expired = call(deadline=Deadline.after_ms(0)).to_dict()
        assert call(deadline=Deadline.after_ms(-math.inf)).to_dict() | {"elapsed_ms": None} == \
            expired | {"elapsed_ms": None}
        assert not call(deadline=Deadline.after_ms(math.nan)).optimal  # NaN never passes


@pytest.mark.parametrize(("level", "history", "hand"), [
    ("novice", [{"player": 0, "action": "take_discard", "card": "4S"}], GIN10 + " 4S"),
    ("expert", [], GIN10),  # the first upcard: the judgement alone at every level
])
def test_advice_the_deadline_cut_short_is_not_complete(level: str, history: list[Any],
                                                       hand: str) -> None:
    # the judgement alone (no search) said complete even past its deadline,
    # its moves valued on one deal instead of its level's
    state: dict[str, Any] = {"hand": hand, "upcard": "4S", "history": history, "me": 0,
                             "dealer": 1, "level": level, "seed": 1}
    timed = advise("gin", **state, time_limit_ms=60_000)
    late = advise("gin", **state, deadline=Deadline.after_ms(0))
    assert timed.complete and not late.complete
    assert max(m.samples for m in late.moves) < max(m.samples for m in timed.moves)


def test_a_discard_pile_larger_than_any_deck_is_too_many_cards() -> None:
    # it was compared with the history's pile, and the pile_mismatch message
    # listed every card given (megabytes for a long list)
    state: dict[str, Any] = {"hand": GIN10, "upcard": "4S", "history": [], "level": "novice"}
    with pytest.raises(SolverInputError) as raised:
        advise("gin", **state, discard_pile=["4S"] * 10_000)
    assert (raised.value.code, raised.value.loc) == ("too_many_cards", ("discard_pile",))
    assert len(raised.value.message) < 100


def test_validate_reads_card_lists_as_every_other_call_does() -> None:
    # its own reader refused an iterator (invalid_card, where every other call
    # reads it), read bytes as card ids, and named a non-list invalid_card
    # where the others say invalid_hand
    listed = validate([["AS", "2S", "3S"]], ["5C"], hand=["AS", "2S", "3S", "5C"]).to_dict()
    once: list[Any] = [iter(["AS", "2S", "3S"]), iter(["5C"]), iter(["AS", "2S", "3S", "5C"])]
    assert validate([once[0]], once[1], hand=once[2]).to_dict() == listed
    for value in (None, 5, {"5C": 1}, b"5C"):
        with pytest.raises(SolverInputError) as raised:
            validate([["AS", "2S", "3S"]], value)  # type: ignore[arg-type]
        assert (raised.value.code, raised.value.loc) == ("invalid_hand", ("deadwood",))


@pytest.mark.parametrize("card", ["KD", 99, -1, True])
def test_a_move_to_consider_whose_card_is_not_a_card_id_is_refused(card: object) -> None:
    # its error message named the card with card_name, which raised ValueError
    # ("not a card id: 'KD'") instead of the illegal_move being reported
    state: dict[str, Any] = {"hand": GIN10 + " 4S", "upcard": "4S", "me": 0, "dealer": 1,
                             "history": [{"player": 0, "action": "take_discard", "card": "4S"}],
                             "level": "novice"}
    assert advise("gin", **state, consider=[Move("discard", card=38)]).phase == "discard"
    with pytest.raises(SolverInputError) as raised:
        advise("gin", **state, consider=[Move("discard", card=card)])  # type: ignore[arg-type]
    assert (raised.value.code, raised.value.loc) == ("illegal_move", ("consider", 0))


class _Collector:
    """A stand-in for the gc module: a flag, and a hook run just after a read."""

    def __init__(self) -> None:
        self.enabled = True
        self.after_read: Callable[[], object] | None = None

    def isenabled(self) -> bool:
        value = self.enabled
        hook, self.after_read = self.after_read, None
        if hook is not None:
            hook()  # another thread's search ends between this read and the disable
        return value

    def disable(self) -> None:
        self.enabled = False

    def enable(self) -> None:
        self.enabled = True

    def freeze(self) -> None:
        pass


def test_searches_in_two_threads_leave_the_collector_running(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # each search read and set the process's collector on its own: one that
    # started as another ended read it paused, and left it paused for good
    collector = _Collector()
    monkeypatch.setattr(deadline_module, "gc", collector)
    first, second = deadline_module.gc_paused(), deadline_module.gc_paused()
    first.__enter__()
    collector.after_read = lambda: first.__exit__(None, None, None)
    second.__enter__()
    if collector.after_read is not None:  # the second search did not read: the first ends now
        collector.after_read = None
        first.__exit__(None, None, None)
    second.__exit__(None, None, None)
    assert collector.enabled


def test_a_knob_value_answers_the_same_whatever_was_asked_before() -> None:
    # the rules cache keyed a value by its type's name: numpy's bool_ is named
    # "bool", so np.True_ was refused until True had been asked, then accepted
    class NamedBool(int):  # equal to True, and named "bool" as numpy 2's np.bool_ is
        pass
    NamedBool.__name__ = "bool"
    fresh = {"set_allow_same_suit": NamedBool(1)}
    make_rules("gin", {"set_allow_same_suit": True})
    with pytest.raises(InvalidRulesError) as raised:
        make_rules("gin", fresh)
    assert raised.value.loc == ("rules", "set_allow_same_suit")
