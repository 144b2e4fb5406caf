"""The search's row reductions keep every optimum exactly.

Two rules let the search try fewer melds per lead card: under an *untied*
pass a meld keeps only its fewest wild slots (a spare wild card costs
nothing), and under the usual tie-broken pass a meld keeps its fewest wild
slots plus its *room*, filled by the wild cards left at the end.  Here both
are compared, cost for cost (tie unit included), with a search that tries
every wild count of every meld, on random wild-rich hands.
"""

from __future__ import annotations

import random

import pytest

from solver.cards import JOKER, make_card
from solver.engines.base import INFEASIBLE, wild_count
from solver.engines.caches import RowCache
from solver.engines.search import PassSearch
from solver.objective import passes_for, untied
from solver.rules import PRESETS, make_deal

CASES = [("indian13", "4S", 14), ("indian21", "9D", 22), ("rummy500", None, 13),
         ("kalooki", None, 15), ("indian13", "KH", 10)]


def _full_rows(search: PassSearch) -> PassSearch:
    """The same search trying every wild count of every meld."""
    search.spare_wilds_free = False
    search.absorb_spare = False
    search.rows = RowCache()
    return search


@pytest.mark.parametrize(("variant", "cut", "size"), CASES)
def test_fewer_rows_same_optimum(variant: str, cut: str | None, size: int) -> None:
    deal = make_deal(PRESETS[variant], cut)
    rng = random.Random(f"rows:{variant}:{cut}")
    wilds = sorted(deal.wild)
    deck = [c for c in range(JOKER + 1) for _ in range(deal.rules.decks)]
    for _ in range(40):
        # Wild-rich hands holding whole melds already: where spare wild cards
        # must find room in a meld to count as melded.
        low, suit, rank = rng.randrange(11), rng.randrange(4), rng.randrange(13)
        run = [make_card((low + i) % 13, suit) for i in range(rng.randint(3, 4))]
        group = [make_card(rank, s) for s in rng.sample(range(4), 3)]
        spare = [rng.choice(wilds) for _ in range(rng.randint(1, 3))]
        hand = run + group + spare
        hand += rng.sample(deck, size - len(hand))
        discard = rng.random() < 0.5
        for objective in passes_for(deal):
            for model in (objective, untied(objective)):
                cap = wild_count(hand, deal)
                reduced = PassSearch(deal, model, cap)
                full = _full_rows(PassSearch(deal, model, cap))
                got = reduced.solve(reduced.root(hand, discard))
                want = full.solve(full.root(hand, discard))
                assert got == want, (variant, cut, hand, discard, model.name, model.tie_break)
                if got < INFEASIBLE:
                    arrangement = reduced.arrangement(reduced.root(hand, discard))
                    assert arrangement.cost == got
