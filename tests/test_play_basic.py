"""The basic rummy advisor (seeds 000 and 004): what it shares with Rummy 500
is tested in tests/test_play_rummy500.py; here, what differs -- 52 cards and
no jokers, 10, 7 or 6 cards by the number of players, the pile's top card
only, the ace low only, an empty stock refilled by turning the pile over
(every card of it known), going out with or without a throw, and the score:
the player going out collects the others' hands, doubled for a "rummy"."""

from __future__ import annotations

import functools
import math
import random
import time
import warnings
from dataclasses import replace
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from api.shared.examples import REQUESTS
from solver.cards import card_name, parse_card, parse_cards
from solver.deadline import Deadline, play_deadline
from solver.errors import InvalidOptionError, InvalidStateError, SolverInputError
from solver.play import advise
from solver.play.events import MAX_EVENTS
from solver.play.laydown.advisor import LEVELS_BY_GAME, LayDownDecision
from solver.play.laydown.fast import FastPlayer, Held
from solver.play.laydown.params import LAY_DOWN_PARAMS
from solver.play.laydown.state import LayDownState
from solver.play.laydown.variant import VARIANTS
from solver.play.model import GAMES
from solver.play.replay import EVENTS_PER_CHECK

BASIC = VARIANTS["basic"]
HAND = "AH 2H 3H 9S 9D 9C 5C 6C 7C 8C"
"""Ten cards that meld completely: a rummy waiting to happen."""


def _laid(move: Any) -> list[int]:
    return [c for meld in move.melds for c in meld] + [c for lay in move.layoffs
                                                       for c in lay.cards]


def _exhausting_history(upcard: str = "KD") -> list[dict[str, Any]]:
    """Two players (dealer 0, so seat 1 first) draw the whole stock, 31 cards,
    each throwing a card nobody has seen: seat 0 is then to draw."""
    unseen = [c for c in range(52) if c not in parse_cards(HAND) and c != parse_card(upcard)]
    random.Random(1).shuffle(unseen)
    history: list[dict[str, Any]] = []
    for turn in range(31):
        seat = 1 - turn % 2
        history += [{"player": seat, "action": "draw_stock"},
                    {"player": seat, "action": "discard", "card": card_name(unseen[turn])}]
    return history


@pytest.mark.parametrize(("players", "size"), [(2, 10), (3, 7), (4, 7), (5, 6), (6, 6)])
def test_the_deal_gives_ten_seven_or_six_cards_from_52(players: int, size: int) -> None:
    hand = " ".join(HAND.split()[:size])
    state = LayDownState.parse(players=players, me=1, dealer=0, hand=hand, upcard="KD",
                                history=[], variant=BASIC)
    assert state.stock_count == 52 - players * size - 1
    assert len(state.unseen) == 52 - size - 1


BAD_STATES = [
    ("wrong_player_count", {"players": 7}, ("players",)),
    ("too_many_jokers", {"hand": "AH 2H 3H 9S 9D 9C 5C 6C 7C JK"}, ("hand", 9)),  # no jokers
    # below the top: basic rummy takes the top card only
    ("pile_mismatch", {"me": 0, "hand": "AH 2H 3H 9S 9D 9C 5C 6C 7C 8C KD 4S",
                       "history": [{"player": 1, "action": "draw_stock"},
                                   {"player": 1, "action": "discard", "card": "4S"},
                                   {"player": 0, "action": "take_discard", "card": "KD"}]},
     ("history", 2)),
    ("history_out_of_turn", {"history": [{"player": 1, "action": "pass"}]}, ("history", 0)),
]


@pytest.mark.parametrize(("code", "changes", "loc"), BAD_STATES,
                         ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(BAD_STATES)])
def test_a_basic_state_that_cannot_arise_is_refused_saying_why(
        code: str, changes: dict[str, Any], loc: tuple[object, ...]) -> None:
    state: dict[str, Any] = {"players": 2, "me": 1, "dealer": 0, "hand": HAND, "upcard": "KD",
                             "history": [], **changes}
    with pytest.raises(InvalidStateError) as caught:
        advise("basic", **state, level="novice")
    assert caught.value.code == code
    assert tuple(caught.value.loc) == loc


def test_an_empty_stock_is_the_pile_turned_over_and_every_card_of_it_is_known() -> None:
    history = _exhausting_history()
    state = LayDownState.parse(players=2, me=0, dealer=0, hand=HAND, upcard="KD",
                                history=history, variant=BASIC)
    assert state.stock_count == 0
    assert len(state.discard_pile) == 32
    advice = advise("basic", players=2, me=0, dealer=0, hand=HAND, upcard="KD",
                    history=history, level="novice", seed=1)
    assert {m.move.action for m in advice.moves} == {"draw_stock", "take_discard"}
    # drawing turns the pile over: its bottom card, the upcard KD, comes first
    after = [*history, {"player": 0, "action": "draw_stock"}]
    state = LayDownState.parse(players=2, me=0, dealer=0, hand=f"{HAND} KD", upcard="KD",
                                history=after, variant=BASIC)
    assert state.discard_pile == ()
    assert state.stock_order is not None and len(state.stock_order) == 31
    assert state.stock_order[0] == parse_card(history[1]["card"])  # the first throw is next
    assert len(state.unseen) == 10  # only the opponent's hand is unseen now
    with pytest.raises(InvalidStateError):  # KD came from the stock: the hand must hold it
        LayDownState.parse(players=2, me=0, dealer=0, hand=f"{HAND} QS", upcard="KD",
                            history=after, variant=BASIC)


def _turned_over_history(turns: int) -> tuple[list[dict[str, Any]], list[str], list[str]]:
    """``_exhausting_history`` and ``turns`` more in which each player throws
    back what it drew, the pile turned over whenever the stock is empty: the
    history, the pile and the stock (seat 0 is to draw when ``turns`` is even)."""
    history = _exhausting_history()
    pile = ["KD", *(event["card"] for event in history if event["action"] == "discard")]
    stock: list[str] = []
    for turn in range(31, 31 + turns):
        seat = 1 - turn % 2
        if not stock:  # the pile turned over, unshuffled: its bottom card comes first
            stock, pile = pile, []
        drawn = stock.pop(0)
        history += [{"player": seat, "action": "draw_stock"},
                    {"player": seat, "action": "discard", "card": drawn}]
        pile.append(drawn)
    return history, pile, stock


def test_a_long_round_through_several_turned_over_piles_is_advised() -> None:
    history, pile, stock = _turned_over_history(6 * 32)
    assert len(history) > 400
    state = LayDownState.parse(players=2, me=0, dealer=0, hand=HAND, upcard="KD",
                               history=history, variant=BASIC, discard_pile=pile)
    assert state.stock_count == len(stock)
    advice = advise("basic", players=2, me=0, dealer=0, hand=HAND, upcard="KD",
                    history=history, level="novice", seed=1)
    assert advice.phase == "draw"


def test_the_replay_of_a_long_history_stops_at_the_deadline() -> None:
    """The replay looks at the deadline (every ``EVENTS_PER_CHECK`` events): a
    history of 1,500 events takes tens of milliseconds to replay, and over HTTP
    a 1 ms limit was answered 90 ms late (a 503 from the review, which walks
    the record too).  A deadline spent before the history is replayed leaves
    nothing to advise on: 422 ``time_limit_too_small`` on ``time_limit_ms``.
    A short history is replayed whatever the deadline, and its advice answers
    with what it found."""
    history, _, _ = _turned_over_history(MAX_EVENTS // 2 - 31 - 1)
    assert len(history) == MAX_EVENTS - 2
    spent = Deadline(time.monotonic() - 1)
    state: dict[str, Any] = {"players": 2, "me": 0, "dealer": 0, "hand": HAND, "upcard": "KD",
                             "level": "novice"}
    with pytest.raises(InvalidOptionError) as caught:
        advise("basic", **state, history=history, deadline=spent)
    assert caught.value.code == "time_limit_too_small"
    assert tuple(caught.value.loc) == ("time_limit_ms",)
    assert "1498 events" in caught.value.message
    short = _exhausting_history()
    assert len(short) < EVENTS_PER_CHECK
    assert advise("basic", **state, history=short, deadline=spent).moves


def test_the_reading_of_a_long_history_stops_at_the_deadline() -> None:
    """Reading the history and checking its cards against the deck look at the
    deadline too: a history of 1,500 events of five 21-card melds (a body
    under the 1 MB limit) took 250 ms to read and check before the replay
    looked at the deadline, so over HTTP a 1 ms limit got a 503 (the solver
    process late, then killed and replaced).  Here the last event holds a
    card no deck has: read whole, that is the answer; cut short by a spent
    deadline, ``time_limit_too_small`` at once."""
    meld = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS",
            "AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    history: list[dict[str, Any]] = [{"player": 1, "action": "meld", "melds": [meld] * 5}
                                     for _ in range(MAX_EVENTS)]
    history[-1] = {"player": 1, "action": "meld", "melds": [[*meld[:20], "ZZ"]]}
    state: dict[str, Any] = {"players": 2, "me": 0, "dealer": 0, "hand": HAND, "upcard": "KD",
                             "level": "novice", "history": history}
    with pytest.raises(SolverInputError) as bad:
        advise("basic", **state, time_limit_ms=60_000)
    assert bad.value.code == "invalid_card" and bad.value.loc[:2] == ("history", MAX_EVENTS - 1)
    started = time.monotonic()
    with pytest.raises(InvalidOptionError) as caught:
        advise("basic", **state, deadline=Deadline(time.monotonic() - 1))
    assert caught.value.code == "time_limit_too_small"
    assert time.monotonic() - started < 0.05


def test_going_out_in_one_turn_with_nothing_laid_before_is_a_rummy() -> None:
    after = [*_exhausting_history(), {"player": 0, "action": "draw_stock"}]
    advice = advise("basic", players=2, me=0, dealer=0, hand=f"{HAND} KD", upcard="KD",
                    history=after, level="novice", seed=1)
    best = advice.recommended
    assert len(_laid(best.move)) == 10 and best.move.card == parse_card("KD")
    assert best.win_probability == 1.0 and best.expected_points > 0
    assert any("Rummy!" in reason for reason in best.reasons)


def test_a_hand_that_laid_before_goes_out_without_the_rummy() -> None:
    history = [{"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "QS"},
               {"player": 0, "action": "draw_stock"},
               {"player": 0, "action": "meld", "melds": [["AH", "2H", "3H"]]},
               {"player": 0, "action": "discard", "card": "KS"},
               {"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "QD"},
               {"player": 0, "action": "draw_stock"}]
    advice = advise("basic", players=2, me=0, dealer=0, hand="9S 9D 9C 5C 6C 7C 8C 4S",
                    upcard="KD", history=history, level="novice", seed=1)
    best = advice.recommended
    assert best.move.card == parse_card("4S") and len(_laid(best.move)) == 7
    assert not any("Rummy!" in reason for reason in best.reasons)
    assert any("closes" in reason for reason in best.reasons)


def test_a_hand_that_melds_every_card_may_go_out_without_a_throw() -> None:
    history = [{"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "4H"},
               {"player": 0, "action": "take_discard", "card": "4H"}]
    advice = advise("basic", players=2, me=0, dealer=0, hand=f"{HAND} 4H", upcard="KD",
                    history=history, level="novice", seed=1)
    assert advice.recommended.move.action == "go_out"
    assert advice.recommended.move.card is None


def test_the_ace_is_low_only() -> None:
    fast = FastPlayer(BASIC.values, deep_takes=False)
    melds, rest, _ = fast.melds(parse_cards("QS KS AS 2H 3H AH"))
    assert [sorted(m) for m in melds] == [sorted(parse_cards("AH 2H 3H"))]
    assert sorted(rest) == sorted(parse_cards("QS KS AS"))
    history = [{"player": 1, "action": "draw_stock"},
               {"player": 1, "action": "discard", "card": "4D"},
               {"player": 0, "action": "draw_stock"}]
    advice = advise("basic", players=2, me=0, dealer=0, hand="QS KS AS 2D 5D 7C 9C TH 3S 6H JD",
                    upcard="8D", history=history, level="novice", seed=1)
    assert all(not m.move.melds for m in advice.moves)  # Q-K-A is no run


def test_the_documented_basic_example_is_answered(inline_client: TestClient) -> None:
    body = next(r for r in REQUESTS["advise"] if r["game"] == "basic")
    answer = inline_client.post("/v1/advise", json=body)
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["game"] == "basic" and data["phase"] == "play"
    assert all(m["move"]["card"] != "7C" for m in data["moves"])  # taken from the pile top


def test_the_playouts_careful_thrower_keeps_what_completes_the_next_players_meld() -> None:
    """``feed_care``: the fast player's throw pays for a card that makes a meld
    with the next player's hand; at 0 (or without that hand) it throws its
    loosest card of most points as before."""
    from dataclasses import replace

    from solver.play.laydown.params import LAY_DOWN_PARAMS

    values = VARIANTS["basic"].values
    hand = parse_cards("KS 9D 4C 5C")
    theirs = parse_cards("KH KD 2S 7H")  # the king of spades makes their set of kings
    careless = FastPlayer(values)
    careful = FastPlayer(values, params=replace(LAY_DOWN_PARAMS, feed_care=30))
    assert card_name(careless.throw(hand, None, theirs)) == "KS"
    assert card_name(careful.throw(hand, None)) == "KS"
    assert card_name(careful.throw(hand, None, theirs)) == "9D"
    assert card_name(careful.throw(hand, None, parse_cards("QH QD 2S 7H"))) == "KS"
    jokers = parse_cards("JK JK")  # nothing but jokers left to throw (Rummy 500's deck)
    rummy500 = FastPlayer(VARIANTS["rummy500"].values, params=replace(LAY_DOWN_PARAMS, feed_care=30))
    assert card_name(rummy500.throw(jokers, None, theirs)) == "JK"


def test_the_playouts_throw_and_hand_worth_follow_their_definitions() -> None:
    """The fast player's shortcuts keep its definitions, on random hands of
    one and two decks with jokers: the throw is the card of most points less
    ``link_weight`` per ``links`` (and ``feed_care`` for what the next hand
    melds), never the top just taken; a hand's worth now (``_net_now``) is
    what laying it on a copy of the table lays less what stays in hand; the
    draw takes a top only where it makes a meld with the hand
    (``Held.completes``) or fits the table, and then only for a gain; a hand
    may hold a meld exactly when the meld search finds a candidate."""
    from solver.cards import JOKER
    from solver.play.laydown.fast import (
        _distinct_candidates,
        _may_meld,
        links,
        run_spot,
        set_spot,
        wanted_mask,
    )

    rng = random.Random(7)
    careful = replace(LAY_DOWN_PARAMS, feed_care=30)
    for game in ("rummy500", "basic"):
        values = VARIANTS[game].values
        for params in (LAY_DOWN_PARAMS, careful):
            player = FastPlayer(values, params=params)
            for _ in range(400):
                deck = [*range(52), *range(52), JOKER, JOKER] if game == "rummy500" \
                    else list(range(52))
                cards = rng.sample(deck, rng.randint(12, 22))
                hand, theirs = cards[:rng.randint(2, 11)], cards[11:]
                keep = rng.choice([None, hand[0]])
                options = [c for c in hand if c != keep] or list(hand)
                naturals = [c for c in options if c != JOKER] or options
                held = Held(theirs)
                expected = max(naturals, key=lambda c: (
                    values.hand[c] - params.link_weight * links(c, hand)
                    - params.feed_care * (c != JOKER and held.completes(c)), c))
                assert player.throw(hand, keep, theirs) == expected
                table = [run_spot(s, lo, lo + 2, 13 if values.ace_high else 12)
                         for s, lo in ((rng.randrange(4), rng.randrange(10)),)] + \
                    [set_spot(rng.randrange(13), 0b0111, 3)]
                copies = [spot.copy() for spot in table]
                rest = list(hand)
                laid = player.lay(rest, copies)
                assert player._net_now(list(hand), table) == \
                    laid - sum(values.hand[c] for c in rest)
                for spot in copies:  # the wanted cards' mask is ``Spot.wanted`` and ``fits``
                    assert [c for c in range(JOKER) if wanted_mask([spot]) >> c & 1] == \
                        sorted(spot.wanted()) == [c for c in range(JOKER) if spot.fits(c)]
                naturals = sorted(c for c in cards if c != JOKER)
                assert _may_meld(naturals, values.ace_high) == \
                    bool(_distinct_candidates(naturals, values))
                top = theirs[-1]
                usable = top == JOKER or Held(hand).completes(top) or \
                    any(spot.fits(top) for spot in table)
                gain = player.wants(hand, [top], table) if usable else 0
                shallow = FastPlayer(values, deep_takes=False, params=params)
                assert shallow.draw(hand, [top], table) == (1 if gain > 0 else 0)


def test_the_playouts_rummy_chaser_holds_its_melds_one_draw_from_going_out() -> None:
    """``hold_left``: a fast player that has laid nothing yet holds its melds
    while laying would leave from 2 to ``hold_left`` cards (it goes for a
    rummy); it lays when that goes out, once it has laid before, when more
    cards would be left, and always at 0."""
    values = VARIANTS["basic"].values
    chaser = FastPlayer(values, params=replace(LAY_DOWN_PARAMS, hold_left=2))
    two_left = parse_cards("7H 7D 7C 2S 9D")  # a set of sevens, two loose cards
    assert chaser.holds(two_left, [], laid_before=False)
    assert not chaser.holds(two_left, [], laid_before=True)
    assert not FastPlayer(values).holds(two_left, [], laid_before=False)
    assert not chaser.holds(parse_cards("7H 7D 7C 2S"), [], laid_before=False)  # one left: out
    assert not chaser.holds(parse_cards("7H 7D 7C 2S 9D KC"), [], laid_before=False)  # three


def _collector_decision(share: float) -> LayDownDecision:
    """Seat 0 to draw after seat 1 drew and threw for five turns, seat 0 four, laying
    nothing: seat 1 may be a collector."""
    history = _exhausting_history()[:18]
    pile = ["KD", *(event["card"] for event in history if event["action"] == "discard")]
    state = LayDownState.parse(players=2, me=0, dealer=0, hand=HAND, upcard="KD",
                               history=history, variant=BASIC, discard_pile=pile)
    assert state.seats[1].turns == 5 and state.seats[1].laid_cards == 0
    budget = GAMES["basic"].budget(LEVELS_BY_GAME["basic"]["novice"], play_deadline(5000, None))
    return LayDownDecision(state, budget, 7, replace(LAY_DOWN_PARAMS, collector_share=share))


def test_an_opponent_that_laid_nothing_is_dealt_a_collectors_hand_in_its_share() -> None:
    """``collector_share``: in that share of the worlds, an opponent that has
    laid nothing for ``collector_turns`` turns holds the most melded of
    ``collector_draws`` random hands, dealt from the unseen cards like any
    other; basic rummy alone deals so by default."""
    fast = FastPlayer(BASIC.values)

    def melded(share: float) -> int:
        worlds = _collector_decision(share).sample(200, math.inf)
        return sum(len(w.hands[1]) - len(fast.melds(w.hands[1])[1]) for w in worlds)

    assert melded(1.0) > 2 * melded(0.0)
    decision = _collector_decision(1.0)
    seen = decision.state.hand
    for world in decision.sample(20, math.inf):
        assert sorted([*world.hands[1], *world.stock]) == sorted(decision.state.unseen)
        assert not set(world.hands[1]) & set(seen)
    shares = {game: GAMES[game].params.collector_share for game in ("rummy500", "rommy", "basic")}
    assert shares == {"rummy500": 0.0, "rommy": 0.0, "basic": 0.5}


def test_dealing_the_worlds_stops_at_the_clock() -> None:
    """``sample`` deals fewer worlds, one at least, once the clock reaches
    ``until`` (the search's ``Decision.sample``), also where no opponent's
    throws and passes are read: a basic rummy table of opponents who laid
    nothing, each dealt a collector's hand (the most melded of several random
    hands), would otherwise deal an expert decision's hundreds of worlds past
    ``time_limit_ms`` (a 20 ms request took 140 ms)."""
    decision = _collector_decision(1.0)
    assert len(decision.sample(50, time.monotonic())) == 1
    started = time.monotonic()
    worlds = decision.sample(100_000, started + 0.02)
    assert 1 <= len(worlds) < 100_000 and time.monotonic() - started < 0.02 + 0.05
    assert len(decision.sample(50, math.inf)) == 50


def _reading_decision(factor: float) -> LayDownDecision:
    """The collector position of ``_collector_decision`` (no collector
    worlds), the opponent's throws and passes weighed by ``factor``."""
    decision = _collector_decision(0.0)
    params = replace(decision.params, threw_a_fitting_card=factor, passed_a_fitting_card=factor)
    return LayDownDecision(decision.state, decision.budget, 7, params)


def test_worlds_seldom_deal_an_opponent_the_cards_its_throws_and_passes_would_meld_with() -> None:
    """``threw_a_fitting_card`` and ``passed_a_fitting_card``: a world in which
    a card the opponent threw or passed up lately would have made a meld with
    the hand it is dealt is that much less likely (importance resampled from
    ``oversample`` deals a world); every world still places every unseen card
    once; no game weighs them by default."""
    seat = _reading_decision(1.0).state.seats[1]
    recent = LAY_DOWN_PARAMS.recent
    let_go = [*seat.discarded[-recent:], *seat.declined[-recent:]]
    assert seat.declined and let_go

    def fitting(factor: float) -> int:
        worlds = _reading_decision(factor).sample(300, math.inf)
        return sum(Held(w.hands[1]).completes(card) for w in worlds for card in let_go)

    assert fitting(0.1) < 0.6 * fitting(1.0)
    decision = _reading_decision(0.1)
    for world in decision.sample(20, math.inf):
        assert sorted([*world.hands[1], *world.stock]) == sorted(decision.state.unseen)
    factors = {(GAMES[g].params.threw_a_fitting_card, GAMES[g].params.passed_a_fitting_card)
               for g in ("rummy500", "rommy", "basic")}
    assert factors == {(1.0, 1.0)}


@functools.cache  # the test below asks one of them twice
def _first_draw(hand: str, upcard: str, z: float) -> Any:
    """The non-dealer's first draw at the standard level, seed 6, with ``plain_draw_z`` ``z``."""
    params = replace(GAMES["basic"].params, plain_draw_z=z)
    return advise("basic", players=2, me=0, dealer=1, hand=hand, upcard=upcard, history=[],
                  level="standard", seed=6, params=params)


def test_a_take_no_meld_holds_is_advised_over_the_stock_only_when_clearly_better() -> None:
    """``plain_draw_z``: the stock draw goes ahead of taking a top card that no
    meld or layoff can hold this turn unless the deals favour the take by that
    many paired standard errors; a take that melds at once is left alone;
    basic rummy plays the rule at 1, Rummy 500 and Rommy do not."""
    close = ("AH 8C 5C 9C 5S 8S TH TC 3D 9H", "2D")  # the take leads by about 0.7 errors
    clear = ("TD 6D 3S KD 3D 6S 3H 4D 5D AC", "TH")  # the take leads by about 3 errors
    for hand, upcard in (close, clear):
        assert _first_draw(hand, upcard, 0.0).moves[0].move.action == "take_discard"
    ruled = _first_draw(*close, 1.0)
    assert [m.move.action for m in ruled.moves] == ["draw_stock", "take_discard"]
    take = ruled.moves[1]
    assert take.gap is not None and take.gap < 0  # better figures, ranked below by the rule
    assert any("within the noise" in reason for reason in take.reasons)
    assert "stock draw ahead" in ruled.ranking
    assert _first_draw(*clear, 1.0).moves[0].move.action == "take_discard"
    assert _first_draw(*clear, 5.0).moves[0].move.action == "draw_stock"
    melds = _first_draw("QD JD 9S 9H 4C 5C 2H 7S AD 6H", "KD", 100.0)  # KD runs with QD JD
    assert melds.moves[0].move.action == "take_discard"
    assert "stock draw ahead" not in _first_draw(*close, 0.0).ranking
    assert [GAMES[g].params.plain_draw_z for g in ("rummy500", "rommy", "basic")] == [0, 0, 1]
    assert "stock draw ahead" in advise("basic", players=2, me=0, dealer=1, hand=close[0],
                                        upcard=close[1], history=[], level="standard",
                                        seed=6).ranking  # the default plays the rule


_HOLDING = dict(  # player 0 took KD: K♠ K♥ K♦ can go down (30 points) or be held
    hand="4S KS 7H KH 3D 5D KD 7C", upcard="8C", me=0, dealer=1, players=2,
    history=[{"player": 0, "action": "draw_stock"},
             {"player": 0, "action": "meld", "melds": [["JS", "JD", "JC"]]},
             {"player": 0, "action": "discard", "card": "2H"},
             {"player": 1, "action": "take_discard", "card": "2H"},
             {"player": 1, "action": "meld", "melds": [["AS", "AH", "AC"]]},
             {"player": 1, "action": "discard", "card": "TH"},
             {"player": 0, "action": "draw_stock"}, {"player": 0, "action": "discard", "card": "8D"},
             {"player": 1, "action": "draw_stock"}, {"player": 1, "action": "discard", "card": "KH"},
             {"player": 0, "action": "take_discard", "card": "KH"},
             {"player": 0, "action": "discard", "card": "6S"},
             {"player": 1, "action": "take_discard", "card": "6S"},
             {"player": 1, "action": "discard", "card": "KD"},
             {"player": 0, "action": "take_discard", "card": "KD"}])


def _holding(z: float) -> Any:
    params = replace(GAMES["basic"].params, plain_lay_z=z)
    return advise("basic", **_HOLDING, level="standard", seed=2, params=params)  # type: ignore[arg-type]


def test_holding_every_card_is_advised_over_laying_down_only_when_clearly_better() -> None:
    """``plain_lay_z``: the best move that lays cards down goes ahead of one
    that holds every card unless the deals favour holding by that many paired
    standard errors; the held move keeps its figures and says why it is below."""
    free = _holding(0.0)
    assert free.moves[0].move.melds == ()  # the search's figures favour holding the kings
    lay = next(m for m in free.moves if m.move.melds)
    assert lay.gap is not None and lay.gap_error is not None and lay.gap > 0
    lead = lay.gap / lay.gap_error  # holding leads by this many paired errors (1.7 at 14,000 turns)
    ruled = _holding(lead + 0.5)
    assert ruled.moves[0].move == lay.move
    held = next(m for m in ruled.moves if m.move == free.moves[0].move)
    assert held.gap is not None and held.gap < 0
    assert any("within the noise" in reason for reason in held.reasons)
    assert "ahead of holding every card" in ruled.ranking
    assert "ahead of holding every card" not in free.ranking
    assert _holding(lead - 0.5).moves[0].move == free.moves[0].move


_THROWING = dict(  # player 0 drew: J♣ or K♣ (10 points each) to throw, 3-4-5♦ to hold or lay
    hand="3D 4D 5D JC KC", upcard="7S", me=0, dealer=1, players=2,
    history=[{"player": 0, "action": "take_discard", "card": "7S"},
             {"player": 0, "action": "meld", "melds": [["5S", "6S", "7S"], ["TD", "JD", "QD"]]},
             {"player": 0, "action": "discard", "card": "5C"},
             {"player": 1, "action": "draw_stock"},
             {"player": 1, "action": "lay_off", "target": 1, "melds": [["9D", "TD", "JD", "QD"]]},
             {"player": 1, "action": "discard", "card": "TS"},
             {"player": 0, "action": "draw_stock"}, {"player": 0, "action": "discard", "card": "2H"},
             {"player": 1, "action": "take_discard", "card": "2H"},
             {"player": 1, "action": "discard", "card": "JH"},
             {"player": 0, "action": "draw_stock"}, {"player": 0, "action": "discard", "card": "9H"},
             {"player": 1, "action": "draw_stock"},
             {"player": 1, "action": "lay_off", "target": 0, "melds": [["5S", "6S", "7S", "8S"]]},
             {"player": 1, "action": "discard", "card": "TC"},
             {"player": 0, "action": "draw_stock"}, {"player": 0, "action": "discard", "card": "JS"},
             {"player": 1, "action": "draw_stock"}, {"player": 1, "action": "discard", "card": "KS"},
             {"player": 0, "action": "draw_stock"}])


def _throwing(z: float) -> Any:
    params = replace(GAMES["basic"].params, plain_throw_z=z)
    return advise("basic", **_THROWING, level="standard", seed=0, params=params)  # type: ignore[arg-type]


def test_the_quick_players_throw_is_advised_unless_another_is_clearly_better() -> None:
    """``plain_throw_z``: with the best move's cards laid down (here none),
    the fast player's throw (K♣: the most points, the higher card on a tie)
    goes first unless the best throw leads it by that many paired errors."""
    free = _throwing(0.0)
    assert free.moves[0].move.card == parse_card("JC") and free.moves[0].move.melds == ()
    assert "a quick player would make" not in free.ranking
    ruled = _throwing(2.0)  # J♣ leads K♣ by 1.2 paired errors
    assert ruled.moves[0].move.card == parse_card("KC") and ruled.moves[0].move.melds == ()
    below = next(m for m in ruled.moves if m.move == free.moves[0].move)
    assert below.gap is not None and below.gap < 0
    assert any("within the noise" in reason for reason in below.reasons)
    assert "a quick player would make" in ruled.ranking
    assert [GAMES[g].params.plain_throw_z for g in ("rummy500", "rommy", "basic")] == [0, 0, 0]


def _dumping(z: float, left: int) -> Any:
    params = replace(GAMES["basic"].params, plain_dump_z=z, dump_left=left)
    return advise("basic", **_THROWING, level="standard", seed=0, params=params)  # type: ignore[arg-type]


def test_the_costliest_throw_is_advised_near_the_end_unless_another_is_clearly_better() -> None:
    """``plain_dump_z``: while an opponent holds at most ``dump_left`` cards
    (here it holds 8), the throw of the most points (J♣ and K♣ score 10
    each and have one link each: the higher card) goes first unless the
    best throw leads it by that many paired errors; with more cards in
    every opponent's hand the search's best stands."""
    free = _dumping(2.0, 7)
    assert free.moves[0].move.card == parse_card("JC")
    assert "the throw of the most points" not in free.ranking
    ruled = _dumping(2.0, 8)
    assert ruled.moves[0].move.card == parse_card("KC") and ruled.moves[0].move.melds == ()
    assert "an opponent down to 8 cards or fewer, the throw of the most points" in ruled.ranking
    assert _dumping(0.0, 8).moves[0].move == free.moves[0].move
