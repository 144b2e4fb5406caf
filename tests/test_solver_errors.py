"""The library's input errors (``solver.errors``) outside the call that raised
them: pickled, and handed back by a process pool."""

from __future__ import annotations

import multiprocessing
import pickle

import pytest

from solver.errors import (
    InvalidHandError,
    InvalidOptionError,
    InvalidRulesError,
    InvalidStateError,
)


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
