"""The library's input errors (``solver.errors``) outside the call that raised
them: pickled, and handed back by a process pool."""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable

import pytest

from solver import knock_check, layoffs_hint, make_deal, make_rules, solve, validate
from solver.errors import (
    InvalidHandError,
    InvalidOptionError,
    InvalidRulesError,
    InvalidStateError,
    SolverInputError,
)
from solver.play import advise


def _raises_state_error(message: str) -> None:
    raise InvalidStateError(message, code="too_many_copies", loc=("history", 3))


def test_input_errors_survive_pickling_and_a_process_pool() -> None:
    """Every input error comes back from pickle whole (its type, message,
    code, loc and own fields), so a process pool hands a task's error back
    instead of hanging: its result thread died unpickling one, since the
    keyword-only arguments are not in ``args`` (the review's benchmark
    stalled so)."""
    errors = [InvalidStateError("x", code="too_many_copies", loc=("hand",)),
              InvalidRulesError("decks", "decks must be 1 to 4"),
              InvalidOptionError("engine", "unknown engine", code="invalid_engine"),
              InvalidHandError("unknown card", code="invalid_card", field="melds[2]", index=1)]
    for error in errors:
        again = pickle.loads(pickle.dumps(error))
        assert type(again) is type(error) and str(again) == str(error)
        assert (again.code, again.loc, vars(again)) == (error.code, error.loc, vars(error))
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        pending = pool.apply_async(_raises_state_error, ("three KH",))
        with pytest.raises(InvalidStateError, match="three KH") as raised:
            pending.get(timeout=60)
    assert raised.value.loc == ("history", 3) and raised.value.code == "too_many_copies"


def _nested(depth: int, inner: object) -> object:
    """``inner`` wrapped in ``depth`` lists, built without recursion."""
    value = inner
    for _ in range(depth):
        value = [value]
    return value


def _deep_calls(deep: object) -> list[tuple[Callable[[], object], tuple[object, ...]]]:
    """Library calls with ``deep`` where a card, a meld, a knob or a
    requirement is expected, each with the ``loc`` its error must carry."""
    hand = ["AS", "2S", "3S", "7H", "7D", "7C", "KD", "QH", "4C"]
    return [
        (lambda: solve([*hand, deep], variant="basic"), ("hand", 9)),
        (lambda: solve(hand, variant="basic", rules={"knock_limit": deep}), ("rules", "knock_limit")),
        (lambda: make_rules("basic", {"requirements": deep}), ("rules", "requirements")),
        (lambda: make_rules("basic", {"requirements": [{"kind": "set", "count": deep}]}),
         ("rules", "requirements")),
        (lambda: make_rules("basic", {"card_points": {"hand": {"A": deep}}}), ("rules", "card_points")),
        (lambda: validate([deep], [], variant="basic"), ("melds", 0)),  # type: ignore[list-item]
        (lambda: layoffs_hint(hand, table=[deep], variant="basic"), ("table", 0)),
        (lambda: knock_check([*hand, deep]), ("hand", 9)),
        (lambda: make_deal(make_rules("indian13"), deep), ("wild_rank",)),  # type: ignore[arg-type]
        (lambda: advise("gin", hand=[*hand, "9S"], upcard=deep), ("upcard",)),
    ]


def test_input_nested_100000_deep_gets_the_input_error_naming_its_field() -> None:
    """A card, meld, knob or requirement nested 100,000 deep is refused as
    any other bad value (the library's ``SolverInputError`` naming the
    field): showing it in the message used to recurse into all of it, as did
    keying the rules overrides that held it (``RecursionError``)."""
    for deep in (_nested(100_000, []), _deep_dict(100_000)):
        for call, loc in _deep_calls(deep):
            with pytest.raises(SolverInputError) as info:
                call()
            assert info.value.loc[:len(loc)] == loc
            assert len(info.value.message) < 500


def _deep_dict(depth: int) -> dict[str, object]:
    top: dict[str, object] = {}
    inner = top
    for _ in range(depth):
        inner["a"] = inner = {}
    return top
