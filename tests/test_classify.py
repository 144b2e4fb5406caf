"""Tests for solver.classify: readings, preferred reading and problem codes of one meld.

Cases come from RULES.md section 1 and the seeds (001 Norwegian Rummy 500,
003 Swedish Indian rummy).  Hands are written as card tokens; ``JK`` is a
printed joker.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import JOKER, card_name, parse_cards
from solver.classify import best_reading, is_meld, meld_problems, readings, run_windows
from solver.results import Meld
from solver.rules import PRESETS, Deal, make_deal, make_rules


def deal_of(variant: str = "rummy500", wild_rank: str | None = None, **knobs: Any) -> Deal:
    return make_deal(make_rules(variant, knobs), wild_rank)


RUMMY500 = deal_of("rummy500")
GIN = deal_of("gin")
INDIAN13_CUT7 = make_deal(PRESETS["indian13"], "7")


def best(hand: str, deal: Deal) -> Meld:
    meld = best_reading(parse_cards(hand), deal)
    assert meld is not None, f"{hand} should be a meld: {meld_problems(parse_cards(hand), deal)}"
    return meld


def names(cards: tuple[int, ...]) -> list[str]:
    return [card_name(c) for c in cards]


def codes(hand: str, deal: Deal) -> list[str]:
    return [code for code, _, _ in meld_problems(parse_cards(hand), deal)]


def offending(hand: str, deal: Deal) -> list[str | None]:
    return [None if card is None else card_name(card)
            for _, _, card in meld_problems(parse_cards(hand), deal)]


# ---------------------------------------------------------------------------
# Rummy 500 points (seed 001, RULES.md section 2)


def test_rummy500_low_ace_run_scores_one_for_the_ace() -> None:
    # A-2-3 of hearts: the ace melded low is worth 1.
    meld = best("AH 2H 3H", RUMMY500)
    assert (meld.kind, meld.pure, meld.points) == ("run", True, 1 + 2 + 3)


def test_rummy500_high_ace_run_scores_fifteen() -> None:
    # Q-K-A: the ace is high, worth 15.
    meld = best("QH KH AH", RUMMY500)
    assert names(meld.cards) == ["QH", "KH", "AH"]
    assert meld.points == 10 + 10 + 15


def test_rummy500_joker_completes_low_run() -> None:
    # A 2 JK reads A-2-3; the joker is 3H and scores 15, the ace 1.
    meld = best("AH 2H JK", RUMMY500)
    assert names(meld.represents) == ["AH", "2H", "3H"]
    assert (meld.pure, meld.points) == (False, 1 + 2 + 15)
    assert meld.wild_count == 1


def test_seed_001_example_round_run_is_worth_21() -> None:
    # 6♥ 7♥ 8♥ laid down after taking the 8♥ from the pile: +21.
    meld = best("6♥ 7♥ 8♥", RUMMY500)
    assert meld.points == 21


def test_reading_worth_more_wins() -> None:
    # AH JK JK: A-2-3 would be 1+15+15; Q-K-A and the set of aces are 45.
    # Equal points: the run is preferred over the set.
    meld = best("AH JK JK", RUMMY500)
    assert meld.points == 45
    assert (meld.kind, names(meld.represents)) == ("run", ["QH", "KH", "AH"])


def test_joker_reading_ties_pick_smallest_represented_cards() -> None:
    # QH KH JK: J-Q-K and Q-K-A both score 35; J-Q-K has the smaller cards.
    meld = best("QH KH JK", RUMMY500)
    assert names(meld.represents) == ["JH", "QH", "KH"]
    assert names(meld.cards) == ["JK", "QH", "KH"]


def test_reading_count_for_one_natural_and_two_jokers() -> None:
    # 5H JK JK: runs 3-4-5, 4-5-6, 5-6-7 and the set of fives.
    found = readings(parse_cards("5H JK JK"), RUMMY500)
    assert sorted((m.kind, tuple(names(m.represents))) for m in found) == [
        ("run", ("3H", "4H", "5H")),
        ("run", ("4H", "5H", "6H")),
        ("run", ("5H", "6H", "7H")),
        ("set", ("5S", "5H", "5D")),
    ]


# ---------------------------------------------------------------------------
# Sets


def test_set_is_ordered_by_suit_and_never_pure() -> None:
    meld = best("KC KS KH", RUMMY500)
    assert (meld.kind, names(meld.cards), meld.pure) == ("set", ["KS", "KH", "KC"], False)


def test_joker_in_set_stands_for_a_missing_suit() -> None:
    # 9S 9H 9D JK: the joker is the 9 of clubs.
    meld = best("9S 9H 9D JK", RUMMY500)
    assert names(meld.represents) == ["9S", "9H", "9D", "9C"]
    assert meld.points == 9 * 3 + 15


def test_four_kings_are_a_set() -> None:
    assert best("KS KH KD KC", RUMMY500).points == 40


def test_four_kings_and_a_joker_are_not_a_set() -> None:
    # 001: there is no fifth suit for the joker to stand for.
    assert codes("KS KH KD KC JK", RUMMY500) == ["set_too_large"]
    assert offending("KS KH KD KC JK", RUMMY500) == ["JK"]


def test_two_identical_cards_never_share_a_set() -> None:
    # 001: two nines of spades and a nine of hearts, two decks.
    two_decks = deal_of("rummy500", decks=2)
    assert codes("9S 9S 9H", two_decks) == ["set_repeats_suit"]
    assert offending("9S 9S 9H", two_decks) == ["9S"]


def test_house_rule_allows_a_repeated_suit() -> None:
    # 000: ♠5 ♠5 ♥5 with two decks under the set_allow_same_suit knob.
    house = deal_of("basic", decks=2, set_allow_same_suit=True)
    meld = best("5S 5S 5H", house)
    assert meld.kind == "set"
    assert names(meld.represents) == ["5S", "5S", "5H"]


def test_a_set_without_a_size_cap_holds_at_most_the_deck() -> None:
    # RULES.md 2.1: max_set_size null is "no limit beyond the cards in the
    # deck": 4 of a rank per deck, so no joker for a fifth ace of one deck.
    one_deck = deal_of("contract", decks=1)
    assert codes("AS AH AD AC JK", one_deck) == ["set_too_large"]
    assert codes("AS AH AD JK", one_deck) == []
    two_decks = deal_of("contract")
    assert codes("AS AH AD AC AS AH AD AC JK", two_decks) == ["set_too_large"]
    assert codes("AS AH AD AC AS AH AD JK", two_decks) == []


# ---------------------------------------------------------------------------
# Aces


@pytest.mark.parametrize(
    ("ace", "hand", "expected"),
    [
        # K-A-2: never around the corner unless ace="wrap"
        ("low", "KH AH 2H", ["run_wraps_around"]),
        ("high_low", "KH AH 2H", ["run_wraps_around"]),
        ("wrap", "KH AH 2H", []),
        # Q-K-A: only where the ace may rank high
        ("low", "QH KH AH", ["ace_high_not_allowed"]),
        ("high_low", "QH KH AH", []),
        ("wrap", "QH KH AH", []),
        # A-2-3 everywhere
        ("low", "AH 2H 3H", []),
        ("high_low", "AH 2H 3H", []),
        ("wrap", "AH 2H 3H", []),
    ],
)
def test_ace_knob(ace: str, hand: str, expected: list[str]) -> None:
    deal = deal_of("basic", ace=ace)
    assert codes(hand, deal) == expected
    assert is_meld(parse_cards(hand), deal) == (not expected)


def test_seed_003_king_ace_two_is_invalid() -> None:
    # 003: "A-2-3 och Q-K-A är båda giltiga, men K-A-2 är det inte."
    deal = make_deal(PRESETS["indian13"], "5")
    assert codes("KS AS 2S", deal) == ["run_wraps_around"]
    assert offending("KS AS 2S", deal) == ["AS"]
    assert codes("AS 2S 3S", deal) == []
    assert codes("QS KS AS", deal) == []


def test_wrapping_run_ace_is_not_low() -> None:
    # K-A-2 under wrap: the ace is in the middle, so it scores 15, not 1.
    deal = deal_of("rummy500", ace="wrap")
    assert best("KH AH 2H", deal).points == 10 + 15 + 2
    assert best("AH 2H 3H", deal).points == 1 + 2 + 3


def test_joker_cannot_close_the_corner() -> None:
    # KH JK 2H would need the joker as AH in K-A-2.
    assert codes("KH JK 2H", RUMMY500) == ["run_wraps_around"]
    assert offending("KH JK 2H", RUMMY500) == [None]


def test_run_windows_per_ace_mode() -> None:
    assert len(run_windows(3, "low")) == 11          # A-2-3 .. J-Q-K
    assert len(run_windows(3, "high_low")) == 12     # + Q-K-A
    assert len(run_windows(3, "wrap")) == 13         # + K-A-2, with Q-K-A
    assert run_windows(13, "high_low") == [tuple(range(13)), (*range(1, 13), 0)]
    assert run_windows(14, "wrap") == []


def test_thirteen_card_run_is_the_longest() -> None:
    # A..K of hearts is a run; a 14th card (the joker) makes it too long.
    hearts = " ".join(f"{r}H" for r in "A23456789TJQK")
    assert best(hearts, GIN).points == 1 + 44 + 40
    # Under high_low the ace may close the run high (2..K-A), worth 15, not 1.
    meld = best(hearts, RUMMY500)
    assert (names(meld.cards)[-1], meld.points) == ("AH", 44 + 40 + 15)
    assert codes(hearts + " JK", RUMMY500) == ["run_too_long"]


# ---------------------------------------------------------------------------
# Runs


def test_gap_is_not_consecutive() -> None:
    # 5 _ 7 8 of hearts with no wild to fill the 6
    assert codes("5H 7H 8H", GIN) == ["not_consecutive"]
    assert offending("5H 7H 8H", GIN) == ["7H"]


def test_joker_fills_a_gap() -> None:
    meld = best("5H JK 7H", RUMMY500)
    assert names(meld.cards) == ["5H", "JK", "7H"]
    assert names(meld.represents) == ["5H", "6H", "7H"]
    assert not meld.pure


def test_gap_too_wide_for_the_jokers() -> None:
    # 5H . . . 9H: three missing ranks, one joker
    assert codes("5H 9H JK", RUMMY500) == ["not_consecutive"]


def test_duplicate_rank_in_run() -> None:
    two_decks = deal_of("rummy500", decks=2)
    assert codes("5H 5H 6H 7H", two_decks) == ["duplicate_in_run"]
    assert offending("5H 5H 6H 7H", two_decks) == ["5H"]


def test_mixed_suits_and_mixed_ranks() -> None:
    # 5H 6S 7H: looks like a run but the 6 is a spade
    assert codes("5H 6S 7H", GIN) == ["mixed_suits"]
    assert offending("5H 6S 7H", GIN) == ["6S"]
    # 9S 9H 8D: looks like a set but the 8 is another rank
    assert codes("9S 9H 8D", GIN) == ["mixed_ranks"]
    assert offending("9S 9H 8D", GIN) == ["8D"]


def test_too_few_cards() -> None:
    assert codes("5H 6H", GIN) == ["too_few_cards"]
    assert codes("", GIN) == ["too_few_cards"]


# ---------------------------------------------------------------------------
# Wild cards and naturals


def test_jokers_alone_are_never_a_meld() -> None:
    assert codes("JK JK JK", RUMMY500) == ["joker_only"]
    assert codes("JK JK JK", INDIAN13_CUT7) == ["joker_only"]


def test_min_naturals_per_meld() -> None:
    # 5H JK JK has one natural; the knob asks for two.
    strict = deal_of("rummy500", min_naturals_per_meld=2)
    assert codes("5H JK JK", strict) == ["too_few_naturals"]
    assert codes("5H 6H JK", strict) == []


def test_max_wilds_per_meld() -> None:
    # 5H JK JK needs two jokers standing in; the knob allows one.
    capped = deal_of("rummy500", max_wilds_per_meld=1)
    assert codes("5H JK JK", capped) == ["too_many_wilds"]
    assert offending("5H JK JK", capped) == ["JK"]
    assert codes("5H 6H JK", capped) == []


def test_printed_joker_that_is_not_wild() -> None:
    # Jokers in the deck but printed_jokers_wild off: a joker fits nowhere.
    dead_jokers = deal_of("gin", jokers_per_deck=1)
    assert codes("5H 6H JK", dead_jokers) == ["joker_not_wild"]
    assert offending("5H 6H JK", dead_jokers) == ["JK"]


def test_wild_rank_card_used_as_itself_keeps_the_run_pure() -> None:
    # Cut 7 (indian13): 7H sits in its own place in 6-7-8 of hearts.
    meld = best("6H 7H 8H", INDIAN13_CUT7)
    assert (meld.kind, meld.pure, meld.wild_count) == ("run", True, 0)
    assert meld.points == 6 + 0 + 8  # the wild-rank card is worth 0 wherever it lies


def test_seed_003_pure_with_wild_eight_as_itself() -> None:
    # 003: eights wild, 7-8-9 of hearts with the 8 as itself is pure.
    cut8 = make_deal(PRESETS["indian13"], "8")
    assert best("7H 8H 9H", cut8).pure
    # 003: the eight used as another card (here the jack) makes it impure.
    jack_readings = [m for m in readings(parse_cards("8H 9H TH 8S"), cut8)
                     if names(m.represents) == ["8H", "9H", "TH", "JH"]]
    assert jack_readings and not any(m.pure for m in jack_readings)
    assert not best("8H 9H TH 8S", cut8).pure
    # An eight of another suit standing for 8H: impure too.
    assert not best("7H 8S 9H", cut8).pure


def test_wild_rank_set_of_naturals() -> None:
    # 7S 7H 7D with 7s wild is a set: every card stands for itself.
    found = readings(parse_cards("7S 7H 7D"), INDIAN13_CUT7)
    natural_sets = [m for m in found if m.kind == "set" and m.wild_count == 0]
    assert [names(m.represents) for m in natural_sets] == [["7S", "7H", "7D"]]
    # The preferred reading is an impure run (5-6-7 of spades): a sequence
    # helps an Indian declaration where a set does not.
    preferred = best("7S 7H 7D", INDIAN13_CUT7)
    assert preferred.kind == "run" and not preferred.pure


def test_neighbour_jokers_in_indian21() -> None:
    # Cut 8H: 7H and 9H are the lower/upper jokers; used as themselves, pure.
    cut8h = make_deal(PRESETS["indian21"], "8H")
    meld = best("7H 8H 9H", cut8h)
    assert meld.pure
    assert meld.points == 0  # every wild card is worth 0 in indian21
    # 9H standing in for a spade next to 4S 5S: impure run (ties: the lowest, 3-4-5).
    meld = best("4S 5S 9H", cut8h)
    assert names(meld.represents) == ["3S", "4S", "5S"]
    assert (meld.kind, meld.pure) == ("run", False)


# ---------------------------------------------------------------------------
# Tanala


def test_seed_003_tanala_with_three_decks() -> None:
    # ♣10 ♣10 ♣10 with three decks is a tanala, counted as a pure sequence.
    three_decks = deal_of("indian13", decks=3)
    meld = best("♣10 ♣10 ♣10", three_decks)
    assert (meld.kind, meld.pure, meld.is_sequence, meld.points) == ("tanala", True, True, 30)


def test_no_tanala_with_two_decks() -> None:
    # indian13 plays two decks: three tens of clubs cannot be a set.
    assert codes("TC TC TC", make_deal(PRESETS["indian13"])) == ["set_repeats_suit"]


def test_tanala_knob_overrides_deck_count() -> None:
    off = deal_of("indian21", "8H", tanala=False)
    assert codes("TC TC TC", off) == ["set_repeats_suit"]
    assert best("TC TC TC", deal_of("indian13", tanala=True)).kind == "tanala"


def test_jokers_are_never_a_tanala() -> None:
    assert codes("JK JK JK", deal_of("indian13", decks=3)) == ["joker_only"]


# ---------------------------------------------------------------------------
# Properties


DEALS = {
    "rummy500": RUMMY500,
    "gin": GIN,
    "indian13_cut7": INDIAN13_CUT7,
    "indian21_cutAH": make_deal(PRESETS["indian21"], "AH"),
    "wrap_limits": deal_of("indian13", ace="wrap", max_wilds_per_meld=1,
                           min_naturals_per_meld=2),
}


def _hand(draw: st.DrawFn) -> list[int]:
    size = draw(st.integers(min_value=1, max_value=6))
    suit = draw(st.integers(min_value=0, max_value=3))
    rank = draw(st.integers(min_value=0, max_value=12))
    near = st.one_of(
        st.integers(min_value=0, max_value=12).map(lambda r: suit * 13 + r),  # same suit
        st.integers(min_value=0, max_value=3).map(lambda s: s * 13 + rank),   # same rank
        st.integers(min_value=0, max_value=JOKER),                            # anything
    )
    return draw(st.lists(near, min_size=size, max_size=size))


@settings(max_examples=400, deadline=None)
@given(deal_name=st.sampled_from(sorted(DEALS)), cards=st.composite(_hand)())
def test_problems_exactly_when_no_reading(deal_name: str, cards: list[int]) -> None:
    deal = DEALS[deal_name]
    found = readings(cards, deal)
    problems = meld_problems(cards, deal)
    assert bool(found) != bool(problems)
    assert all(code != "not_a_meld" for code, _, _ in problems)
    for meld in found:
        # Same physical cards; every substitute is a wild card.
        assert sorted(meld.cards) == sorted(cards)
        assert all(c == r or deal.is_wild(c) for c, r in zip(meld.cards, meld.represents,
                                                              strict=True))
        assert JOKER not in meld.represents
        assert meld.pure == (meld.kind != "set" and meld.wild_count == 0)
