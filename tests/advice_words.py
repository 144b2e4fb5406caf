"""Checks of the words beside an advisor's moves, shared by the advisors' tests."""

from __future__ import annotations

import re
from collections.abc import Iterable

from solver.play.advice import MoveValue
from solver.play.search import NOT_PLAYED

_OVER_DEALS = re.compile(r"over (\d+) (deals?)\b")


def deals_in_words(values: Iterable[MoveValue]) -> None:
    """Each move's "over N deals" says its ``samples`` in the right number;
    a move with no deal says so (``NOT_PLAYED``) and shows none."""
    for value in values:
        said = [m for r in value.reasons for m in _OVER_DEALS.findall(r)]
        if value.samples == 0:
            assert not said and NOT_PLAYED in value.reasons, value
            continue
        for number, noun in said:
            assert int(number) == value.samples and noun == ("deal" if value.samples == 1
                                                             else "deals"), value
