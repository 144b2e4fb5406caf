"""solver.round_scoring: RULES.md section 6, one hand-made round per rule."""

from __future__ import annotations

import pytest

from solver import solve, validate
from solver.cards import InvalidHandError, card_name
from solver.deadline import Deadline
from solver.round_scoring import PlayerHand, score_round, value_cards, value_points
from solver.rules import PRESETS, InvalidRulesError, make_deal

# --- basic ---------------------------------------------------------------------------


def test_basic_winner_collects_the_whole_remaining_hands() -> None:
    result = score_round([
        PlayerHand(went_out=True),
        PlayerHand(hand="KS 2H 3D"),
        # the 7-8-9H on the table do not count; the ace in hand does (matched or not in 004)
        PlayerHand(hand="AS 2S 3S", melded=[["7H", "8H", "9H"]]),
    ], "basic")
    assert result.winner == 0 and result.points == (15 + 6, 0, 0)
    assert [p.pays for p in result.players] == [None, 15, 6]


def test_basic_going_rummy_doubles() -> None:
    players = [PlayerHand(went_out=True, rummy=True), PlayerHand(hand="KS 2H 3D")]
    assert score_round(players, "basic").points == (30, 0)
    assert score_round(players, "basic", rules={"rummy_doubles": False}).points == (15, 0)


def test_basic_winner_hand_must_go_out() -> None:
    ok = score_round([PlayerHand(hand="7H 8H 9H 2C", went_out=True), PlayerHand(hand="KS")],
                     "basic")  # meld 7-8-9H, discard 2C
    assert ok.points == (10, 0)
    with pytest.raises(InvalidHandError) as info:
        score_round([PlayerHand(hand="7H 8H 2C 3D", went_out=True), PlayerHand(hand="KS")], "basic")
    assert info.value.field == "players[0].hand" and info.value.code == "cannot_go_out"


def test_basic_winner_goes_out_by_an_arrangement_other_than_the_best() -> None:
    """Under a house max_net the best arrangement may keep cards back while
    another melds them all (solve's go_out, the hand declarable): the winner
    went out. It was refused (cannot_go_out) although solve says it can."""
    rules = {"objective": "max_net", "ace_points": 15, "ace_low_run_points": 1}
    hand = "AH 2H 3H AS AD AC"
    sol = solve(hand, "basic", rules=rules)
    assert sol.deadwood and sol.declarable and sol.go_out is not None
    score = score_round([PlayerHand(hand=hand, went_out=True), PlayerHand(hand="KD")],
                        "basic", rules=rules)
    assert score.winner == 0 and score.points == (10, 0)
    with pytest.raises(InvalidHandError) as info:  # 2H 3H AS AD AC: no way melds the 2H
        score_round([PlayerHand(hand="2H 3H AS AD AC KS", went_out=True), PlayerHand(hand="KD")],
                    "basic", rules=rules)
    assert info.value.code == "cannot_go_out"


def test_basic_bad_rounds() -> None:
    with pytest.raises(InvalidHandError) as info:
        score_round([PlayerHand(hand="KS"), PlayerHand(hand="2S")], "basic")
    assert info.value.code == "no_winner"
    with pytest.raises(InvalidHandError) as info:
        score_round([PlayerHand(went_out=True), PlayerHand(went_out=True)], "basic")
    assert info.value.field == "players[1].went_out"
    with pytest.raises(InvalidHandError) as info:
        score_round([PlayerHand(went_out=True), PlayerHand(hand="KS", dropped="first")], "basic")
    assert info.value.field == "players[1].dropped"
    with pytest.raises(InvalidHandError) as info:
        score_round([PlayerHand(went_out=True), PlayerHand(hand="KS", rummy=True)], "basic")
    assert info.value.field == "players[1].rummy"
    with pytest.raises(InvalidHandError) as info:
        score_round([PlayerHand(went_out=True), PlayerHand(hand="KS KS")], "basic")
    assert info.value.field == "players[1].hand" and info.value.index == 1
    with pytest.raises(InvalidHandError) as info:
        score_round([PlayerHand(went_out=True, melded=[["KS", "KH", "KD"]]),
                     PlayerHand(hand="2S KH")], "basic")
    assert info.value.field == "players[1].hand" and info.value.code == "too_many_copies"
    with pytest.raises(InvalidHandError) as info:
        score_round([PlayerHand(went_out=True)], "basic")
    assert info.value.field == "players"
    with pytest.raises(InvalidRulesError, match="gin_score") as rules_info:
        score_round([PlayerHand(went_out=True), PlayerHand()], "gin")
    assert rules_info.value.loc == ("variant",)


def test_the_round_scoring_knob_decides_not_the_preset() -> None:
    """gin with a house round_scoring is scored; a house knock is refused on
    the knob (it was refused on "variant": "variant 'basic' is scored knock by
    knock")."""
    players = [PlayerHand(went_out=True), PlayerHand(hand="KD 4C")]
    assert score_round(players, "gin", rules={"round_scoring": "collect"}).points == (14, 0)
    with pytest.raises(InvalidRulesError) as info:
        score_round(players, "basic", rules={"round_scoring": "knock"})
    assert info.value.loc == ("rules", "round_scoring") and info.value.code == "invalid_rules"


# --- rummy500 / rommy ---------------------------------------------------------------


def test_rummy500_melded_minus_hand() -> None:
    result = score_round([
        PlayerHand(melded=[["AH", "2H", "3H"], ["QS", "KS", "AS"]], hand="JK", went_out=False),
        PlayerHand(melded=[["6H", "7H", "8H"], ["4H"], ["AD", "9C"]], hand="", went_out=True),
    ], "rummy500")
    first, second = result.players
    assert first.melded_points == 1 + 2 + 3 + 10 + 10 + 15 and first.hand_points == 15
    assert first.points == 41 - 15
    # the 4H laid off on a meld, and the loose AD 9C, score their own points
    assert second.melded_points == 21 + 4 + 15 + 9 and second.points == 49
    assert result.winner == 1


def test_laid_off_cards_score_their_melded_points() -> None:
    # a group that is no meld by itself lies on the table: each card scores its
    # melded points, which card_points may set apart from its points in hand
    house = {"card_points": {"meld": {"K": 20, "JK": 40}, "hand": {"K": 5, "JK": 1}}}
    result = score_round([
        PlayerHand(melded=[["KS", "KH", "KD"], ["KC"], ["JK"]], went_out=True),
        PlayerHand(hand="QS"),
    ], "rummy500", rules=house)
    first, second = result.players
    assert first.melded_points == 60 + 20 + 40 and first.points == 120
    assert second.hand_points == 10 and second.points == -10


@pytest.mark.parametrize(("cards", "onto", "points"), [
    ("AH", "2H 3H 4H", 1),         # seed 001: an ace melded low counts 1
    ("AH 2H", "3H 4H 5H", 1 + 2),
    ("AH", "QH KH JH", 15),        # high: 15
    ("AH", "AS AD AC", 15),
    ("5H JK", "2H 3H 4H", 5 + 15), # the joker stands for 6H and scores 15 (seed 001)
])
def test_cards_laid_off_score_what_they_add_to_the_meld_they_went_onto(
        cards: str, onto: str, points: int) -> None:
    # As a group of its own, AH scored its high 15 wherever it went: an ace laid
    # below 2-3-4 is a low ace, which the player scores as one (seed 001).
    result = score_round([
        PlayerHand(laid_off=[{"cards": cards, "onto": onto}], went_out=True),
        PlayerHand(hand="KS", melded=[onto]),
    ], "rummy500")
    assert result.players[0].melded_points == points and result.points[0] == points


@pytest.mark.parametrize(("cards", "onto", "points"), [
    ("7H", "JK 5H 6H", 4 + 5 + 6 + 7 - (4 + 5 + 6)),  # the joker stays a 4, not an 8
    ("3H", "JK 5H 6H", 3 + 4 + 5 + 6 - (4 + 5 + 6)),  # ... and 3H goes below it
    ("4H", "5H 6H JK", 4 + 5 + 6 + 7 - (5 + 6 + 7)),
    ("8H 9H", "5H 6H JK", 8 + 9),
])
def test_a_table_meld_s_wild_card_keeps_the_card_its_place_gave_it(
        cards: str, onto: str, points: int) -> None:
    # docs/RULES.md: a table meld is given in meld order and a run's wild card keeps
    # the meaning its position gives it (JK 5H 6H is 4-5-6), as the advisor's
    # history scores a lay_off; both melds were read at their richest, the joker
    # moved to 7H before and to 8H after, and 7H scored 8.
    represented = {"wild_meld_value": "represented"}
    result = score_round([
        PlayerHand(laid_off=[{"cards": cards, "onto": onto}], went_out=True),
        PlayerHand(hand="KS", melded=[onto]),
    ], "rummy500", rules=represented)
    assert result.players[0].melded_points == points


@pytest.mark.parametrize(("laid_off", "field", "code"), [
    ({"cards": "AH", "onto": "2H 3H"}, "players[0].laid_off[0].onto", "invalid_melded"),
    ({"cards": "AH", "onto": "5H 6H 7H"}, "players[0].laid_off[0].cards", "invalid_melded"),
    ({"cards": "", "onto": "5H 6H 7H"}, "players[0].laid_off[0].cards", "invalid_melded"),
    ({"cards": "8H"}, "players[0].laid_off[0]", "invalid_melded"),
    ({"cards": "5H", "onto": "5H 6H 7H"}, "players[0].laid_off[0]", "too_many_copies"),
    # the joker of 5H 6H JK is 7H: 7H laid beside it would move it
    ({"cards": "7H", "onto": "5H 6H JK"}, "players[0].laid_off[0].cards", "invalid_melded"),
])
def test_a_layoff_that_cannot_have_been_made_is_refused_by_name(
        laid_off: dict[str, str], field: str, code: str) -> None:
    with pytest.raises(InvalidHandError) as caught:
        score_round([PlayerHand(laid_off=[laid_off], went_out=True), PlayerHand(hand="KS")],
                    "rummy500")
    assert caught.value.code == code and caught.value.field == field


def test_indian_rummy_has_no_laying_off() -> None:
    with pytest.raises(InvalidHandError) as caught:
        score_round([PlayerHand(hand="3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D", went_out=True),
                     PlayerHand(hand="KS", laid_off=[{"cards": "8H", "onto": "5H 6H 7H"}])],
                    "indian13", wild_rank="7")
    assert caught.value.code == "invalid_flag" and caught.value.field == "players[1].laid_off"


@pytest.mark.parametrize(("rules", "wild_rank", "group", "points"), [
    # aces wild: AH as itself is A-2-3 (the ace low, 1), as a stand-in 2-3-4 (its own 15)
    ({"cut_joker": True}, "A", "AH 2H 3H", 20),
    # 9s wild, a stand-in worth the card it stands for: 9-T-J is 29, T-J-Q (9H as QH) 30
    ({"cut_joker": True, "wild_meld_value": "represented"}, "9", "9H TH JH", 30),
])
def test_net_scores_a_group_by_its_reading_worth_most(
        rules: dict[str, object], wild_rank: str, group: str, points: int) -> None:
    """A group that reads several ways scores as the player (and solve) melds
    it, worth most; it was read as validate prefers, pure first (AH 2H 3H: 6,
    where solve's net for the same cards is 20)."""
    sol = solve(group, "rummy500", wild_rank=wild_rank, rules=rules)
    assert sol.net_points == points
    score = score_round([PlayerHand(melded=[group], went_out=True), PlayerHand(hand="2C")],
                        "rummy500", wild_rank=wild_rank, rules=rules)
    assert score.points == (points, -2)
    assert score.players[0].melds[0].points == points


def test_a_player_who_went_out_holds_no_cards() -> None:
    for variant in ("rummy500", "kalooki", "contract"):
        with pytest.raises(InvalidHandError) as info:
            score_round([PlayerHand(hand="AS 2S 3S", went_out=True), PlayerHand(hand="KD")],
                        variant)
        assert info.value.code == "cannot_go_out" and info.value.field == "players[0].hand"


def test_rommy_points_and_pile_penalty() -> None:
    result = score_round([
        PlayerHand(melded=[["5D", "6D", "7D"]], hand="AS JK", pile_penalties=1),
        PlayerHand(melded=[["KS", "KH", "KD"]], hand="", went_out=True),
    ], "rommy")
    assert result.points == (15 - 15 - 25 - 50, 30)
    with pytest.raises(InvalidHandError) as info:
        score_round([PlayerHand(pile_penalties=1), PlayerHand()], "rummy500")
    assert info.value.field == "players[0].pile_penalties"


# --- indian13 -----------------------------------------------------------------------

DECLARATION = "3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2C"  # valid with 7s wild, discard 2C
NO_PURE = "2S 4S 6S 8S TS QS 2H 4H 6H 8H TH QH KD"  # count 90, pays 80
TWO_TIERS = "3S 4S 5S 9H TH JH KD KC KH 2D 4C 6C 8D"  # count 20


def test_indian13_losers_pay_the_count_capped() -> None:
    result = score_round([
        PlayerHand(hand=DECLARATION, went_out=True),
        PlayerHand(hand=NO_PURE),
        PlayerHand(dropped="first"),
        PlayerHand(dropped="middle"),
        PlayerHand(hand=TWO_TIERS, had_turn=False),
    ], "indian13", wild_rank="7")
    assert result.winner == 0
    assert [p.pays for p in result.players[1:]] == [80, 10, 40, 10]
    assert result.points == (140, -80, -10, -40, -10)
    assert result.players[1].count == 90
    assert sum(result.points) == 0


def test_indian13_knobs_and_hand_rummy() -> None:
    players = [PlayerHand(hand=DECLARATION, went_out=True, rummy=True), PlayerHand(hand=TWO_TIERS),
               PlayerHand(dropped="first")]
    result = score_round(players, "indian13", wild_rank="7", rules={"drop_first": 20})
    assert result.points == (40 + 20, -40, -20)  # the count doubles, the drop does not
    uncapped = score_round([PlayerHand(hand=DECLARATION, went_out=True), PlayerHand(hand=NO_PURE)],
                           "indian13", wild_rank="7", rules={"points_cap": None})
    assert uncapped.points == (90, -90)


def test_indian13_hand_rummy_doubles_only_the_losers_that_played() -> None:
    # 003: a hand complete at the deal makes the opponents who already played
    # pay double; one with no turn yet still pays half (20 // 2), not 20
    result = score_round([
        PlayerHand(hand=DECLARATION, went_out=True, rummy=True),
        PlayerHand(hand=TWO_TIERS),
        PlayerHand(hand="2S 4S 6S 8S TS QS 2H 4H 6H 8H TH QH KD", had_turn=False),
    ], "indian13", wild_rank="7")
    assert [p.pays for p in result.players[1:]] == [40, 40]
    assert result.points == (80, -40, -40)
    assert "doubled" not in result.players[2].explanation


def test_indian_shown_groups_are_read_as_validate_reads_them() -> None:
    # 7S 7H 7D reads as a run (preferred) and as a set; under a house rule that
    # needs a set, the set reading meets it: the show is valid, as validate says
    house = {"requirements": [{"kind": "set", "count": 1}, {"kind": "sequence", "count": 2},
                              {"kind": "pure_sequence", "count": 1}]}
    shown = [["AH", "2H", "3H"], ["4C", "5C", "6C"], ["9D", "TD", "JD", "QD"], ["7S", "7H", "7D"]]
    assert validate(shown, [], "indian13", wild_rank="7", rules=house).declarable
    won = score_round([PlayerHand(melded=shown, hand="2S", went_out=True),
                       PlayerHand(hand=TWO_TIERS)], "indian13", wild_rank="7", rules=house)
    assert won.winner == 0 and won.points == (20, -20)
    # a loser showing the same groups counts only its loose 2S
    lost = score_round([PlayerHand(hand=DECLARATION, went_out=True),
                        PlayerHand(melded=shown, hand="2S")], "indian13", wild_rank="7", rules=house)
    assert lost.players[1].count == 2 and lost.points == (2, -2)


def test_a_round_cut_short_by_its_deadline_is_refused_not_misscored() -> None:
    # a solve the deadline cut short finds no show and only an upper bound of a
    # count: it scored a valid show as a wrong declaration (-80).  The hands are
    # this test's own (solved answers are cached) and solved in time last.
    declaration = "3H 4H 5H 9C JK JC QS QD 7S 4D 5D 6D 7D 2S"  # discard 2S
    loser = "JK 3S 4S 5S 9H TH JH KD KC KH 2D 4C 6C"
    players = [PlayerHand(hand=declaration, went_out=True), PlayerHand(hand=loser)]
    with pytest.raises(InvalidHandError) as info:
        score_round(players, "indian13", wild_rank="7", deadline=Deadline.after_ms(0))
    assert info.value.code == "time_limit_too_small" and info.value.field == "time_limit_ms"
    assert "players[0]" in str(info.value)
    shown = [["3H", "4H", "5H"], ["9C", "JK", "JC"], ["QS", "QD", "7S"], ["4D", "5D", "6D", "7D"]]
    with pytest.raises(InvalidHandError) as info:  # the loser's count is not proved
        score_round([PlayerHand(melded=shown, hand="2S", went_out=True), PlayerHand(hand=loser)],
                    "indian13", wild_rank="7", deadline=Deadline.after_ms(0))
    assert info.value.code == "time_limit_too_small" and "players[1]" in str(info.value)
    assert score_round(players, "indian13", wild_rank="7").points == (2, -2)


def test_indian13_wrong_declaration() -> None:
    result = score_round([PlayerHand(hand=NO_PURE + " 3C", went_out=True), PlayerHand(hand=TWO_TIERS)],
                         "indian13", wild_rank="7")
    assert result.winner is None and result.points == (-80, 0)
    assert result.players[0].role == "wrong_declaration"


def test_indian13_shown_groups() -> None:
    shown = [["3H", "4H", "5H"], ["9C", "JK", "JC"], ["QS", "QD", "7S"], ["4D", "5D", "6D", "7D"]]
    ok = score_round([PlayerHand(melded=shown, hand="2C", went_out=True), PlayerHand(hand=TWO_TIERS)],
                     "indian13", wild_rank="7")
    assert ok.winner == 0 and ok.points == (20, -20)
    broken = [["3H", "4H", "5H"], ["9C", "JK", "JC"], ["QS", "QD", "2C"], ["4D", "5D", "6D", "7D"]]
    wrong = score_round([PlayerHand(melded=broken, hand="7S", went_out=True), PlayerHand(hand=TWO_TIERS)],
                        "indian13", wild_rank="7")
    assert wrong.winner is None and "QS QD 2C" in wrong.explanation
    # a loser is counted as it shows its groups, not as it could have
    poor = score_round([PlayerHand(hand=DECLARATION, went_out=True),
                        PlayerHand(hand=TWO_TIERS.replace("3S 4S 5S ", ""),
                                   melded=[["3S", "4S", "5S"]])],
                       "indian13", wild_rank="7")
    # 3-4-5S pure sequence but no second sequence shown: everything else counts
    assert poor.players[1].count == 9 + 10 + 10 + 10 + 10 + 10 + 2 + 4 + 6 + 8


def test_indian13_everyone_else_dropped() -> None:
    result = score_round([PlayerHand(dropped="first"), PlayerHand(hand=TWO_TIERS),
                          PlayerHand(dropped="middle")], "indian13", wild_rank="7")
    assert result.winner == 1 and result.points == (-10, 50, -40)


# --- indian21 -----------------------------------------------------------------------

DECLARE21 = "AS 2S 3S 4H 5H 6H 7C 8C 9C TD JD QD KS KH KD 5S 5D 5C 9S 9H 9D"


def test_value_cards_and_marriage() -> None:
    deal = make_deal(PRESETS["indian21"], "2C")
    assert [card_name(c) for c in value_cards(deal)] == ["AC", "2C", "3C"]
    from solver.cards import parse_cards

    assert value_points(parse_cards("AC 2C 3C 2C"), deal) == (110, 1, 1)
    assert value_points(parse_cards("KS"), deal) == (0, 0, 0)


def test_indian21_round_with_value_cards() -> None:
    loser = "AC 2C 3C 4S 6S 8S TS QS 2H 4H 6H 8H TH QH KD 7D 9D JC 5H 6C 7H"
    result = score_round([PlayerHand(hand=DECLARE21, went_out=True), PlayerHand(hand=loser)],
                         "indian21", wild_rank="2C")
    count = solve(loser, "indian21", wild_rank="2C").deadwood_points
    assert result.players[1].count == count  # no cap in indian21
    # value points: winner 0, loser a marriage (100): settled 2 * V - total
    assert result.players[1].value_points == 100
    assert result.points == (count - 100, -count + 100)


def test_indian21_without_a_suit_has_no_value_cards() -> None:
    result = score_round([PlayerHand(hand=DECLARE21, went_out=True), PlayerHand(hand="KC")],
                         "indian21", wild_rank="JK")
    assert "no value cards" in result.explanation
