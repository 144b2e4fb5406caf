"""What a player may know: ``PlayerView`` holds only the listed fields, only
immutable values, and never a card of the opponent's hidden hand or of the
stock."""

from __future__ import annotations

import dataclasses
import enum
import random

import pytest

from benchmarks.arena.gin.cards import DECK_SIZE
from benchmarks.arena.gin.game import play_hand
from benchmarks.arena.gin.players.eaai_simple import EaaiSimplePlayer
from benchmarks.arena.gin.players.random_player import RandomPlayer
from benchmarks.arena.gin.protocol import Action, ActionKind, Event, Phase, Player, PlayerView
from benchmarks.arena.gin.referee import GinHand
from benchmarks.arena.gin.rules import GinRules

VIEW_FIELDS = [
    "seat", "phase", "hand", "drawn_card", "discard_pile", "history", "stock_size", "legal_actions",
    "rules", "my_match_points", "opponent_match_points", "match_target",
]


def test_view_holds_only_the_listed_fields() -> None:
    assert [f.name for f in dataclasses.fields(PlayerView)] == VIEW_FIELDS
    hand = GinHand(list(range(DECK_SIZE)))
    view = hand.view(0)
    assert not hasattr(view, "__dict__")  # slots: nothing can be attached to it either
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = hand.hand_of(1)  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        object.__setattr__(view, "opponent_hand", hand.hand_of(1))


def _walk(value: object) -> list[object]:
    """Every value reachable from a view's fields: only immutable kinds."""
    out = [value]
    if isinstance(value, tuple):
        for item in value:
            out += _walk(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        assert type(value) in (PlayerView, Action, Event, GinRules), type(value)
        assert value.__dataclass_params__.frozen  # type: ignore[attr-defined]
        for f in dataclasses.fields(value):
            out += _walk(getattr(value, f.name))
    else:
        assert value is None or isinstance(value, int | str | bool | enum.Enum), type(value)
    return out


def _view_cards(view: PlayerView) -> set[int]:
    cards = set(view.hand) | set(view.discard_pile)
    if view.drawn_card is not None:
        cards.add(view.drawn_card)
    items: list[Event | Action] = [*view.history, *view.legal_actions]
    for item in items:
        if item.card is not None:
            cards.add(item.card)
        cards.update(item.meld)
    return cards


class _Inspector:
    """Plays like ``inner`` and checks that every view it is given holds
    only immutable values."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = inner.name
        self.views = 0

    def start_hand(self, seat: int, seed: int) -> None:
        self.inner.start_hand(seat, seed)

    def act(self, view: PlayerView) -> Action:
        _walk(view)
        self.views += 1
        return self.inner.act(view)


def test_views_never_show_hidden_cards() -> None:
    rng = random.Random(11)
    checked = 0
    for deal_index in range(30):
        deck = list(range(DECK_SIZE))
        rng.shuffle(deck)
        hand = GinHand(deck)
        players: tuple[Player, Player] = (EaaiSimplePlayer(), RandomPlayer())
        if deal_index % 2:
            players = players[::-1]
        for seat, player in enumerate(players):
            player.start_hand(seat, deal_index)
        public: set[int] = set()
        while not hand.over:
            seat = hand.to_act
            for watcher in (0, 1):
                view = hand.view(watcher)
                _walk(view)
                assert view.hand == hand.hand_of(watcher)
                assert view.stock_size == hand.stock_size
                if watcher != seat:
                    assert view.legal_actions == () and view.drawn_card is None
                # the opponent's cards: only those it showed (taken from the pile, laid)
                opponent_hidden = set(hand.hand_of(1 - watcher)) - public
                stock = set(deck[DECK_SIZE - hand.stock_size:])
                seen = _view_cards(view)
                assert not seen & opponent_hidden, (watcher, seen & opponent_hidden)
                assert not seen & stock
                assert all(e.card is None for e in view.history if e.kind == ActionKind.DRAW_STOCK)
                checked += 1
            action = players[seat].act(hand.view(seat))
            hand.apply(action)
            public |= {e.card for e in hand.view(0).history if e.card is not None}
            public |= {card for e in hand.view(0).history for card in e.meld}
            if hand.phase in (Phase.LAYOFF, Phase.DEFENDER_MELD) or hand.over:
                public |= set(hand.pile)
    assert checked > 1000


def test_players_only_get_views() -> None:
    inspectors = (_Inspector(EaaiSimplePlayer()), _Inspector(RandomPlayer()))
    deck = list(range(DECK_SIZE))
    random.Random(3).shuffle(deck)
    record = play_hand(deck, inspectors, (1, 2))
    assert record.violation is None and inspectors[0].views + inspectors[1].views > 10
