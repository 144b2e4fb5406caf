"""Hand-made cases for the reference optimiser in ``tests/bruteforce.py``.

The brute force is only a useful oracle if it is right on its own, so these
cases come from RULES.md worked by hand, not from solve().
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import JOKER, card_name, make_card, parse_cards, rank_of, suit_of
from solver.model import Meld
from solver.rules import Deal, make_deal, make_rules, melded_points
from tests.bruteforce import brute_optimum, is_meld_brute, meld_reading_error


def deal_of(variant: str, wild_rank: str | None = None, **knobs: Any) -> Deal:
    return make_deal(make_rules(variant, knobs or None), wild_rank)


def optimum(hand: str, variant: str, wild_rank: str | None = None, *,
            discard: bool = False, **knobs: Any) -> int:
    return brute_optimum(parse_cards(hand), deal_of(variant, wild_rank, **knobs), discard)[0]


def kinds(hand: str, deal: Deal) -> set[str]:
    return {m.kind for m in is_meld_brute(parse_cards(hand), deal)}


# ---------------------------------------------------------------------------
# Meld readings


def test_set_and_run_basics() -> None:
    gin = deal_of("gin")
    assert kinds("7H 7D 7C", gin) == {"set"}
    assert kinds("7H 7D 7C 7S", gin) == {"set"}
    assert kinds("5H 6H 7H", gin) == {"run"}
    assert kinds("5H 6H 7H 8H 9H TH JH QH", gin) == {"run"}
    assert kinds("5H 6H 8H", gin) == set()
    assert kinds("5H 6H 7S", gin) == set()
    assert kinds("7H 7D", gin) == set()


def test_ace_order() -> None:
    #  A-2-3   Q-K-A   K-A-2
    #  low: ok  no      no
    #  high_low: ok ok  no   (never around the corner)
    #  wrap: ok ok      ok
    for variant, knobs, expected in [
        ("gin", {}, (True, False, False)),
        ("rummy500", {}, (True, True, False)),
        ("rummy500", {"ace": "wrap"}, (True, True, True)),
        ("gin", {"ace": "wrap"}, (True, True, True)),
    ]:
        deal = deal_of(variant, **knobs)
        got = tuple(bool(kinds(h, deal)) for h in ("AS 2S 3S", "QS KS AS", "KS AS 2S"))
        assert got == expected, (variant, knobs)


def test_run_holds_one_ace() -> None:
    deal = deal_of("rummy500")
    assert kinds("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS", deal) == {"run"}
    two_aces = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS")
    assert is_meld_brute(two_aces, deal_of("rummy500", decks=2)) == []


def test_four_kings_and_joker_is_not_a_set() -> None:
    deal = deal_of("rummy500")
    assert kinds("KS KH KD KC", deal) == {"set"}
    assert is_meld_brute(parse_cards("KS KH KD KC JK"), deal) == []
    # a wild in a set stands for a missing suit
    readings = is_meld_brute(parse_cards("KS KH JK"), deal)
    assert {m.kind for m in readings} == {"set"}
    assert {m.represents for m in readings} == {
        tuple(parse_cards(h)) for h in ("KS KH KD", "KS KH KC")
    }


def test_identical_cards_never_share_a_set_unless_knob() -> None:
    assert is_meld_brute(parse_cards("5S 5S 5H"), deal_of("gin", decks=2)) == []
    assert kinds("5S 5S 5H", deal_of("gin", decks=2, set_allow_same_suit=True)) == {"set"}


def test_jokers_alone_are_never_a_meld() -> None:
    deal = deal_of("rummy500", decks=2)
    assert is_meld_brute([JOKER] * 3, deal) == []
    assert kinds("5H JK JK", deal) == {"set", "run"}
    assert is_meld_brute(parse_cards("5H JK JK"), deal_of("rummy500", max_wilds_per_meld=1)) == []
    assert is_meld_brute(parse_cards("5H 6H JK"), deal_of("rummy500", min_naturals_per_meld=3)) == []
    assert kinds("5H 6H JK", deal_of("rummy500", min_naturals_per_meld=2)) == {"run"}


def test_tanala() -> None:
    deal = deal_of("indian13", "9", decks=3)
    readings = is_meld_brute(parse_cards("TC TC TC"), deal)
    assert [(m.kind, m.pure) for m in readings] == [("tanala", True)]
    assert is_meld_brute(parse_cards("TC TC TC"), deal_of("indian13", "9")) == []  # 2 decks
    # a wild cannot complete a tanala
    assert "tanala" not in kinds("TC TC JK", deal)


def test_purity_with_wild_rank() -> None:
    # 7s wild: 7H used as itself keeps 6H 7H 8H pure (003)
    deal = deal_of("indian13", "7")
    readings = is_meld_brute(parse_cards("6H 7H 8H"), deal)
    assert any(m.kind == "run" and m.pure for m in readings)
    # 7S in the same run stands in for 7H: a sequence, but not pure
    readings = is_meld_brute(parse_cards("6H 7S 8H"), deal)
    assert {(m.kind, m.pure) for m in readings} == {("run", False)}
    # three wild-rank cards as themselves are a set
    assert "set" in kinds("7S 7H 7D", deal)


def test_neighbour_jokers() -> None:
    deal = deal_of("indian21", "7H")
    assert deal.wild >= set(parse_cards("6H 8H 7S JK"))
    readings = is_meld_brute(parse_cards("KC QC 8H"), deal)  # 8H (upper joker) as JC
    assert {(m.kind, m.pure) for m in readings} == {("run", False)}


def test_points_of_readings() -> None:
    deal = deal_of("rummy500")
    # ace low scores 1, high 15; joker 15
    assert {m.points for m in is_meld_brute(parse_cards("AH 2H 3H"), deal)} == {6}
    assert {m.points for m in is_meld_brute(parse_cards("QH KH AH"), deal)} == {35}
    assert {m.points for m in is_meld_brute(parse_cards("AH 2H JK"), deal)} == {18}
    # A JK JK: A-2-3 (1 + 30), Q-K-A (15 + 30), or a set of aces (45)
    assert {m.points for m in is_meld_brute(parse_cards("AH JK JK"), deal)} == {31, 45}


def test_meld_reading_error() -> None:
    deal = deal_of("rummy500")
    c = parse_cards
    good = Meld("run", tuple(c("5H JK 7H")), tuple(c("5H 6H 7H")), False, 27)
    assert meld_reading_error(good, deal) is None
    claimed_pure = Meld("run", good.cards, good.represents, True, 27)
    assert meld_reading_error(claimed_pure, deal) is not None
    wrong = Meld("run", tuple(c("5H JK 7H")), tuple(c("5H 6S 7H")), False, 27)
    assert meld_reading_error(wrong, deal) is not None


# ---------------------------------------------------------------------------
# Optima


@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("AS 2S 3S 7H 7D 7C KD QH 4C 9S", 33),
        ("AS 2S 3S 4C 9S", 13),
        ("7H 7D 7C 7S 8H 9H", 0),  # 7S 7D 7C + 7H 8H 9H
        ("7H 7D 7C 8H 9H", 14),  # the run beats the set
        ("KS AS 2S", 13),  # no wrap
        ("AS AH AD 2S 3S", 2),  # run AS 2S 3S (deadwood AH AD) beats the set of aces (2S 3S)
    ],
)
def test_gin_min_deadwood(hand: str, expected: int) -> None:
    assert optimum(hand, "gin") == expected


def test_discard_takes_the_worst_card() -> None:
    assert optimum("AS 2S 3S KD 4C", "gin", discard=True) == 4
    assert optimum("AS 2S 3S 4S KD", "gin", discard=True) == 0


def test_rummy500_net() -> None:
    assert optimum("6H 7H 8H", "rummy500") == 21
    assert optimum("6H 7H 8H KS", "rummy500") == 11
    assert optimum("AH 2H 3H", "rummy500") == 6
    assert optimum("AH JK JK", "rummy500", decks=2) == 45
    # an ace left in hand costs 15
    assert optimum("AH 5C", "rummy500") == -20


def test_rommy_net() -> None:
    # 2-9 are 5 each, A 15, T-K 10, joker 25
    assert optimum("6H 7H 8H", "rommy") == 15
    assert optimum("6H 7H JK AS", "rommy") == 35 - 15


def test_indian13_cascade_tiers() -> None:
    # pure 2-3-4H, no second sequence: everything outside it counts (3 tiers)
    assert optimum("2H 3H 4H 5S 5D KC", "indian13", "9") == 20
    assert optimum("2H 3H 4H 5S 5D KC", "indian13", "9", penalty_tiers=2) == 29
    # two sequences: only unmelded cards count
    assert optimum("2H 3H 4H 6C 7C 8C KD", "indian13", "9") == 10
    # a set does not rescue a hand without a pure sequence; 9S is wild (0)
    assert optimum("2H 3H 9S 5D 5S 5C", "indian13", "9") == 20
    # the same cards with a pure sequence found among them
    assert optimum("2H 3H 4H 9S 5D 5S 5C", "indian13", "9") == 15 + 0
    # wild-rank cards count 0 wherever they lie
    assert optimum("9S 9H KC", "indian13", "9") == 10


def test_indian13_declarable_hand_scores_zero() -> None:
    assert optimum("2H 3H 4H 6C JK 8C 5S 5D 5C", "indian13", "9") == 0


def test_indian21_shows_two_pure_sequences() -> None:
    # two pure sequences exempt, wilds count 0, the rest counts
    assert optimum("2S 3S 4S 2C 3C 4C KD", "indian21", "7H") == 10
    # with fewer than 3 pure sequences a set's cards still count
    assert optimum("2S 3S 4S 2C 3C 4C 9D 9H 9C", "indian21", "7H") == 27
    # a third pure sequence makes only unmelded cards count
    assert optimum("2S 3S 4S 2C 3C 4C 2D 3D 4D", "indian21", "7H") == 0
    # one pure sequence only: its cards are exempt, the rest count
    assert optimum("2S 3S 4S 5D 5C KD", "indian21", "7H") == 20


# ---------------------------------------------------------------------------
# The meld shortcut against the literal definition
#
# ``is_meld_brute`` draws represented cards from meld shapes and lays wild
# cards by which of them stand for themselves.  Here every card instead stands
# for each card it may (itself; any of the 52 when wild) and the represented
# cards are checked with the rule text, on groups with at most two wilds.

_NAIVE_DEALS: list[tuple[str, str | None, dict[str, Any]]] = [
    ("gin", None, {}),
    ("gin", None, {"ace": "wrap"}),
    ("gin", None, {"decks": 2, "set_allow_same_suit": True}),
    ("rummy500", None, {}),
    ("rummy500", None, {"ace": "wrap"}),
    ("rummy500", None, {"min_naturals_per_meld": 2}),
    ("rommy", None, {}),
    ("indian13", "5", {}),
    ("indian13", "A", {"max_wilds_per_meld": 1}),
    ("indian13", "K", {"decks": 3}),
    ("indian13", "JK", {}),
    ("indian21", "2S", {}),
]


def _run_readings(represented: Sequence[int], ace: str) -> list[bool]:
    """For a same-suit group: one entry per way it reads as a run, True when
    that reading has an ace at the bottom of A-2-3... (not wrapping)."""
    ranks = sorted(rank_of(c) for c in represented)  # 0 = ace
    size = len(ranks)
    if len(set(ranks)) != size:
        return []
    readings = []
    if ranks == list(range(ranks[0], ranks[0] + size)):  # ace (if any) low
        readings.append(ranks[0] == 0)
    high = sorted(13 if r == 0 else r for r in ranks)  # ace after the king
    if ace in ("high_low", "wrap") and 0 in ranks and high == list(range(high[0], high[0] + size)):
        readings.append(False)
    if ace == "wrap" and size <= 13:
        for start in range(1, 13):  # round the corner: K-A-2...
            window = sorted((start + i) % 13 for i in range(size))
            if window == ranks and start + size - 1 > 13:
                readings.append(False)
    return readings


def _naive_signatures(cards: Sequence[int], deal: Deal) -> set[tuple[str, bool, int]]:
    rules = deal.rules
    choices = [
        ([] if c == JOKER else [c]) + ([r for r in range(52) if r != c] if c in deal.wild else [])
        for c in cards
    ]
    found: set[tuple[str, bool, int]] = set()
    for represented in itertools.product(*choices):
        naturals = sum(1 for c, r in zip(cards, represented, strict=True) if c == r)
        substitutions = len(cards) - naturals
        if naturals < rules.min_naturals_per_meld:
            continue
        if rules.max_wilds_per_meld is not None and substitutions > rules.max_wilds_per_meld:
            continue
        ranks = {rank_of(r) for r in represented}
        suits = [suit_of(r) for r in represented]
        readings: list[tuple[str, bool]] = []  # (kind, low ace)
        if 3 <= len(cards) <= 4 and len(ranks) == 1 and (
            rules.set_allow_same_suit or len(set(suits)) == len(suits)
        ):
            readings.append(("set", False))
        if len(cards) >= 3 and len(set(suits)) == 1:
            readings += [("run", low) for low in _run_readings(represented, rules.ace)]
        if (rules.tanala_enabled and len(cards) == 3 and len(set(cards)) == 1
                and substitutions == 0):
            readings.append(("tanala", False))
        for kind, low in readings:
            points = sum(
                melded_points(c, r, deal, low and rank_of(r) == 0)
                for c, r in zip(cards, represented, strict=True)
            )
            found.add((kind, kind != "set" and substitutions == 0, points))
    return found


def _check_readings_against_literal_definition(data: st.DataObject) -> None:
    variant, wild_rank, knobs = data.draw(st.sampled_from(_NAIVE_DEALS))
    deal = deal_of(variant, wild_rank, **knobs)
    wild_pool = sorted(deal.wild)
    size = data.draw(st.integers(3, 5))
    wild_count = data.draw(st.integers(0, min(2, size))) if wild_pool else 0
    # natural cards from a narrow window so that melds actually occur
    low = data.draw(st.integers(0, 12))
    suits = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    natural_pool = [make_card((low + i) % 13, s) for i in range(4) for s in suits]
    cards = data.draw(st.lists(st.sampled_from(natural_pool), min_size=size - wild_count,
                               max_size=size - wild_count))
    cards += data.draw(st.lists(st.sampled_from(wild_pool), min_size=wild_count,
                                max_size=wild_count)) if wild_count else []
    expected = _naive_signatures(cards, deal)
    got = {(m.kind, m.pure, m.points) for m in is_meld_brute(cards, deal)}
    assert got == expected, [card_name(c) for c in cards]


@settings(max_examples=100, derandomize=True, database=None, deadline=None)
@given(data=st.data())
def test_meld_readings_match_the_literal_definition(data: st.DataObject) -> None:
    _check_readings_against_literal_definition(data)


@pytest.mark.slow
@settings(max_examples=3000, derandomize=True, database=None, deadline=None)
@given(data=st.data())
def test_meld_readings_match_the_literal_definition_long(data: st.DataObject) -> None:
    _check_readings_against_literal_definition(data)
