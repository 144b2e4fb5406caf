"""The public gin state: phases, what the history tells, and states that cannot arise."""

from __future__ import annotations

from typing import Any

import pytest

from solver.cards import parse_card
from solver.errors import InvalidHandError, InvalidStateError
from solver.play.gin.state import GinState

HAND = "AS 2S 3S 7H 7D 7C KD QH 4C 9S"


def state(**given: Any) -> GinState:
    fields: dict[str, Any] = {"me": 0, "dealer": 1, "hand": HAND, "upcard": "5H", "history": []}
    fields.update(given)
    return GinState.parse(**fields)


def card(name: str) -> int:
    return parse_card(name)


def test_the_first_upcard_goes_to_the_non_dealer_then_the_dealer() -> None:
    first = state()
    assert (first.phase, first.to_act, first.stock_count, first.pile_top) == (
        "first_upcard", 0, 31, card("5H"))
    second = state(me=1, history=[{"player": 0, "action": "pass"}])
    assert (second.phase, second.to_act) == ("first_upcard", 1)
    assert second.knowledge.opponent_declined == (card("5H"),)


def test_both_passed_the_non_dealer_draws_from_the_stock() -> None:
    after = state(history=[{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"}])
    assert (after.phase, after.stock_only) == ("draw", True)
    with pytest.raises(InvalidStateError, match="draws from the stock") as error:
        state(hand=HAND + " 5H", history=[{"player": 0, "action": "pass"},
                                          {"player": 1, "action": "pass"},
                                          {"player": 0, "action": "take_discard", "card": "5H"}])
    assert error.value.loc == ("history", 2)


def test_a_turn_replayed() -> None:
    history = [{"player": 0, "action": "pass"},
               {"player": 1, "action": "take_discard", "card": "5H"},
               {"player": 1, "action": "discard", "card": "KC"},
               {"player": 0, "action": "draw_stock"}]
    now = state(hand=HAND + " 8H", history=history)
    assert (now.phase, now.to_act, now.stock_count, now.turns) == ("discard", 0, 30, 1)
    assert now.discard_pile == (card("KC"),)
    assert now.knowledge.opponent_known == frozenset({card("5H")})
    assert now.knowledge.opponent_discarded == (card("KC"),)
    assert now.knowledge.opponent_size == 10
    assert len(now.knowledge.unseen) == 52 - 11 - 1 - 1
    took = state(hand=HAND + " KC", history=[
        *history[:3], {"player": 0, "action": "take_discard", "card": "KC"}])
    assert took.taken_this_turn == card("KC")


def test_the_wall_and_a_knock() -> None:
    knock = {"player": 1, "action": "knock", "card": "QD",
             "melds": [["AD", "2D", "3D"], ["8S", "8C", "8D"], ["4H", "5H", "6H"]],
             "deadwood": ["2H"]}
    history = [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
               {"player": 0, "action": "draw_stock"}, {"player": 0, "action": "discard",
                                                        "card": "KC"},
               {"player": 1, "action": "draw_stock"}, knock]
    after = state(hand=HAND, upcard="JH", history=history)
    assert after.phase == "layoff" and after.knock is not None
    assert after.knock.deadwood == (card("2H"),)
    unshown = {**knock}
    del unshown["deadwood"]
    assert state(hand=HAND, upcard="JH", history=[*history[:-1], unshown]).knock.deadwood is None  # type: ignore[union-attr]


@pytest.mark.parametrize(("given", "code", "loc"), [
    ({"hand": HAND + " AS"}, "card_in_two_places", ("hand", 10)),
    ({"upcard": "AS"}, "card_in_two_places", ("hand", 0)),
    ({"hand": HAND + " 8H"}, "wrong_hand_size", ("hand",)),
    ({"history": [{"player": 1, "action": "pass"}]}, "history_out_of_turn", ("history", 0)),
    ({"history": [{"player": 0, "action": "take_discard", "card": "6H"}]}, "pile_mismatch",
     ("history", 0)),
    ({"history": [{"player": 0, "action": "discard", "card": "KC"}]}, "history_out_of_turn",
     ("history", 0)),
    ({"history": [{"player": 0, "action": "pass"}]}, "not_your_turn", ("history",)),
    ({"discard_pile": ["6H"]}, "pile_mismatch", ("discard_pile",)),
    ({"stock_count": 30}, "stock_mismatch", ("stock_count",)),
    ({"score": {"me": 100, "opponent": 0}}, "match_over", ("score",)),
    ({"me": 2}, "invalid_state", ("me",)),
    ({"history": [{"player": 0, "action": "shuffle"}]}, "invalid_event", ("history", 0, "action")),
    ({"history": "pass"}, "invalid_event", ("history",)),
    ({"colour": "red"}, "invalid_state", ("colour",)),
])
def test_states_that_cannot_arise(given: dict[str, Any], code: str, loc: tuple[Any, ...]) -> None:
    with pytest.raises(InvalidStateError) as error:
        state(**given)
    assert (error.value.code, error.value.loc) == (code, loc), error.value.message


def test_a_knock_must_show_ten_cards_once() -> None:
    history = [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
               {"player": 0, "action": "draw_stock"}, {"player": 0, "action": "discard",
                                                        "card": "KC"},
               {"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "knock", "card": "QD", "melds": [["AD", "2D", "3D"]],
                "deadwood": ["2H"]}]
    with pytest.raises(InvalidStateError) as error:
        state(upcard="JH", history=history)
    assert error.value.code == "invalid_knock"


def test_a_bad_card_names_its_place() -> None:
    with pytest.raises(InvalidHandError) as error:
        state(history=[{"player": 0, "action": "take_discard", "card": "ZZ"}])
    assert error.value.loc == ("history", 0, "card")


def test_a_history_that_throws_back_the_card_taken_is_read_but_never_advised() -> None:
    """docs/RULES.md: the advisor never throws back a card taken from the
    pile the same turn, and reads a history where a player did (OpenSpiel's
    games can hold one; their records are reviewed through this replay)."""
    from solver.play import advise

    history = [{"player": 0, "action": "take_discard", "card": "4S"},
               {"player": 0, "action": "discard", "card": "4S"},
               {"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "5H"},
               {"player": 0, "action": "take_discard", "card": "5H"}]
    advice = advise("gin", hand="AS 2S 3S 7H 7D 7C KD QH 4C 9S 5H", upcard="4S", me=0,
                    dealer=1, history=history, level="novice", time_limit_ms=60_000)
    assert advice.phase == "discard"
    thrown = {m.move.card for m in advice.moves}
    assert parse_card("5H") not in thrown and parse_card("KD") in thrown


KNOCK_HISTORY = [{"player": 0, "action": "pass"}, {"player": 1, "action": "pass"},
                 {"player": 0, "action": "draw_stock"},
                 {"player": 0, "action": "discard", "card": "KC"},
                 {"player": 1, "action": "draw_stock"}]
KNOCK_MELDS = [["AD", "2D", "3D"], ["8S", "8C", "8D"], ["4H", "5H", "6H"]]


@pytest.mark.parametrize(("melds", "deadwood", "code", "loc"), [
    # a "meld" that is none, with the deadwood shown and with gin
    ([["AD", "2D", "3D"], ["8S", "8C", "9D"], ["4H", "5H", "6H"]], ["2H"], "invalid_meld",
     ("history", 5, "melds", 1)),
    ([["AD", "2D", "3D", "8S", "8C", "8D", "4H", "5H", "6H", "2H"]], [], "invalid_meld",
     ("history", 5, "melds", 0)),
    # deadwood over the knock limit: shown (2 + 4 + 5 + 6), or not shown (seven
    # cards cannot be worth 10 or less)
    (KNOCK_MELDS[:2], ["2H", "4H", "5H", "6H"], "cannot_knock", ("history", 5)),
    (KNOCK_MELDS[:1], None, "cannot_knock", ("history", 5)),
])
def test_the_knock_replied_to_is_one_the_rules_allow(melds: list[list[str]],
                                                      deadwood: list[str] | None, code: str,
                                                      loc: tuple[Any, ...]) -> None:
    """A knock showing a meld that is none, or deadwood over the knock limit,
    could not have happened: a 422 at the knock event (it was read as a table
    meld at ``table[0]``, or not read at all after gin)."""
    from solver.play import advise

    knock: dict[str, Any] = {"player": 1, "action": "knock", "card": "QD", "melds": melds}
    if deadwood is not None:
        knock["deadwood"] = deadwood
    request: dict[str, Any] = {"hand": HAND, "upcard": "JH", "me": 0, "dealer": 1,
                               "level": "novice"}
    assert advise("gin", **request, history=[*KNOCK_HISTORY, {
        **knock, "melds": KNOCK_MELDS, "deadwood": ["2H"]}]).phase == "layoff"
    with pytest.raises(InvalidStateError) as error:
        advise("gin", **request, history=[*KNOCK_HISTORY, knock])
    assert (error.value.code, error.value.loc) == (code, loc), error.value.message


def _to_the_wall(hand: str, top: str) -> list[dict[str, Any]]:
    """A history (dealer 1, both pass the upcard AC) where each turn draws from
    the stock and throws the card drawn, until seat 0's throw of ``top``
    leaves 2 cards in the stock: seat 1 (``hand``) is at the wall."""
    held = set(hand.split()) | {"AC", top}
    others = [r + s for s in "SHDC" for r in "A23456789TJQK" if r + s not in held]
    thrown = [*others[:28], top]
    history: list[dict[str, Any]] = [{"player": 0, "action": "pass"},
                                     {"player": 1, "action": "pass"}]
    for turn, card_thrown in enumerate(thrown):
        history += [{"player": turn % 2, "action": "draw_stock"},
                    {"player": turn % 2, "action": "discard", "card": card_thrown}]
    return history


@pytest.mark.parametrize(("hand", "top", "knocks"), [
    # 7 deadwood (3C 4D); with KH, throwing 3C or 4D keeps 14 or 13: only throwing
    # KH back would knock (OpenSpiel allows it), and the card taken may not go back
    ("AS 2S 3S 4S 5H 6H 7H 8H 3C 4D", "KH", None),
    # 22 deadwood (7D 8D 3C 4D): no discard knocks
    ("AS 2S 3S 4H 5H 6H 7D 8D 3C 4D", "KH", None),
    # 2 deadwood (2C); with KH, throwing 2C keeps 10: a knock
    ("AS 2S 3S 4H 5H 6H 7D 8D 9D 2C", "KH", "2C"),
])
def test_a_pile_top_taken_at_the_wall_is_taken_to_knock(hand: str, top: str,
                                                         knocks: str | None) -> None:
    """docs/RULES.md: at the wall a player knocks with the pile top (taking it)
    or passes. A take after which no discard but the card taken knocks is no
    move of the rules: a 422 at the take, not an answer with no move (it was
    an IndexError, a 503 on the REST API)."""
    from solver.play import advise

    history = _to_the_wall(hand, top)
    at_wall = state(me=1, hand=hand, upcard="AC", history=history)
    assert (at_wall.phase, at_wall.stock_count, at_wall.pile_top) == ("wall", 2, card(top))
    taken = [*history, {"player": 1, "action": "take_discard", "card": top}]
    request: dict[str, Any] = {"hand": f"{hand} {top}", "upcard": "AC", "me": 1, "dealer": 1,
                               "history": taken, "level": "novice"}
    if knocks is None:
        with pytest.raises(InvalidStateError) as error:
            advise("gin", **request)
        assert (error.value.code, error.value.loc) == ("cannot_knock", ("history", 60))
        return
    advice = advise("gin", **request)
    assert {m.move.action for m in advice.moves} == {"knock"}
    assert {m.move.card for m in advice.moves} == {card(knocks)}


def test_a_knock_that_hides_its_deadwood_still_holds_the_cards_it_took() -> None:
    """Every card in one place: a knocker that melds 9 cards and does not show
    its deadwood holds 10 cards, so it cannot still hold the 3 it took from
    the pile (AH AC 2S, none melded). It was read as a knocker with 4 points
    of deadwood, "exact"."""
    history = [{"player": 0, "action": "pass"},
               {"player": 1, "action": "take_discard", "card": "AH"},
               {"player": 1, "action": "discard", "card": "KC"},
               {"player": 0, "action": "draw_stock"},
               {"player": 0, "action": "discard", "card": "AC"},
               {"player": 1, "action": "take_discard", "card": "AC"},
               {"player": 1, "action": "discard", "card": "9C"},
               {"player": 0, "action": "draw_stock"},
               {"player": 0, "action": "discard", "card": "2S"},
               {"player": 1, "action": "take_discard", "card": "2S"},
               {"player": 1, "action": "knock", "card": "2C",
                "melds": [["2D", "3D", "4D"], ["8S", "8H", "8D"], ["4H", "5H", "6H"]]}]
    hand = "AD 5D 7H 9H 3S 9S KD QH 4C JS"
    with pytest.raises(InvalidStateError) as error:
        state(hand=hand, upcard="AH", history=history)
    assert (error.value.code, error.value.loc) == ("invalid_knock", ("history", 10))
    # with 6 cards melded, the 3 it took and one unseen card are its deadwood
    six = {**history[-1], "melds": [["2D", "3D", "4D"], ["4H", "5H", "6H"]]}
    assert state(hand=hand, upcard="AH", history=[*history[:-1], six]).phase == "layoff"
