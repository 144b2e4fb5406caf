"""The move advisor at a Rummy 500, Rommy or basic rummy table:
``solver.play.advise(game, ...)`` with the table's game (``view.variant.name``:
``rummy500``, ``rommy``, ``basic``).

It asks from the public state only -- its hand, the upcard, the public
history in the spec's JSON form, its seat, the dealer and the number of
players -- and plays ``advice.recommended.move``: ``draw_stock``,
``take_discard`` (the deepest card taken; basic rummy: the top) or ``pass``
(not in basic rummy, whose empty stock is refilled from the pile) at the
draw; after it, ``discard`` (melds, layoffs, then the throw) or ``go_out``
(melds and layoffs that empty the hand; Rummy 500 and basic rummy: a Rommy
turn always ends with a throw, so it closes with a ``discard`` whose melds
and layoffs leave just the card thrown).  A layoff reaches the referee as its target and its
``extended`` meld (the table meld afterwards, in meld order).  A Rommy
``take_discard`` may name a deeper card the advisor does not mean to use: the
referee charges the pile penalty.  Anything else is an error the runner
reports against the advisor.

``advisor_lay_all`` (an ablation) plays the best-ranked of the advisor's
moves that lay the most cards, so never holds a meld back: what holding
is worth.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from benchmarks.arena.core.joker_cards import card_name, names, parse_card
from benchmarks.arena.laydown.referee import (
    DRAW_STOCK,
    PASS,
    Action,
    Layoff,
    PlayerView,
    play,
    take_discard,
)
from solver import card_name as library_name
from solver.play import GAMES, advise, words


def _ours(cards: Iterable[int]) -> tuple[int, ...]:
    return tuple(parse_card(library_name(c)) for c in cards)


def advice_request(view: PlayerView, level: str, seed: int) -> dict[str, Any]:
    """The keyword arguments of ``advise`` for ``view`` (the game aside; a
    house's rules as ``rules``: the decks follow from the players)."""
    return {"hand": names(view.hand), "upcard": card_name(view.upcard),
            "history": view.history, "me": view.seat, "dealer": view.dealer,
            "players": view.players, "level": level, "seed": seed, "time_limit_ms": None,
            "rules": dict(view.variant.house_rules) or None}


def action_of(move: Any) -> Action:
    """The referee's action for the advisor's ``Move`` (``ValueError`` when it has none)."""
    if move.action == words.DRAW_STOCK:
        return DRAW_STOCK
    if move.action == words.PASS:
        return PASS
    if move.action == words.TAKE_DISCARD:
        if move.card is None:
            raise ValueError("the advisor takes from the pile without naming the card")
        return take_discard(_ours([move.card])[0])
    if move.action in (words.DISCARD, words.GO_OUT):
        layoffs = []
        for layoff in move.layoffs:
            extended = getattr(layoff, "extended", ())
            extended = getattr(extended, "cards", extended)  # a library Meld, or its cards
            if not extended:
                raise ValueError(f"the advisor's layoff onto meld {layoff.target} has no "
                                 "extended meld")
            layoffs.append(Layoff(layoff.target, _ours(extended)))
        melds = [_ours(meld) for meld in move.melds]
        if move.action == words.GO_OUT:
            return play(melds, layoffs, None)
        if move.card is None:
            raise ValueError("the advisor discards without naming the card")
        return play(melds, layoffs, _ours([move.card])[0])
    raise ValueError(f"the advisor answered {move.action!r}, no Rummy 500, Rommy or basic "
                     "rummy move")


def default_params(game: str) -> Any:
    """Today's parameters object of ``game`` (``rummy500``, ``rommy``, ``basic``):
    what ``advise`` plays with unless told (the tuner's baseline)."""
    return GAMES[game].params


class AdvisorPlayer:
    """``solver.play.advise``'s recommendation (see the module docstring)."""

    def __init__(self, level: str = "standard", lay_all: bool = False, params: object = None,
                 name: str | None = None) -> None:
        self.level = level
        self.lay_all = lay_all
        self.params = params
        """The game's parameters object to advise with (None: the game's own)."""
        self.name = "advisor" if level == "standard" else f"advisor_{level}"
        if lay_all:
            self.name += "_lay_all"
        self.name = name or self.name
        self.seed = 0
        self.decisions = 0

    def start_deal(self, seat: int, seed: int) -> None:
        """A new round: a new seed."""
        self.seed = seed
        self.decisions = 0

    def act(self, view: PlayerView) -> Action:
        """The advisor's best move (a seed of its own per decision)."""
        self.decisions += 1
        seed = (self.seed * 1000 + self.decisions) % 2**31
        advice = advise(view.variant.name, **advice_request(view, self.level, seed),
                        params=self.params)
        if self.lay_all and advice.phase == words.PLAY:
            return action_of(max(advice.moves, key=lambda value: _laid(value.move)).move)
        return action_of(advice.recommended.move)


def _laid(move: Any) -> int:
    """Cards a move lays down or off (the ablation plays the first of the most)."""
    return sum(len(meld) for meld in move.melds) + sum(len(lay.cards) for lay in move.layoffs)
