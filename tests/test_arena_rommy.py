"""The Rommy arena (notes/rommy_spec.md, docs/RULES.md preset ``rommy``):
the Rummy 500 referee and players with Rommy's ``Variant`` -- 2 to 6 players
of 7 cards, Rommy's points, a deeper card taken and left unused charged 50
points instead of refused, a throw ending every turn -- scripted rounds
through each difference, random rounds (a hundred; thousands under
``--run-slow``) checked against the table they leave (pile penalties
recounted from the public history), the hint players never illegal nor
penalised, the report and the command line, and the advisor when
``solver.play`` plays Rommy."""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from benchmarks.arena.core.joker_cards import JOKER
from benchmarks.arena.laydown.hint_players import GreedyHintPlayer, takeable
from benchmarks.arena.laydown.melds import hand_points, read_extension, read_meld
from benchmarks.arena.laydown.players import make_player
from benchmarks.arena.laydown.referee import (
    DECK,
    DRAW_STOCK,
    Action,
    IllegalActionError,
    Phase,
    PlayerView,
    Rummy500Round,
    play,
    take_discard,
)
from benchmarks.arena.laydown.report import render
from benchmarks.arena.laydown.runner import deck_for, run_rommy_arena, seed_for
from benchmarks.arena.laydown.variants import ROMMY, ROMMY_POINTS, RUMMY500, Variant
from tests.imports import solver_imports
from tests.laydown_decks import c, cards, stacked

FOLDER = Path(__file__).resolve().parent.parent / "benchmarks" / "arena" / "laydown"
FUZZ_ROUNDS = (100, 2000)
"""Random rounds checked, shared over table sizes 2 to 6 (two processes): by
default, and in the slow lane (``--run-slow``).  The default's figures keep
their margin on a hundred (rounds 0 to 400 by hundreds charged 149 to
170 penalties, the test asks more than 5)."""


def deal(hands: Sequence[str], upcard: str, stock: str = "") -> list[int]:
    """The deck stacked to deal ``hands`` and ``upcard`` (``stacked``)."""
    return stacked(DECK, hands, upcard, stock)


def rommy(deck: Sequence[int], players: int = 3, **options: Any) -> Rummy500Round:
    return Rummy500Round(deck, players, variant=ROMMY, **options)


def apply_all(game: Rummy500Round, *actions: Action) -> None:
    for action in actions:
        game.apply(action)


# -- the variant: points and the deal ----------------------------------------------------
def test_rommy_points_joker_25_ace_15_even_low_tens_10_the_rest_5() -> None:
    assert [ROMMY_POINTS.of(card) for card in cards("AS 2H 5D 9C TS JH QD KC")] == [
        15, 5, 5, 5, 10, 10, 10, 10]
    assert ROMMY_POINTS.of(JOKER) == 25
    assert read_meld(cards("AH 2H 3H"), points=ROMMY_POINTS).points == (15, 5, 5)  # no 1-point ace
    assert read_meld(cards("AH 2H 3H")).points == (1, 2, 3)  # Rummy 500's, the default
    assert read_meld(cards("QH KH AH"), points=ROMMY_POINTS).total == 35
    assert read_meld(cards("JK 5H 6H"), points=ROMMY_POINTS).points == (25, 5, 5)
    assert read_meld(cards("KS JK KD"), points=ROMMY_POINTS).total == 45
    run = read_meld(cards("2H 3H 4H"), points=ROMMY_POINTS)
    assert read_extension(run, cards("AH 2H 3H 4H"), ROMMY_POINTS).points == 15
    assert read_extension(run, cards("2H 3H 4H JK"), ROMMY_POINTS).points == 25
    assert hand_points(cards("AS KD 7C JK"), ROMMY_POINTS) == 15 + 10 + 5 + 25


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_two_to_six_players_get_seven_cards_each(players: int) -> None:
    deck = deck_for(1, players, ROMMY)
    game = rommy(deck, players)
    for seat in range(players):
        assert game.hand_of(seat) == tuple(sorted(deck[7 * seat:7 * seat + 7]))
    assert game.upcard == deck[7 * players] and game.pile == [game.upcard]
    assert game.stock_size == 54 - 7 * players - 1  # six players: 11 cards
    assert game.to_act == 0 and game.view(0).variant == ROMMY


def test_seven_players_and_one_are_refused() -> None:
    for players in (1, 7):
        with pytest.raises(ValueError, match=f"Rommy seats 2 to 6 players here, not {players}"):
            rommy(deck_for(0, 0, ROMMY), players)
    with pytest.raises(ValueError, match="Rummy 500 seats 2 to 8 players here, not 9"):
        Rummy500Round(deck_for(0, 0), 9)  # Rummy 500 unchanged (two decks from 5 players)
    with pytest.raises(ValueError, match="Rommy seats 2 to 6"):
        run_rommy_arena(["random"] * 7, 1, progress=False)


def test_a_variant_refuses_impossible_numbers() -> None:
    import dataclasses

    with pytest.raises(ValueError, match="do not fit one deck"):
        dataclasses.replace(ROMMY, hand_sizes=((7, 8),))
    with pytest.raises(ValueError, match="at least 1 point"):
        dataclasses.replace(ROMMY, pile_penalty=0)
    with pytest.raises(ValueError, match="at least 1 point"):
        dataclasses.replace(ROMMY_POINTS, joker=0)


# -- the pile penalty --------------------------------------------------------------------
HANDS = ["6H 7H 9C 4D 5S KS 3C", "2S TD JS AC 4C 5C 9D", "JH 3S 6D 7D 8S QD KD"]
"""Seat 0 (plays first) throws QC, seat 1 2S, seat 2 KD: the pile is 8H QC 2S KD."""


def _pile_of_four(variant: Variant, max_turns: int = 4) -> Rummy500Round:
    game = Rummy500Round(deal(HANDS, "8H", "QC 3H 2D"), 3, max_turns=max_turns, variant=variant)
    apply_all(game, DRAW_STOCK, play((), (), c("QC")), DRAW_STOCK, play((), (), c("2S")),
              DRAW_STOCK, play((), (), c("KD")))
    assert game.pile == list(cards("8H QC 2S KD"))
    game.apply(take_discard(c("8H")))
    return game


def test_a_deeper_card_left_unused_costs_50_points_and_the_take_stands() -> None:
    game = _pile_of_four(ROMMY)
    view = game.view(0)
    assert view.must_use == c("8H") and view.phase == Phase.PLAY  # it should be used
    game.apply(play((), (), c("QC")))  # legal in Rommy: 8H kept, unused
    assert game.result is not None and game.result.outcome == "turn_limit"
    seat = game.result.seats[0]
    kept = cards("6H 7H 9C 4D 5S KS 3C 8H 2S KD")
    assert seat.hand == tuple(sorted(kept)) and seat.hand_points == 60
    assert (seat.pile_penalties, seat.penalty_points) == (1, 50)
    assert seat.points == 0 - 60 - 50 == -110
    assert game.result.seats[1].penalty_points == 0
    # Rummy 500 refuses the same play
    game = _pile_of_four(RUMMY500)
    with pytest.raises(IllegalActionError, match="must meld or lay it off"):
        game.apply(play((), (), c("QC")))


def test_a_deeper_card_used_costs_nothing() -> None:
    game = _pile_of_four(ROMMY)
    game.apply(play([cards("6H 7H 8H")], (), c("QC")))  # the former top QC may go
    assert game.result is not None
    seat = game.result.seats[0]
    assert (seat.laid_points, seat.pile_penalties, seat.penalty_points) == (15, 0, 0)
    assert seat.points == 15 - hand_points(seat.hand, ROMMY_POINTS)


def test_one_penalty_per_take_each_charged() -> None:
    game = _pile_of_four(ROMMY, max_turns=7)
    game.apply(play((), (), c("QC")))  # penalty 1; the pile: QC
    apply_all(game, DRAW_STOCK, play((), (), c("TD")), DRAW_STOCK, play((), (), c("JH")))
    game.apply(take_discard(c("QC")))  # QC TD JH: deeper QC, unused again
    game.apply(play((), (), c("KS")))
    assert game.result is not None and game.result.seats[0].pile_penalties == 2
    assert game.result.seats[0].penalty_points == 100


# -- every turn ends with a throw ----------------------------------------------------------
OTHERS = ["AS KH QD JC TS 8H 4D", "3C 4C 6D 7D 8D JD QS"]


def test_a_play_that_leaves_no_card_to_throw_is_illegal_and_closing_throws() -> None:
    game = rommy(deal(["5S 6S 7S 9D 9C 9H JK", *OTHERS], "KC", "9S"))
    game.apply(DRAW_STOCK)
    before = (game.hand_of(0), list(game.pile), game.table_melds(), list(game.events))
    for action in (play([cards("5S 6S 7S JK"), cards("9D 9C 9H 9S")]),  # Rummy 500: out
                   play([cards("5S 6S 7S JK"), cards("9D 9C 9H 9S")], (), c("2C"))):
        with pytest.raises(IllegalActionError, match="leave no card to throw"):
            game.apply(action)
    with pytest.raises(IllegalActionError, match="throws nothing but holds JK"):
        game.apply(play([cards("5S 6S 7S"), cards("9D 9C 9H 9S")]))
    assert (game.hand_of(0), list(game.pile), game.table_melds(), list(game.events)) == before
    game.apply(play([cards("5S 6S 7S"), cards("9D 9C 9H 9S")], (), JOKER))  # closes
    result = game.result
    assert result is not None and result.outcome == "went_out" and result.went_out == 0
    assert game.pile[-1] == JOKER and game.events[-1].to_json() == {
        "player": 0, "action": "discard", "card": "JK"}
    assert result.seats[0].points == 15 + 20 and result.seats[0].went_out
    assert result.seats[1].turns == 0
    assert result.seats[1].points == -hand_points(cards(OTHERS[0]), ROMMY_POINTS) == -65
    with pytest.raises(IllegalActionError, match="over"):  # nobody gets another turn
        game.apply(DRAW_STOCK)


def test_a_play_that_leaves_only_the_top_taken_alone_is_illegal() -> None:
    game = rommy(deal(["5S 6S 7S 8S 9D 9C 9H", *OTHERS], "KC"))
    game.apply(take_discard(c("KC")))
    assert game.view(0).taken_top == c("KC")
    with pytest.raises(IllegalActionError, match="leave only KC, the pile top it took alone"):
        game.apply(play([cards("5S 6S 7S 8S"), cards("9D 9C 9H")], (), c("KC")))
    with pytest.raises(IllegalActionError, match="throws back KC"):
        game.apply(play([cards("5S 6S 7S"), cards("9D 9C 9H")], (), c("KC")))
    game.apply(play([cards("5S 6S 7S"), cards("9D 9C 9H")], (), c("8S")))
    assert game.result is None and game.hand_of(0) == (c("KC"),)


# -- random rounds, checked against the table they leave ---------------------------------
def _penalties_from_history(game: Rummy500Round) -> list[int]:
    """Each seat's pile penalties recounted from the public history alone: a
    take below the top whose card the same turn's melds and layoffs do not hold."""
    pile = [game.upcard]
    table: list[tuple[int, ...]] = []
    counts = [0] * game.players
    owed: tuple[int, int] | None = None  # (seat, card) of a deeper take not yet used

    def settle() -> None:
        nonlocal owed
        if owed is not None:
            counts[owed[0]] += 1
            owed = None

    for event in game.events:
        if event.action in ("draw_stock", "pass"):
            settle()
        elif event.action == "take_discard":
            settle()
            assert event.card is not None
            depth = next(d for d in range(1, len(pile) + 1) if pile[-d] == event.card)
            del pile[len(pile) - depth:]
            owed = (event.seat, event.card) if depth > 1 else None
        elif event.action == "meld":
            table += event.melds
            laid = [card for meld in event.melds for card in meld]
            if owed is not None and owed[1] in laid:
                owed = None
        elif event.action == "lay_off":
            assert event.target is not None
            added = Counter(event.melds[0])
            added.subtract(table[event.target])
            table[event.target] = event.melds[0]
            if owed is not None and added[owed[1]] > 0:
                owed = None
        elif event.action == "discard":
            assert event.card is not None
            pile.append(event.card)
            settle()
    settle()
    return counts


def _check_round(game: Rummy500Round) -> None:
    """The referee's tallies against the table, the hands and the history it ends with."""
    result = game.result
    assert result is not None
    table_cards = [card for meld in game.table_melds() for card in meld.cards]
    everything = [*table_cards, *game.pile, *game.deck[game.next_stock:],
                  *(card for s in range(game.players) for card in game.hand_of(s))]
    assert sorted(everything) == sorted(DECK)
    laid = [0] * game.players
    for meld in game.table_melds():
        reading = read_meld(meld.cards, "run" if meld.kind == "run" else "set", ROMMY_POINTS)
        for owner, points in zip(meld.owners, reading.points, strict=True):
            laid[owner] += points
    penalties = _penalties_from_history(game)
    for seat, record in enumerate(result.seats):
        assert record.laid_points == laid[seat]
        assert record.hand_points == hand_points(game.hand_of(seat), ROMMY_POINTS)
        assert record.pile_penalties == penalties[seat]
        assert record.penalty_points == 50 * record.pile_penalties
        assert record.points == record.laid_points - record.hand_points - record.penalty_points
        closed = result.outcome == "went_out" and not game.hand_of(seat)
        assert record.went_out == (result.went_out == seat) == closed
    if result.outcome == "went_out":  # closed by a throw
        last = game.events[-1]
        assert last.action == "discard" and last.seat == result.went_out


def _fuzz(start: int, stop: int) -> tuple[int, int, list[str]]:
    """Random rounds ``start`` to ``stop`` (table sizes 2 to 6 in turn): the
    rounds played, the penalties charged, and what went wrong."""
    problems: list[str] = []
    charged = 0
    for index in range(start, stop):
        players = 2 + index % 5
        game = rommy(deck_for(17, index, ROMMY), players)
        bots = [make_player("random") for _ in range(players)]
        for seat, bot in enumerate(bots):
            bot.start_deal(seat, seed_for(17, index, 0, seat, ROMMY))
        try:
            while not game.over:
                game.apply(bots[game.to_act].act(game.view(game.to_act)))
            _check_round(game)
        except (IllegalActionError, AssertionError) as error:
            problems.append(f"round {index} ({players} players): {type(error).__name__} {error}")
            continue
        assert game.result is not None
        charged += sum(s.pile_penalties for s in game.result.seats)
    return stop - start, charged, problems


@pytest.mark.parametrize("rounds", [FUZZ_ROUNDS[0], pytest.param(FUZZ_ROUNDS[1], marks=pytest.mark.slow)])
def test_random_rounds_are_legal_and_scored_as_the_table_shows(rounds: int) -> None:
    half = rounds // 2
    with ProcessPoolExecutor(max_workers=2) as pool:
        parts = list(pool.map(_fuzz, (0, half), (half, rounds)))
    problems = [problem for _, _, found in parts for problem in found]
    assert not problems, problems[:5]
    assert sum(played for played, _, _ in parts) == rounds
    assert sum(charged for _, charged, _ in parts) > rounds // 20  # the penalised path is exercised


@pytest.mark.parametrize("deals", [2, pytest.param(4, marks=pytest.mark.slow)])  # slow: more
@pytest.mark.parametrize("lineup", [("greedy", "careful", "random"), ("careful", "greedy"),
                                    ("greedy", "careful", "greedy", "careful", "random", "greedy")])
def test_greedy_and_careful_are_never_illegal_nor_penalised(lineup: tuple[str, ...],
                                                            deals: int) -> None:
    results = run_rommy_arena(list(lineup), deals, seed=3, workers=2, progress=False)
    assert results["violations"] == [] and results["illegal_actions"] == 0
    for name in ("greedy", "careful"):
        player = results["players"][name]
        assert player["pile_penalties"] == 0
        assert player["rounds"] == deals * len(lineup) * lineup.count(name)
    assert results["game"] == "rommy" and results["pile_penalty"] == 50


# -- the hint players' care --------------------------------------------------------------
def _view(hand: str, pile: str, variant: Variant, phase: Phase = Phase.DRAW) -> PlayerView:
    """Seat 0's view with ``hand``, the pile (bottom to top) and an empty table."""
    piled = cards(pile)
    return PlayerView(0, 2, 1, phase, tuple(sorted(cards(hand))), piled[0], piled, (), 20, (),
                      None, None, 10, 300, (), variant)


def test_greedy_does_not_take_a_meld_that_would_leave_nothing_to_throw() -> None:
    """One card in hand, the pile's two top cards meld with it: Rummy 500 goes
    out with them; in Rommy nothing would be left to throw."""
    greedy = GreedyHintPlayer()
    for variant, expected in ((RUMMY500, take_discard(c("6H"))), (ROMMY, DRAW_STOCK)):
        view = _view("5H", "KD 6H 7H", variant)
        hint, _ = greedy.pile_options(view)
        deep = hint.depths[1]
        assert deep.depth == 2 and deep.net is not None and deep.uses
        assert takeable(view, deep) == (variant is RUMMY500)
        assert greedy.draw(view) == expected


def test_greedy_never_takes_a_depth_that_costs_the_penalty() -> None:
    view = _view("2C 3C 9D", "KD 4C QS", ROMMY)
    hint, depths = GreedyHintPlayer().pile_options(view)
    penalised = [d for d in hint.depths if d.penalty]
    assert [d.depth for d in penalised] == [3]  # KD cannot be used: legal, at 50
    assert all(not takeable(view, d) for d in penalised)
    assert all(d.penalty == 0 for d in depths)


def test_greedy_closes_keeping_the_card_whose_throw_costs_least() -> None:
    """Its hints would lay all eight cards (JK 5S 6S 7S ... in Rummy 500: out);
    in Rommy it keeps one and closes with its throw, laying 55 of the 60."""
    game = rommy(deal(["5S 6S 7S 9D 9C 9H JK", "3C 4C 6D 7D 8D JD QS"], "KD", "9S"), 2)
    greedy = make_player("greedy")
    greedy.start_deal(0, 1)
    game.apply(greedy.act(game.view(0)))
    assert game.hand_of(0) == tuple(sorted(cards("5S 6S 7S 9S 9D 9C 9H JK")))
    game.apply(greedy.act(game.view(0)))
    assert game.result is not None and game.result.went_out == 0
    assert game.result.seats[0].laid_points == 55 and game.result.seats[0].points == 55


# -- the report and the command line -----------------------------------------------------
def test_the_report_shows_the_pile_penalties_of_each_player_and_seat() -> None:
    results = run_rommy_arena(["greedy", "random", "random"], 2, seed=2, progress=False)
    text = render(results)
    assert text.startswith("### Rommy arena: greedy, random, random (3 players, seed 2)")
    assert "| pile penalties per round | penalty points per round |" in text
    assert "pile penalties per round (50 points each)" in text
    assert len(results["seat_pile_penalties_per_round"]) == 3
    assert results["players"]["random"]["pile_penalties_per_round"] == pytest.approx(
        sum(p for p in results["seat_pile_penalties_per_round"]) / 2)  # random holds 2 seats


def test_the_command_line_seats_two_to_six_and_runs(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.__main__ import build_parser, main
    from benchmarks.arena.core.cli import rommy_lineup

    parser = build_parser()
    args = ["--arena", "--game", "rommy"]
    assert rommy_lineup(parser.parse_args(args)) == ["advisor", "greedy", "greedy"]
    assert rommy_lineup(parser.parse_args([*args, "--players", "6", "--a", "careful"])) == [
        "careful", "greedy", "greedy", "greedy", "greedy", "greedy"]
    for players in ("1", "7"):
        with pytest.raises(ValueError, match="--players must be 2 to 6"):
            rommy_lineup(parser.parse_args([*args, "--players", players]))
    with pytest.raises(ValueError, match="Rommy tables seat 2 to 6 players"):
        rommy_lineup(parser.parse_args([*args, "--lineup", ",".join(["random"] * 7)]))
    with pytest.raises(ValueError, match="unknown Rommy player"):
        rommy_lineup(parser.parse_args([*args, "--a", "distance"]))
    out = tmp_path / "rommy.json"
    code = main([*args, "--lineup", "greedy,careful,random", "--deals", "1", "--seed", "4",
                 "--json", str(out)])
    assert code == 0
    assert "### Rommy arena: greedy, careful, random (3 players, seed 4)" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert data["game"] == "rommy" and data["illegal_actions"] == 0 and data["pile_penalty"] == 50


def test_the_referee_side_imports_nothing_of_solver_but_its_words() -> None:
    paths = [FOLDER / name for name in ("variants.py", "melds.py", "referee.py", "runner.py",
                                        "report.py", "random_player.py")]
    for path in paths:
        assert not solver_imports(path), path.name


# -- the advisor -------------------------------------------------------------------------
def _advisor_plays_rommy() -> bool:
    from solver.play import GAMES

    return "rommy" in GAMES


needs_advisor = pytest.mark.skipif(not _advisor_plays_rommy(),
                                   reason="solver.play.advise does not play rommy yet "
                                          "(\"rommy\" is not in solver.play.GAMES)")


def test_the_adapter_reads_a_rommy_closing_as_a_discard() -> None:
    from benchmarks.arena.laydown.advisor_player import action_of
    from solver.play.advice import Move

    move = Move("discard", card=JOKER, melds=(cards("5S 6S 7S"), cards("9D 9C 9H 9S")))
    assert action_of(move) == play([cards("5S 6S 7S"), cards("9D 9C 9H 9S")], (), JOKER)


# Arena-scale (three whole rounds, 11 s on a loaded run): the slow lane, as
# basic rummy's; by default every move the advisor lists is checked below
# and test_arena_rummy500 plays the advisor through a Rommy arena round.
@pytest.mark.slow
@needs_advisor
def test_the_advisor_plays_legal_rommy_rounds() -> None:
    results = run_rommy_arena(["advisor_novice", "greedy", "careful"], 1, seed=4, progress=False)
    assert results["violations"] == [] and results["illegal_actions"] == 0
    assert results["players"]["advisor_novice"]["decisions"] > 0


@needs_advisor
@pytest.mark.parametrize("players", [2, 4, 6])
def test_every_move_the_advisor_lists_is_legal_for_the_referee(players: int) -> None:
    """Each listed move (penalised takes too), applied to a copy of the round,
    is accepted by the referee, which shares no code with the advisor."""
    from benchmarks.arena.laydown.advisor_player import action_of, advice_request
    from solver.play import advise

    deck = list(DECK)
    random.Random(f"rommy listed/{players}").shuffle(deck)
    game = rommy(deck, players)
    others = make_player("greedy")
    checked = 0
    for _ in range(300):
        if game.over:
            break
        view = game.view(game.to_act)
        if game.to_act != 0:
            game.apply(others.act(view))
            continue
        advice = advise("rommy", **advice_request(view, "novice", checked))
        assert all(value.move.action != "go_out" for value in advice.moves)
        for value in advice.moves:
            trial = copy.deepcopy(game)
            trial.apply(action_of(value.move))  # IllegalActionError fails the test
        game.apply(action_of(advice.recommended.move))
        checked += 1
    assert checked >= 3
