"""The bitmask engine (one deck, no wilds) against the general search DP."""

from __future__ import annotations

import random

import pytest

from solver import solve
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


# Upper and lower jokers worth 0 (``wild_cards_score_zero``) make one suit's
# card of a rank cheaper than the others: with JS cut the TS is wild and worth
# 0, the TH is a plain ten worth 10 (RULES.md: the neighbours are "in its suit").
NEIGHBOURS_FREE = {"cut_joker": True, "neighbour_jokers": True, "wild_cards_score_zero": True}


def test_bitmask_does_not_apply_when_a_rank_costs_differently_per_suit() -> None:
    instance = prepare("TH 2C", "basic", "JS", True, NEIGHBOURS_FREE)
    assert not bitmask.applies(instance)


@pytest.mark.parametrize("engine", ["auto", "search", "cpsat"])
def test_a_ten_next_to_a_wild_ten_of_spades_keeps_its_points(engine: str) -> None:
    # Throwing the TH leaves the 2C (2); throwing the 2C leaves the TH (10).
    sol = solve("TH 2C", "basic", wild_rank="JS", discard=True, rules=NEIGHBOURS_FREE,
                engine=engine)
    assert (card_name(sol.discard), sol.deadwood_points) == ("TH", 2)  # type: ignore[arg-type]
    # 8H 9H TH + 8D 8C left (16) beats 8H 8D 8C + 9H TH left (19).
    sol = solve("8H 9H TH 8D 8C", "basic", wild_rank="JS", rules=NEIGHBOURS_FREE, engine=engine)
    assert sol.deadwood_points == 16
    assert [[card_name(c) for c in m.cards] for m in sol.melds] == [["8H", "9H", "TH"]]
