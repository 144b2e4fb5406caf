"""The basic rummy arena (notes/basic_spec.md, docs/RULES.md preset
``basic``): the Rummy 500 referee and players with basic rummy's ``Variant``
-- 52 cards and no joker, 10 cards each for two players, 7 for three or
four, 6 for five or six, the ace low only, the pile's top card only, an
empty stock refilled by turning the pile over, no pass, the winner
collecting every other hand, doubled for a rummy -- scripted rounds through
each difference, random rounds (a hundred; thousands under ``--run-slow``)
checked against the table and the history they leave, the hint players never
illegal, every move the advisor lists legal for the referee, the report and
the command line."""

from __future__ import annotations

import copy
import functools
import json
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from benchmarks.arena.laydown.hint_players import card_scale, public_table
from benchmarks.arena.laydown.melds import (
    InvalidMeldError,
    hand_points,
    meld_problem,
    read_extension,
    read_meld,
)
from benchmarks.arena.laydown.players import make_player
from benchmarks.arena.laydown.referee import (
    DRAW_STOCK,
    PASS,
    Action,
    Event,
    IllegalActionError,
    Layoff,
    Phase,
    PlayerView,
    Rummy500Round,
    TableMeld,
    play,
    take_discard,
)
from benchmarks.arena.laydown.report import render
from benchmarks.arena.laydown.runner import (
    deck_for,
    run_basic_arena,
    run_rummy500_arena,
    seed_for,
)
from benchmarks.arena.laydown.variants import BASIC, BASIC_POINTS, ROMMY, RUMMY500
from tests.laydown_decks import c, cards, played_out, stacked

FUZZ_ROUNDS = (100, 2000)
"""Random rounds checked, shared over table sizes 2 to 6 (two processes): by
default, and in the slow lane (``--run-slow``).  The default's figures keep
their margin on a hundred (rounds 0 to 400 by hundreds: 69 to 78
went out (more than 50 asked), 22 to 31 hit the turn limit, 84 to 88
turned the pile over (more than 25))."""
FUZZ_TURNS = 150
"""The random rounds' turn limit (random players seldom go out: a round can
turn the pile over again and again)."""
ADVISED_POSITIONS = (20, 40)
"""Positions of the advisor's seat checked at each table size, 2 to 6: by
default (draws, throws, going out and a turned-over stock already), and in
the slow lane."""


def deal(hands: Sequence[str], upcard: str, stock: str = "") -> list[int]:
    """The 52-card deck stacked to deal ``hands`` and ``upcard`` (``stacked``)."""
    return stacked(BASIC.deck, hands, upcard, stock)


def basic(deck: Sequence[int], players: int = 3, **options: Any) -> Rummy500Round:
    return Rummy500Round(deck, players, variant=BASIC, **options)


def apply_all(game: Rummy500Round, *actions: Action) -> None:
    for action in actions:
        game.apply(action)


def draw_and_throw(game: Rummy500Round) -> int:
    """The player to act draws from the stock and throws the card it drew (which it may)."""
    before = Counter(game.hand_of(game.to_act))
    game.apply(DRAW_STOCK)
    drawn = next(iter(Counter(game.hand_of(game.to_act)) - before))
    game.apply(play((), (), drawn))
    return drawn


# -- the variant: cards, points, melds, the deal -----------------------------------------
def test_52_cards_no_joker_ace_1_pips_their_number_tens_10() -> None:
    assert len(BASIC.deck) == 52 and sorted(BASIC.deck) == list(range(52))
    assert [BASIC_POINTS.of(card) for card in cards("AS 2H 5D 9C TS JH QD KC")] == [
        1, 2, 5, 9, 10, 10, 10, 10]
    assert read_meld(cards("AH 2H 3H"), points=BASIC_POINTS, ace_high=False).points == (1, 2, 3)
    assert hand_points(cards("AS KD 7C"), BASIC_POINTS) == 18
    with pytest.raises(ValueError, match="a game without jokers"):
        BASIC_POINTS.of(52)
    with pytest.raises(ValueError, match="must hold 52 cards and no joker"):
        basic(RUMMY500.deck, 2)  # a deck with jokers
    with pytest.raises(ValueError, match="must hold 52 cards and 2 joker"):
        Rummy500Round(BASIC.deck, 2)  # Rummy 500 still wants its jokers


def test_the_ace_is_low_only_q_k_a_is_no_run() -> None:
    problem = meld_problem(cards("QH KH AH"), ace_high=False)
    assert problem is not None and "the ace is low only, A-2-3: no Q-K-A" in problem
    assert meld_problem(cards("KH AH 2H"), ace_high=False) is not None
    assert meld_problem(cards("QH KH AH")) is None  # Rummy 500's ace may be high
    run = read_meld(cards("JH QH KH"), ace_high=False)
    with pytest.raises(InvalidMeldError, match="no Q-K-A"):
        read_extension(run, cards("JH QH KH AH"), ace_high=False)
    low = read_meld(cards("2H 3H 4H"), ace_high=False)
    assert read_extension(low, cards("AH 2H 3H 4H"), BASIC_POINTS, ace_high=False).points == 1
    assert read_meld(cards("AS AH AD"), ace_high=False).kind == "set"  # aces still make sets
    # the referee refuses a Q-K-A meld and an ace laid off above a king
    game = basic(deal(["QH KH AH JH 2C 3D 4S", "QS KS 5D 6D 7C 8C 9S",
                       "2S 3S 4D 5H 6H 9D TC"], "TD", "9H"))
    game.apply(DRAW_STOCK)
    with pytest.raises(IllegalActionError, match="no Q-K-A"):
        game.apply(play([cards("QH KH AH")], (), c("2C")))
    game.apply(play([cards("JH QH KH")], (), c("2C")))
    draw_and_throw(game)
    draw_and_throw(game)
    game.apply(DRAW_STOCK)
    with pytest.raises(IllegalActionError, match="no Q-K-A"):
        game.apply(play((), [Layoff(0, cards("JH QH KH AH"))], c("3D")))
    game.apply(play((), (), c("3D")))


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_ten_cards_for_two_seven_for_three_or_four_six_for_five_or_six(players: int,
                                                                       size: int) -> None:
    deck = deck_for(1, players, BASIC)
    game = basic(deck, players)
    for seat in range(players):
        assert game.hand_of(seat) == tuple(sorted(deck[size * seat:size * seat + size]))
    assert game.upcard == deck[size * players] and game.pile == [game.upcard]
    assert game.stock_size == 52 - size * players - 1
    assert game.to_act == 0 and game.view(0).variant == BASIC


def test_seven_players_and_one_are_refused() -> None:
    for players in (1, 7):
        with pytest.raises(ValueError, match=f"Basic rummy seats 2 to 6 players here, "
                                             f"not {players}"):
            basic(deck_for(0, 0, BASIC), players)
    with pytest.raises(ValueError, match="Basic rummy seats 2 to 6"):
        run_basic_arena(["random"] * 7, 1, progress=False)


def test_the_variants_refuse_impossible_knobs() -> None:
    import dataclasses

    with pytest.raises(ValueError, match="do not fit one deck of 52"):
        dataclasses.replace(BASIC, hand_sizes=((6, 9),))
    with pytest.raises(ValueError, match="joker"):
        dataclasses.replace(BASIC, jokers=2)  # a joker with no points
    with pytest.raises(ValueError, match="top card only"):
        dataclasses.replace(BASIC, pile_penalty=50)
    with pytest.raises(ValueError, match="collect score only"):
        dataclasses.replace(RUMMY500, rummy_doubles=True)


# -- the draw: the top card only, the pile turned over, no pass --------------------------
HANDS = ["6H 7H 9C 4D 5S KS 3C", "2S TD JS AC 4C 5C 9D", "JH 3S 6D 7D 8S QD KD"]
"""Seat 0 (plays first) throws QC, seat 1 2S, seat 2 KD: the pile is 8H QC 2S KD."""


def test_only_the_pile_top_may_be_taken() -> None:
    game = basic(deal(HANDS, "8H", "QC 3H 2D"))
    apply_all(game, DRAW_STOCK, play((), (), c("QC")), DRAW_STOCK, play((), (), c("2S")),
              DRAW_STOCK, play((), (), c("KD")))
    assert game.pile == list(cards("8H QC 2S KD"))
    assert game.legal_draws() == (DRAW_STOCK, take_discard(c("KD")))
    before = (game.hand_of(0), list(game.pile), list(game.events))
    for below in ("8H", "QC", "2S"):
        with pytest.raises(IllegalActionError, match="takes the top card only"):
            game.apply(take_discard(c(below)))
    assert (game.hand_of(0), list(game.pile), list(game.events)) == before
    game.apply(take_discard(c("KD")))
    with pytest.raises(IllegalActionError, match="throws back KD"):
        game.apply(play((), (), c("KD")))
    game.apply(play((), (), c("3C")))
    assert game.events[-2].to_json() == {"player": 0, "action": "take_discard", "card": "KD"}
    assert game.seats[0].pile_takes == 1 and game.seats[0].cards_taken == 1


def test_an_empty_stock_turns_the_pile_over_its_bottom_card_first() -> None:
    game = basic(deck_for(3, 0, BASIC), 2)
    assert game.stock_size == 31
    thrown = [draw_and_throw(game) for _ in range(31)]
    assert game.stock_size == 0 and game.pile == [game.upcard, *thrown]
    old_pile = list(game.pile)
    assert game.legal_draws() == (DRAW_STOCK, take_discard(old_pile[-1]))  # no pass
    with pytest.raises(IllegalActionError, match="has no pass"):
        game.apply(PASS)
    mover = game.to_act
    game.apply(DRAW_STOCK)  # turns the pile over, unshuffled: the upcard comes first
    assert game.hand_of(mover).count(old_pile[0]) == 1
    assert game.pile == [] and game.stock == tuple(old_pile[1:]) and game.stock_size == 31
    assert game.events[-1].to_json() == {"player": mover, "action": "draw_stock"}
    game.apply(play((), (), old_pile[0]))  # drawn from the stock: it may go back at once
    view = game.view(game.to_act)
    assert view.pile == (old_pile[0],) and view.stock_size == 31
    assert public_table(view).turned == list(old_pile[1:])  # every player can tell
    assert public_table(view).pile == [old_pile[0]]
    assert draw_and_throw(game) == old_pile[1]  # then the next card up
    assert draw_and_throw(game) == old_pile[2]
    assert game.result is None


def test_there_is_no_pass_with_cards_in_the_stock_either() -> None:
    game = basic(deck_for(0, 0, BASIC))
    with pytest.raises(IllegalActionError, match="Basic rummy has no pass"):
        game.apply(PASS)
    assert PASS not in game.legal_draws()


def test_a_draw_with_the_stock_and_the_pile_empty_ends_the_round_void() -> None:
    """Never in play (every turn that goes on ends with a throw), but defined: 0 for all."""
    game = basic(deck_for(0, 0, BASIC), 2)
    game.next_stock = len(game.deck)
    game.pile.clear()
    assert game.legal_draws() == (DRAW_STOCK,)
    game.apply(DRAW_STOCK)
    assert game.result is not None and game.result.outcome == "void"
    assert game.result.points == (0, 0)


# -- going out, the collect score, the rummy ---------------------------------------------
OTHERS = ["AS KH QD JC TS 8H 4D", "3C 4C 6D 7D 8D JD QS"]
"""Seats 1 and 2: 53 and 48 points in hand."""


def test_a_rummy_out_without_a_throw_collects_double() -> None:
    game = basic(deal(["5S 6S 7S 8S 9D 9C 9H", *OTHERS], "KC", "9S"))
    game.apply(DRAW_STOCK)
    with pytest.raises(IllegalActionError, match="throws nothing but still holds 8S"):
        game.apply(play([cards("5S 6S 7S"), cards("9D 9C 9H 9S")]))
    game.apply(play([cards("5S 6S 7S 8S"), cards("9D 9C 9H 9S")]))  # no card left: out
    result = game.result
    assert result is not None and result.outcome == "went_out" and result.went_out == 0
    assert result.rummy and game.events[-1].action == "meld"
    assert [s.hand_points for s in result.seats] == [0, 53, 48]
    assert result.points == (2 * (53 + 48), -2 * 53, -2 * 48)
    assert result.seats[0].laid_points == 5 + 6 + 7 + 8 + 36  # shown, not scored
    with pytest.raises(IllegalActionError, match="over"):  # nobody plays on
        game.apply(DRAW_STOCK)


def test_a_rummy_out_by_the_throw_collects_double() -> None:
    game = basic(deal(["5S 6S 7S 2C 9D 9C 9H", *OTHERS], "KC", "9S"))
    game.apply(DRAW_STOCK)
    game.apply(play([cards("5S 6S 7S"), cards("9D 9C 9H 9S")], (), c("2C")))
    result = game.result
    assert result is not None and result.went_out == 0 and result.rummy
    assert game.pile[-1] == c("2C") and game.events[-1].to_json() == {
        "player": 0, "action": "discard", "card": "2C"}
    assert result.points == (202, -106, -96)


@pytest.mark.parametrize(("second_turn", "rummy"), [("throw", True), ("lay_off", False),
                                                    ("meld", False)])
def test_a_rummy_is_out_with_no_card_laid_in_an_earlier_turn(second_turn: str,
                                                              rummy: bool) -> None:
    """Seat 1 lays 5C 6C 7C in its first turn.  In its second, seat 0 draws 8C
    and keeps it (or lays it off onto seat 1's run, or lays TD JD QD down); in
    its third it draws 9H and goes out: a rummy only when it laid nothing
    before, 8C laid off then with the rest.  Seats 1 and 2 hold 14 and 27."""
    game = basic(deal(["9D 9C 2D KS TD JD QD", "5C 6C 7C AS 3S 8H 2H", "AC AD 3C 4S 5S 6D 7D"],
                      "QH", "QC KC JH 8C TH TC 9H"))
    draw_and_throw(game)
    apply_all(game, DRAW_STOCK, play([cards("5C 6C 7C")], (), c("KC")))
    draw_and_throw(game)
    game.apply(DRAW_STOCK)  # 8C
    run = Layoff(0, cards("5C 6C 7C 8C"))
    game.apply({"throw": play((), (), c("KS")), "lay_off": play((), [run], c("KS")),
                "meld": play([cards("TD JD QD")], (), c("KS"))}[second_turn])
    draw_and_throw(game)
    draw_and_throw(game)
    game.apply(DRAW_STOCK)  # 9H
    last = {"throw": play([cards("9D 9C 9H"), cards("TD JD QD")], [run], c("2D")),
            "lay_off": play([cards("9D 9C 9H"), cards("TD JD QD")], (), c("2D")),
            "meld": play([cards("9D 9C 9H")], [run], c("2D"))}[second_turn]
    game.apply(last)
    result = game.result
    assert result is not None and result.went_out == 0 and result.rummy == rummy
    times = 2 if rummy else 1
    assert result.points == (times * 41, -times * 14, -times * 27)


def test_a_round_stopped_at_the_turn_limit_scores_nothing() -> None:
    game = basic(deck_for(0, 1, BASIC), 2, max_turns=4)
    for _ in range(4):
        draw_and_throw(game)
    result = game.result
    assert result is not None and result.outcome == "turn_limit" and result.went_out is None
    assert result.points == (0, 0) and not result.rummy
    assert result.seats[0].hand_points == hand_points(game.hand_of(0), BASIC_POINTS) > 0


def test_layoffs_onto_anyones_meld_and_the_history_json() -> None:
    deck = deal(["5D 6D 7D KS KH 2C 3C", "8D 9D 4S AH 5C 7C JS", "QD QS QH 2S 3S TH TC"],
                "9H", "JD 4D 4H")
    game = basic(deck)
    apply_all(game, DRAW_STOCK, play([cards("5D 6D 7D")], (), c("JD")))
    game.apply(DRAW_STOCK)  # 4D
    game.apply(play((), [Layoff(0, cards("4D 5D 6D 7D 8D 9D"))], c("JS")))
    game.apply(DRAW_STOCK)  # 4H
    game.apply(play([cards("QD QS QH")], (), c("4H")))
    assert [e.to_json() for e in game.events[2:6]] == [
        {"player": 0, "action": "discard", "card": "JD"},
        {"player": 1, "action": "draw_stock"},
        {"player": 1, "action": "lay_off", "target": 0,
         "melds": [["4D", "5D", "6D", "7D", "8D", "9D"]]},
        {"player": 1, "action": "discard", "card": "JS"}]
    assert [s.laid_points for s in game.seats] == [18, 21, 30]
    assert game.view(0).table[0].owners == (1, 0, 0, 0, 1, 1)


# -- random rounds, checked against the table and the history ----------------------------
def _replayed(game: Rummy500Round) -> tuple[list[int], list[int], list[bool]]:
    """The pile and the turned-over stock replayed from the history alone (every
    take the pile's top, an empty stock refilled from the pile, unshuffled), and
    whether the round's last turn was a rummy."""
    dealt = 52 - game.players * BASIC.hand_size(game.players) - 1
    pile: list[int] = [game.upcard]
    turned: list[int] = []
    laid_before = [False] * game.players
    laid_now = [False] * game.players
    for event in game.events:
        assert event.action != "pass"
        if event.action in ("draw_stock", "take_discard"):
            for seat in range(game.players):
                laid_before[seat] = laid_before[seat] or laid_now[seat]
                laid_now[seat] = False
        if event.action == "draw_stock":
            if dealt:
                dealt -= 1
            else:
                if not turned:
                    turned, pile = pile, []
                turned.pop(0)
        elif event.action == "take_discard":
            assert pile and event.card == pile[-1], "a take below the pile top"
            pile.pop()
        elif event.action == "discard":
            assert event.card is not None
            pile.append(event.card)
        else:
            laid_now[event.seat] = True
    rummy = [not before for before in laid_before]
    return pile, turned, rummy


def _check_round(game: Rummy500Round) -> None:
    result = game.result
    assert result is not None
    table_cards = [card for meld in game.table_melds() for card in meld.cards]
    everything = [*table_cards, *game.pile, *game.stock,
                  *(card for s in range(game.players) for card in game.hand_of(s))]
    assert sorted(everything) == list(range(52))
    laid = [0] * game.players
    for meld in game.table_melds():
        reading = read_meld(meld.cards, "run" if meld.kind == "run" else "set", BASIC_POINTS,
                            ace_high=False)
        for owner, points in zip(meld.owners, reading.points, strict=True):
            laid[owner] += points
    pile, turned, rummy = _replayed(game)
    assert pile == game.pile and turned == game.turned
    view = game.view(0)
    assert public_table(view).pile == pile and public_table(view).turned == turned
    in_hand = [hand_points(game.hand_of(seat), BASIC_POINTS) for seat in range(game.players)]
    winner = result.went_out
    assert result.rummy == (winner is not None and rummy[winner])
    times = 2 if result.rummy else 1
    for seat, record in enumerate(result.seats):
        assert record.laid_points == laid[seat] and record.hand_points == in_hand[seat]
        assert record.pile_penalties == record.penalty_points == 0
        assert record.went_out == (winner == seat) == (result.outcome == "went_out"
                                                       and not game.hand_of(seat))
        if winner is None:
            assert record.points == 0
        elif seat == winner:
            assert record.points == times * sum(in_hand)
        else:
            assert record.points == -times * in_hand[seat]
    assert sum(result.points) == 0
    assert result.outcome in ("went_out", "turn_limit")


def _fuzz(start: int, stop: int) -> tuple[Counter[str], int, list[str]]:
    """Random rounds ``start`` to ``stop`` (table sizes 2 to 6 in turn, a
    150-turn stop): their outcomes, how many turned the pile over, and what
    went wrong."""
    outcomes: Counter[str] = Counter()
    turned_over = 0
    problems: list[str] = []
    for index in range(start, stop):
        players = 2 + index % 5
        game = basic(deck_for(17, index, BASIC), players, max_turns=FUZZ_TURNS)
        bots = [make_player("random") for _ in range(players)]
        for seat, bot in enumerate(bots):
            bot.start_deal(seat, seed_for(17, index, 0, seat, BASIC))
        try:
            while not game.over:
                game.apply(bots[game.to_act].act(game.view(game.to_act)))
            _check_round(game)
        except (IllegalActionError, AssertionError) as error:
            problems.append(f"round {index} ({players} players): {type(error).__name__} {error}")
            continue
        assert game.result is not None
        outcomes[game.result.outcome] += 1
        turned_over += game.next_stock == len(game.deck)
    return outcomes, turned_over, problems


@pytest.mark.parametrize("rounds", [FUZZ_ROUNDS[0], pytest.param(FUZZ_ROUNDS[1], marks=pytest.mark.slow)])
def test_random_rounds_are_legal_and_scored_as_the_table_shows(rounds: int) -> None:
    half = rounds // 2
    with ProcessPoolExecutor(max_workers=2) as pool:
        parts = list(pool.map(_fuzz, (0, half), (half, rounds)))
    problems = [problem for _, _, found in parts for problem in found]
    assert not problems, problems[:5]
    outcomes = sum((found for found, _, _ in parts), Counter())
    assert sum(outcomes.values()) == rounds
    assert outcomes["went_out"] > rounds // 2 and outcomes["turn_limit"] > 0
    assert sum(turned for _, turned, _ in parts) > rounds // 4  # the pile turned over


@pytest.mark.parametrize("deals", [range(2), pytest.param(range(2, 6), marks=pytest.mark.slow)],
                         ids=["2", "4-more"])
def test_greedy_careful_and_random_play_legal_rounds_at_every_table_size(deals: range) -> None:
    """Two deals a table size by default, four more in the slow lane."""
    for lineup in (("greedy", "careful"), ("careful", "random", "greedy"),
                   ("greedy", "careful", "careful", "random"),
                   ("careful", "greedy", "random", "greedy", "careful"),
                   ("greedy", "careful", "random", "careful", "greedy", "random")):
        for deal_index in deals:
            game = basic(deck_for(9, deal_index, BASIC), len(lineup))
            _check_round(played_out(game, lineup,
                                    functools.partial(seed_for, 9, deal_index, 0, variant=BASIC)))


def test_the_arena_sums_up_rummies_and_the_report_shows_them() -> None:
    results = run_basic_arena(["greedy", "careful", "random"], 3, seed=5, progress=False)
    assert results["violations"] == [] and results["illegal_actions"] == 0
    assert results["game"] == "basic" and results["rounds"] == 9
    assert results["rummies"] == sum(p["rummies"] for p in results["players"].values())
    for player in results["players"].values():
        assert player["rummy_rate"] == player["rummies"] / player["rounds"]
        assert player["rummy_rate"] <= player["going_out_rate"]
    text = render(results)
    assert text.startswith("### Basic rummy arena: greedy, careful, random (3 players, seed 5)")
    assert "| going out | rummy rate | pile takes |" in text and "won by a rummy" in text
    assert "pile penalties" not in text
    other = render(run_rummy500_arena(["random", "greedy"], 1, progress=False))
    assert "rummy rate" not in other and "won by a rummy" not in other


# -- the players' care -------------------------------------------------------------------
def test_careful_counts_a_card_taken_by_the_games_points() -> None:
    assert card_scale(RUMMY500) == 1.0  # Rummy 500's careful unchanged
    assert card_scale(ROMMY) == 5 / 8 and card_scale(BASIC) == 7 / 8


def _view(hand: str, events: Sequence[Event], pile: str, table: Sequence[str] = ()) -> PlayerView:
    """Seat 0's play phase at a table of three (upcard 2H), after ``events``."""
    melds = tuple(TableMeld(cards(meld), (0,) * len(cards(meld)), "run") for meld in table)
    return PlayerView(0, 3, 2, Phase.PLAY, tuple(sorted(cards(hand))), c("2H"), cards(pile),
                      melds, 20, tuple(events), None, None, 3, 300, (), BASIC)


def test_careful_holds_its_melds_for_a_rummy_when_one_card_from_out() -> None:
    """Nothing laid yet: laying both melds would leave KH and 2C, so it holds
    them and throws KH (a 4S, 8S or 9S drawn next turn, and it goes out with
    a rummy).  Once it laid a card in the round, it lays what it can."""
    hand = "5S 6S 7S 9D 9C 9H KH 2C"
    nothing_laid = [Event(0, "draw_stock"), Event(0, "discard", c("QC")),
                    Event(1, "draw_stock"), Event(1, "discard", c("JC")),
                    Event(2, "draw_stock"), Event(2, "discard", c("TC")), Event(0, "draw_stock")]
    careful = make_player("careful")
    careful.start_deal(0, 1)
    assert careful.act(_view(hand, nothing_laid, "2H QC JC TC")) == play((), (), c("KH"))
    laid = [Event(0, "draw_stock"), Event(0, "meld", melds=(cards("2D 3D 4D"),)),
            Event(0, "discard", c("QC")), *nothing_laid[2:]]
    action = careful.act(_view(hand, laid, "2H QC JC TC", ["2D 3D 4D"]))
    assert sorted(sorted(meld) for meld in action.melds) == [
        sorted(cards("5S 6S 7S")), sorted(cards("9D 9C 9H"))]
    assert action.card == c("KH") and not action.layoffs


# -- the report and the command line -----------------------------------------------------
def test_the_command_line_seats_two_to_six_and_runs(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.__main__ import build_parser, main
    from benchmarks.arena.core.cli import basic_lineup

    parser = build_parser()
    args = ["--arena", "--game", "basic"]
    assert basic_lineup(parser.parse_args(args)) == ["advisor", "greedy", "greedy"]
    assert basic_lineup(parser.parse_args([*args, "--players", "6", "--a", "careful"])) == [
        "careful", "greedy", "greedy", "greedy", "greedy", "greedy"]
    assert basic_lineup(parser.parse_args([*args, "--players", "2"])) == ["advisor", "greedy"]
    for players in ("1", "7"):
        with pytest.raises(ValueError, match="--players must be 2 to 6"):
            basic_lineup(parser.parse_args([*args, "--players", players]))
    with pytest.raises(ValueError, match="Basic rummy tables seat 2 to 6 players"):
        basic_lineup(parser.parse_args([*args, "--lineup", ",".join(["random"] * 7)]))
    with pytest.raises(ValueError, match="unknown Basic rummy player"):
        basic_lineup(parser.parse_args([*args, "--a", "distance"]))
    out = tmp_path / "basic.json"
    code = main([*args, "--lineup", "greedy,careful,random", "--deals", "1", "--seed", "4",
                 "--json", str(out)])
    assert code == 0
    text = capsys.readouterr().out
    assert "### Basic rummy arena: greedy, careful, random (3 players, seed 4)" in text
    assert "rummy rate" in text
    data = json.loads(out.read_text())
    assert data["game"] == "basic" and data["illegal_actions"] == 0 and "rummies" in data
    assert "pile_penalty" not in data


# -- the advisor -------------------------------------------------------------------------
@pytest.mark.slow
def test_the_advisor_plays_legal_basic_rounds() -> None:
    results = run_basic_arena(["advisor_novice", "greedy", "careful"], 1, seed=4,
                              progress=False)
    assert results["violations"] == [] and results["illegal_actions"] == 0
    assert results["players"]["advisor_novice"]["decisions"] > 0


@pytest.mark.parametrize("positions", [ADVISED_POSITIONS[0],
                                       pytest.param(ADVISED_POSITIONS[1], marks=pytest.mark.slow)])
def test_every_move_the_advisor_lists_is_legal_for_the_referee(positions: int) -> None:
    """At tables of 2 to 6, ``positions`` positions each of the
    advisor's seat against greedy players: every move it lists (not only the
    one it recommends), applied to a copy of the round, is accepted by the
    referee, which shares no code with the advisor.  The positions cover both
    draws, throws and going out, and stocks turned over from the pile."""
    from benchmarks.arena.laydown.advisor_player import action_of, advice_request
    from solver.play import advise

    listed: Counter[str] = Counter()
    after_turnover = 0
    out = basic(deal(["5S 6S 7S 8S 9D 9C 9H", *OTHERS], "KC", "9S"))  # out with no throw
    out.apply(DRAW_STOCK)
    for value in advise("basic", **advice_request(out.view(0), "novice", 1)).moves:
        copy.deepcopy(out).apply(action_of(value.move))
        listed[value.move.action] += 1
    assert listed["go_out"] > 0
    for players in range(2, 7):
        checked = deal_index = 0
        while checked < positions:
            game = basic(deck_for(31, deal_index, BASIC), players)
            deal_index += 1
            others = make_player("greedy")
            while not game.over and checked < positions:
                view = game.view(game.to_act)
                if game.to_act != 0:
                    game.apply(others.act(view))
                    continue
                advice = advise("basic", **advice_request(view, "novice", checked))
                for value in advice.moves:
                    assert value.move.action != "pass"
                    trial = copy.deepcopy(game)
                    trial.apply(action_of(value.move))  # IllegalActionError fails the test
                    listed[value.move.action] += 1
                game.apply(action_of(advice.recommended.move))
                checked += 1
                after_turnover += game.next_stock == len(game.deck)
    assert set(listed) == {"draw_stock", "take_discard", "discard", "go_out"}, listed
    assert after_turnover > 0
