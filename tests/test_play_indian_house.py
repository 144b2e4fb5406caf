"""House rules for the Indian advisor: a knob value it cannot play is refused
by name, not left to a later error that contradicts itself."""

from __future__ import annotations

from typing import Any

import pytest

from solver.errors import InvalidRulesError
from solver.play import advise

STATE: dict[str, Any] = {"players": 2, "me": 1, "dealer": 0, "upcard": "4D", "history": [],
                         "hand": "AH 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH"}


@pytest.mark.parametrize("wild_rank", [None, "7H", "JK"])
def test_without_the_cut_joker_the_advisor_refuses_the_knob(wild_rank: str | None) -> None:
    """The advisor needs a cut card (``wild_rank``), and a cut card is an
    error without ``cut_joker``: before, the request was refused for its
    wild_rank whether it gave one ("needs wild_rank") or not ("omit
    wild_rank"), never naming the knob that made it unplayable."""
    with pytest.raises(InvalidRulesError) as caught:
        advise("indian13", **STATE, wild_rank=wild_rank, rules={"cut_joker": False},
               level="novice")
    assert caught.value.loc == ("rules", "cut_joker")
    assert "cut_joker" in str(caught.value)


def test_the_cut_joker_on_is_still_taken() -> None:
    advice = advise("indian13", **STATE, wild_rank="7H", rules={"cut_joker": True},
                    level="novice", seed=1)
    assert advice.moves
