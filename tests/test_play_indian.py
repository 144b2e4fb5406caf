"""The Indian rummy advisor: states that cannot arise refused (422 on the
wire, saying why), every listed move legal for the arena's independent
referee, reproducible for a seed, anytime, reachable through the API, and
the Indian arena's smoke run."""

from __future__ import annotations

import random
import time
import warnings
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from api.shared.examples import REQUESTS
from benchmarks.arena.core.joker_cards import card_name, names
from benchmarks.arena.indian import players as arena_players
from benchmarks.arena.indian.melds import show_problem
from benchmarks.arena.indian.referee import (
    DECK,
    Action,
    IndianDeal,
    Kind,
    PlayerView,
)
from benchmarks.arena.indian.runner import run_indian_arena
from solver import solve
from solver.cards import JOKER, parse_card
from solver.deadline import Deadline
from solver.errors import InvalidStateError
from solver.play import advise
from solver.play.indian.advisor import LEVELS, IndianDecision
from solver.play.indian.state import IndianState
from solver.play.search import Budget
from solver.rules import make_deal, make_rules
from tests.advice_words import deals_in_words

HAND = "AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D"
BASE: dict[str, Any] = {"hand": HAND, "upcard": "8C", "wild_rank": "7H", "players": 2,
                        "me": 1, "dealer": 0}
DECLARE = [body for body in REQUESTS["advise"] if body["game"] == "indian13"][-1]
"""A discard-phase state whose hand holds a valid show (the API example)."""


def _state(**changes: Any) -> dict[str, Any]:
    return {**BASE, **changes}


# -- states that cannot arise ------------------------------------------------------------
BAD_STATES = [
    ("wrong_hand_size", _state(hand="AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C"), ("hand",)),
    ("not_your_turn", _state(me=0), ("history",)),
    ("too_many_copies", _state(hand="AH AH AH 5S 6S JK 9D 9C 9S KD QD 4C 2D"), ("hand",)),
    ("history_out_of_turn", _state(history=[{"player": 0, "action": "draw_stock"}]),
     ("history", 0)),
    ("pile_mismatch", _state(history=[{"player": 1, "action": "take_discard", "card": "9H"}]),
     ("history", 0)),
    ("history_out_of_turn", _state(history=[{"player": 1, "action": "draw_stock"},
                                            {"player": 1, "action": "drop"}]), ("history", 1)),
    ("history_out_of_turn", _state(  # one deck: the card taken itself goes back
        hand="AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D 8C", rules={"decks": 1},
        history=[{"player": 1, "action": "take_discard", "card": "8C"},
                 {"player": 1, "action": "discard", "card": "8C"}]), ("history", 1)),
    ("hand_over", _state(me=0, hand="AS 2S 3S 5D 6D JK 9H 9C 4S KH QH 4D 2C",
                         history=[{"player": 1, "action": "drop"}]), ("history",)),
    ("stock_mismatch", _state(stock_count=70), ("stock_count",)),
    ("pile_mismatch", _state(discard_pile=["9C"]), ("discard_pile",)),
    ("wrong_player_count", _state(players=7), ("players",)),
    ("missing", _state(wild_rank=None), ("wild_rank",)),
    ("field_not_for_game", _state(score={"me": 0, "opponent": 0}), ("score",)),
]


@pytest.mark.parametrize(("code", "state", "loc"), BAD_STATES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(BAD_STATES)])
def test_a_state_that_cannot_arise_is_refused_saying_why(code: str, state: dict[str, Any],
                                                         loc: tuple[object, ...]) -> None:
    with pytest.raises(InvalidStateError) as caught:
        advise("indian13", **state, level="novice")
    assert caught.value.code == code
    assert tuple(caught.value.loc) == loc
    assert str(caught.value)


def test_a_card_taken_later_may_have_been_on_the_pile_twice() -> None:
    """Seat 1 throws 8H twice (two decks); this player then takes the second
    copy: at the second throw the pile held both, the hand neither."""
    history = [{"player": 0, "action": "draw_stock"}, {"player": 0, "action": "discard", "card": "KH"},
               {"player": 1, "action": "draw_stock"}, {"player": 1, "action": "discard", "card": "8H"},
               {"player": 0, "action": "draw_stock"}, {"player": 0, "action": "discard", "card": "9H"},
               {"player": 1, "action": "draw_stock"}, {"player": 1, "action": "discard", "card": "8H"},
               {"player": 0, "action": "take_discard", "card": "8H"}]
    advice = advise("indian13", hand="2S JS KS AH 2H 3H 3H 4H 7H 8H 9D 5C 6C 9C", upcard="JD",
                    wild_rank="AS", me=0, dealer=1, history=history, level="novice")
    assert advice.phase == "discard"
    assert "discard 8H" not in {str(m.move) for m in advice.moves}  # taken this turn


# -- the answer ------------------------------------------------------------------------------
def test_turn_start_offers_drop_take_and_draw_with_the_drop_compared() -> None:
    advice = advise("indian13", **BASE, level="novice", seed=1)
    assert advice.phase == "draw"
    assert sorted(m.move.action for m in advice.moves) == ["draw_stock", "drop", "take_discard"]
    drop = next(m for m in advice.moves if m.move.action == "drop")
    assert drop.exact and drop.expected_points == -10 and drop.win_probability == 0
    assert drop.reasons[0].startswith("dropping now costs 10 (first drop); playing on is "
                                      "expected to")
    assert [m.expected_points for m in advice.moves] == sorted(
        (m.expected_points for m in advice.moves), reverse=True)


def test_a_valid_show_is_offered_and_recommended() -> None:
    state = {k: v for k, v in DECLARE.items() if k != "game"}
    advice = advise("indian13", **state)
    best = advice.recommended.move
    assert best.action == "declare" and best.card == parse_card("2S")
    kept = [parse_card(c) for c in state["hand"].split()]
    kept.remove(best.card)
    wild = frozenset({52, *(s * 13 + 6 for s in range(4))})  # the cut card 7H: sevens wild
    assert show_problem(best.melds, kept, wild) is None
    discards = {m.move.card for m in advice.moves if m.move.action == "discard"}
    assert parse_card("6C") not in discards  # taken from the pile this turn


def test_the_same_seed_gives_the_same_advice() -> None:
    for level in ("novice", "standard"):
        one = advise("indian13", **BASE, level=level, seed=11).to_dict()
        two = advise("indian13", **BASE, level=level, seed=11).to_dict()
        assert one == two


CLOSE_DISCARDS: dict[str, Any] = {
    "hand": "AH 2H 3H 4S 5S 6S 9D 9C 9S KD KC QH QS JC", "upcard": "8C", "wild_rank": "7H",
    "players": 2, "me": 1, "dealer": 0, "history": [{"player": 1, "action": "draw_stock"}]}
"""A discard whose five best throws stay within the noise of each other: the
expert search deals its 240 worlds to each of them."""


@pytest.mark.parametrize("phase", ["draw", "discard"])
def test_the_deadline_is_kept(phase: str) -> None:
    """A deadline a quarter of the expert search's own time stops it, in time,
    with the moves still in the search valued on the same worlds found so far."""
    state = BASE if phase == "draw" else CLOSE_DISCARDS
    advise("indian13", **{**state, "level": "novice"})  # warm
    started = time.monotonic()
    whole = advise("indian13", **{**state, "level": "expert"})
    whole_ms = (time.monotonic() - started) * 1000
    assert whole.complete
    limit_ms = max(5, int(whole_ms / 4))
    started = time.monotonic()
    advice = advise("indian13", **{**state, "level": "expert"}, time_limit_ms=limit_ms)
    assert time.monotonic() - started < limit_ms / 1000 + 0.15
    assert not advice.complete and advice.phase == phase
    # the moves still in the search when the clock stopped it share their worlds; a
    # move the clock stopped before its first deal shows none (a loaded machine)
    most = max(m.samples for m in advice.moves if not m.exact)
    assert advice.moves[0].samples == most
    deals_in_words(advice.moves)


@pytest.mark.parametrize("phase", ["draw", "discard"])
def test_figures_from_a_deal_or_two_are_not_called_ranked(phase: str) -> None:
    """A deadline that leaves a deal or two a move: those figures are marked
    ``rough`` (a few deals only, not enough to rank the move: the API's
    ``confidence``), not ``ranked`` as if the search had compared them."""
    state = BASE if phase == "draw" else CLOSE_DISCARDS
    advice = advise("indian13", **{**state, "level": "expert"}, time_limit_ms=1)
    few = [m for m in advice.moves if not m.exact and m.samples < 3]
    assert few
    assert {m.confidence for m in few} == {"rough"}


@pytest.mark.parametrize("phase", ["draw", "discard"])
def test_a_move_the_clock_stopped_before_any_deal_shows_no_figures(phase: str) -> None:
    """A deadline already past: no move is played out.  Such a move shows 0
    deals and says it was not played out, rather than "+0.0 points on
    average over 1 deals played out" (a placeholder read as a deal), and the
    drop does not quote that placeholder as what playing on is worth."""
    state = BASE if phase == "draw" else CLOSE_DISCARDS
    advice = advise("indian13", **state, level="expert", deadline=Deadline(time.monotonic() - 1))
    estimated = [m for m in advice.moves if not m.exact]
    assert estimated and all(m.samples == 0 and m.confidence == "rough" for m in estimated)
    deals_in_words(advice.moves)
    for value in advice.moves:
        if value.move.action == "drop":
            assert not any("playing on" in r for r in value.reasons)


@pytest.mark.parametrize(("state", "first"), [
    # melds AH-3H, 4S-6S, 9s and a joker: the dearest card outside them goes
    ({"hand": "AH 2H 3H 4S 5S 6S 9D 9C 9S JK KD 8C 5D 2C", "upcard": "QH",
      "history": [{"player": 1, "action": "draw_stock"}]}, ("discard", "KD")),
    # 6D makes 4D-5D-6D: taken; a top that helps no meld is left for the stock
    ({"hand": "AH 2H 3H 4S 5S 6S 9D 9C 9S JK KD 4D 5D", "upcard": "6D"}, ("take_discard", "6D")),
    ({"hand": "AH 2H 3H 4S 5S 6S 9D 9C 9S JK KD 4D 5D", "upcard": "QC"}, ("draw_stock", None)),
])
def test_with_no_time_for_a_deal_the_judgement_orders_the_moves(
        state: dict[str, Any], first: tuple[str, str | None]) -> None:
    """A deadline already past: no move has figures, and the first is the
    one a plain player would make, not the first one listed."""
    advice = advise("indian13", **{**BASE, **state}, level="standard",
                    deadline=Deadline(time.monotonic() - 1))
    move = advice.recommended.move
    assert advice.recommended.samples == 0
    assert (move.action, None if move.card is None else card_name(move.card)) == first


@pytest.mark.parametrize("phase", ["draw", "discard"])
def test_no_move_without_figures_is_put_above_one_with_them(phase: str) -> None:
    """Clocks cut at several points of the search: a move no deal was played
    for (its stand-in 0 is no evidence: an Indian deal's points are paid, so
    0 would beat every real figure) ranks below every move with figures, and
    shows no gap; the drop keeps its exact cost whatever the clock, and is
    not advised when no way of playing on has figures to weigh it against."""
    import re
    state = BASE if phase == "draw" else CLOSE_DISCARDS
    for ms in (-1000, 2, 5, 10, 20, 40, 80):
        advice = advise("indian13", **state, level="standard",
                        deadline=Deadline(time.monotonic() + ms / 1000))
        shown = [m.samples > 0 for m in advice.moves if not m.exact]
        assert shown == sorted(shown, reverse=True), (ms, advice.moves)
        for value in advice.moves:
            # what the clock left undone is named, not the move's figures called unvalued
            assert not any(r.startswith("not valued") for r in value.reasons), value
            if value.samples == 0:
                assert value.gap is None and value.gap_error is None
            if value.move.action == "drop":  # the figure says what the words say
                cost = re.search(r"dropping now costs (\d+)", " ".join(value.reasons))
                assert cost and value.exact and value.expected_points == -int(cost[1])
        played_on = [m for m in advice.moves if m.move.action != "drop" and m.samples > 0]
        if not played_on:
            assert advice.moves[0].move.action != "drop"


def test_indian21_is_advised() -> None:
    advice = advise("indian21", hand="AH 2H 3H 4C 5C 6C 9D 9C 9S 9H JK QD KD 2S 5D 6D 8D TS "
                                     "JS QS KS", upcard="8C", wild_rank="7H", me=1, dealer=0,
                    level="novice")
    assert {m.move.action for m in advice.moves} == {"take_discard", "draw_stock", "drop"}
    # a 21-card hand is dealt a third of the level's worlds (its packings and
    # counts cost five times more)
    assert {m.samples for m in advice.moves if not m.exact} == {3}
    # at 13 cards the level's 48 at most (a move clearly behind stops early, and
    # with one move left the search stops after 32)
    standard = advise("indian13", **BASE)
    assert 32 <= max(m.samples for m in standard.moves if not m.exact) <= 48


def _down_to_the_last_stock_card(hand: str, upcard: str) -> dict[str, Any]:
    """A two-player state (seat 0 to draw) with one card left in the stock:
    both seats drew from the stock and threw, turn by turn, cards of the
    deck that are not in ``hand``, the upcard or the cut card (7H)."""
    held = hand.split()
    free = [card_name(c) for c in range(52) for _ in range(2)] + ["JK", "JK"]
    for card in [*held, upcard, "7H"]:
        free.remove(card)
    stock = 106 - 2 * 13 - 2
    history: list[dict[str, Any]] = []
    for turn in range(stock - 1):
        seat = (1 + turn) % 2
        history += [{"player": seat, "action": "draw_stock"},
                    {"player": seat, "action": "discard", "card": free.pop()}]
    assert history[-1]["player"] == 1  # seat 0 draws next
    return _state(me=0, hand=hand, upcard=upcard, history=history, stock_count=1)


def test_the_last_stock_card_cannot_cost_a_point() -> None:
    """With one card left in the stock, drawing it ends the deal at the throw
    that follows, void (nobody pays), unless the card makes a show: drawing
    can only gain. A hand far from a show (no two cards that meld) gains
    nothing, so the draw is worth 0; the advisor once played the deal on
    after that throw, as if the others still had turns, valued the draw at
    -49.8 and advised taking the pile top (which does leave the last card to
    the next player) instead."""
    state = _down_to_the_last_stock_card("2S 5S 9S QS 3H 6H TH KH 4D 8D JD AC 5C", "8C")
    advice = advise("indian13", **state, level="novice", seed=1)
    draw = next(m for m in advice.moves if m.move.action == "draw_stock")
    take = next(m for m in advice.moves if m.move.action == "take_discard")
    assert draw.expected_points == 0.0 and draw.win_probability == 0.0
    assert advice.recommended.move.action == "draw_stock"
    assert take.expected_points <= 0.0
    assert any("the last stock card" in reason for reason in draw.reasons)


# -- legality, by the independent referee ------------------------------------------------
class CheckedAdvisor:
    """The advisor, every move it lists checked against the referee's legal set."""

    name = "checked"

    def __init__(self) -> None:
        self.seed = 0
        self.checked = 0

    def start_deal(self, seat: int, seed: int) -> None:
        self.seed = seed % 2**31

    def act(self, view: PlayerView) -> Action:
        advice = advise("indian13", hand=names(view.hand), upcard=card_name(view.upcard),
                        history=arena_players.advisor_history(view), me=view.seat,
                        dealer=view.players - 1, players=view.players,
                        wild_rank=card_name(view.cut_card), level="novice", seed=self.seed)
        listed = set()
        for value in advice.moves:
            move = value.move
            if move.action == "declare":
                assert move.card is not None
                kept = list(view.hand)
                kept.remove(move.card)
                wild = frozenset({52} if view.cut_card == 52 else
                                 {52, *(s * 13 + view.cut_card % 13 for s in range(4))})
                assert show_problem(move.melds, kept, wild) is None, move
                assert Action(Kind.DISCARD, move.card) in view.legal
                continue
            kind = Kind(move.action)
            listed.add(Action(kind, move.card if kind == Kind.DISCARD else None))
        assert listed == set(view.legal), (view.phase, listed ^ set(view.legal))
        self.checked += 1
        best = advice.recommended.move
        if best.action == "declare":
            return Action(Kind.DECLARE, best.card, tuple(best.melds))
        kind = Kind(best.action)
        return Action(kind, best.card if kind == Kind.DISCARD else None)


@pytest.mark.parametrize("players", [2, 3])
def test_every_listed_move_is_legal_for_the_independent_referee(players: int) -> None:
    checked = CheckedAdvisor()
    for deal_index in range(2):
        deck = list(DECK)
        random.Random(f"legal/{players}/{deal_index}").shuffle(deck)
        deal = IndianDeal(deck, players)
        others = [arena_players.make_player("distance_nodrop") for _ in range(players - 1)]
        for seat in range(players):
            (checked if seat == 0 else others[seat - 1]).start_deal(seat, deal_index)
        while not deal.over:
            seat = deal.to_act
            player = checked if seat == 0 else others[seat - 1]
            deal.apply(player.act(deal.view(seat)))
        assert deal.wrong_shows == 0
    assert checked.checked >= 4


# -- the API ---------------------------------------------------------------------------------
def test_the_api_answers_the_indian_examples(inline_client: TestClient) -> None:
    for body in REQUESTS["advise"]:
        if not body["game"].startswith("indian"):
            continue
        response = inline_client.post("/v1/advise", json=body)
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["game"] == "indian13" and data["moves"][0] == data["recommended"]
        library = advise(**body).to_dict()
        assert [m["move"] for m in data["moves"]] == [m["move"] for m in library["moves"]]


def test_the_api_refuses_an_impossible_state_with_422(inline_client: TestClient) -> None:
    body = {"game": "indian13", **_state(history=[{"player": 0, "action": "draw_stock"}])}
    response = inline_client.post("/v1/advise", json=body)
    assert response.status_code == 422, response.text
    detail = response.json()["detail"][0]
    assert detail["type"] == "history_out_of_turn"
    assert detail["loc"] == ["body", "history", 0]
    assert "seat 1's turn" in detail["msg"]
    body = {"game": "indian13", **_state(players=9)}
    assert inline_client.post("/v1/advise", json=body).status_code == 422


def test_gin_still_refuses_indian_fields(inline_client: TestClient) -> None:
    body = {"game": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S", "upcard": "4S",
            "wild_rank": "7H"}
    response = inline_client.post("/v1/advise", json=body)
    assert response.status_code == 422
    assert response.json()["detail"][0]["type"] == "field_not_for_game"


# -- the arena ---------------------------------------------------------------------------
def test_the_indian_arena_smoke_run() -> None:
    results = run_indian_arena(["advisor_novice", "greedy", "distance"], 1, seed=3,
                               progress=False)
    assert results["violations"] == [] and results["wrong_declarations"] == 0
    assert results["games"] == 3
    total = sum(p["points_per_deal"]["mean"] for p in results["players"].values())
    assert abs(total) < 1e-9 or results["outcomes"].get("wrong_show")  # zero-sum otherwise
    assert set(results["differences"]) == {"advisor_novice - greedy",
                                           "advisor_novice - distance", "greedy - distance"}


def test_the_ablation_players_play_legal_deals() -> None:
    results = run_indian_arena(["advisor_greedy_draws", "advisor_greedy_discards",
                                "advisor_drop8"], 1, seed=4, progress=False)
    assert results["violations"] == [] and results["wrong_declarations"] == 0
    assert results["games"] == 3


def test_the_referee_counts_agree_with_the_solver() -> None:
    """The referee's own cascade count (no solver code) against ``solve``, on
    hands dealt from a narrow deck (three suits, ace to eight, two copies, two
    jokers) so that most hold melds and the tiers of the count all occur."""
    from benchmarks.arena.indian.melds import least_count, wild_cards
    from solver import solve

    narrow = [s * 13 + r for s in range(3) for r in range(8)] * 2 + [52, 52]
    for index in range(12):
        rng = random.Random(index)
        deck = narrow[:]
        rng.shuffle(deck)
        hand, cut = deck[:13], rng.choice([52, 3, 5, 9, 11])
        wild = wild_cards(None if cut == 52 else cut % 13)
        expected = solve(names(hand), "indian13", wild_rank=card_name(cut)).penalty_points
        assert least_count(hand, wild, 80) == expected, (names(hand), card_name(cut))


def test_the_arena_command_line_seats_the_table() -> None:
    from benchmarks.__main__ import build_parser
    from benchmarks.arena.core.cli import indian_lineup

    parser = build_parser()
    assert indian_lineup(parser.parse_args(["--arena", "--game", "indian13"])) == [
        "advisor", "greedy"]
    assert indian_lineup(parser.parse_args(["--arena", "--game", "indian13", "--players", "4"])) \
        == ["advisor", "greedy", "distance", "greedy"]
    assert indian_lineup(parser.parse_args(["--arena", "--game", "indian13", "--lineup",
                                            "distance,advisor_nodrop"])) == [
        "distance", "advisor_nodrop"]
    with pytest.raises(ValueError, match="unknown Indian player"):
        indian_lineup(parser.parse_args(["--arena", "--game", "indian13", "--a", "marjj_style"]))


# -- the count a draw leaves ---------------------------------------------------------------
NEAR_SHOW_21 = ("2C 2C 2D 2H 2S 3D 3D 3H 3S 4D 4S 7D 7H 7S 8H 9S AD AH JH TS 9H")
"""A 21-card hand (cut card 7H: the sevens are wild) that meets the three
pure sequences (2S-3S-4S, AH-2H-3H, 2D-3D-4D) with only 2C 2C unmelded: count
4.  The packing, which ranks arrangements by their distance to a show, reads
it with a pure sequence still short and estimates 48."""


def _advisor(game: str, hand: str, wild_rank: str, deadline: Deadline) -> IndianDecision:
    deal = make_deal(make_rules(game), wild_rank)
    state = IndianState.parse(game=game, deal=deal, players=2, me=1, dealer=0, hand=hand,
                              upcard="KC", history=None)
    return IndianDecision(state, deal, wild_rank, None, Budget(LEVELS["novice"], deadline), 0)


def test_the_count_after_a_draw_is_the_solvers_not_the_packings_estimate() -> None:
    """What the player's own hand would pay is the exact solver's count (here
    4, where the estimate says 48); past the deadline it is the estimate."""
    advisor = _advisor("indian21", NEAR_SHOW_21, "7H", Deadline.never())
    cards = list(advisor.state.hand)
    packing = advisor.policy.packing(cards)
    assert advisor.hands.count_estimate(cards, packing) > 40
    assert advisor.count(cards, packing) == 4 == solve(NEAR_SHOW_21, "indian21",
                                                       wild_rank="7H").penalty_points
    late = _advisor("indian21", NEAR_SHOW_21, "7H", Deadline.after_ms(0))
    assert late.count(cards, packing) == late.hands.count_estimate(cards, packing)


@pytest.mark.parametrize("game", ["indian13", "indian21"])
def test_the_count_is_the_solvers_on_random_hands(game: str) -> None:
    """On dealt hands (any 13 or 21 cards of the game's deck) ``count`` is
    ``solve()``'s count, capped at the game's cap."""
    rules = make_rules(game)
    deck = list(range(52)) * rules.decks + [JOKER] * rules.decks
    rng = random.Random(5)
    for _ in range(12):
        rng.shuffle(deck)
        hand = deck[:rules.hand_size]
        advisor = _advisor(game, " ".join(card_name(c) for c in hand), "9D", Deadline.never())
        exact = solve(names(hand), game, wild_rank="9D").penalty_points
        cap = rules.points_cap
        assert advisor.count(hand, advisor.policy.packing(hand)) == (
            exact if cap is None else min(exact, cap))


def test_after_a_draw_the_throw_that_keeps_the_least_count_is_weighed_too() -> None:
    """Drawn into ``hand`` (cut card AC: the aces are wild), 9D leaves the
    fast player's throw (the dearest card its packing leaves out, 7C) a
    count of 14 where the solver's cheapest throw keeps 2: the draw is
    valued with both, so a draw is not judged by a throw the player would
    not make."""
    hand = "2H 3C 3S 4C 4S 5H 5S 6C 7C 7H 7S 8S 9S AC AD JD KS QD QS TD TS"
    advisor = _advisor("indian21", hand, "AC", Deadline.never())
    drawn = parse_card("9D")
    full = [*advisor.state.hand, drawn]
    out, packing = advisor.policy.discard(full, drawn, advisor.packing_now)
    cheapest = solve(f"{hand} 9D", "indian21", wild_rank="AC", discard=True)
    assert cheapest.discard != out
    counts = [count for _, count in advisor._throws(full, drawn, out, packing)]
    assert counts == [14, cheapest.penalty_points] == [14, 2]


# -- two decks: another copy of the card taken may go ---------------------------------------
def test_a_copy_of_the_card_taken_may_be_thrown_and_is_offered() -> None:
    """RULES.md section 14: with several decks, a player who takes the pile top
    may throw another copy of the same card that it held; the copy it took
    stays in its hand (docs/RULES.md; draw_hint allows it too)."""
    taken = _state(hand="AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 8C 8C", upcard="8C",
                   history=[{"player": 1, "action": "take_discard", "card": "8C"}])
    advice = advise("indian13", **taken, level="novice")
    assert "8C" in {m.move.to_dict().get("card") for m in advice.moves
                    if m.move.action == "discard"}
    thrown = _state(hand="AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 8C", me=1, upcard="8C",
                    history=[{"player": 1, "action": "take_discard", "card": "8C"},
                             {"player": 1, "action": "discard", "card": "8C"},
                             {"player": 0, "action": "draw_stock"},
                             {"player": 0, "action": "discard", "card": "KC"}])
    assert advise("indian13", **thrown, level="novice").phase == "draw"
    # without the copy in hand, the card taken may not go back
    alone = _state(hand="AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D 8C", upcard="8C",
                   history=[{"player": 1, "action": "take_discard", "card": "8C"}])
    advice = advise("indian13", **alone, level="novice")
    assert "8C" not in {m.move.to_dict().get("card") for m in advice.moves
                        if m.move.action == "discard"}



def test_a_second_copy_taken_and_one_thrown_back_leaves_one_known() -> None:
    """Two decks: seat 1 takes 8C, later takes the other 8C and throws an 8C
    back. It still holds one: the copy known from before goes, the one taken
    stays. (Counting both as still held put three 8C in play -- those two
    and the pile's -- and refused a game that happened: the arena's records
    found it.)"""
    history = [{"player": 1, "action": "take_discard", "card": "8C"},
               {"player": 1, "action": "discard", "card": "2S"},
               {"player": 0, "action": "draw_stock"},
               {"player": 0, "action": "discard", "card": "8C"},
               {"player": 1, "action": "take_discard", "card": "8C"},
               {"player": 1, "action": "discard", "card": "8C"}]
    state = _state(me=0, dealer=0, history=history,
                   hand="AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D")
    advice = advise("indian13", **state, level="novice")
    assert advice.phase == "draw" and advice.recommended.move.action in ("take_discard",
                                                                          "draw_stock", "drop")
    seen = IndianState.parse(game="indian13", deal=make_deal(make_rules("indian13"), "7H"),
                             players=2, me=0, dealer=0, hand=state["hand"], upcard="8C",
                             history=history)
    assert list(seen.seats[1].known).count(parse_card("8C")) == 1

def _to_the_last_card() -> dict[str, Any]:
    """A one-deck indian13 deal for three, played until the stock is empty
    with seat 2 to throw: every turn draws the stock top and throws it."""
    from benchmarks.arena.core.joker_cards import card_name as token

    deck = [c for c in range(52)] + [JOKER]
    import random
    random.Random(5).shuffle(deck)
    hands = [deck[i * 13:(i + 1) * 13] for i in range(3)]
    upcard, stock = deck[39], deck[41:]  # deck[40]: the cut card, under the stock
    history: list[dict[str, Any]] = []
    for turn in range(len(stock)):
        seat = turn % 3
        card = stock[turn]
        history.append({"player": seat, "action": "draw_stock"})
        if turn == len(stock) - 1:
            hands[seat].append(card)
            break
        history.append({"player": seat, "action": "discard", "card": token(card)})
    assert seat == 2
    return {"hand": [token(c) for c in hands[2]], "upcard": token(upcard),
            "wild_rank": token(deck[40]), "players": 3, "me": 2, "dealer": 2,
            "history": history, "rules": {"decks": 1}}


def test_with_the_stock_empty_every_throw_ends_the_deal_void() -> None:
    """The last stock card drawn: any throw but a show ends the deal and
    nobody pays; the figures say so exactly, not as if play went on."""
    state = _to_the_last_card()
    advice = advise("indian13", **state, level="novice")
    assert advice.phase == "discard"
    for value in advice.moves:
        if value.move.action == "discard":
            assert value.expected_points == 0 and value.exact and value.win_probability == 0
            assert any("void" in reason for reason in value.reasons)



def test_a_first_turn_show_is_valued_as_the_round_is_scored() -> None:
    """A show on the player's first turn (hand rummy) doubles what the
    players that have had a turn pay, while one with no turn yet pays half
    (``score_round``, after rule book 003); the advisor's figure halved and
    then doubled the latter, crediting it its whole count."""
    import dataclasses

    from solver.play.indian.advisor import _Opponents
    from solver.play.indian.params import INDIAN_PARAMS
    from solver.round_scoring import PlayerHand, score_round

    declaration = "AH 2H 3H 4C 5C 6C 9D TD JD QD KS KH KD"
    losers = ["2S 4S 6S 8S TS QS 2H 4H 6H 8H TH QH KC", "2D 4D 6D 8D 3C 5C 8C 9C TC JC QC JS JH"]
    counts = [float(p.pays or 0) for p in score_round(  # each loser's count, both having played
        [PlayerHand(hand=declaration, went_out=True), *(PlayerHand(hand=h) for h in losers)],
        "indian13", wild_rank="7").players[1:]]
    assert all(count % 2 == 0 for count in counts)  # halves without rounding
    at_the_deal = score_round([PlayerHand(hand=declaration, went_out=True, rummy=True),
                               PlayerHand(hand=losers[0]),
                               PlayerHand(hand=losers[1], had_turn=False)],
                              "indian13", wild_rank="7")
    whole = dataclasses.replace(INDIAN_PARAMS, count_decay=0.0)  # counts as dealt
    them = _Opponents([(), ()], counts, [1, 0], 0.0, whole)
    assert them.pay_now(first_turn=True) == sum(p.pays or 0 for p in at_the_deal.players[1:])


def test_the_arena_referee_scores_a_first_turn_show_as_score_round() -> None:
    """The independent referee: a show on the winner's first turn doubles
    what a player that has had a turn pays, and one with no turn yet pays
    half (it halved and then doubled that player's count too)."""
    from benchmarks.arena.core.joker_cards import parse_cards

    deck = list(DECK)
    random.Random("first-turn show").shuffle(deck)
    deal = IndianDeal(deck, 3)
    deal.apply(Action(Kind.DRAW_STOCK))  # seat 0 has a turn
    deal.apply(Action(Kind.DISCARD, deal.hand_of(0)[0]))
    show = parse_cards("AH 2H 3H 4C 5C 6C 9D TD JD QD KS KH KD")
    deal.seats[1].hand = list(show)  # seat 1's first turn: a complete hand
    deal.apply(Action(Kind.DRAW_STOCK))
    drawn = deal.hand_of(1)
    thrown = next(card for card in drawn if drawn.count(card) > show.count(card))
    deal.apply(Action(Kind.DECLARE, thrown, (tuple(show[:3]), tuple(show[3:6]),
                                              tuple(show[6:10]), tuple(show[10:]))))
    assert deal.result is not None and deal.result.outcome == "show"
    played, waiting = (deal.count_of(deal.seats[seat].hand) for seat in (0, 2))
    assert deal.result.points == (-2 * played, 2 * played + waiting // 2, -(waiting // 2))
