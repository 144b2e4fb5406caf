"""solver.gin: knock eligibility (every knocking discard), scoring, minimax.

Brute-force references (``tests.play_brute``): knock eligibility of random
11-card hands, a third of them meld-dense (cards from a narrow rank window);
the knocker's minimax choice on small hands (``hand_size`` 5-6), every
arrangement within the knock limit against the defender's best melds and
layoffs found by trying every sub-multiset.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from solver import gin as gin_module
from solver import solve
from solver.cards import InvalidHandError, card_name, make_card, parse_cards
from solver.deadline import Deadline
from solver.gin import GIN_KNOBS, arrangements, gin_deal, gin_score, knock_check, settle
from solver.layoffs import Cost, LayoffSearch, Play, combine
from solver.play import GAMES
from solver.rules import PRESETS, InvalidRulesError
from tests.bruteforce import CHECKED
from tests.play_brute import brute_knock, brute_min_deadwood, brute_minimax, remove_one


def names(cards: tuple[int, ...] | list[int]) -> list[str]:
    return [card_name(c) for c in cards]


# --- knock eligibility -------------------------------------------------------------


def test_tie_case_lists_both_knocking_discards() -> None:
    #  2S 5S 6S | 2C 4C 5C 6C | 3D 4D 5D 6D
    # discard 6S: 3-6D + 4-6C, deadwood 2S 2C 5S = 9; discard 5S: 2S 2C 6S = 10
    report = knock_check("2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D")
    assert report.can_knock and report.min_deadwood == 9
    assert [(card_name(o.discard or 0), o.deadwood_points) for o in report.options] == [
        ("6S", 9), ("5S", 10)]
    assert not report.gin and not report.big_gin
    assert report.knock_limit == 10


def test_ten_card_hand_is_checked_as_is() -> None:
    report = knock_check("AS 2S 3S 7H 7D 7C KD QH 4C 9S")
    assert not report.can_knock and report.min_deadwood == 33 and report.options == ()
    ok = knock_check("AS 2S 3S 7H 7D 7C 8C 9C TC 4H")
    assert ok.can_knock and [o.discard for o in ok.options] == [None]
    assert ok.options[0].deadwood_points == 4


def test_gin_and_big_gin() -> None:
    gin = knock_check("7S 3C 4C 5C 6C 5D 6D 7D 5H 6H 7H")
    assert gin.gin and not gin.big_gin and gin.options[0].gin
    assert card_name(gin.options[0].discard or 0) == "7S"
    big = knock_check("3C 4C 5C 6C 5D 6D 7D 5H 6H 7H 8H")
    assert big.big_gin and sum(len(m.cards) for m in big.big_gin_melds) == 11


def test_oklahoma_upcard_sets_the_limit() -> None:
    hand = "AS 2S 3S 7H 7D 7C 8C 9C TC 4H"
    assert knock_check(hand, upcard="4D").can_knock
    assert not knock_check(hand, upcard="3D").can_knock
    ace = knock_check(hand, upcard="AD")
    assert ace.knock_limit == 0 and not ace.can_knock
    assert knock_check(hand, upcard="AD", rules={"oklahoma_ace_knock": 5}).can_knock
    assert knock_check(hand, upcard="KD").knock_limit == 10


def test_knock_limit_argument_and_null_knob() -> None:
    hand = "AS 2S 3S 7H 7D 7C 8C 9C TC 4H"
    assert not knock_check(hand, knock_limit=3).can_knock
    assert knock_check(hand, rules={"knock_limit": 4}).can_knock
    off = knock_check(hand, rules={"knock_limit": None})
    assert off.knock_limit == 0 and not off.can_knock and "only gin" in off.limit_source


@pytest.mark.parametrize("house", [{"ace_points": 0}, {"card_points": {"hand": {"K": 0}}}])
def test_null_knock_limit_solve_agrees_with_knock_check(house: dict[str, object]) -> None:
    # Three runs and one card worth 0 under the house points: deadwood 0, gin
    # (RULES.md section 5: "Gin: deadwood 0"), the one way to end the hand
    # without a knock limit. solve called it not declarable (every card had
    # to meld) while knock_check knocked it as gin.
    hand = "2S 3S 4S 4H 5H 6H 7D 8D 9D " + ("AC" if "ace_points" in house else "KC")
    rules = {"knock_limit": None, **house}
    check = knock_check(hand, rules=rules)
    assert check.can_knock and check.gin
    solution = solve(hand, "gin", rules=rules)
    assert solution.deadwood_points == 0 and solution.declarable
    assert not solve(hand.replace("9D", "JD"), "gin", rules=rules).declarable


def test_bad_input_names_the_field() -> None:
    with pytest.raises(InvalidHandError) as info:
        knock_check("AS 2S 3S")
    assert info.value.field == "hand" and info.value.code == "wrong_hand_size"
    with pytest.raises(InvalidHandError) as info:
        knock_check("AS 2S 3S 7H 7D 7C 8C 9C TC 4H", upcard="4D", knock_limit=4)
    assert info.value.field == "upcard"
    with pytest.raises(InvalidHandError) as info:
        knock_check("AS 2S 3S 7H 7D 7C 8C 9C TC 4H", upcard="ZZ")
    assert info.value.field == "upcard"
    with pytest.raises(InvalidHandError) as info:
        knock_check("AS 2S 3S 7H 7D 7C 8C 9C TC 4H", knock_limit=-1)
    assert info.value.field == "knock_limit"
    with pytest.raises(InvalidRulesError):
        knock_check("AS 2S 3S 7H 7D 7C 8C 9C TC 4H", rules={"objective": "max_net"})


def _random_eleven(rng: random.Random) -> list[int]:
    if rng.random() < 0.35:
        low = rng.randint(0, 8)
        width = rng.randint(4, 5)
        pool = [make_card(r, s) for r in range(low, low + width) for s in range(4)]
        return rng.sample(pool, 11)
    return rng.sample(range(52), 11)


@pytest.mark.parametrize("hands", [500, pytest.param(20_000, marks=pytest.mark.slow)])
def test_knock_eligibility_matches_brute_force(hands: int) -> None:
    rng = random.Random("gin-knock")
    knocking = gins = 0
    for _ in range(hands):
        cards = _random_eleven(rng)
        report = knock_check(names(cards))
        per_discard, big_gin = brute_knock(cards, 10)
        expected = sorted(((d, v) for d, v in per_discard.items() if v <= 10),
                          key=lambda item: (item[1], item[0] % 13, item[0]))
        got = sorted(((o.discard, o.deadwood_points) for o in report.options),
                     key=lambda item: (item[1], (item[0] or 0) % 13, item[0] or 0))
        assert got == expected, names(cards)
        assert report.min_deadwood == min(per_discard.values()), names(cards)
        assert report.big_gin == big_gin, names(cards)
        assert report.gin == (min(per_discard.values()) == 0)
        for option in report.options:  # the melds shown leave exactly that deadwood
            kept = remove_one(cards, option.discard or 0)
            shown = sorted([*option.deadwood, *(c for m in option.melds for c in m.cards)])
            assert shown == sorted(kept)
        knocking += report.can_knock
        gins += report.gin
    assert knocking > hands // 20 and gins > 0  # the sample really exercises knocks
    CHECKED["gin_knock"] += hands


# --- scoring ---------------------------------------------------------------------


def test_settle_follows_the_rules() -> None:
    deal = gin_deal()
    assert settle(6, 20, False, deal) == ("knock", "knocker", 14)
    assert settle(6, 6, False, deal) == ("undercut", "defender", 25)
    assert settle(6, 4, False, deal) == ("undercut", "defender", 27)
    assert settle(0, 30, False, deal) == ("gin", "knocker", 55)
    assert settle(0, 30, True, deal) == ("big_gin", "knocker", 61)
    no_tie = gin_deal({"undercut_on_tie": False})
    assert settle(6, 6, False, no_tie) == ("knock", "knocker", 0)
    assert settle(6, 4, False, gin_deal({"undercut_bonus": 10})) == ("undercut", "defender", 12)


@pytest.mark.parametrize(("knob", "value"), [("cut_joker", True), ("round_scoring", "collect"),
                                              ("declaration", "go_out")])
def test_a_knob_gin_does_not_play_is_refused_at_its_value(knob: str, value: object) -> None:
    # RULES.md section 4: gin has no wild cards and no cut card; it knocks and
    # scores a knock by its own table (section 5), so these knobs would be ignored.
    with pytest.raises(InvalidRulesError) as info:
        knock_check("2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D", rules={knob: value})
    assert info.value.loc == ("rules", knob) and info.value.code == "invalid_rules"
    plain = knock_check("2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D").to_dict()
    gin_value = getattr(PRESETS["gin"], knob)  # gin's own value plays gin
    assert knock_check("2S 5S 6S 2C 4C 5C 6C 3D 4D 5D 6D", rules={knob: gin_value}).to_dict() == plain


def test_the_advisor_plays_only_knobs_gin_plays() -> None:
    assert set(GAMES["gin"].knobs) <= set(GIN_KNOBS)


def test_printed_jokers_are_a_house_knob_gin_plays() -> None:
    # AS 2S JK | 7H 7D 7C | KD QH 9C 8D: the wild joker stands for 3S, deadwood
    # 10 + 10 + 9 + 8 = 37; not wild, it is a card worth 0 and AS 2S stay: 40.
    hand = "AS 2S JK 7H 7D 7C KD QH 9C 8D"
    house = {"jokers_per_deck": 1, "printed_jokers_wild": True}
    assert knock_check(hand, rules=house).min_deadwood == 37
    assert knock_check(hand, rules={**house, "printed_jokers_wild": False}).min_deadwood == 40


def test_knock_with_layoffs() -> None:
    # knocker: 9s set, 5-8H run, deadwood AS 3D 2C = 6; the defender lays 4H off
    result = gin_score("5H 6H 7H 8H 9S 9D 9C 2C 3D AS", "TH 4H 2S 3S KD KC QS JD 5C 6D")
    assert result.chosen.outcome == "knock" and result.chosen.deadwood_points == 6
    assert [names(lay.cards) for lay in result.chosen.defender.layoffs] == [["4H"]]
    assert result.chosen.defender.deadwood_points == 66
    assert result.chosen.points == 60 and result.chosen.winner == "knocker"


def test_undercut() -> None:
    result = gin_score("5H 6H 7H 8H 9S 9D 9C 2C 3D AS", "AH AD 2D 3H 3C 2H KD KC KS 4S")
    # defender: A-2-3? no: AH 2H 3H run, KD KC KS set; AD 2D 3C 4S = 10 > 6
    assert result.chosen.outcome == "knock"
    tight = gin_score("5H 6H 7H 8H 9S 9D 9C 2C 3D AS", "AH AD 2D 3H 3S 2H KD KC KS 4H")
    # defender melds AH 2H 3H, KD KC KS and lays 4H off: AD 2D 3S = 6 = knocker's 6
    assert tight.chosen.defender.deadwood_points == 6
    assert tight.chosen.outcome == "undercut" and tight.chosen.points == 25
    no_tie = gin_score("5H 6H 7H 8H 9S 9D 9C 2C 3D AS", "AH AD 2D 3H 3S 2H KD KC KS 4H",
                       rules={"undercut_on_tie": False})
    assert no_tie.chosen.outcome == "knock" and no_tie.chosen.points == 0


def test_gin_allows_no_layoffs() -> None:
    result = gin_score("5H 6H 7H 8H 9S 9D 9C 2C 3C 4C", "4H TH 2S 3S KD KC QS JD 5C 6D")
    assert result.chosen.outcome == "gin" and result.chosen.defender.layoffs == ()
    assert result.chosen.points == 25 + result.chosen.defender.deadwood_points
    assert result.chosen.defender.deadwood_points == 4 + 10 + 2 + 3 + 10 + 10 + 10 + 10 + 5 + 6


def test_big_gin_with_eleven_cards() -> None:
    result = gin_score("5H 6H 7H 8H 9S 9D 9C 2C 3C 4C 5C", "4H TH 2S 3S KD KC QS JD 6C 6D")
    assert result.chosen.outcome == "big_gin" and result.chosen.discard is None
    assert result.chosen.points == 31 + result.chosen.defender.deadwood_points


def test_minimax_blocks_a_layoff_with_more_deadwood() -> None:
    #   knocker: 3H 4H 5H 6H | 2C 3C 4C 5C 6C | 4D        defender holds 7H
    # least deadwood keeps 3-6H (deadwood 4) but the defender lays 7H off: 39 - 4 = 35;
    # keeping 6H back (deadwood 6H 4D = 10) blocks it: 46 - 10 = 36.
    result = gin_score("5H 4H 4D 3H 6H 3C 4C 6C 2C 5C", "6D 3S 7S TD 9D 4S 9H 8D 7H TS")
    assert result.baseline.deadwood_points == 4 and result.baseline.knocker_points == 35
    assert result.chosen.deadwood_points == 10 and result.chosen.knocker_points == 36
    assert "6H" in names(result.chosen.deadwood)
    assert result.chosen.defender.layoffs == ()
    assert "beats the least-deadwood arrangement" in result.explanation


def test_minimax_picks_sets_over_runs_to_block() -> None:
    # 4-5-6 of three suits: three runs let the defender lay off 3C 3D 3H; three sets block
    result = gin_score("5H 6H 4H 6D 4C 5D 5C 4D 6C 8D", "2C TH TC 2D 3H 9C 8C 3D 9S 7S")
    assert [m.kind for m in result.chosen.melds] == ["set", "set", "set"]
    assert result.chosen.knocker_points == 28 and result.baseline.knocker_points == 20


def test_an_unproved_defender_reply_does_not_outrank_a_proved_one(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # A defender reply cut short by the deadline keeps every card: against it a
    # knock "scores" the defender's whole hand.  Here every reply against a
    # table of knocker melds runs out of time; the one proved reply is the
    # reply to gin (no layoffs, no table), which must win, not a knock that
    # claims 99 points (the defender's 100 less the knocker's AS) where the
    # defender melds every card (TS-KS, J-K of hearts, J-K of diamonds).
    class OutOfTime(LayoffSearch):
        def best(self, cards: Iterable[int], skip: Iterable[int] = ()) -> tuple[Cost, Play]:
            if not self.table:
                return super().best(cards, skip)
            play = combine(self.deal, (), (), tuple(sorted(cards)), False)
            return play.cost(self.objective), play

    monkeypatch.setattr(gin_module, "LayoffSearch", OutOfTime)
    result = gin_score("AS 2S 3S 7H 7D 7C 8C 9C TC JC", "KS KH KD QS QH QD JS JH JD TS",
                       knock_limit=200)
    assert result.chosen.outcome == "gin" and result.chosen.knocker_points == 25
    assert result.chosen.defender.optimal and not result.optimal


def test_no_work_per_arrangement_past_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    # A house hand with thousands of knocker arrangements within the limit:
    # past the deadline the answer must come at once, without ranking (or
    # holding) every arrangement seen -- sorting 26,000 of them made the
    # service's answer 150 ms late, a 503.  Here the deadline passes after
    # 300 arrangements; ranking work done after it is counted.
    seen = {"choices": 0, "late_keys": 0}
    choice, rank_key = gin_module._choice, gin_module._rank_key

    def counted_choice(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen["choices"] += 1
        return choice(*args, **kwargs)

    def counted_key(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen["late_keys"] += seen["choices"] > 300
        return rank_key(*args, **kwargs)

    monkeypatch.setattr(gin_module, "_choice", counted_choice)
    monkeypatch.setattr(gin_module, "_rank_key", counted_key)
    rules = {"decks": 8, "jokers_per_deck": 4, "printed_jokers_wild": True, "hand_size": 14}
    result = gin_score("JK JK JK JK JK JK 7H 7S 7D 7C 6H 8H 6H 8H AS",
                       "2S 3S 4S 5S 6S 9C TC JC QC KC AD 2D 3D 4D", rules=rules, knock_limit=200,
                       deadline=Deadline(cancel=lambda: seen["choices"] > 300))
    assert not result.optimal and result.considered > 300
    # one key for each choice made before the search saw the deadline, and the baseline's
    assert seen["late_keys"] <= seen["choices"] - 300 + 1, seen


def test_cannot_knock_is_an_error_on_the_knocker() -> None:
    with pytest.raises(InvalidHandError) as info:
        gin_score("AS 2S 3S 7H 7D 7C KD QH 4C 9S", "4H TH 2D 3D KS KC QS JD 5C 6D")
    assert info.value.field == "knocker" and info.value.code == "cannot_knock"


def test_shared_cards_are_rejected() -> None:
    with pytest.raises(InvalidHandError) as info:
        gin_score("5H 6H 7H 8H 9S 9D 9C 2C 3D AS", "AS AD 2D 3H 3S 2H KD KC KS 4H")
    assert info.value.field == "defender" and info.value.code == "too_many_copies"


def test_arrangements_enumerates_every_split_within_the_limit() -> None:
    deal = gin_deal()
    cards = parse_cards("4H 5H 6H 7H 4S 4D")
    found = {tuple(tuple(names(m.cards)) for m in melds) for melds, _ in arrangements(cards, deal, 30)}
    assert (("4H", "5H", "6H", "7H"),) in found
    assert (("4S", "4H", "4D"), ("5H", "6H", "7H")) in found or \
        (("5H", "6H", "7H"), ("4S", "4H", "4D")) in found
    assert () in found  # nothing melded: 4+5+6+7+4+4 = 30


# --- brute force: the knocker's minimax choice -------------------------------------


def _small_deal_cards(rng: random.Random, size: int) -> tuple[list[int], list[int]]:
    """A knocker from a narrow rank window; a defender half made of cards that
    touch the knocker's (same rank, or next rank in the suit) so layoffs occur."""
    low = rng.randint(0, 8)
    pool = [make_card(r, s) for r in range(low, low + 4) for s in range(4)]
    knocker = rng.sample(pool, size)
    touching = sorted({c2 for c in knocker for c2 in
                       [*(make_card(c % 13, s) for s in range(4)),
                        *(c + d for d in (-1, 1) if 0 <= c % 13 + d <= 12)]} - set(knocker))
    defender = rng.sample(touching, min(len(touching), rng.randint(1, size // 2 + 1)))
    others = [c for c in range(52) if c not in knocker and c not in defender]
    defender += rng.sample(others, size - len(defender))
    return knocker, defender


@pytest.mark.parametrize("hands", [150, pytest.param(1000, marks=pytest.mark.slow)])
@pytest.mark.parametrize(("size", "limit"), [(5, 10), (5, 20), (6, 10), (6, 20)])
def test_minimax_matches_brute_force(size: int, limit: int, hands: int) -> None:
    rng = random.Random(f"gin-minimax-{size}")
    rules = {"hand_size": size, "knock_limit": limit}
    deal = gin_deal(rules)
    checked = differs = 0
    tries = 0
    while checked < hands:
        tries += 1
        assert tries < hands * 200
        knocker, defender = _small_deal_cards(rng, size)
        if brute_min_deadwood(knocker) > limit:
            with pytest.raises(InvalidHandError):
                gin_score(names(knocker), names(defender), rules=rules)
            continue
        expected = brute_minimax(knocker, defender, deal, limit)
        assert expected is not None
        result = gin_score(names(knocker), names(defender), rules=rules)
        assert result.chosen.knocker_points == expected, (names(knocker), names(defender))
        assert result.chosen.knocker_points >= result.baseline.knocker_points
        differs += result.chosen.knocker_points > result.baseline.knocker_points
        checked += 1
    assert differs > 0  # the sample holds hands where blocking a layoff pays
    CHECKED["gin_minimax"] += checked
