"""The arena's gin referee: scripted hands through every phase, the scores,
and illegal actions refused (never corrected)."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.arena.gin.cards import DECK_SIZE, parse_card, parse_cards
from benchmarks.arena.gin.game import play_hand
from benchmarks.arena.gin.protocol import (
    DRAW_STOCK,
    FINISH,
    KNOCK,
    PASS,
    TAKE_DISCARD,
    Action,
    ActionKind,
    Phase,
    PlayerView,
    discard,
    layoff,
    meld,
)
from benchmarks.arena.gin.referee import GinHand, IllegalActionError
from benchmarks.arena.gin.rules import ARENA_RULES, MAX_UPCARD_DRAWS, OPENSPIEL_RULES, settle
from solver.play import words
from tests.imports import solver_imports

ARENA = Path(__file__).resolve().parent.parent / "benchmarks" / "arena"


def deal(seat0: str, seat1: str, upcard: str, stock: str = "") -> list[int]:
    """A deck dealing these hands and upcard; the stock starts with
    ``stock`` and goes on with the other cards in id order."""
    top = [*parse_cards(seat0), *parse_cards(seat1), parse_card(upcard), *parse_cards(stock)]
    return top + [c for c in range(DECK_SIZE) if c not in top]


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_cards(text)))


def m(text: str) -> Action:
    return meld(list(parse_cards(text)))


def c(text: str) -> int:
    return parse_card(text)


def play(hand: GinHand, *actions: Action) -> None:
    for action in actions:
        hand.apply(action)


KNOCKER = "2S 3S 4S 7H 7D 7C 8C 9C 3D KD"  # takes TC: knocks with 3D after throwing KD


def knock_with_three(hand: GinHand) -> None:
    play(hand, TAKE_DISCARD, KNOCK, discard(c("KD")), m("2S 3S 4S"), m("7H 7D 7C"), m("8C 9C TC"), FINISH)


def test_the_referee_imports_nothing_of_solver_but_its_words() -> None:
    """Gin's referee side (its players may use the library: they are what is
    measured) and the arena's shared core."""
    paths = [*(ARENA / "gin").glob("*.py"), *(ARENA / "core").glob("*.py")]
    assert len(paths) > 10
    for path in paths:
        assert not solver_imports(path), path


@pytest.mark.parametrize(("source", "found"), [
    ("from solver.play import words", []),
    ("from solver.play.words import DRAW, TAKE_DISCARD", []),
    ("import solver.play.words as words", []),
    ("import solver", ["solver"]),
    ("from solver import solve", ["solver.solve"]),
    ("from solver import play", ["solver.play"]),
    ("from solver.play import advise, words", ["solver.play.advise"]),
    ("import solver.play.words_of_mine", ["solver.play.words_of_mine"]),
    ("def f() -> None:\n    from solver.cards import card_name", ["solver.cards.card_name"]),
    ("import solvers\nfrom api import words", []),
])
def test_the_import_check_lets_the_words_through_and_nothing_else(
        tmp_path: Path, source: str, found: list[str]) -> None:
    path = tmp_path / "module.py"
    path.write_text(source + "\n")
    assert solver_imports(path) == found


def test_the_table_speaks_the_library_s_words() -> None:
    """The gin table's phases and actions are the words' steps, in their order."""
    assert tuple(Phase) == words.GIN_TABLE_PHASES
    assert tuple(ActionKind) == words.GIN_TABLE_ACTIONS


def test_knock_layoffs_and_score() -> None:
    hand = GinHand(deal(KNOCKER, "5S 7S JC QC 4H 4D 4C 6H 9S 2D", "TC"))
    hand.apply(TAKE_DISCARD)
    assert hand.phase == Phase.DISCARD and KNOCK in hand.legal_actions()
    hand.apply(KNOCK)
    assert hand.phase == Phase.KNOCK_DISCARD  # type: ignore[comparison-overlap]  # apply() moved it on
    # throwing KD leaves 3 points, 3D leaves 10: both knock; a meld card does not
    assert {a.card for a in hand.legal_actions()} == {c("KD"), c("3D")}
    hand.apply(discard(c("KD")))
    assert FINISH not in hand.legal_actions()
    play(hand, m("2S 3S 4S"), m("7H 7D 7C"))
    assert FINISH not in hand.legal_actions()  # 8C 9C TC 3D is still 30 points
    play(hand, m("8C 9C TC"), FINISH)
    assert hand.phase == Phase.LAYOFF and hand.to_act == 1
    assert set(hand.legal_actions()) == {FINISH, layoff(c("5S")), layoff(c("7S")), layoff(c("JC"))}
    hand.apply(layoff(c("JC")))
    assert layoff(c("QC")) in hand.legal_actions()  # JC opened the next card up
    play(hand, layoff(c("QC")), layoff(c("5S")), layoff(c("7S")), FINISH)
    assert hand.phase == Phase.DEFENDER_MELD
    play(hand, m("4H 4D 4C"), FINISH)
    result = hand.result
    assert result is not None
    assert (result.outcome, result.knocker, result.winner, result.points) == ("knock", 0, 0, 14)
    assert result.deadwood == (3, 6 + 9 + 2)
    assert result.points_for(0) == 14 and result.points_for(1) == -14


def test_undercut_on_a_tie() -> None:
    defender = "3H 7S JC QC 4H 4D 4C 9H 9S 9D"  # lays off 7S JC QC: 3H left, as the knocker's 3D
    cases = ((ARENA_RULES, "undercut", 1, 25), (OPENSPIEL_RULES, "knock", None, 0))
    for rules, outcome, winner, points in cases:
        hand = GinHand(deal(KNOCKER, defender, "TC"), rules)
        knock_with_three(hand)
        play(hand, layoff(c("7S")), layoff(c("JC")), layoff(c("QC")), FINISH,
             m("4H 4D 4C"), m("9H 9S 9D"), FINISH)
        result = hand.result
        assert result is not None
        assert (result.outcome, result.winner, result.points) == (outcome, winner, points)
        assert result.deadwood == (3, 3)


def test_gin_takes_no_layoffs() -> None:
    hand = GinHand(deal("2S 3S 4S 7H 7D 7C 8C 9C TC KD", "6S 7S JC QC 4H 4D 4C 9H 9S 9D", "5S"))
    play(hand, TAKE_DISCARD, KNOCK, discard(c("KD")), m("2S 3S 4S 5S"), m("7H 7D 7C"), m("8C 9C TC"),
         FINISH)
    assert hand.phase == Phase.DEFENDER_MELD  # straight to the defender's melds
    assert not any(a.kind == ActionKind.LAYOFF for a in hand.legal_actions())
    with pytest.raises(IllegalActionError):
        hand.apply(layoff(c("6S")))
    play(hand, m("4H 4D 4C"), m("9H 9S 9D"), FINISH)
    result = hand.result
    assert result is not None
    assert (result.outcome, result.winner, result.points) == ("gin", 0, 6 + 7 + 10 + 10 + 25)


def test_scores() -> None:
    assert settle(0, 0, ARENA_RULES) == ("gin", 25)  # gin is never undercut
    assert settle(5, 4, ARENA_RULES) == ("undercut", -26)
    assert settle(5, 5, ARENA_RULES) == ("undercut", -25)
    assert settle(5, 5, OPENSPIEL_RULES) == ("knock", 0)
    assert settle(5, 30, ARENA_RULES) == ("knock", 25)


def test_first_upcard_both_pass_then_stock() -> None:
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 6H", "8H TH QH AD 3D 5D 7D 9D JD KD", "2C"))
    assert set(hand.legal_actions()) == {TAKE_DISCARD, PASS} and hand.to_act == 0
    hand.apply(PASS)
    assert set(hand.legal_actions()) == {TAKE_DISCARD, PASS} and hand.to_act == 1
    hand.apply(PASS)
    assert hand.legal_actions() == (DRAW_STOCK,) and hand.to_act == 0
    hand.apply(DRAW_STOCK)
    assert hand.phase == Phase.DISCARD and len(hand.hand_of(0)) == 11 and hand.stock_size == 30
    assert hand.pile == (c("2C"),)


def test_dealer_takes_the_first_upcard() -> None:
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 6H", "8H TH QH AD 3D 5D 7D 9D JD KD", "2C"))
    play(hand, PASS, TAKE_DISCARD)
    assert hand.to_act == 1 and hand.phase == Phase.DISCARD and c("2C") in hand.hand_of(1)
    hand.apply(discard(c("KD")))
    assert hand.to_act == 0 and hand.phase == Phase.DRAW and hand.pile == (c("KD"),)  # type: ignore[comparison-overlap]


def stock_draws_to_the_wall(hand: GinHand) -> None:
    """Both pass the upcard, then each draws from the stock and throws the
    drawn card back out, until the wall."""
    play(hand, PASS, PASS)
    while hand.phase != Phase.WALL:
        if hand.phase == Phase.DRAW or hand.phase == Phase.FIRST_UPCARD:
            hand.apply(DRAW_STOCK)
        drawn = hand.log[-1].received
        assert drawn is not None
        hand.apply(discard(drawn))


def test_wall_pass_ends_unscored() -> None:
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 6H", "8H TH QH AD 3D 5D 7D 9D JD KD", "2C"))
    stock_draws_to_the_wall(hand)
    assert hand.stock_size == 2 and hand.legal_actions() == (PASS,)  # no knock with this hand
    hand.apply(PASS)
    result = hand.result
    assert result is not None and (result.outcome, result.points, result.winner) == ("wall", 0, None)


def test_wall_knock_takes_the_pile_top() -> None:
    # seat 1 holds 9 melded cards + AD: any pile top lets it knock at the wall
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 6H", "8H 8D 8C TS TD TC QS QD QC AD", "2C"))
    stock_draws_to_the_wall(hand)
    assert hand.to_act == 1 and set(hand.legal_actions()) == {PASS, KNOCK}
    top = hand.pile[-1]
    hand.apply(KNOCK)
    assert hand.phase == Phase.KNOCK_DISCARD and top in hand.hand_of(1) and len(hand.hand_of(1)) == 11
    events = hand.view(0).history[-2:]
    assert [(e.seat, e.kind, e.card) for e in events] == [
        (1, ActionKind.TAKE_DISCARD, top), (1, ActionKind.KNOCK, None)]


def test_two_throwbacks_in_a_row_end_the_hand() -> None:
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 6H", "8H TH QH AD 3D 5D 7D 9D JD KD", "2C"))
    play(hand, TAKE_DISCARD, discard(c("2C")))  # legal in OpenSpiel's rules, once
    assert hand.phase == Phase.DRAW
    play(hand, TAKE_DISCARD, discard(c("2C")))
    result = hand.result
    assert result is not None and result.outcome == "repeated_discard" and result.points == 0


def test_fiftieth_pile_draw_ends_the_hand() -> None:
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 6H", "8H TH QH AD 3D 5D 7D 9D JD KD", "2C"))
    play(hand, PASS, PASS, DRAW_STOCK)
    hand.apply(discard(hand.hand_of(0)[0]))
    draws = 0
    while not hand.over:
        hand.apply(TAKE_DISCARD)
        draws += 1
        if hand.over:
            break
        taken = hand.log[-1].received
        hand.apply(discard(next(card for card in hand.hand_of(hand.to_act) if card != taken)))
    result = hand.result
    assert result is not None and result.outcome == "upcard_limit" and draws == MAX_UPCARD_DRAWS


@pytest.mark.parametrize("script", [
    [discard(c("AS"))],  # wrong phase: the first upcard is a take or a pass
    [TAKE_DISCARD, discard(c("AH"))],  # not held
    [TAKE_DISCARD, DRAW_STOCK],  # wrong phase
    [PASS, PASS, TAKE_DISCARD],  # both passed: seat 0 must draw from the stock
    [TAKE_DISCARD, KNOCK, discard(c("8C"))],  # a knock discard must keep the knock
    [TAKE_DISCARD, KNOCK, discard(c("KD")), FINISH],  # 40 points of deadwood left
    [TAKE_DISCARD, KNOCK, discard(c("KD")), m("2S 3S 4S 5S")],  # 5S not held
    [TAKE_DISCARD, KNOCK, discard(c("KD")), m("7H 7D 7C"), m("2S 3S 4S"), m("8C 9C TC"), FINISH,
     layoff(c("6H"))],  # fits no knocker meld
    [TAKE_DISCARD, KNOCK, discard(c("KD")), m("7H 7D 7C"), m("2S 3S 4S"), m("8C 9C TC"), FINISH,
     layoff(c("QC"))],  # only after JC
    ["discard KD"],  # not an Action at all
])
def test_illegal_actions_are_refused(script: list[object]) -> None:
    hand = GinHand(deal(KNOCKER, "5S 7S JC QC 4H 4D 4C 6H 9S 2D", "TC"))
    *before, wrong = script
    for action in before:
        assert isinstance(action, Action)
        hand.apply(action)
    state = (hand.phase, hand.to_act, hand.hand_of(0), hand.hand_of(1), hand.pile, len(hand.log))
    with pytest.raises(IllegalActionError, match="legal:"):
        hand.apply(wrong)  # type: ignore[arg-type]
    assert state == (hand.phase, hand.to_act, hand.hand_of(0), hand.hand_of(1), hand.pile, len(hand.log))


def test_knock_is_refused_above_the_limit() -> None:
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 6H", "8H TH QH AD 3D 5D 7D 9D JD KD", "2C"))
    hand.apply(TAKE_DISCARD)
    assert KNOCK not in hand.legal_actions()
    with pytest.raises(IllegalActionError):
        hand.apply(KNOCK)


def test_nothing_is_played_after_the_end() -> None:
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 6H", "8H TH QH AD 3D 5D 7D 9D JD KD", "2C"))
    play(hand, TAKE_DISCARD, discard(c("2C")), TAKE_DISCARD, discard(c("2C")))
    assert hand.over and hand.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        hand.apply(DRAW_STOCK)


class _Scripted:
    def __init__(self, name: str, answer: object) -> None:
        self.name = name
        self._answer = answer

    def start_hand(self, seat: int, seed: int) -> None:
        pass

    def act(self, view: PlayerView) -> Action:
        if isinstance(self._answer, Exception):
            raise self._answer
        return self._answer  # type: ignore[return-value]


def test_an_illegal_answer_stops_the_hand_against_its_player() -> None:
    deck = deal("AS 3S 5S 7S 9S JS KS 2H 4H 6H", "8H TH QH AD 3D 5D 7D 9D JD KD", "2C")
    record = play_hand(deck, (_Scripted("passer", PASS), _Scripted("cheat", discard(c("AS")))), (1, 2))
    assert record.result is None and record.violation is not None
    assert record.violation.seat == 1 and "cheat" in record.violation.message
    assert "first_upcard" in record.violation.message
    crashed = play_hand(deck, (_Scripted("crash", RuntimeError("boom")), _Scripted("x", PASS)), (1, 2))
    assert crashed.violation is not None and crashed.violation.seat == 0
    assert "boom" in crashed.violation.message
