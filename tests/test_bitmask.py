"""The bitmask engine (one deck, no wilds) against the general search DP."""

from __future__ import annotations

import random

import pytest

from solver.assemble import build_solution
from solver.cards import card_name
from solver.engines import bitmask
from solver.session import solve_search
from solver.solve import prepare
from solver.validate import validate

CASES = [
    ("gin", 10, False, None),
    ("gin", 11, True, None),
    ("basic", 7, False, None),
    ("rummy500", 13, False, None),
    ("rommy", 8, True, None),
    ("rummy500", 9, True, {"ace": "low"}),
    ("gin", 12, True, {"ace": "high_low"}),
]


@pytest.mark.parametrize(("variant", "size", "discard", "rules"), CASES)
def test_bitmask_matches_the_general_search(
    variant: str, size: int, discard: bool, rules: dict[str, str] | None
) -> None:
    rng = random.Random(f"{variant}-{size}-{discard}")
    for i in range(250):
        if i % 2:  # meld-dense: five ranks only
            low = rng.randrange(0, 9)
            deck = [s * 13 + r for s in range(4) for r in range(low, low + 5)]
        else:
            deck = list(range(52))
        hand = [card_name(c) for c in rng.sample(deck, min(size, len(deck)))]
        instance = prepare(hand, variant, None, discard, rules)
        assert bitmask.applies(instance)
        fast = solve_search(instance)
        general = solve_search(instance, use_tables=False)
        assert fast.cost == general.cost, hand
        solution = build_solution(fast, instance.deal, "search")
        kept = list(hand)
        if solution.discard is not None:
            kept.remove(card_name(solution.discard))
        report = validate([[card_name(c) for c in m.cards] for m in solution.melds],
                          [card_name(c) for c in solution.deadwood], variant,
                          rules=rules, hand=kept)
        assert report.valid, (hand, report.problems)
        assert report.deadwood_points == solution.deadwood_points


def test_bitmask_does_not_apply_with_wilds_or_two_decks() -> None:
    assert not bitmask.applies(prepare("JK 2S 3S", "rummy500", None, False, None))
    assert not bitmask.applies(prepare("9S 9S 9H", "indian13", None, False, None))
    assert not bitmask.applies(prepare("KH AH 2H", "gin", None, False, {"ace": "wrap"}))
