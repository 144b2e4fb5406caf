"""The microsecond path of ``solve()`` (gin, basic) against the general path."""

from __future__ import annotations

import random

import pytest

from solver import InvalidHandError, solve
from solver.assemble import build_solution
from solver.cards import card_name
from solver.engines import bitmask
from solver.quick import quick_path
from solver.session import solve_search
from solver.solve import prepare
from solver.validate import validate


def _hands(seed: str, count: int) -> list[tuple[list[str], bool]]:
    """Uniform and meld-dense hands of every size up to 30, with and without a discard."""
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        if i % 2:  # dense: a few ranks in every suit, so sets and runs cross
            ranks = rng.sample(range(13), rng.randint(3, 8))
            deck = [s * 13 + r for s in range(4) for r in ranks]
        else:
            deck = list(range(52))
        size = min(rng.choice([1, 2, 3, 4, 7, 10, 11, 12, 16, 21, 30]), len(deck))
        hands.append(([card_name(c) for c in rng.sample(deck, size)], i % 3 == 0))
    return hands


@pytest.mark.parametrize("variant", ["gin", "basic"])
def test_quick_path_answers_what_the_general_path_answers(variant: str) -> None:
    quick = quick_path(variant)
    assert quick is not None
    answered = 0
    for hand, discard in _hands(variant, 600):
        fast = quick.solve(hand, discard)
        general = solve(hand, variant, discard=discard, rules={}, engine="search",
                        time_limit_ms=60_000)
        if fast is None:  # more set choices than the tables enumerate
            assert bitmask.set_options(bitmask.masks_of(prepare(hand, variant, None, False,
                                                              None).cards)) is None
            continue
        answered += 1
        assert fast == general, hand
        assert solve(hand, variant, discard=discard) == fast
    assert answered > 550


@pytest.mark.parametrize("variant", ["gin", "basic"])
def test_quick_path_optimum_matches_the_search_without_tables(variant: str) -> None:
    quick = quick_path(variant)
    assert quick is not None
    for hand, discard in _hands(f"dp-{variant}", 300):
        fast = quick.solve(hand, discard)
        if fast is None:
            continue
        instance = prepare(hand, variant, None, discard, None)
        general = build_solution(solve_search(instance, use_tables=False), instance.deal, "search")
        assert fast.deadwood_points == general.deadwood_points, hand
        kept = list(hand)
        if fast.discard is not None:
            kept.remove(card_name(fast.discard))
        report = validate([[card_name(c) for c in m.cards] for m in fast.melds],
                          [card_name(c) for c in fast.deadwood], variant, hand=kept)
        assert report.valid, (hand, report.problems)
        assert (report.deadwood_points, report.declarable) == (fast.deadwood_points,
                                                               fast.declarable)
        assert fast.meld_points == sum(m.points for m in fast.melds)
        assert fast.net_points == fast.meld_points - fast.deadwood_points


def test_quick_path_covers_only_wild_free_least_deadwood_presets() -> None:
    assert quick_path("gin") is not None
    assert quick_path("basic") is not None
    for variant in ("rummy500", "rommy", "indian13", "indian21", "contract", "kalooki",
                    "no-such-variant"):
        assert quick_path(variant) is None
    assert quick_path(["gin"]) is None


@pytest.mark.parametrize("hand", [
    "AS AS 2S",          # a duplicate
    "AS JK 2S",          # a printed joker (not in a gin deck)
    "AS 1S 2S",          # an unknown card
    ["AS", 7, "2S"],     # not a card name
])
def test_bad_hands_get_the_general_paths_errors(hand: str | list[object]) -> None:
    quick = quick_path("gin")
    assert quick is not None
    tokens = hand.split() if isinstance(hand, str) else hand
    assert quick.solve(tokens, False) is None
    with pytest.raises(InvalidHandError):
        solve(hand, "gin")


def test_a_discard_from_no_cards_is_an_error() -> None:
    with pytest.raises(InvalidHandError):
        solve([], "gin", discard=True)


def test_more_set_choices_than_the_tables_enumerate_go_to_the_search() -> None:
    # seven ranks held four times: 6^7 set choices
    hand = [card_name(s * 13 + r) for r in range(7) for s in range(4)] + ["9S", "JH"]
    masks = bitmask.masks_of(prepare(hand, "gin", None, False, None).cards)
    assert bitmask.set_options(masks) is None
    quick = quick_path("gin")
    assert quick is not None and quick.solve(hand, False) is None
    solution = solve(hand, "gin", time_limit_ms=60_000)
    assert solution.deadwood_points == 19  # 9S + JH; the 28 cards all meld
