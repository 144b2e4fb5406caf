"""The referee against OpenSpiel's gin_rummy, decision by decision, and
OpenSpiel's SimpleGinRummyBot as an arena player (skipped without the
``bench`` extra)."""

from __future__ import annotations

import random

import pytest

pyspiel = pytest.importorskip("pyspiel")

from benchmarks.arena.gin.cards import DECK_SIZE, mask_of, parse_cards  # noqa: E402
from benchmarks.arena.gin.game import play_hand  # noqa: E402
from benchmarks.arena.gin.melds import ALL_MELDS, min_deadwood, min_deadwood_after_discard  # noqa: E402
from benchmarks.arena.gin.openspiel_shadow import (  # noqa: E402
    OpenSpielShadow,
    from_openspiel_card,
    to_openspiel_card,
)
from benchmarks.arena.gin.players.eaai_simple import EaaiSimplePlayer  # noqa: E402
from benchmarks.arena.gin.players.greedy_hint import GreedyHintPlayer  # noqa: E402
from benchmarks.arena.gin.players.openspiel_bot import OpenSpielBotPlayer  # noqa: E402
from benchmarks.arena.gin.players.random_player import RandomPlayer  # noqa: E402
from benchmarks.arena.gin.protocol import Action, Phase, Player, PlayerView, meld  # noqa: E402
from tests.test_arena_referee import deal  # noqa: E402


def shuffled(seed: int) -> list[int]:
    deck = list(range(DECK_SIZE))
    random.Random(seed).shuffle(deck)
    return deck


def test_card_and_action_maps_round_trip() -> None:
    shadow = OpenSpielShadow()
    assert sorted(to_openspiel_card(c) for c in range(DECK_SIZE)) == list(range(DECK_SIZE))
    assert all(from_openspiel_card(to_openspiel_card(c)) == c for c in range(DECK_SIZE))
    # hearts and clubs swap: our TH is OpenSpiel's "Th"
    utils = shadow.utils
    assert utils.card_string(to_openspiel_card(parse_cards("TH")[0])) == "Th"
    # every meld of ours is one of OpenSpiel's 185 and back
    for mask in ALL_MELDS:
        action = meld([c for c in range(DECK_SIZE) if mask >> c & 1])
        assert shadow.actions.from_openspiel(shadow.actions.to_openspiel(action), Phase.KNOCK_MELD) == action


def test_openspiel_11_card_call_misses_a_tied_knock() -> None:
    # pinned in test_arena_melds: the exact minimum over discards is 10
    cards = parse_cards("AS 4S 5S 6S 4H 5H 6H 2D 4D 3C 6C")
    theirs = [to_openspiel_card(c) for c in cards]
    utils = OpenSpielShadow().utils
    assert min_deadwood_after_discard(mask_of(cards)) == 10
    assert utils.min_deadwood(theirs) == 11  # first best group, highest card dropped
    assert min(utils.min_deadwood(theirs[:i] + theirs[i + 1:]) for i in range(11)) == 10


@pytest.mark.parametrize(("first", "second", "hands"), [
    (RandomPlayer, RandomPlayer, 150),
    (RandomPlayer, EaaiSimplePlayer, 150),  # knocks, and random layoffs and melds after them
])
def test_referee_agrees_with_openspiel(first: type[Player], second: type[Player], hands: int) -> None:
    shadow = OpenSpielShadow()
    outcomes = set()
    for index in range(hands):
        players = (first(), second()) if index % 2 else (second(), first())
        record = play_hand(shuffled(index), players, (index, index + 7), watchers=[shadow])
        assert record.violation is None, record.violation
        assert record.result is not None
        outcomes.add(record.result.outcome)
    tally = shadow.tally
    assert tally.disagreements == [], tally.disagreements[:3]
    assert tally.hands_compared + tally.desynced_hands == hands
    assert tally.decisions > 20 * hands
    if second is EaaiSimplePlayer:
        assert {"knock", "gin"} <= outcomes


class _ObservationCheck:
    """OpenSpiel's bot, checking at each decision that the observation the
    bot reads says what the view says, and nothing of the opponent's hand."""

    name = "openspiel_checked"

    def __init__(self, shadow: OpenSpielShadow) -> None:
        self.inner = OpenSpielBotPlayer(shadow)
        self.shadow = shadow
        self.checked = 0
        self._seat = 0

    def start_hand(self, seat: int, seed: int) -> None:
        self._seat = seat
        self.inner.start_hand(seat, seed)

    def act(self, view: PlayerView) -> Action:
        if self.shadow.synced:
            tensor = list(self.shadow.state.observation_tensor(self._seat))
            hands = tensor[2:2 + 2 * DECK_SIZE]
            own = hands[self._seat * DECK_SIZE:(self._seat + 1) * DECK_SIZE]
            other = hands[(1 - self._seat) * DECK_SIZE:(2 - self._seat) * DECK_SIZE]
            public = 2 + 2 * DECK_SIZE + 2 + 10
            upcard = tensor[public:public + DECK_SIZE]
            pile = tensor[public + DECK_SIZE:public + 2 * DECK_SIZE]
            stock = tensor[public + 2 * DECK_SIZE:public + 3 * DECK_SIZE]
            assert {from_openspiel_card(i) for i, bit in enumerate(own) if bit} == set(view.hand)
            assert not any(other)
            shown = {from_openspiel_card(i) for i in range(DECK_SIZE) if upcard[i] or pile[i]}
            assert shown == set(view.discard_pile)
            assert sum(stock) == view.stock_size
            self.checked += 1
        return self.inner.act(view)


def test_openspiel_bot_reads_no_more_than_its_view() -> None:
    shadow = OpenSpielShadow()
    bot = _ObservationCheck(shadow)
    for index in range(60):
        players: tuple[Player, Player] = (bot, EaaiSimplePlayer())
        if index % 2:
            players = players[::-1]
        record = play_hand(shuffled(1000 + index), players, (index, index), watchers=[shadow])
        assert record.violation is None, record.violation
    assert bot.checked > 500
    assert shadow.tally.disagreements == []


def test_openspiel_bot_defends_when_openspiel_cannot_follow_a_knock() -> None:
    # Seat 0 draws 6C from the stock: the 11 cards of the tie above, which
    # knock by throwing 6C.  OpenSpiel's 11-card call refuses the knock, so
    # the shadow stops and the bot defends with its own policy, written out.
    defender = "7C 8C 9C 2H 8H TH QH 3S JS TS"
    deck = deal("AS 4S 5S 6S 4H 5H 6H 2D 4D 3C", defender, "KD", stock="6C")
    shadow = OpenSpielShadow()
    bot = OpenSpielBotPlayer(shadow)
    record = play_hand(deck, (GreedyHintPlayer(), bot), (0, 0), watchers=[shadow])
    assert record.violation is None, record.violation
    assert shadow.tally.openspiel_knock_misses == 1 and shadow.tally.desynced_hands == 1
    assert shadow.tally.disagreements == []
    assert shadow.tally.bot_fallback_decisions >= 2  # finish the layoffs, lay 7C 8C 9C, finish
    result = record.result
    assert result is not None and result.knocker == 0
    assert result.deadwood == (10, min_deadwood(mask_of(parse_cards(defender))))
