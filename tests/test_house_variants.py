"""House variants (rule knobs) the engines cannot solve exactly are refused,
by name, in the library and through the REST API (docs/RULES.md section 5.3).

Each case below is a knob combination a random audit found answered wrongly
with ``optimal: true`` (the brute force of ``tests/bruteforce.py`` finds a
better arrangement); it is now an ``InvalidRulesError`` naming the knob, a
422 whose ``loc`` ends with it, and the nearby combinations still solve.
"""

from __future__ import annotations

from typing import Any

import pytest

from solver import solve
from solver.errors import InvalidRulesError
from solver.rules import make_rules

# A run counted impure whose wild slot is filled by its own card (5D, 5s
# wild) shows pure: under "exactly 0 pure sequences" both engines answered a
# lay-down that could not open (every card counting, 64) where the 5D
# standing for AS (the 5S and 5H standing in elsewhere) opens with nothing left.
EXACT_PURE = {"cut_joker": True,
              "requirements": [{"kind": "pure_sequence", "count": 0, "exact": True}]}
EXACT_PURE_HAND = "2S 3S 4S 5S 5H 5D JC QS QH QC"


def test_exact_pure_sequence_with_cut_joker_is_refused() -> None:
    with pytest.raises(InvalidRulesError) as error:
        make_rules("basic", EXACT_PURE)
    assert error.value.loc == ("rules", "requirements")
    assert "cut_joker" in error.value.message and "exact" in error.value.message
    with pytest.raises(InvalidRulesError):
        solve(EXACT_PURE_HAND, "basic", wild_rank="5", rules=EXACT_PURE, engine="search")


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_nearby_pure_sequence_counts_still_solve(engine: str) -> None:
    at_least = {"cut_joker": True,
                "requirements": [{"kind": "pure_sequence", "count": 1, "exact": False}]}
    sol = solve(EXACT_PURE_HAND, "basic", wild_rank="5", rules=at_least, engine=engine,
                time_limit_ms=20000)
    assert (sol.deadwood_points, sol.can_open, sol.optimal) == (0, True, True)
    no_cut = {"requirements": [{"kind": "pure_sequence", "count": 0, "exact": True}]}
    sol = solve(EXACT_PURE_HAND, "basic", rules=no_cut, engine=engine, time_limit_ms=20000)
    assert sol.optimal and sol.can_open
    assert not any(m.pure for m in sol.melds)


# Marriage with wild cards that score and an exact count: showing the set of
# twos too (its cards counting) misses "exactly 0 sets", so the lower tier
# frees the cut-rank KS: 6 (2C 2D 2S).  Both engines answered 16 (the KS
# counting), trying only the pure sequences that tier exempts.
MARRIAGE_EXACT = {"requirements": [{"kind": "set", "count": 0, "exact": True}],
                  "max_wilds_per_meld": 0, "wild_cards_score_zero": False}
MARRIAGE_HAND = "5H 6H 7H KS 2C 2D 2S"


def test_marriage_exact_count_with_scoring_wilds_is_refused() -> None:
    with pytest.raises(InvalidRulesError) as error:
        make_rules("indian21", MARRIAGE_EXACT)
    assert error.value.loc == ("rules", "requirements")
    assert "wild_cards_score_zero" in error.value.message
    # without wild cards in the deal the lower tier frees nothing: solved
    make_rules("indian21", {**MARRIAGE_EXACT, "cut_joker": False, "printed_jokers_wild": False})


@pytest.mark.parametrize("engine", ["search", "cpsat"])
def test_nearby_marriage_counts_still_solve(engine: str) -> None:
    # the same item as at least 0 sets: every arrangement declares, so the
    # twos are melded and the KS counts: 10
    at_least = {**MARRIAGE_EXACT,
                "requirements": [{"kind": "set", "count": 0, "exact": False}]}
    sol = solve(MARRIAGE_HAND, "indian21", wild_rank="KD", rules=at_least, engine=engine,
                time_limit_ms=20000)
    assert (sol.deadwood_points, sol.optimal) == (10, True)
    # wild cards worth 0: the exact count is solved (the twos count, 6)
    free = {**MARRIAGE_EXACT, "wild_cards_score_zero": True}
    sol = solve(MARRIAGE_HAND, "indian21", wild_rank="KD", rules=free, engine=engine,
                time_limit_ms=20000)
    assert (sol.deadwood_points, sol.optimal) == (6, True)


REFUSED: tuple[tuple[str, dict[str, Any], str], ...] = (
    ("indian21", MARRIAGE_EXACT, "requirements"),
    ("basic", EXACT_PURE, "requirements"),
    ("indian13", {"requirements": [{"kind": "pure_sequence", "count": 1, "exact": True}]},
     "requirements"),
)


@pytest.mark.parametrize(("variant", "rules", "knob"), REFUSED,
                         ids=[f"{v}:{k}" for v, _, k in REFUSED])
def test_refused_through_the_api(inline_client: Any, variant: str, rules: dict[str, Any],
                                 knob: str) -> None:
    response = inline_client.post("/v1/solve", json={
        "variant": variant, "hand": EXACT_PURE_HAND, "rules": rules})
    assert response.status_code == 422, response.text
    assert [item["loc"][-1] for item in response.json()["detail"]] == [knob], response.text
