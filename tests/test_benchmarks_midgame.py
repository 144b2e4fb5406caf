"""The mid-game hint suites' positions (``benchmarks.speed.midgame``): seeded, dealt
from the real deck, taken at the turns they say, answered correctly."""

from __future__ import annotations

import doctest
from collections import Counter

import pytest

import benchmarks.speed.midgame
from benchmarks.speed.hints import (
    HINT_SUITES,
    MID_TURNS,
    call_hint,
    check_discard,
    check_draw,
    generate_hints,
)
from benchmarks.speed.suites import preset_deck
from solver.cards import parse_card, parse_cards
from solver.rules import PRESETS

MID_SUITES = [name for name, suite in HINT_SUITES.items() if suite.source != "deal"]


def test_every_variant_has_mid_game_suites() -> None:
    assert sorted(MID_SUITES) == sorted([
        "hints_indian13_draw_mid", "hints_indian13_discard_mid", "hints_indian21_draw_mid",
        "hints_indian21_discard_mid", "hints_gin_draw_mid", "hints_gin_discard_mid",
        "hints_gin_draw_arena", "hints_gin_discard_arena"])


@pytest.mark.parametrize("name", MID_SUITES)
def test_positions_are_seeded_and_come_from_the_real_deck(name: str) -> None:
    suite = HINT_SUITES[name]
    cases = generate_hints(name, 4)
    assert cases == generate_hints(name, 4)
    assert cases != generate_hints(name, 4, seed=1)
    deck = Counter(preset_deck(PRESETS[suite.variant]))
    for i, case in enumerate(cases):
        assert case.turn == MID_TURNS[i % len(MID_TURNS)]
        cards = parse_cards(list(case.hand))
        assert len(cards) == suite.cards
        shown = cards + parse_cards(list(case.seen))
        if suite.kind == "draw":
            shown.append(parse_card(case.top))
            # every discard but the top stays seen: at least one per turn played
            # by the opponent, less the ones taken back
            assert len(case.seen) >= (1 if suite.cut else 0)
        assert not Counter(shown) - deck, case
        assert (case.wild_rank is not None) == suite.cut


@pytest.mark.parametrize("name", MID_SUITES)
def test_mid_game_hints_answer_correctly(name: str) -> None:
    import random

    suite = HINT_SUITES[name]
    checker = check_draw if suite.kind == "draw" else check_discard
    for case in generate_hints(name, 2):
        hint = call_hint(suite, case, 30_000)
        assert hint.optimal
        assert checker(suite, case, hint, random.Random(0)) == []


def test_module_examples() -> None:
    result = doctest.testmod(benchmarks.speed.midgame)
    assert result.attempted >= 1 and result.failed == 0
