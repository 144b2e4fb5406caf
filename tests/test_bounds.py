"""The pure-sequence bound the search prunes with never undercounts.

For random small hands under every ace mode, the bound is compared with the
true largest number of disjoint pure sequences, found by trying every
packing of the candidate generator's pure melds.  A bound below the truth
would make the search call a feasible hand infeasible.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import JOKER, NUM_CARD_TYPES
from solver.engines.bounds import meld_reach
from solver.engines.packed import pack
from solver.melds import melds_led_by
from solver.rules import make_deal, make_rules


def _most_pure_sequences(counts: list[int], variant: str, overrides: dict[str, object]) -> int:
    deal = make_deal(make_rules(variant, overrides))
    lead = next((c for c in range(JOKER) if counts[c]), None)
    if lead is None:
        return 0
    rest = list(counts)
    rest[lead] -= 1
    best = _most_pure_sequences(rest, variant, overrides)  # the lead in no sequence
    for candidate in melds_led_by(lead, counts, deal, 0, pure_only=True):
        left = list(counts)
        for card in candidate.naturals:
            left[card] -= 1
        if min(left) >= 0:
            best = max(best, 1 + _most_pure_sequences(left, variant, overrides))
    return best


@pytest.mark.parametrize(("variant", "overrides"), [
    ("indian13", {}), ("indian21", {}), ("rummy500", {"ace": "wrap"}),
    ("rummy500", {"ace": "high"}), ("basic", {}), ("indian13", {"min_run_length": 4}),
])
def test_the_bound_is_never_below_the_true_count(variant: str, overrides: dict[str, object]) -> None:
    rules = make_rules(variant, overrides)
    reach = meld_reach(rules)
    rng = random.Random(f"bounds:{variant}:{sorted(overrides.items())}")
    deck = [c for c in range(JOKER) for _ in range(rules.decks)]
    for _ in range(120):
        # Hands crowded into two suits, so that sequences are common.
        suits = rng.sample(range(4), 2)
        pool = [c for c in deck if c // 13 in suits]
        hand = rng.sample(pool, rng.randint(3, 11))
        counts = [0] * NUM_CARD_TYPES
        for card in hand:
            counts[card] += 1
        truth = _most_pure_sequences(counts, variant, overrides)
        assert reach.pure_sequences_at_most(pack(hand)) >= truth, hand
