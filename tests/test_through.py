"""``through_effects`` is the effect projection of ``melds_through``.

The draw hint's fast path replaces the candidate generator with per-pattern
effect tables; here both answer the same question -- which melds can a card
join with these cards -- on random hands under every ace mode and meld rule,
and must list the same (other naturals, wild slots, meld class) effects.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import JOKER, NUM_CARD_TYPES
from solver.engines.packed import pack, unpack
from solver.engines.through import through_effects
from solver.melds import melds_through
from solver.objective import class_of
from solver.rules import PRESETS, make_deal, make_rules

RULE_SETS = [
    ("gin", {}),
    ("indian13", {}),
    ("indian21", {}),
    ("rummy500", {}),
    ("rummy500", {"ace": "wrap"}),
    ("rummy500", {"ace": "high"}),
    ("kalooki", {}),
    ("contract", {}),
    ("rommy", {}),
    ("basic", {"ace": "high_low"}),
    ("indian13", {"min_run_length": 4, "max_set_size": 3}),
    ("indian21", {"max_wilds_per_meld": 1}),
]


def _projection(card: int, counts: list[int], variant: str, overrides: dict[str, object],
                wild_cap: int, pure_only: bool) -> set[tuple[int, int, int]]:
    deal = make_deal(make_rules(variant, overrides))
    out = set()
    for candidate in melds_through(card, counts, deal, wild_cap, pure_only):
        rest = list(candidate.naturals)
        rest.remove(card)
        out.add((pack(rest), candidate.wilds, class_of(candidate.kind, candidate.pure)))
    return out


@pytest.mark.parametrize(("variant", "overrides"), RULE_SETS)
def test_effects_match_the_candidate_generator(variant: str, overrides: dict[str, object]) -> None:
    rules = make_rules(variant, overrides)
    rng = random.Random(f"through:{variant}:{sorted(overrides.items())}")
    copies = rules.decks
    deck = [c for c in range(JOKER) for _ in range(copies)]
    for _ in range(300):
        size = rng.randint(0, 21)
        hand = rng.sample(deck, size)
        counts = [0] * NUM_CARD_TYPES
        for card in hand:
            counts[card] += 1
        card = rng.randrange(JOKER)
        wild_cap = rng.randint(0, 5)
        pure_only = rng.random() < 0.25
        effects = through_effects(card, pack(hand), rules, wild_cap, pure_only)
        assert len(effects) == len(set(effects)), "an effect is listed twice"
        assert set(effects) == _projection(card, counts, variant, overrides, wild_cap, pure_only)


def test_effects_list_bigger_melds_first() -> None:
    rules = PRESETS["indian21"]
    hand = pack([0, 1, 2, 3, 13, 26])
    effects = through_effects(4, hand, rules, 2, False)
    sizes = [sum(unpack(delta)) for delta, _, _ in effects]
    assert sizes == sorted(sizes, reverse=True)
