"""The arena's meld finder against brute force, and pinned positions.

The brute force here finds melds by testing every 3-5 card subset with its
own rules (same rank, or one suit with consecutive ranks, ace low) and packs
them disjointly by plain recursion: nothing is shared with
``benchmarks.arena.gin.melds`` but the card encoding.
"""

from __future__ import annotations

import itertools
import random

import pytest

from benchmarks.arena.gin.cards import POINTS, cards_of, mask_of, parse_cards
from benchmarks.arena.gin.melds import (
    ALL_MELDS,
    arrangements,
    best_defence,
    layoff_targets,
    min_deadwood,
    min_deadwood_after_discard,
    split_run,
)


def brute_is_meld(cards: tuple[int, ...]) -> bool:
    ranks = sorted(c % 13 for c in cards)
    suits = {c // 13 for c in cards}
    if len(set(ranks)) == 1:
        return len(cards) in (3, 4)
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cards)))


def brute_min_deadwood(hand: tuple[int, ...]) -> int:
    melds = [set(c) for size in (3, 4, 5) for c in itertools.combinations(hand, size) if brute_is_meld(c)]
    total = sum(POINTS[c] for c in hand)
    best = total

    def pack(start: int, used: set[int], melded: int) -> None:
        nonlocal best
        best = min(best, total - melded)
        for i in range(start, len(melds)):
            if not melds[i] & used:
                pack(i + 1, used | melds[i], melded + sum(POINTS[c] for c in melds[i]))

    pack(0, set(), 0)
    return best


def random_hands(count: int, size: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    hands = []
    for i in range(count):
        if i % 2:  # dense: five ranks of one deck, many overlapping melds and ties
            low = rng.randrange(0, 9)
            pool = [s * 13 + r for s in range(4) for r in range(low, low + 5)]
        else:
            pool = list(range(52))
        hands.append(tuple(rng.sample(pool, size)))
    return hands


def test_every_meld_of_the_deck() -> None:
    assert len(ALL_MELDS) == 185  # OpenSpiel's count: 65 sets, 120 runs of 3-5
    assert all(brute_is_meld(cards_of(m)) for m in ALL_MELDS)


@pytest.mark.parametrize("size", [10, 11])
def test_min_deadwood_matches_brute_force(size: int) -> None:
    for hand in random_hands(150, size, seed=size):
        assert min_deadwood(mask_of(hand)) == brute_min_deadwood(hand), hand


def test_min_deadwood_after_discard_matches_every_discard() -> None:
    # one pass with the discard as a choice == the minimum of one search per discard
    for hand in random_hands(400, 11, seed=7):
        mask = mask_of(hand)
        assert min_deadwood_after_discard(mask) == min(min_deadwood(mask ^ 1 << c) for c in hand), hand
    for hand in random_hands(20, 11, seed=8):
        expected = min(brute_min_deadwood(tuple(c for c in hand if c != d)) for d in hand)
        assert min_deadwood_after_discard(mask_of(hand)) == expected, hand


@pytest.mark.parametrize(("hand", "deadwood"), [
    # ace low only: A-2-3 is a run, Q-K-A and K-A-2 are not
    ("AS 2S 3S 7H 7D 7C KD QH 4C 9S", 33),
    ("QS KS AS QH KH AH 5C 6C 7C 8C", 42),
    ("KS AS 2S KH AH 2H 5C 6C 7C 8C", 26),
    # a card in a set and a run: 7S goes to the run (leaves 7H 7D = 14) or the set (5S 6S = 11)
    ("5S 6S 7S 7H 7D 2C 3C 4C KD KH", 31),
    # four of a kind or a run through one of the four: the run wins
    ("4S 4H 4D 4C 5S 6S 9D 9H 9C 2C", 2),
    ("TS JS QS KS TH TD TC 2H 3H 4H", 0),
])
def test_pinned_deadwood(hand: str, deadwood: int) -> None:
    cards = parse_cards(hand)
    assert min_deadwood(mask_of(cards)) == deadwood == brute_min_deadwood(cards)


def test_tied_groups_after_discard() -> None:
    # Sets of fours and of fives tie with the runs 4-5-6 of spades and of
    # hearts; only some of the tied groups leave a 6 to discard.  The exact
    # minimum over every discard is 10, a knock (OpenSpiel's 11-card call
    # says 11: tests/test_arena_openspiel.py).
    cards = parse_cards("AS 4S 5S 6S 4H 5H 6H 2D 4D 3C 6C")
    expected = min(brute_min_deadwood(tuple(c for c in cards if c != d)) for d in cards)
    assert min_deadwood_after_discard(mask_of(cards)) == expected == 10


def test_arrangements_reach_every_split_within_the_limit() -> None:
    cards = parse_cards("2S 3S 4S 5S 6S 7S 9H 9D 9C KC")
    found = list(arrangements(mask_of(cards), 10))
    assert found and all(sum(POINTS[c] for c in cards_of(dead)) <= 10 for _, dead in found)
    # the 6-run is laid as 3 + 3; the deadwood K alone is the best
    assert min(sum(POINTS[c] for c in cards_of(dead)) for _, dead in found) == 10


def test_layoff_targets_follow_openspiel() -> None:
    run = mask_of(parse_cards("5H 6H 7H"))
    three_set = mask_of(parse_cards("8S 8D 8C"))
    four_set = mask_of(parse_cards("QS QH QD QC"))

    def names(mask: int) -> list[int]:
        return sorted(cards_of(mask))

    assert names(layoff_targets([run], [])) == sorted(parse_cards("4H 8H"))
    assert names(layoff_targets([three_set], [])) == sorted(parse_cards("8H"))
    assert layoff_targets([four_set], []) == 0
    # a card laid next to the run opens the next one; a third does not follow
    assert names(layoff_targets([run], parse_cards("8H"))) == sorted(parse_cards("4H 9H"))
    assert names(layoff_targets([run], parse_cards("8H 9H"))) == sorted(parse_cards("4H 9H"))
    # no card beyond the ace or the king
    assert names(layoff_targets([mask_of(parse_cards("AS 2S 3S"))], [])) == sorted(parse_cards("4S"))
    assert names(layoff_targets([mask_of(parse_cards("JC QC KC"))], [])) == sorted(parse_cards("TC"))


def test_best_defence_lays_off_then_melds() -> None:
    knocker = [mask_of(parse_cards("5H 6H 7H")), mask_of(parse_cards("8S 8D 8C"))]
    hand = mask_of(parse_cards("8H 9H 4H KC KD KS 2C 3D 7S JD"))
    laid, deadwood = best_defence(hand, knocker)
    assert set(laid) == set(parse_cards("8H 9H 4H"))
    assert deadwood == 2 + 3 + 7 + 10


def test_split_run_in_openspiel_pieces() -> None:
    assert [len(p) for p in split_run(range(6))] == [3, 3]
    assert [len(p) for p in split_run(range(7))] == [3, 4]
    assert [len(p) for p in split_run(range(8))] == [3, 5]
    assert [len(p) for p in split_run(range(4))] == [4]
