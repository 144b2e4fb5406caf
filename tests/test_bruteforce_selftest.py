"""Hand-made cases for the reference optimiser in ``tests/bruteforce.py``.

The brute force is only a useful oracle if it is right on its own, so these
cases come from RULES.md worked by hand, not from solve().
"""

from __future__ import annotations

from typing import Any

import pytest

from solver.cards import JOKER, parse_card, parse_cards
from solver.model import Meld
from solver.rules import Deal, make_deal, make_rules
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
    whole = parse_cards("AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS") + [parse_card("AS")]
    assert is_meld_brute(whole, deal_of("rummy500", decks=2)) == []


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
