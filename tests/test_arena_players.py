"""The arena's bots: every registered one plays legal hands, and each keeps
the policy its module describes."""

from __future__ import annotations

import random
from typing import Any

import pytest

from benchmarks.arena.core.entrants import ArenaContext
from benchmarks.arena.gin.cards import DECK_SIZE, mask_of, parse_card, parse_cards
from benchmarks.arena.gin.game import HandRecord, play_hand
from benchmarks.arena.gin.melds import melded_cards, min_deadwood
from benchmarks.arena.gin.openspiel_shadow import OpenSpielShadow, openspiel_available
from benchmarks.arena.gin.players.eaai_simple import EaaiSimplePlayer
from benchmarks.arena.gin.players.greedy_hint import GreedyHintPlayer
from benchmarks.arena.gin.players.marjj import MarjjSettings, MarjjStylePlayer, danger, read_knowledge
from benchmarks.arena.gin.players.random_player import RandomPlayer
from benchmarks.arena.gin.players.registry import ENTRANTS, make_player
from benchmarks.arena.gin.protocol import (
    DRAW_STOCK,
    KNOCK,
    PASS,
    TAKE_DISCARD,
    ActionKind,
    Phase,
    Player,
)
from benchmarks.arena.gin.referee import GinHand
from tests.test_arena_referee import cards, deal


def shuffled(seed: int) -> list[int]:
    deck = list(range(DECK_SIZE))
    random.Random(seed).shuffle(deck)
    return deck


def games(player: Player, opponent: Player, count: int, seed: int) -> list[tuple[int, HandRecord]]:
    """``count`` hands, ``player`` in seat 0 and 1 in turn; (its seat, record)."""
    out = []
    shadow = OpenSpielShadow() if openspiel_available() else None
    for index in range(count):
        seat = index % 2
        players = (player, opponent) if seat == 0 else (opponent, player)
        record = play_hand(shuffled(seed + index), players, (index, index + 1),
                           watchers=[shadow] if shadow is not None else [])
        assert record.violation is None, record.violation
        out.append((seat, record))
    if shadow is not None:
        assert shadow.tally.disagreements == []
    return out


SLOW_PLAYERS = {"advisor_expert"}
"""Seconds a hand: they play in the slow lane (``--run-slow``) only; the
ladder and the panels play the expert at length."""
HANDS = range(6)
DEFAULT_HANDS, MORE_HANDS = range(4), range(4, 12)
"""The hands of the default lane (each seat against each opponent: the
four cases), and eight more a player in the slow lane."""


def _players_and_hands() -> list[Any]:
    cases: list[Any] = []
    for name in sorted(ENTRANTS):
        if name in SLOW_PLAYERS:
            cases.append(pytest.param(name, HANDS, id=f"{name}-6", marks=pytest.mark.slow))
        else:
            cases.append(pytest.param(name, DEFAULT_HANDS, id=name))
            cases.append(pytest.param(name, MORE_HANDS, id=f"{name}-more",
                                      marks=pytest.mark.slow))
    return cases


@pytest.mark.parametrize(("name", "hands"), _players_and_hands())
def test_every_registered_player_plays_legal_hands(name: str, hands: range) -> None:
    if ENTRANTS[name].needs_openspiel and not openspiel_available():
        pytest.skip("needs pyspiel")
    shadow = OpenSpielShadow() if openspiel_available() else None
    player = make_player(name, ArenaContext(shadow))
    assert isinstance(player, Player) and player.name == name
    for index in hands:  # index 0: seat 0 against random; 3: seat 1 against eaai_simple
        opponent = EaaiSimplePlayer() if index % 2 else RandomPlayer()
        players = (player, opponent) if index % 4 < 2 else (opponent, player)
        record = play_hand(shuffled(index), players, (index, index),
                           watchers=[shadow] if shadow is not None else [])
        assert record.violation is None, record.violation


def test_unknown_player_names_the_known_ones() -> None:
    with pytest.raises(KeyError, match="eaai_simple"):
        make_player("nobody", ArenaContext())


def test_no_bot_throws_back_the_card_it_took() -> None:
    for player in (EaaiSimplePlayer(), GreedyHintPlayer(), MarjjStylePlayer()):
        for seat, record in games(player, EaaiSimplePlayer(), 8, seed=40):
            taken = None
            for entry in record.log:
                if entry.seat != seat:
                    continue
                if entry.action.kind == ActionKind.TAKE_DISCARD or (
                        entry.phase == Phase.WALL and entry.action.kind == ActionKind.KNOCK):
                    taken = entry.received
                elif entry.action.kind == ActionKind.DISCARD:
                    assert entry.action.card != taken, player.name
                    taken = None


def test_eaai_takes_the_upcard_only_when_it_melds() -> None:
    seat0, seat1 = "7S 7H 2C 5D 9D JH QS KC 3H 4S", "AS 3S 5S 8S TS AH 6H 8H TH AD"
    melding = GinHand(deal(seat0, seat1, "7D"))
    player = EaaiSimplePlayer()
    player.start_hand(0, 1)
    assert player.act(melding.view(0)) == TAKE_DISCARD
    useless = GinHand(deal(seat0, seat1, "KD"))
    assert player.act(useless.view(0)) == PASS


def test_eaai_knocks_as_soon_as_it_can() -> None:
    for seat, record in games(EaaiSimplePlayer(), RandomPlayer(), 10, seed=60):
        for entry in record.log:
            # every discard it chose left more than 10: otherwise it knocks
            chose = entry.phase == Phase.DISCARD and entry.action.kind == ActionKind.DISCARD
            if entry.seat == seat and chose:
                assert min_deadwood(mask_of(entry.hand_after)) > 10


def test_greedy_knocks_when_the_hints_allow() -> None:
    hand = GinHand(deal("2S 3S 4S 7H 7D 7C 8C 9C 3D KD", "5S 7S JC QC 4H 4D 4C 6H 9S 2D", "TC"))
    player = GreedyHintPlayer()
    player.start_hand(0, 0)
    hand.apply(player.act(hand.view(0)))  # draw_hint takes TC: it makes a run
    assert hand.phase == Phase.DISCARD
    assert player.act(hand.view(0)) == KNOCK


def test_greedy_defender_melds_a_chain_openspiel_will_not_take() -> None:
    # The knocker lays 5H 6H 7H; the defender's 8H 9H TH JH go out whether
    # laid off (two at most per end in OpenSpiel's rule) or melded.
    knocker = "5H 6H 7H 2S 3S 4S KC KD KS AC"
    defender = "8H 9H TH JH 2D 5D 9C QD 4C 6C"
    hand = GinHand(deal(knocker, defender, "QS", stock="QC"))
    players = (GreedyHintPlayer(), GreedyHintPlayer())
    for seat, player in enumerate(players):
        player.start_hand(seat, 0)
    while not hand.over:
        hand.apply(players[hand.to_act].act(hand.view(hand.to_act)))
    result = hand.result
    assert result is not None and result.knocker == 0 and result.outcome != "gin"
    assert not set(parse_cards("8H 9H TH JH")) & set(hand.hand_of(1))


def test_greedy_turns_a_long_layoff_chain_into_a_meld() -> None:
    import solver
    from benchmarks.arena.gin.players.greedy_hint import laid_as_melds
    from solver.layoffs import Layoff

    four, five, six, seven, eight, nine, ten = parse_cards("4H 5H 6H 7H 8H 9H TH")
    extended = solver.Meld("run", (four, five, six, seven, eight, nine, ten),
                           (four, five, six, seven, eight, nine, ten), True, 49)
    # 4H below the meld 5H 6H 7H, then 8H 9H TH above it
    plan = Layoff(0, (four, eight, nine, ten), (four, eight, nine, ten), 1, 31, extended)
    assert laid_as_melds(plan) == ([four], [(eight, nine, ten)])
    short = Layoff(0, (eight, nine), (eight, nine), 0, 17, extended)
    assert laid_as_melds(short) == ([eight, nine], [])


def test_greedy_without_layoffs_never_lays_off() -> None:
    for seat, record in games(GreedyHintPlayer(lay_off=False), EaaiSimplePlayer(), 12, seed=80):
        assert not any(e.seat == seat and e.action.kind == ActionKind.LAYOFF for e in record.log)


def test_marjj_knocks_early_or_for_gin_or_when_pressed() -> None:
    settings = MarjjSettings()
    knocks = 0
    for seat, record in games(MarjjStylePlayer(settings), EaaiSimplePlayer(), 16, seed=100):
        turns = 0
        opponent_took = 0
        for entry in record.log:
            if entry.seat != seat:
                opponent_took += entry.action.kind == ActionKind.TAKE_DISCARD
                continue
            turns += entry.action.kind in (ActionKind.TAKE_DISCARD, ActionKind.DRAW_STOCK)
            if entry.phase == Phase.DISCARD and entry.action.kind == ActionKind.KNOCK:
                knocks += 1
                result = record.result
                assert result is not None
                assert (turns <= settings.early_knock_turns or result.outcome == "gin"
                        or entry.stock_size <= settings.stuck_stock
                        or opponent_took >= settings.threat_pickups), (turns, entry.stock_size)
    assert knocks > 0


def test_marjj_danger_reads_the_opponents_pickups_and_refusals() -> None:
    # seat 1 took 7H from the pile; 7S (same rank) and 8H (suit neighbour) are dangerous
    hand = GinHand(deal("AS 3S 5S 7S 9S JS KS 2H 4H 8H", "8S TH QH AD 3D 5D 7D 9D JD KD", "7H"))
    hand.apply(PASS)
    hand.apply(TAKE_DISCARD)
    hand.apply(next(a for a in hand.legal_actions() if a.card == parse_card("KD")))
    hand.apply(DRAW_STOCK)
    view = hand.view(0)
    knowledge = read_knowledge(view)
    assert knowledge.opponent_took == (parse_card("7H"),)
    assert danger(parse_card("7S"), knowledge) == 1.0
    assert danger(parse_card("8H"), knowledge) == 1.0
    assert danger(parse_card("9H"), knowledge) == 0.5
    assert danger(parse_card("AS"), knowledge) == 0.0
    assert knowledge.unseen & mask_of(parse_cards("7H KD")) == 0  # both are known


def test_marjj_draw_takes_only_cards_that_meld() -> None:
    for seat, record in games(MarjjStylePlayer(), EaaiSimplePlayer(), 10, seed=120):
        for index, entry in enumerate(record.log):
            if entry.seat == seat and entry.action.kind == ActionKind.TAKE_DISCARD:
                assert entry.received is not None
                kept = next(e.hand_after for e in record.log[index + 1:]
                            if e.seat == seat and e.action.kind == ActionKind.DISCARD)
                assert melded_cards(mask_of(kept)) >> entry.received & 1


def test_the_advisor_lays_its_melds_after_the_opponents_gin() -> None:
    # Seat 0 holds gin from the deal and knocks on its first turn; the
    # advisor (seat 1) has no layoff phase after gin, only its own melds.
    from benchmarks.arena.gin.players.advisor import AdvisorPlayer

    knocker = "2S 3S 4S 5H 6H 7H 8D 8C 8S 8H"
    defender = "9C TC JC QH QD QS 2D 5D 4C 6C"
    hand = GinHand(deal(knocker, defender, "KH", stock="KC"))
    players: tuple[Player, Player] = (GreedyHintPlayer(), AdvisorPlayer("novice"))
    for seat, player in enumerate(players):
        player.start_hand(seat, 0)
    while not hand.over:
        hand.apply(players[hand.to_act].act(hand.view(hand.to_act)))
    result = hand.result
    assert result is not None and result.outcome == "gin" and result.knocker == 0
    melds = [e.action.meld for e in hand.log if e.seat == 1 and e.action.kind == ActionKind.MELD]
    assert sorted(melds) == sorted([cards("9C TC JC"), cards("QH QD QS")])
    assert result.deadwood == (0, 2 + 5 + 4 + 6)


def test_a_style_player_that_knocks_at_the_wall_throws_a_card_that_knocks() -> None:
    """Held-out seed 5000, hand pair 58: ``low_knocker`` knocked at the wall
    where only the top it took there (9♣) leaves a knock, and threw 2♣, its
    least deadwood without that top (an illegal move found by the panel)."""
    from benchmarks.arena.gin.runner import Arena

    pair = Arena("advisor", "low_knocker", seed=5000, cross_check=False).play_pair(58)
    assert [r.violation for r in pair.games] == [None, None]
