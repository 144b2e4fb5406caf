"""Hand-made cases for the reference optimiser in ``tests/bruteforce.py``.

The brute force is only a useful oracle if it is right on its own, so these
cases come from RULES.md worked by hand, not from solve().
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.cards import JOKER, card_name, make_card, parse_cards, rank_of, suit_of
from solver.results import Meld
from solver.rules import Deal, make_deal, make_rules
from tests.bruteforce import (
    BruteReport,
    brute_optimum,
    brute_report,
    brute_score,
    is_meld_brute,
    meld_reading_error,
    plain_arrangements,
)


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


def test_a_joker_that_is_not_wild_never_melds() -> None:
    # RULES.md: a printed joker that is not wild is a dead card, counting
    # joker_points wherever it lies.
    deal = deal_of("rommy", decks=3, printed_jokers_wild=False, tanala=True)
    assert is_meld_brute(parse_cards("5H 6H JK"), deal) == []
    assert is_meld_brute([JOKER] * 3, deal) == []
    assert optimum("5H 6H 7H JK", "rommy", printed_jokers_wild=False) == 15 - 25


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
# Section 8 rules, worked by hand.  Point values: contract A 15, JK 15 (own
# value in a meld), J Q K 10, 2-10 face; kalooki A 11 (1 melded low), JK 25
# in hand and the represented card's value in a meld; basic A 1, face, 10.


def report(hand: str, variant: str, *, discard: bool = False, wild_rank: str | None = None,
           **knobs: Any) -> BruteReport:
    return brute_report(parse_cards(hand), deal_of(variant, wild_rank, **knobs), discard)


def points_of(hand: str, deal: Deal) -> set[int]:
    return {m.points for m in is_meld_brute(parse_cards(hand), deal)}


def test_ace_high_only() -> None:
    # ace "high": Q-K-A valid, A-2-3 invalid, K-A-2 invalid
    for variant in ("gin", "kalooki"):
        deal = deal_of(variant, ace="high")
        assert kinds("QS KS AS", deal) == {"run"}
        assert kinds("AS 2S 3S", deal) == set()
        assert kinds("KS AS 2S", deal) == set()
        assert kinds("JS QS KS AS", deal) == {"run"}
    # kalooki, ace high: Q-K-A = 10 + 10 + 11 (the ace is never low)
    assert points_of("QH KH AH", deal_of("kalooki", ace="high")) == {31}
    # JK 2H 3H: only 2-3-4 (the joker as 4H: 2 + 3 + 4), A-2-3 is gone
    assert points_of("JK 2H 3H", deal_of("kalooki", ace="high")) == {9}
    # a gin hand AS 2S 3S under ace high: no meld, deadwood 1 + 2 + 3
    assert optimum("AS 2S 3S", "gin", ace="high") == 6
    assert optimum("QS KS AS", "gin", ace="high") == 0


def test_min_run_length() -> None:
    contract = deal_of("contract")  # runs of 4 or more
    assert kinds("5H 6H 7H", contract) == set()
    assert kinds("5H 6H 7H 8H", contract) == {"run"}
    assert kinds("5H 6H JK", contract) == set()
    assert kinds("5H 6H JK 8H", contract) == {"run"}
    # a set needs no 4 cards
    assert kinds("5H 5S 5D", contract) == {"set"}
    assert kinds("5H 6H 7H", deal_of("gin", min_run_length=4)) == set()
    assert kinds("5H 6H 7H 8H 9H", deal_of("gin", min_run_length=5)) == {"run"}
    # gin with runs of 4: AS 2S 3S + 4C stay unmelded (1 + 2 + 3 + 4)
    assert optimum("AS 2S 3S 4C", "gin", min_run_length=4) == 10


def test_large_same_suit_sets() -> None:
    contract = deal_of("contract")  # same-suit sets, no size limit
    # six 7s (two of them twins) plus nothing else: one set, 6 x 7 = 42
    assert points_of("7H 7H 7S 7S 7D 7D", contract) == {42}
    # five 7s and a joker (own value 15 in contract): 35 + 15 = 50
    assert kinds("7H 7H 7S 7S 7D JK", contract) == {"set"}
    assert points_of("7H 7H 7S 7S 7D JK", contract) == {50}
    # max_set_size 5: six cards are too many, five are fine
    capped = deal_of("contract", max_set_size=5)
    assert kinds("7H 7H 7S 7S 7D JK", capped) == set()
    assert kinds("7H 7H 7S 7S 7D", capped) == {"set"}
    # distinct suits: at most min(4, max_set_size)
    three = deal_of("gin", decks=2, max_set_size=3)
    assert kinds("7H 7S 7D", three) == {"set"}
    assert kinds("7H 7S 7D 7C", three) == set()
    assert kinds("7H 7S 7D 7C", deal_of("gin", max_set_size=None)) == {"set"}
    # without set_allow_same_suit twins never share a set, whatever the size limit
    assert kinds("7H 7H 7S", deal_of("gin", decks=2, max_set_size=None)) == set()
    # rummy500, same-suit sets up to 5: 5H 5H 5S 5S 5D = 25; a joker more is too many
    same5 = deal_of("rummy500", decks=2, set_allow_same_suit=True, max_set_size=5)
    assert points_of("5H 5H 5S 5S 5D", same5) == {25}
    assert is_meld_brute(parse_cards("5H 5H 5S 5S 5D JK"), same5) == []


def test_kalooki_card_values() -> None:
    deal = deal_of("kalooki")
    # a joker in a meld is worth the card it stands for
    assert points_of("5H JK 7H", deal) == {5 + 6 + 7}
    # JK 2H 3H: A-2-3 (joker = low ace: 1) or 2-3-4 (joker = 4H)
    assert points_of("JK 2H 3H", deal) == {1 + 2 + 3, 2 + 3 + 4}
    # QH KH JK: J-Q-K (joker = JH: 10) or Q-K-A (joker = high ace: 11)
    assert points_of("QH KH JK", deal) == {30, 31}
    assert points_of("KS KH JK", deal) == {30}
    # aces: 1 low, 11 high
    assert points_of("AH 2H 3H", deal) == {6}
    assert points_of("QH KH AH", deal) == {31}
    # in hand: joker 25, ace 11
    assert optimum("JK 2C", "kalooki") == 27
    assert optimum("AC 2C", "kalooki") == 13


def test_kalooki_opening_threshold() -> None:
    # a run worth 26 cannot open 51: everything counts (26 + 2)
    r = report("5H 6H 7H 8H 2C", "kalooki")
    assert (r.value, r.can_open, r.declarable) == (28, False, False)
    # two sets of kings and queens: 60 >= 51, only 2C counts; not going kalooki
    r = report("KH KS KD QH QS QD 2C", "kalooki")
    assert (r.value, r.can_open, r.declarable) == (2, True, False)
    # every card melded with 60 >= 51: going kalooki
    r = report("KH KS KD QH QS QD", "kalooki")
    assert (r.value, r.can_open, r.declarable, r.go_out_value) == (0, True, True, None)
    # 45 points of melds: short of 51 (30 + 15 + 2 count), enough for 40
    assert report("KH KS KD 5C 5H 5D 2C", "kalooki").value == 47
    assert report("KH KS KD 5C 5H 5D 2C", "kalooki", opening_points=40).value == 2
    # the joker counts as the king it stands for: KH KS JK = 30, + 5s 15 = 45
    assert report("KH KS JK 5C 5H 5D 2C", "kalooki", opening_points=40).value == 2
    # ... and as 25 when it stays in hand: 10 + 10 + 25 + 15 + 2
    assert report("KH KS JK 5C 5H 5D 2C", "kalooki").value == 62


def test_contract_round_1_exact_counts() -> None:
    hand = "2S 2H 2D 5S 5H 5D 8C 9C TC JC"  # 2 sets + a run; points 6 + 15 + 37
    # round 1 = exactly 2 sets and no run: the run stays in hand (8 + 9 + 10 + 10)
    r = report(hand, "contract", contract_round=1)
    assert (r.value, r.can_open, r.declarable, r.go_out_value) == (37, True, True, None)
    deal = deal_of("contract", contract_round=1)
    sets = [is_meld_brute(parse_cards(h), deal)[0] for h in ("2S 2H 2D", "5S 5H 5D")]
    run = is_meld_brute(parse_cards("8C 9C TC JC"), deal)[0]
    # two sets and a run together are NOT a round-1 opening: all 58 points count
    points = brute_score([*sets, run], (), deal)
    assert (points.opened, points.deadwood_points, points.meld_points) == (False, 58, 0)
    points = brute_score(sets, tuple(parse_cards("8C 9C TC JC")), deal)
    assert (points.opened, points.deadwood_points) == (True, 37)
    # round 2 = 1 set + 1 run: lay the 5s and the run, keep the 2s (6)
    assert report(hand, "contract", contract_round=2).value == 6
    # round 3 (2 runs) and round 4 (3 sets) cannot be met: all 58 count
    for round_number in (3, 4):
        r = report(hand, "contract", contract_round=round_number)
        assert (r.value, r.can_open, r.declarable) == (58, False, False)
    # round 5 = 2 sets + 1 run: everything down
    r = report(hand, "contract", contract_round=5)
    assert (r.value, r.can_open, r.declarable) == (0, True, True)
    # round 1 with a discard: throw JC, keep 8C 9C TC in hand (27)
    assert report(hand, "contract", contract_round=1, discard=True).value == 27


def test_contract_same_rank_sets_and_touching_runs() -> None:
    # six kings and a joker as two sets (the joker joins one), 2C left
    r = report("KS KH KD KS KH KC JK 2C", "contract", contract_round=1)
    assert (r.value, r.can_open) == (2, True)
    # 2-9 of hearts as two touching runs of 4 meets round 3 ...
    r = report("2H 3H 4H 5H 6H 7H 8H 9H", "contract", contract_round=3)
    assert (r.value, r.declarable) == (0, True)
    # ... but not round 2 (no set): all 44 count
    r = report("2H 3H 4H 5H 6H 7H 8H 9H", "contract", contract_round=2)
    assert (r.value, r.can_open) == (44, False)


def test_contract_round_7_lays_down_everything() -> None:
    hand = "2H 3H 4H 5H 6S 7S 8S 9S TC JC QC KC"
    r = report(hand, "contract", contract_round=7)
    assert (r.value, r.can_open, r.declarable) == (0, True, True)
    # one card more that fits nowhere: no lay-down at all, every card counts
    # (14 + 30 + 40 + ace 15 = 99)
    r = report(hand + " AD", "contract", contract_round=7)
    assert (r.value, r.can_open, r.declarable) == (99, False, False)
    # ... unless it is discarded
    r = report(hand + " AD", "contract", contract_round=7, discard=True)
    assert (r.value, r.can_open, r.declarable, r.witness.discard) == (0, True, True,
                                                                      parse_cards("AD")[0])
    # lay_down_all on another variant: gin + requirements none, threshold none
    r = report("5H 6H 7H KS", "gin", lay_down_all=True)  # KS left: no lay-down
    assert (r.value, r.can_open) == (28, False)


def test_custom_two_runs_of_four_worth_30() -> None:
    knobs: dict[str, Any] = {
        "requirements": [{"kind": "run", "count": 2, "exact": True},
                         {"kind": "set", "count": 0, "exact": True}],
        "min_run_length": 4, "min_meld_points": 30,
    }
    # runs A-4 spades (1 + 2 + 3 + 4 = 10) and 5-8 hearts (26): 36 >= 30, KD left
    r = report("AS 2S 3S 4S 5H 6H 7H 8H KD", "basic", **knobs)
    assert (r.value, r.can_open, r.declarable) == (10, True, False)
    # discarding KD: every card down, declarable
    r = report("AS 2S 3S 4S 5H 6H 7H 8H KD", "basic", discard=True, **knobs)
    assert (r.value, r.can_open, r.declarable) == (0, True, True)
    # 10 + 14 = 24 < 30: nothing goes down
    r = report("AS 2S 3S 4S 2H 3H 4H 5H", "basic", **knobs)
    assert (r.value, r.can_open) == (24, False)
    # exactly 0 sets: the kings stay in hand (30)
    r = report("AS 2S 3S 4S 5H 6H 7H 8H KD KC KH", "basic", **knobs)
    assert (r.value, r.can_open) == (30, True)
    # AS 2S 3S is too short, 5-T hearts is one run: no opening (6 + 45 = 51)
    r = report("AS 2S 3S 5H 6H 7H 8H 9H TH", "basic", **knobs)
    assert (r.value, r.can_open) == (51, False)


def test_card_points_overrides() -> None:
    knobs: dict[str, Any] = {"card_points": {"hand": {"5": 50}, "meld": {"K": 20, "JK": 3},
                                             "ace_low": 7}}
    deal = deal_of("rummy500", **knobs)
    assert points_of("AH 2H 3H", deal) == {7 + 2 + 3}  # the low ace: 7
    assert points_of("KS KH KD", deal) == {60}  # a king melded: 20
    assert points_of("QH KH AH", deal) == {10 + 20 + 15}  # the high ace keeps 15
    assert points_of("5H JK 7H", deal) == {5 + 3 + 7}  # a joker melded (own): 3
    # a 5 in hand costs 50, melded it is still worth 5
    assert optimum("AH 2H 3H 5C", "rummy500", **knobs) == 12 - 50
    assert optimum("5H 5S 5D", "rummy500", **knobs) == 15
    # a joker in hand keeps joker_points (15): no hand override for it
    assert optimum("JK 2C", "rummy500", **knobs) == -17


def test_represented_wild_value_on_rummy500() -> None:
    deal = deal_of("rummy500", wild_meld_value="represented")
    assert points_of("5H JK 7H", deal) == {18}
    # JK 2H 3H: the joker as the low ace (1) or as 4H
    assert points_of("JK 2H 3H", deal) == {6, 9}
    # AH JK JK: A-2-3 (6), Q-K-A (10 + 10 + 15), set of aces (45)
    assert points_of("AH JK JK", deal_of("rummy500", decks=2,
                                         wild_meld_value="represented")) == {6, 35, 45}
    # "own" (the preset): the joker is 15 wherever it stands, a low ace included
    assert points_of("JK 2H 3H", deal_of("rummy500")) == {20}


def test_rummy500_go_out_keeps_a_card_back() -> None:
    # best: the four aces (60) with 2H 3H in hand (-5) = 55; going out:
    # A-2-3 hearts (1 + 2 + 3) + three aces (45) = 51
    r = report("AH 2H 3H AS AD AC", "rummy500")
    assert (r.value, r.declarable, r.go_out_value, r.can_open) == (55, True, 51, None)
    assert r.go_out_witness is not None and not r.go_out_witness.deadwood
    # nothing to go out with: None
    r = report("AH 2H 3H AS AD AC KC", "rummy500")
    assert (r.go_out_value, r.declarable) == (None, False)


def test_max_net_with_a_threshold() -> None:
    # rummy500 + min_meld_points 30: the run 6-7-8 (21) cannot go down
    r = report("6H 7H 8H 2C", "rummy500", min_meld_points=30)
    assert (r.value, r.can_open, r.declarable) == (-23, False, False)
    # 6-T = 40 goes down, 2C in hand
    r = report("6H 7H 8H 9H TH 2C", "rummy500", min_meld_points=30)
    assert (r.value, r.can_open, r.declarable, r.go_out_value) == (38, True, False, None)


def test_indian_requirements_as_data() -> None:
    # indian13 with its requirements spelled out equals the preset
    hand = "2H 3H 4H 6C JK 8C 5S 5D 5C"
    assert optimum(hand, "indian13", "9") == 0
    explicit = [{"kind": "sequence", "count": 2}, {"kind": "pure_sequence", "count": 1}]
    assert optimum(hand, "indian13", "9", requirements=explicit) == 0
    # two pure sequences required: 6C JK 8C is impure, so not declared;
    # 2H 3H 4H exempt, the rest counts: 6 + 8 + 15 (wild JK 0)
    two_pure = [{"kind": "pure_sequence", "count": 2}]
    r = report(hand, "indian13", wild_rank="9", requirements=two_pure)
    assert (r.value, r.declarable, r.can_open) == (29, False, None)


# ---------------------------------------------------------------------------
# brute_report's summaries against the plain loop over every arrangement

_REPORT_DEALS: list[tuple[str, str | None, dict[str, Any]]] = [
    ("basic", None, {}),
    ("gin", None, {}),
    ("rummy500", None, {}),
    ("rummy500", None, {"wild_meld_value": "represented", "decks": 2}),
    ("rummy500", None, {"min_meld_points": 25}),
    ("indian13", "5", {}),
    ("indian13", "7", {"requirements": [{"kind": "run", "count": 1, "exact": True}]}),
    ("indian21", "2S", {}),
    ("contract", None, {"contract_round": 1}),
    ("contract", None, {"contract_round": 2, "min_run_length": 3}),
    ("contract", None, {"contract_round": 7, "min_run_length": 3}),
    ("kalooki", None, {"opening_points": 20}),
    ("kalooki", None, {"ace": "high", "opening_points": 15}),
    ("basic", None, {"requirements": [{"kind": "set", "count": 1}], "lay_down_all": True}),
    ("rummy500", None, {"card_points": {"hand": {"A": 0, "JK": 40}, "meld": {"5": 0}}}),
]


def _plain_report(hand: list[int], deal: Deal, discard: bool) -> tuple[object, ...]:
    """(value, declarable, can_open, go_out_value) from every arrangement."""
    rules = deal.rules
    maximise = rules.objective == "max_net"
    pick = max if maximise else min
    arrangements = list(plain_arrangements(hand, deal, discard))
    values = [a.points.net_points if maximise else a.points.deadwood_points
              for a in arrangements]
    value = pick(values)
    declarable = any(a.points.declarable for a in arrangements)
    opened = [a.points.opened for a in arrangements]
    can_open = None if opened[0] is None else any(opened)
    go_values = [v for a, v in zip(arrangements, values, strict=True) if a.points.goes_out]
    go_out = None
    if (rules.objective in ("min_deadwood", "max_net") and rules.declaration != "knock"
            and go_values and pick(go_values) != value):
        go_out = pick(go_values)
    return value, declarable, can_open, go_out


def _check_report_against_plain_loop(data: st.DataObject) -> None:
    variant, wild_rank, knobs = data.draw(st.sampled_from(_REPORT_DEALS))
    deal = deal_of(variant, wild_rank, **knobs)
    rules = deal.rules
    wilds = sorted(c for c in deal.wild if c != JOKER) + [JOKER] * (
        rules.decks * rules.jokers_per_deck if JOKER in deal.wild else 0)
    low = data.draw(st.one_of(st.just(0), st.integers(0, 12)))  # aces score differently
    suits = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3, unique=True))
    size = data.draw(st.integers(3, 7))
    if data.draw(st.booleans()):
        # cards from a window of 3-4 ranks in 1-3 suits (and the wild cards)
        width = data.draw(st.integers(3, 4))
        pool = [make_card((low + i) % 13, s) for i in range(width) for s in suits
                for _ in range(rules.decks)] + wilds
        picks = data.draw(st.lists(st.integers(0, len(pool) - 1), min_size=min(size, len(pool)),
                                   max_size=min(size, len(pool)), unique=True))
        hand = [pool[i] for i in picks]
    else:
        # a run and a set or run that overlap (so a hand melds in several ways),
        # a card swapped for a wild maybe, and a few extra cards
        run = [make_card((low + i) % 13, suits[0]) for i in range(data.draw(st.integers(3, 4)))]
        rank = (low + data.draw(st.integers(0, 3))) % 13
        if data.draw(st.booleans()):
            group = [make_card(rank, s) for s in range(4)][:data.draw(st.integers(2, 4))]
        else:  # a second run
            group = [make_card((rank + i) % 13, suits[-1]) for i in range(3)]
        hand = run + [c for c in group if c not in run or rules.decks > 1]
        swap: bool = data.draw(st.booleans())
        if wilds and swap:
            hand[data.draw(st.integers(0, len(hand) - 1))] = data.draw(st.sampled_from(wilds))
        hand += data.draw(st.lists(st.integers(0, 51), max_size=2))
        copies = Counter(hand)  # no more copies than the deck has
        hand = [c for c in sorted(set(hand)) for _ in range(min(copies[c], rules.decks * (
            rules.jokers_per_deck if c == JOKER else 1)))][:8]
    discard = data.draw(st.booleans())
    got = brute_report(hand, deal, discard)
    expected = _plain_report(hand, deal, discard)
    assert (got.value, got.declarable, got.can_open, got.go_out_value) == expected, (
        [card_name(c) for c in hand], variant, knobs, discard)
    # the witness is what it claims
    witness = got.witness
    assert brute_score(witness.melds, witness.deadwood, deal) == witness.points
    value = witness.points.net_points if rules.objective == "max_net" else (
        witness.points.deadwood_points)
    assert value == got.value


# hands where going out and the best net differ (aces: 1 low, 15 in a set)
_GO_OUT_HANDS = ("AH 2H 3H AS AD AC", "AH 2H 3H AS AD AC 4H", "AH 2H JK AS AD AC",
                 "QH KH AH AS AD AC", "AH 2H 3H 4H AS AD AC", "AS 2S 3S AH AD AC 9C")


@pytest.mark.parametrize("discard", [False, True])
@pytest.mark.parametrize("knobs", [{}, {"wild_meld_value": "represented"},
                                   {"min_meld_points": 20}, {"ace": "wrap"}])
def test_report_go_out_matches_the_plain_loop(knobs: dict[str, Any], discard: bool) -> None:
    deal = deal_of("rummy500", **knobs)
    found = 0
    for text in _GO_OUT_HANDS:
        hand = parse_cards(text)
        got = brute_report(hand, deal, discard)
        assert (got.value, got.declarable, got.can_open, got.go_out_value) == _plain_report(
            hand, deal, discard), (text, knobs, discard)
        found += got.go_out_value is not None
    assert found  # the hands do exercise the go-out answer


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(data=st.data())
def test_report_matches_the_plain_loop(data: st.DataObject) -> None:
    _check_report_against_plain_loop(data)


@pytest.mark.slow
@settings(max_examples=3000, derandomize=True, database=None, deadline=None)
@given(data=st.data())
def test_report_matches_the_plain_loop_long(data: st.DataObject) -> None:
    _check_report_against_plain_loop(data)


# ---------------------------------------------------------------------------
# The meld shortcut against the literal definition
#
# ``is_meld_brute`` draws represented cards from meld shapes and lays wild
# cards by which of them stand for themselves.  Here every card instead stands
# for each card it may (itself; any of the 52 when wild) and the represented
# cards are checked with the rule text, on groups with at most two wilds.  The
# points of each reading are worked out here again (``_naive_points``), from
# the rule text, sharing nothing with ``tests.bruteforce``.

_NAIVE_DEALS: list[tuple[str, str | None, dict[str, Any]]] = [
    ("gin", None, {}),
    ("gin", None, {"ace": "wrap"}),
    ("gin", None, {"ace": "high"}),
    ("gin", None, {"decks": 2, "set_allow_same_suit": True}),
    ("gin", None, {"decks": 2, "set_allow_same_suit": True, "max_set_size": None}),
    ("gin", None, {"min_run_length": 4, "max_set_size": 3}),
    ("rummy500", None, {}),
    ("rummy500", None, {"ace": "wrap"}),
    ("rummy500", None, {"ace": "high"}),
    ("rummy500", None, {"min_naturals_per_meld": 2}),
    ("rummy500", None, {"wild_meld_value": "represented", "decks": 2}),
    ("rummy500", None, {"card_points": {"hand": {"A": 20}, "meld": {"A": 12, "7": 70, "JK": 4},
                                        "ace_low": 2}}),
    ("rummy500", None, {"decks": 2, "set_allow_same_suit": True, "max_set_size": 5}),
    ("rommy", None, {}),
    ("contract", None, {}),
    ("contract", None, {"min_run_length": 3, "ace": "high"}),
    ("kalooki", None, {}),
    ("kalooki", None, {"card_points": {"meld": {"A": 14, "9": 1}}}),
    ("indian13", "5", {}),
    ("indian13", "A", {"max_wilds_per_meld": 1}),
    ("indian13", "K", {"decks": 3}),
    ("indian13", "JK", {}),
    ("indian13", "7", {"wild_meld_value": "represented", "wild_cards_score_zero": False}),
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
    if ranks == list(range(ranks[0], ranks[0] + size)) and (ace != "high" or ranks[0] != 0):
        readings.append(ranks[0] == 0)  # ace (if any) low; "high" has no low ace
    high = sorted(13 if r == 0 else r for r in ranks)  # ace after the king
    if (ace in ("high_low", "wrap", "high") and 0 in ranks
            and high == list(range(high[0], high[0] + size))):
        readings.append(False)
    if ace == "wrap" and size <= 13:
        for start in range(1, 13):  # round the corner: K-A-2...
            window = sorted((start + i) % 13 for i in range(size))
            if window == ranks and start + size - 1 > 13:
                readings.append(False)
    return readings


def _naive_points(card: int, represents: int, deal: Deal, low_ace: bool) -> int:
    """RULES.md section 2 and 8 point rules for one melded card, written out
    again: the point knobs, card_points overrides, own / represented value."""
    rules = deal.rules
    if rules.wild_cards_score_zero and card in deal.wild:
        return 0
    overrides = dict(rules.card_points.meld) if rules.card_points else {}

    def natural(c: int) -> int:  # a card's meld value by its rank (13 = joker)
        index = 13 if c == JOKER else rank_of(c)
        if index in overrides:
            return overrides[index]
        if index == 13:
            return rules.joker_points
        if index == 0:
            return rules.ace_points
        if index >= 9:
            return rules.court_points
        return index + 1 if rules.pip_points is None else rules.pip_points

    def low() -> int:
        if rules.card_points is not None and rules.card_points.ace_low is not None:
            return rules.card_points.ace_low
        if rules.ace_low_run_points is not None:
            return rules.ace_low_run_points
        return natural(0)

    if card != represents and rules.wild_meld_value == "own":
        return natural(card)
    return low() if low_ace else natural(represents)


def _set_ok(size: int, suits: list[int], deal: Deal) -> bool:
    rules = deal.rules
    if size < 3:
        return False
    if rules.set_allow_same_suit:
        return rules.max_set_size is None or size <= rules.max_set_size
    limit = 4 if rules.max_set_size is None else min(4, rules.max_set_size)
    return size <= limit and len(set(suits)) == size


def _naive_signatures(cards: Sequence[int], deal: Deal) -> set[tuple[str, bool, int]]:
    rules = deal.rules
    tanala = rules.decks >= 3 if rules.tanala is None else rules.tanala
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
        if len(ranks) == 1 and _set_ok(len(cards), suits, deal):
            readings.append(("set", False))
        if len(cards) >= max(3, rules.min_run_length) and len(set(suits)) == 1:
            readings += [("run", low) for low in _run_readings(represented, rules.ace)]
        if tanala and len(cards) == 3 and len(set(cards)) == 1 and substitutions == 0:
            readings.append(("tanala", False))
        for kind, low in readings:
            points = sum(
                _naive_points(c, r, deal, low and rank_of(r) == 0)
                for c, r in zip(cards, represented, strict=True)
            )
            found.add((kind, kind != "set" and substitutions == 0, points))
    return found


def _check_readings_against_literal_definition(data: st.DataObject) -> None:
    variant, wild_rank, knobs = data.draw(st.sampled_from(_NAIVE_DEALS))
    deal = deal_of(variant, wild_rank, **knobs)
    wild_pool = sorted(deal.wild)
    size = data.draw(st.integers(3, 6 if deal.rules.set_allow_same_suit else 5))
    # at most two wilds (one in a 6-card group): each multiplies the naive work by 52
    wild_count = data.draw(st.integers(0, 2 if size <= 5 else 1)) if wild_pool else 0
    # natural cards from a narrow window so that melds actually occur
    low = data.draw(st.integers(0, 12))
    suits = data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
    natural_pool = [make_card((low + i) % 13, s) for i in range(5) for s in suits]
    cards = data.draw(st.lists(st.sampled_from(natural_pool), min_size=size - wild_count,
                               max_size=size - wild_count))
    cards += data.draw(st.lists(st.sampled_from(wild_pool), min_size=wild_count,
                                max_size=wild_count)) if wild_count else []
    # the window may hold wild-rank cards too: keep at most 3 wild cards in all
    # (4 would mean 52**4 naive readings)
    while sum(1 for c in cards if c in deal.wild) > 3:
        cards.remove(next(c for c in cards if c in deal.wild))
    expected = _naive_signatures(cards, deal)
    got = {(m.kind, m.pure, m.points) for m in is_meld_brute(cards, deal)}
    assert got == expected, ([card_name(c) for c in cards], variant, knobs)
    for meld in is_meld_brute(cards, deal):
        assert meld_reading_error(meld, deal) is None


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(data=st.data())
def test_meld_readings_match_the_literal_definition(data: st.DataObject) -> None:
    _check_readings_against_literal_definition(data)


@pytest.mark.slow
@settings(max_examples=3000, derandomize=True, database=None, deadline=None)
@given(data=st.data())
def test_meld_readings_match_the_literal_definition_long(data: st.DataObject) -> None:
    _check_readings_against_literal_definition(data)
