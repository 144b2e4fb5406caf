"""Tests for solver.validate: declared melds + deadwood -> problems and points.

Indian hands use cut 7 for ``indian13`` (7S 7H 7D 7C and JK wild, all worth 0)
and cut 5H for ``indian21`` (every 5, 4H, 6H and JK wild, all worth 0).
"""

from __future__ import annotations

import pytest

from solver.cards import InvalidHandError
from solver.results import ValidationReport
from solver.rules import PRESETS, InvalidRulesError
from solver.validate import validate


def split(*melds: str) -> list[list[str]]:
    return [meld.split() for meld in melds]


def problem_codes(report: ValidationReport) -> list[str]:
    return [p.code for p in report.problems]


# ---------------------------------------------------------------------------
# Gin, basic, rummy500


def test_gin_knock_hand() -> None:
    # 7-8-9 of hearts, three kings, 2C left over: deadwood 2, may knock.
    report = validate(split("7H 8H 9H", "KS KH KD"), ["2C"], variant="gin")
    assert (report.valid, report.declarable, report.problems) == (True, True, ())
    assert (report.deadwood_points, report.penalty_points) == (2, 2)
    assert report.meld_points == 24 + 30


def test_gin_deadwood_above_knock_limit_is_valid_but_not_declarable() -> None:
    report = validate(split("7H 8H 9H"), ["KC", "QD", "2S"], variant="gin")
    assert (report.valid, report.declarable, report.deadwood_points) == (True, False, 22)


def test_invalid_meld_counts_as_deadwood() -> None:
    # K-A-2 is no run in gin; its cards join the deadwood (10 + 1 + 2 + QC 10).
    report = validate(split("KH AH 2H", "5S 6S 7S"), ["QC"], variant="gin")
    assert not report.valid and not report.declarable
    [problem] = report.problems
    assert (problem.code, problem.meld_index, problem.card) == ("run_wraps_around", 0, "AH")
    assert "KH AH 2H" in problem.message
    assert report.melds[0] is None and report.melds[1] is not None
    assert report.deadwood_points == 23


def test_every_problem_is_reported() -> None:
    report = validate(split("KH AH 2H", "9S 9H 8D", "5S 6S"), [], variant="gin")
    assert [(p.code, p.meld_index) for p in report.problems] == [
        ("run_wraps_around", 0), ("mixed_ranks", 1), ("too_few_cards", 2),
    ]
    assert report.to_dict()["problems"][1]["card"] == "8D"


def test_non_indian_hand_may_have_any_size() -> None:
    # Seven cards in gin: no card_count_mismatch without a hand to compare.
    report = validate(split("7H 8H 9H", "KS KH KD"), ["2C"], variant="gin")
    assert "card_count_mismatch" not in problem_codes(report)


def test_basic_declarable_only_when_everything_is_melded() -> None:
    assert validate(split("AS 2S 3S", "9C 9H 9D"), [], variant="basic").declarable
    assert not validate(split("AS 2S 3S"), ["9C"], variant="basic").declarable


def test_seed_001_rummy500_round() -> None:
    # 6♥ 7♥ 8♥ laid down (+21), the 2♠ kept in hand (-2).
    report = validate([["6♥", "7♥", "8♥"]], ["2♠"], variant="rummy500")
    assert (report.meld_points, report.deadwood_points, report.net_points) == (21, 2, 19)
    assert report.valid and not report.declarable


def test_rummy500_joker_meaning_is_stated() -> None:
    # A 2 JK: the joker is the 3 of hearts; 1 + 2 + 15.
    report = validate(split("AH 2H JK", "QS KS AS"), [], variant="rummy500")
    first = report.melds[0]
    assert first is not None
    assert first.to_dict()["represents"] == ["AH", "2H", "3H"]
    assert report.meld_points == 18 + 35
    assert report.declarable  # every card melded


@pytest.mark.parametrize(("rules", "wild_rank", "group", "points"), [
    # aces wild: AH as itself is A-2-3 (the ace low, 1), as a stand-in 2-3-4 (its own 15)
    ({"cut_joker": True}, "A", "AH 2H 3H", 20),
    # 9s wild, a stand-in worth the card it stands for: 9-T-J is 29, T-J-Q (9H as QH) 30
    ({"cut_joker": True, "wild_meld_value": "represented"}, "9", "9H TH JH", 30),
])
def test_melds_that_score_are_read_as_worth_most(
        rules: dict[str, object], wild_rank: str, group: str, points: int) -> None:
    # The rule book: where a meld reads two ways the player takes the reading
    # worth more, as solve melds it and a round is scored (net); validate read
    # the pure reading first and said 6 for AH 2H 3H.
    report = validate(split(group), ["2C"], variant="rummy500", wild_rank=wild_rank,
                      rules=rules)
    assert report.meld_points == points and report.net_points == points - 2
    assert report.melds[0] is not None and report.melds[0].points == points


def test_rummy500_four_kings_and_joker() -> None:
    report = validate(split("KS KH KD KC JK"), [], variant="rummy500")
    assert [(p.code, p.card) for p in report.problems] == [("set_too_large", "JK")]
    assert report.deadwood_points == 40 + 15


# ---------------------------------------------------------------------------
# Input forms and errors


def test_tokens_ids_and_strings() -> None:
    # card ids 0 1 2 = AS 2S 3S; "10h" and the ♥ symbol; one string per meld
    report = validate([[0, 1, 2], ["10h", "JH", "QH"], "9C 9D 9S"], "4C, 5D",
                      variant=PRESETS["gin"])
    assert report.valid and report.deadwood_points == 9
    assert report.variant == "gin"


def test_bad_token_names_meld_and_position() -> None:
    with pytest.raises(InvalidHandError) as caught:
        validate(split("AS 2S 3S", "5H 6H XX"), [], variant="gin")
    assert (caught.value.code, caught.value.field, caught.value.index) == (
        "invalid_card", "melds[1]", 2)


def test_bad_deadwood_token_and_card_id() -> None:
    with pytest.raises(InvalidHandError) as caught:
        validate(split("AS 2S 3S"), ["QQ"], variant="gin")
    assert (caught.value.field, caught.value.index) == ("deadwood", 0)
    with pytest.raises(InvalidHandError) as caught:
        validate([[0, 1, 53]], [], variant="gin")
    assert (caught.value.code, caught.value.field, caught.value.index) == (
        "invalid_card", "melds[0]", 2)


def test_too_many_copies_raises() -> None:
    # One deck in gin: AS in a meld and again in the deadwood.
    with pytest.raises(InvalidHandError) as caught:
        validate(split("AS 2S 3S"), ["AS"], variant="gin")
    assert (caught.value.code, caught.value.field, caught.value.index) == (
        "too_many_copies", "deadwood", 0)


def test_too_many_jokers_raises() -> None:
    # rummy500 with one deck has two jokers.
    with pytest.raises(InvalidHandError) as caught:
        validate(split("5H JK JK", "9S 9H JK"), [], variant="rummy500")
    assert (caught.value.code, caught.value.field, caught.value.index) == (
        "too_many_jokers", "melds[1]", 2)


def test_bad_knob_and_wild_rank_raise() -> None:
    with pytest.raises(InvalidRulesError):
        validate(split("AS 2S 3S"), [], variant="gin", rules={"no_such_knob": 1})
    with pytest.raises(InvalidHandError) as caught:
        validate(split("AS 2S 3S"), [], variant="gin", wild_rank="7")
    assert caught.value.code == "wild_rank_not_allowed"


# ---------------------------------------------------------------------------
# Comparing with the kept hand


def test_declaration_matches_hand() -> None:
    report = validate(split("AS 2S 3S"), ["9C"], variant="gin", hand="3S 9C AS 2S")
    assert report.valid


def test_card_not_in_hand_and_missing_card() -> None:
    # Declared 4S that the hand does not hold; the hand's 9C is not declared.
    report = validate(split("2S 3S 4S"), [], variant="gin", hand="2S 3S AS 9C")
    assert not report.valid
    assert [(p.code, p.card, p.meld_index) for p in report.problems] == [
        ("card_not_in_hand", "4S", 0),
        ("card_count_mismatch", "AS", None),
        ("card_count_mismatch", "9C", None),
    ]


# ---------------------------------------------------------------------------
# indian13: declarations (cut 7)

PURE = "4H 5H 6H"          # pure sequence
IMPURE = "8C 9C JK"        # second sequence, the joker is TC or 7C
NINES = "9S 9H 9D"         # a set
LEFT7 = ["KC", "QD", "2S", "3D", "4C", "TC", "AS"]  # 10+10+2+3+4+10+10 = 49


def test_indian13_valid_show() -> None:
    # pure 4-5-6, impure 8-9-JK, nines, four kings: all 13 melded.
    report = validate(split(PURE, IMPURE, NINES, "KC KD KS KH"), [],
                      variant="indian13", wild_rank="7")
    assert (report.valid, report.declarable, report.problems) == (True, True, ())
    assert report.penalty_points == 0


def test_indian13_show_without_pure_sequence() -> None:
    # 5-6-JK and 8-9-7S are both impure: no pure sequence, every card counts.
    report = validate(split("5H 6H JK", "8C 9C 7S", NINES, "KC KD KS KH"), [],
                      variant="indian13", wild_rank="7")
    assert problem_codes(report) == ["no_pure_sequence"]
    assert report.valid and not report.declarable
    assert report.deadwood_points == 11 + 17 + 27 + 40
    assert report.penalty_points == 80


def test_indian13_show_with_only_one_sequence() -> None:
    # pure 4-5-6 and three sets: the second sequence is missing.
    report = validate(split(PURE, NINES, "KC KD KS KH", "2C 2D 2S"), [],
                      variant="indian13", wild_rank="7")
    assert problem_codes(report) == ["too_few_sequences"]
    assert report.deadwood_points == 27 + 40 + 6  # everything but the pure sequence


def test_indian13_show_needs_thirteen_cards() -> None:
    report = validate(split(PURE, IMPURE, NINES, "KC KD KS"), [],
                      variant="indian13", wild_rank="7")
    assert problem_codes(report) == ["card_count_mismatch"]
    assert "13" in report.problems[0].message
    assert not report.valid


# ---------------------------------------------------------------------------
# indian13: the cascade of 003 (cut 7)


def test_cascade_no_pure_sequence_every_card_counts() -> None:
    # 5-6-JK is impure: all 13 cards count, 11 + 27 + 49 = 87, capped at 80.
    report = validate(split("5H 6H JK", NINES), LEFT7, variant="indian13", wild_rank="7")
    assert (report.deadwood_points, report.penalty_points) == (87, 80)
    assert report.valid and not report.declarable


def test_cascade_cap_knob() -> None:
    report = validate(split("5H 6H JK", NINES), LEFT7, variant="indian13", wild_rank="7",
                      rules={"points_cap": None})
    assert report.penalty_points == 87


def test_cascade_pure_sequence_alone_exempts_only_itself() -> None:
    # Pure 4-5-6 exempt; the set of nines still counts: 27 + 49.
    report = validate(split(PURE, NINES), LEFT7, variant="indian13", wild_rank="7")
    assert (report.deadwood_points, report.penalty_points) == (76, 76)


def test_cascade_pure_and_second_sequence_only_unmelded_count() -> None:
    # ---- melded ----  | deadwood KC QD 2S 3D = 25
    report = validate(split(PURE, IMPURE, NINES), ["KC", "QD", "2S", "3D"],
                      variant="indian13", wild_rank="7")
    assert report.deadwood_points == 25
    assert report.problems == ()  # deadwood left: no show, no declaration problems


def test_cascade_two_tiers() -> None:
    # penalty_tiers=2: without both sequences every card counts (15 + 76 = 91 -> 80).
    report = validate(split(PURE, NINES), LEFT7, variant="indian13", wild_rank="7",
                      rules={"penalty_tiers": 2})
    assert (report.deadwood_points, report.penalty_points) == (91, 80)


# ---------------------------------------------------------------------------
# indian21 (cut 5H): marriage family

TWO_PURE = ["TS JS QS", "2C 3C 4C"]                      # 30 and 9 points
LEFT21 = ["4H", "5S", "AS", "6C", "9H", "QH", "2D", "3S", "7C"]  # wild 4H 5S; 47 points


def test_indian21_fewer_than_three_pure_sequences() -> None:
    # Exempt: both pure sequences and the wild cards (JK, 4H, 5S).
    # Counted: 8D 9D (17) + three kings (30) + the non-wild deadwood (47).
    report = validate(split(*TWO_PURE, "8D 9D JK", "KS KH KD"), LEFT21,
                      variant="indian21", wild_rank="5H")
    assert report.deadwood_points == 17 + 30 + 47
    assert report.penalty_points == 94  # no cap in indian21


def test_indian21_three_pure_sequences_only_unmelded_count() -> None:
    report = validate(split(*TWO_PURE, "7D 8D 9D", "KS KH KD"), LEFT21,
                      variant="indian21", wild_rank="5H")
    assert report.deadwood_points == 47


def test_indian21_tanala_counts_as_pure_sequence() -> None:
    report = validate(split(*TWO_PURE, "TC TC TC", "KS KH KD"), LEFT21,
                      variant="indian21", wild_rank="5H")
    tanala = report.melds[2]
    assert tanala is not None and tanala.kind == "tanala"
    assert report.deadwood_points == 47


def test_indian21_show_needs_three_pure_sequences() -> None:
    # All 21 cards melded but only two pure sequences.
    melds = [*TWO_PURE, "8D 9D JK", "KS KH KD", "AS AH AD", "9S 9H 9C", "QH QD QC"]
    report = validate(split(*melds), [], variant="indian21", wild_rank="5H")
    assert problem_codes(report) == ["no_pure_sequence"]
    assert "at least 3 pure" in report.problems[0].message
    assert report.valid and not report.declarable


def test_indian21_valid_show() -> None:
    melds = [*TWO_PURE, "7D 8D 9D", "KS KH KD", "AS AH AD", "9S 9H 9C", "QH QD JK"]
    report = validate(split(*melds), [], variant="indian21", wild_rank="5H")
    assert (report.valid, report.declarable, report.penalty_points) == (True, True, 0)


@pytest.mark.parametrize(("hand", "wild", "rules"), [
    # contract round 1: exactly two sets; "JS TS TD" (tens wild) is J-J-J, not 9S-TS-JS
    ("JS AD 4S 8D TD TC AH TS KS 3D 7D", "10", {"contract_round": 1}),
    # no run at all: "QS AS JK" (aces wild) is Q-Q-Q
    ("QS AS JK 5C 6H 8D 9S JD KC 2H 3C 4D 7S", "A",
     {"requirements": [{"kind": "run", "count": 0, "exact": True}]}),
])
def test_a_group_that_reads_as_a_set_or_a_run_is_read_as_the_requirements_ask(
        hand: str, wild: str, rules: dict[str, object]) -> None:
    """What the solver declares, validate accepts with the same points: a group
    of wild cards read another way when the preferred reading misses a
    requirement the solver's reading meets."""
    from solver.solve import solve

    solution = solve(hand, "indian13", wild_rank=wild, discard=len(hand.split()) == 11,
                     rules=rules)
    assert solution.melds
    report = validate([list(m.to_dict()["cards"]) for m in solution.melds],
                      solution.to_dict()["deadwood"], "indian13", wild_rank=wild, rules=rules)
    codes = [p.code for p in report.problems if p.code != "card_count_mismatch"]
    assert codes == [] and report.deadwood_points == solution.deadwood_points
    assert [m and m.kind for m in report.melds] == [m.kind for m in solution.melds]
