"""The Indian advisor's packing search (``solver.play.indian.hands``): a hand
it calls ready is one the exact solver declares, it is exact where it claims
to be, more nodes never make it worse, and its discrepancy search finds the
best distance of 21- and 22-card hands within its node budget."""

from __future__ import annotations

import random

import pytest

from solver import solve
from solver.cards import JOKER, card_name, parse_card
from solver.play.indian.hands import IndianHands
from solver.rules import make_deal, make_rules

UNLIMITED = 10**8


def _dealt(game: str, index: int, narrow: bool = False) -> tuple[IndianHands, list[int], str]:
    """A seeded evaluator and hand (the hand's size, or one more on odd
    ``index``); a ``narrow`` deck (three suits, ace to eight) makes hands near a show."""
    rules = make_rules(game)
    types = [s * 13 + r for s in range(3) for r in range(8)] if narrow else list(range(52))
    deck = types * rules.decks + [JOKER] * rules.decks
    rng = random.Random(index)
    rng.shuffle(deck)
    cut = next(c for c in deck if c != JOKER)
    wild_rank = card_name(cut)  # the cut card: both games read it
    hands = IndianHands(make_deal(rules, wild_rank))
    size = rules.hand_size + index % 2
    return hands, deck[1:1 + size], wild_rank


@pytest.mark.parametrize("game", ["indian13", "indian21"])
def test_a_ready_hand_is_a_declaration_for_the_solver(game: str) -> None:
    ready = 0
    for index in range(200):
        hands, hand, wild_rank = _dealt(game, index, narrow=True)
        packing = hands.evaluate(hand)
        if not packing.declarable:
            continue
        ready += 1
        kept = list(hand)
        for card in packing.left_out[:len(hand) - hands.hand_size]:
            kept.remove(card)
        solution = solve([card_name(c) for c in kept], game, wild_rank=wild_rank)
        assert solution.declarable, ([card_name(c) for c in hand], wild_rank)
    assert ready >= 10


def test_thirteen_and_fourteen_cards_are_searched_whole() -> None:
    """The plain search finishes on these hands: the budget changes nothing."""
    for index in range(200):
        hands, hand, _ = _dealt("indian13", index)
        assert hands.evaluate(hand).key() == hands.evaluate(hand, UNLIMITED).key()


def test_more_nodes_never_find_a_worse_packing() -> None:
    for index in range(30):
        hands, hand, _ = _dealt("indian21", index)
        keys = [hands.evaluate(hand, nodes).key() for nodes in (300, 1000, 2500, 6000)]
        assert keys == sorted(keys, reverse=True)


# 40 hands by default (39 found, 35 plain; on hands 1040, 2000, 3000 and 4000
# on: 37 and 33, 39 and 34, 38 and 37, 39 and 32), 80 in the slow lane
@pytest.mark.parametrize("count", [40, pytest.param(80, marks=pytest.mark.slow)])
def test_the_discrepancy_search_finds_the_best_distance_within_its_budget(count: int) -> None:
    """On seeded 21- and 22-card hands, the default budget finds the distance
    of the unlimited search on at least nine hands in ten; spent on the plain
    depth-first search alone, the same budget finds it less often."""
    cases = [_dealt("indian21", 1000 + index) for index in range(count)]
    best = [hands.evaluate(hand, UNLIMITED).distance for hands, hand, _ in cases]
    found = sum(hands.evaluate(hand).distance == d for (hands, hand, _), d in zip(cases, best, strict=True))
    for hands, _, _ in cases:
        hands.probe_nodes = UNLIMITED
    plain = sum(hands.evaluate(hand).distance == d for (hands, hand, _), d in zip(cases, best, strict=True))
    assert found >= count * 9 // 10 and found > plain


@pytest.mark.parametrize("game", ["indian13", "indian21"])
def test_the_count_estimate_is_a_count_the_hand_can_pay(game: str) -> None:
    """The estimate reads an arrangement off the packing, so it is never
    below the solver's least count, and on half the random hands or more it
    is that count (at 21 cards: every card but the wild cards and the two
    dearest pure sequences)."""
    equal = 0
    for index in range(0, 120, 2):
        hands, hand, wild_rank = _dealt(game, index)
        estimate = hands.count_estimate(hand)
        exact = solve([card_name(c) for c in hand], game, wild_rank=wild_rank).penalty_points
        assert estimate >= exact, ([card_name(c) for c in hand], wild_rank)
        equal += estimate == exact
    assert equal >= 30  # of 60


def test_a_drawn_card_never_takes_a_cut_short_search_farther_than_the_hand() -> None:
    """A draw can be left out, so a hand one card over is at most as far as
    the hand it grew from; the packing of that hand, passed as ``like``,
    keeps a search cut short (here at 200 nodes) to that."""
    for index in range(0, 40, 2):
        hands, hand, _ = _dealt("indian21", index)
        before = hands.evaluate(hand)
        for card in (0, 9, 20, 38, 51, JOKER):
            after = hands.evaluate([*hand, card], 200, like=before)
            assert after.distance <= before.distance
            assert len(after.left_out) >= 1


@pytest.mark.parametrize("ace", ["high_low", "low", "high"])
def test_the_ace_goes_low_only_where_the_rules_let_it(ace: str) -> None:
    """A-2-3 is a run unless the ace is high only (``ace: "high"``): the
    packing search agrees with the exact solver on a hand whose show needs it."""
    hand = "AH 2H 3H 4S 5S 6S 7S 8D 9D TD 8C 9C TC"
    rules = make_rules("indian13", {"ace": ace})
    hands = IndianHands(make_deal(rules, "KS"))
    cards = [parse_card(token) for token in hand.split()]
    expected = solve(hand, "indian13", wild_rank="KS", rules={"ace": ace}).declarable
    assert hands.evaluate(cards).declarable == expected == (ace != "high")
