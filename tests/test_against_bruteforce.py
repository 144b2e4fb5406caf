"""Property tests: ``solve(engine="search")`` reaches the brute-force optimum.

Small random hands (4-8 cards; with ``discard=True`` one of them is thrown)
are drawn from each preset's shoe (copies and jokers as its decks allow) and
from a few knob variations.  Two thirds are dense so that melds really occur:
cards from narrow rank windows, or ready melds with some cards swapped for
wilds (see ``deal_and_hand``).  For
every hand the optimum of ``tests.bruteforce.brute_optimum`` must equal the
solution's objective field, the solution must conserve the hand, and every
meld it shows must be a valid reading.

The default run is deterministic (``derandomize``) and short; the ``slow``
test (``pytest --run-slow``) checks at least 2000 hands per case (half of
them with ``discard=True``) and prints a summary line.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from solver import solve
from solver.cards import JOKER, RANKS, SUITS, card_name, make_card
from solver.results import Solution
from solver.rules import Deal, Rules, make_deal, make_rules
from solver.scoring import score_arrangement
from tests.bruteforce import CHECKED, brute_optimum, meld_reading_error

ALL_RANKS: tuple[str, ...] = tuple(RANKS)
ALL_CARDS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


@dataclass(frozen=True)
class Case:
    """A preset, knob overrides and the cut cards to draw from."""

    name: str
    variant: str
    knobs: dict[str, Any] = field(default_factory=dict, hash=False)
    wild_ranks: tuple[str | None, ...] = (None,)

    @property
    def rules(self) -> Rules:
        return make_rules(self.variant, self.knobs or None)


INDIAN13_CUTS: tuple[str | None, ...] = (*ALL_RANKS, "JK")
INDIAN21_CUTS: tuple[str | None, ...] = (*ALL_CARDS, "JK")

CASES: tuple[Case, ...] = (
    Case("basic", "basic"),
    Case("gin", "gin"),
    Case("rummy500", "rummy500"),
    Case("rommy", "rommy"),
    Case("indian13", "indian13", wild_ranks=INDIAN13_CUTS),
    Case("indian21", "indian21", wild_ranks=INDIAN21_CUTS),
    # knob variations
    Case("gin/ace=wrap", "gin", {"ace": "wrap"}),
    Case("rummy500/ace=wrap", "rummy500", {"ace": "wrap"}),
    Case("gin/same_suit_sets", "gin", {"decks": 2, "set_allow_same_suit": True}),
    Case("rummy500/same_suit_sets", "rummy500", {"decks": 2, "set_allow_same_suit": True}),
    Case("indian13/max_wilds=1", "indian13", {"max_wilds_per_meld": 1}, INDIAN13_CUTS),
    Case("rummy500/min_naturals=2", "rummy500", {"min_naturals_per_meld": 2}),
    Case("indian13/min_naturals=2", "indian13", {"min_naturals_per_meld": 2}, INDIAN13_CUTS),
    Case("indian13/penalty_tiers=2", "indian13", {"penalty_tiers": 2}, INDIAN13_CUTS),
    Case("indian13/tanala", "indian13", {"decks": 3, "tanala": True}, INDIAN13_CUTS),
)

# more knob corners, checked by the slow run only
EXTRA_CASES: tuple[Case, ...] = (
    Case("indian13/joker_cut_aces_wild", "indian13", {"joker_cut_makes_aces_wild": True},
         ("JK", "JK", "5")),
    Case("indian13/ace=wrap", "indian13", {"ace": "wrap"}, INDIAN13_CUTS),
    Case("indian13/same_suit_sets", "indian13", {"set_allow_same_suit": True}, INDIAN13_CUTS),
    Case("indian13/max_wilds=0", "indian13", {"max_wilds_per_meld": 0}, INDIAN13_CUTS),
    Case("indian21/no_tanala", "indian21", {"tanala": False}, INDIAN21_CUTS),
    Case("rommy/ace=wrap", "rommy", {"ace": "wrap"}),
)

HAND_SIZES = (4, 8)  # smallest and largest hand drawn
DEFAULT_EXAMPLES = 150
SLOW_EXAMPLES = 2000


def deck_of(rules: Rules) -> list[int]:
    """Every physical card of the variant's shoe (copies included)."""
    return [c for c in range(52) for _ in range(rules.decks)] + [JOKER] * (
        rules.decks * rules.jokers_per_deck
    )


@st.composite
def deal_and_hand(draw: st.DrawFn, case: Case) -> tuple[str | None, Deal, list[int]]:
    """A cut card, the deal it makes and a hand (``HAND_SIZES``) drawn from the shoe.

    Three kinds of hands, in equal parts: any cards of the shoe; cards from
    one or two narrow windows (melds likely); one or two ready melds with a
    few cards swapped for wilds and some extra cards (several melds likely).
    """
    rules = case.rules
    wild_rank = draw(st.sampled_from(case.wild_ranks))
    deal = make_deal(rules, wild_rank)
    deck = deck_of(rules)
    size = draw(st.integers(*HAND_SIZES))
    mode = draw(st.sampled_from(("shoe", "windows", "melds")))
    if mode == "melds":
        return wild_rank, deal, draw(built_hand(deal, deck, size))
    pool = deck
    if mode == "windows":
        # runs: few suits, wide window; sets: many suits, narrow window
        chosen: set[int] = set()
        for _ in range(draw(st.integers(1, 2))):
            low = draw(st.integers(0, 12))
            width = draw(st.integers(1, 5))
            fewest_suits = -(-4 // (width * rules.decks))  # at least 4 cards in the pool
            suit_count = draw(st.integers(min(fewest_suits, 4), 4 if width <= 2 else 2))
            suits = draw(st.permutations(range(4)))[:suit_count]
            chosen.update(make_card((low + i) % 13, s) for i in range(width) for s in suits)
        with_wilds = draw(st.booleans())
        pool = [c for c in deck if c in chosen or (with_wilds and c in deal.wild)]
    size = min(size, len(pool))
    picks = draw(st.lists(st.integers(0, len(pool) - 1), min_size=size, max_size=size,
                          unique=True))
    return wild_rank, deal, [pool[i] for i in picks]


@st.composite
def built_hand(draw: st.DrawFn, deal: Deal, deck: list[int], size: int) -> list[int]:
    """A meld per 3 cards at most (runs, sets, maybe invalid near the ace), some cards
    swapped for wilds, topped up with random cards: ``size`` cards in all."""
    left = Counter(deck)
    hand: list[int] = []

    def take(card: int) -> None:
        if left[card] > 0 and len(hand) < size:
            left[card] -= 1
            hand.append(card)

    for _ in range(draw(st.integers(1, max(1, size // 3)))):
        length = draw(st.integers(3, 4))
        if draw(st.booleans()):
            suit, start = draw(st.integers(0, 3)), draw(st.integers(0, 12))
            for i in range(length):
                take(make_card((start + i) % 13, suit))
        else:
            rank = draw(st.integers(0, 12))
            for suit in draw(st.permutations(range(4)))[:length]:
                take(make_card(rank, suit))
    wilds = sorted(c for c in deal.wild if left[c] > 0)
    for _ in range(draw(st.integers(0, 2)) if wilds and hand else 0):
        index = draw(st.integers(0, len(hand) - 1))
        wild = draw(st.sampled_from(wilds))
        if left[wild] > 0:
            left[hand[index]] += 1
            left[wild] -= 1
            hand[index] = wild
    while len(hand) < size:
        take(draw(st.sampled_from(sorted(left.elements()))))
    return hand


def objective_field(solution: Solution, rules: Rules) -> int:
    """The Solution field the objective optimises (Indian: the uncapped count)."""
    return solution.net_points if rules.objective == "max_net" else solution.deadwood_points


def check_hand_against_brute_force(
    case: Case, wild_rank: str | None, deal: Deal, hand: list[int], discard: bool
) -> None:
    names = [card_name(c) for c in hand]
    where = (f"hand={' '.join(names)!r} variant={case.variant!r} rules={case.knobs!r} "
             f"wild_rank={wild_rank!r} discard={discard}")
    solution = solve(names, variant=case.variant, wild_rank=wild_rank, discard=discard,
                     rules=case.knobs or None, engine="search")
    expected, witness = brute_optimum(hand, deal, discard)
    CHECKED[case.name] += 1

    assert solution.status == "optimal", where
    got = objective_field(solution, deal.rules)
    assert got == expected, (
        f"{where}: solve gives {got}, brute force {expected} with "
        f"melds={[m.to_dict() for m in witness.melds]} "
        f"deadwood={[card_name(c) for c in witness.deadwood]} "
        f"discard={None if witness.discard is None else card_name(witness.discard)}"
    )

    assert_cards_and_melds(solution, hand, discard, deal, where)

    # the reported points are those of the arrangement shown
    points = score_arrangement(solution.melds, solution.deadwood, deal)
    assert (points.deadwood_points, points.net_points, points.meld_points) == (
        solution.deadwood_points, solution.net_points, solution.meld_points
    ), where


def assert_cards_and_melds(solution: Solution, hand: list[int], discard: bool, deal: Deal,
                           where: str) -> None:
    """The hand is conserved (melds + deadwood + discard) and every meld is a
    valid reading with the right purity and points."""
    laid = [c for m in solution.melds for c in m.cards] + list(solution.deadwood)
    if discard:
        assert solution.discard is not None, where
        laid.append(solution.discard)
    else:
        assert solution.discard is None, where
    assert Counter(laid) == Counter(hand), where
    for meld in solution.melds:
        error = meld_reading_error(meld, deal)
        assert error is None, f"{where}: meld {meld.to_dict()}: {error}"


def run_case(case: Case, discard: bool, max_examples: int) -> int:
    """Check ``max_examples`` hands of ``case``; returns how many were checked."""
    before = CHECKED[case.name]

    @settings(
        max_examples=max_examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(drawn=deal_and_hand(case))
    def check(drawn: tuple[str | None, Deal, list[int]]) -> None:
        wild_rank, deal, hand = drawn
        check_hand_against_brute_force(case, wild_rank, deal, hand, discard)

    check()
    return CHECKED[case.name] - before


@pytest.mark.parametrize("discard", [False, True], ids=["keep", "discard"])
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_search_matches_brute_force(case: Case, discard: bool) -> None:
    examples = DEFAULT_EXAMPLES // 2
    assert run_case(case, discard, examples) >= examples


def run_cases_long(cases: tuple[Case, ...], label: str) -> None:
    started = time.perf_counter()
    counts = {
        case.name: sum(run_case(case, discard, SLOW_EXAMPLES // 2) for discard in (False, True))
        for case in cases
    }
    elapsed = time.perf_counter() - started
    print(
        f"\nbrute-force cross-check ({label}): {sum(counts.values())} hands in {elapsed:.0f} s: "
        + ", ".join(f"{name}={n}" for name, n in counts.items())
    )
    assert all(n >= SLOW_EXAMPLES for n in counts.values()), counts


@pytest.mark.slow
def test_search_matches_brute_force_long() -> None:
    run_cases_long(CASES, "presets and knobs")


@pytest.mark.slow
def test_search_matches_brute_force_more_knobs_long() -> None:
    run_cases_long(EXTRA_CASES, "more knobs")
