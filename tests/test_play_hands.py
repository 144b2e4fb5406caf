"""The advisor's fast gin primitives against the arena's independent meld code.

``benchmarks/arena/gin/melds.py`` was written apart from the library (it imports
none of it): its exhaustive least deadwood and best defence are the oracle
for ``solver.play.gin.hands`` and ``solver.play.gin.scoring``.
"""

from __future__ import annotations

import random

import pytest

from benchmarks.arena.gin import melds as oracle
from solver.gin import gin_deal
from solver.play.gin.hands import GinHands, arrangement, cards_of, layoff_reach, mask_of
from solver.play.gin.scoring import defender_deadwood, knock_points
from solver.rules import make_rules


@pytest.fixture(scope="module")
def hands() -> GinHands:
    return GinHands(gin_deal())


def _hand(rng: random.Random, size: int) -> int:
    return mask_of(rng.sample(range(52), size))


@pytest.mark.parametrize("size", [3, 7, 10, 11, 14])
def test_deadwood_is_the_exhaustive_least(hands: GinHands, size: int) -> None:
    rng = random.Random(size)
    for _ in range(400):
        hand = _hand(rng, size)
        assert hands.deadwood(hand) == oracle.min_deadwood(hand)


def test_dense_hands_with_many_sets(hands: GinHands) -> None:
    rng = random.Random(9)
    for _ in range(200):
        ranks = rng.sample(range(13), 4)
        hand = mask_of(s * 13 + r for r in ranks for s in range(4) if rng.random() < 0.85)
        assert hands.deadwood(hand) == oracle.min_deadwood(hand)


def _dense_hand(rng: random.Random, size: int) -> int:
    """``size`` cards from five ranks: sets, four of a kind and runs crossing them."""
    ranks = rng.sample(range(13), 5)
    return mask_of(rng.sample([s * 13 + r for r in ranks for s in range(4)], size))


def test_best_discard_is_the_exhaustive_least(hands: GinHands) -> None:
    rng = random.Random(3)
    for i in range(600):
        hand = _hand(rng, 11) if i % 2 else _dense_hand(rng, 11)
        keep = rng.choice([-1, *cards_of(hand)])
        cost, card = hands.discard_cost(hand, keep)
        assert card != keep and hand >> card & 1
        kept = hand & ~(1 << card)
        assert cost == hands.cost(kept)
        allowed = [c for c in cards_of(hand) if c != keep]
        assert cost // 64 == min(oracle.min_deadwood(hand & ~(1 << c)) for c in allowed)


def test_arrangement_melds_are_melds_and_leave_the_deadwood(hands: GinHands) -> None:
    rng = random.Random(4)
    for _ in range(300):
        hand = _hand(rng, 10)
        deadwood, melds = arrangement(hands, hand)
        melded = 0
        for meld in melds:
            assert oracle.is_meld(list(cards_of(meld)))
            assert not melded & meld
            melded |= meld
        assert deadwood == sum(hands.points[c] for c in cards_of(hand & ~melded))
        assert deadwood == oracle.min_deadwood(hand)


def test_defender_deadwood_against_the_best_defence(hands: GinHands) -> None:
    """The oracle follows OpenSpiel (at most two layoffs per end of a run); the
    standard rule lays any chain, so ours is never higher, and equal when no
    chain of three can be laid."""
    rng = random.Random(5)
    checked = 0
    for _ in range(1500):
        deck = rng.sample(range(52), 20)
        knocker, defender = mask_of(deck[:10]), mask_of(deck[10:])
        knocker_melds = arrangement(hands, knocker).melds
        if not knocker_melds:
            continue
        ours = defender_deadwood(hands, knocker_melds, defender)
        _, theirs = oracle.best_defence(defender, list(knocker_melds))
        assert ours <= theirs
        long_chain = any(_chain_of_three(meld, defender) for meld in knocker_melds)
        if not long_chain:
            assert ours == theirs
            checked += 1
    assert checked > 300


def _chain_of_three(meld: int, defender: int) -> bool:
    """Whether the defender holds three cards in a row past an end of a run."""
    cards = list(cards_of(meld))
    if len({c // 13 for c in cards}) > 1:
        return False
    low, high = cards[0], cards[-1]
    below = all(low % 13 - k >= 0 and defender >> (low - k) & 1 for k in (1, 2, 3))
    above = all(high % 13 + k <= 12 and defender >> (high + k) & 1 for k in (1, 2, 3))
    return below or above


def test_a_knock_scores_the_oracles_best_defence(hands: GinHands) -> None:
    """``Simulator.knock_score`` (remembered melds, a defender out of their
    reach valued without layoffs) against the oracle's best defence, on
    hands dense in sets and runs so that layoffs are common."""
    from solver.play.gin.simulate import Simulator

    rules = gin_deal().rules
    simulator = Simulator(hands, rules, 10)
    rng = random.Random(13)
    out_of_reach = laid_off = 0
    for i in range(1200):
        deck = rng.sample(range(52), 20) if i % 2 else \
            [*cards_of(_dense_hand(rng, 10))]
        knocker = mask_of(deck[:10])
        defender = mask_of(rng.sample([c for c in range(52) if not knocker >> c & 1], 10))
        deadwood, knocker_melds = arrangement(hands, knocker)
        layoffs, theirs = oracle.best_defence(defender, list(knocker_melds))
        if any(_chain_of_three(meld, defender) for meld in knocker_melds):
            continue
        expected = knock_points(rules, deadwood,
                                oracle.min_deadwood(defender) if deadwood == 0 else theirs)
        assert simulator.knock_score(knocker, defender) == expected
        assert simulator.knock_score(knocker, defender) == expected  # remembered
        if not defender & layoff_reach(knocker_melds):
            assert not layoffs
            out_of_reach += 1
        laid_off += bool(layoffs) and deadwood > 0
    assert out_of_reach > 200 and laid_off > 100


def test_knock_points_follow_the_rules() -> None:
    rules = make_rules("gin")
    assert knock_points(rules, 0, 14) == 25 + 14
    assert knock_points(rules, 6, 20) == 14
    assert knock_points(rules, 6, 6) == -25  # undercut on a tie
    assert knock_points(rules, 8, 3) == -(25 + 5)
    assert knock_points(make_rules("gin", {"undercut_on_tie": False}), 6, 6) == 0


def test_plans_sharing_one_play_score_as_if_each_played_alone(hands: GinHands) -> None:
    from solver.play.gin.simulate import AT_ONCE, FOR_GIN, KnockStyle, Simulator, World

    simulator = Simulator(hands, gin_deal().rules, 10)
    rng = random.Random(12)
    plans = [AT_ONCE, FOR_GIN, KnockStyle(early_turns=1, late_deadwood=4, stuck_stock=6)]
    differed = 0
    for _ in range(300):
        cards = rng.sample(range(52), 52)
        turns = rng.randrange(0, 6)
        world = World([mask_of(cards[:11]), mask_of(cards[11:21])], cards[22:52 - 2 * turns],
                      [cards[21]], 0, [turns, turns], drawn=True,
                      opponent_style=rng.choice(plans))
        chosen = rng.sample(plans, rng.randint(1, 3))
        alone = [simulator.play_out(world.copy(), (plan,), world.opponent_style)[0]
                 for plan in chosen]
        assert simulator.play_out(world.copy(), chosen, world.opponent_style) == alone
        differed += len(set(alone)) > 1
    assert differed > 20  # the plans part ways in many of these hands


def test_a_fast_player_takes_a_card_only_into_a_meld(hands: GinHands) -> None:
    from solver.play.gin.simulate import Simulator

    simulator = Simulator(hands, gin_deal().rules, 10)
    rng = random.Random(13)
    taken = 0
    for i in range(600):
        hand = _hand(rng, 11) if i % 2 else _dense_hand(rng, 11)
        top = rng.choice(list(cards_of(hand)))
        rest = hand & ~(1 << top)
        melds_it = oracle.min_deadwood(hand) < oracle.min_deadwood(rest) + hands.points[top]
        assert simulator.takes(rest, top) == hands.melds_with(rest, top) == melds_it
        taken += melds_it
    assert 100 < taken < 500


def test_a_careful_player_keeps_a_card_that_feeds_the_others_pickups() -> None:
    """With a careful slack, a simulated player does not throw the card that
    would feed what the other took from the pile (its rank, or its suit within
    two) when another throw costs at most the slack more; without it, it
    throws the plain best."""
    from solver.play.gin.hands import GinHands, mask_of
    from solver.play.gin.simulate import FEEDS, Simulator
    from solver.rules import make_deal, make_rules

    deal = make_deal(make_rules("gin"))
    hands = GinHands(deal)
    # A-2-3S, 7H 7D 7C, 4C 5C 6C, KH and QD loose: the plain throw is KH (10, the higher)
    hand = mask_of([0, 1, 2, 19, 32, 45, 42, 43, 44, 25, 37])
    plain = Simulator(hands, deal.rules, 10)
    _, card = plain.discard(hand, None)
    assert card in (25, 37)
    other = 37 if card == 25 else 25
    shown = mask_of([12 if card == 25 else 11])  # the other took KS (or QS): card's rank
    assert FEEDS[card] & shown and not FEEDS[other] & shown
    careful = Simulator(hands, deal.rules, 10, careful_slack=2)
    _, safer = careful.careful_discard(hand, None, shown)
    assert safer != card and not FEEDS[safer] & shown
    assert plain.careful_discard(hand, None, shown) == plain.discard(hand, None)
