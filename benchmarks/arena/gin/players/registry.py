"""The players ``--a`` / ``--b`` can name.  Adding one is a class
implementing ``Player`` plus one line in ``ENTRANTS``.

A player that needs OpenSpiel's state gets the arena's ``OpenSpielShadow``
through ``ArenaContext`` (the shadow is referee-side; see
``players.openspiel_bot`` for what the C++ bot reads of it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from benchmarks.arena.gin.openspiel_shadow import OpenSpielMissingError, OpenSpielShadow
from benchmarks.arena.gin.players.advisor import AdvisorPlayer
from benchmarks.arena.gin.players.eaai_simple import EaaiSimplePlayer
from benchmarks.arena.gin.players.greedy_hint import GreedyHintPlayer
from benchmarks.arena.gin.players.marjj import MarjjStylePlayer
from benchmarks.arena.gin.players.openspiel_bot import OpenSpielBotPlayer
from benchmarks.arena.gin.players.random_player import RandomPlayer
from benchmarks.arena.gin.protocol import Player


@dataclass(frozen=True, slots=True)
class ArenaContext:
    """What the arena can give a player's constructor."""

    shadow: OpenSpielShadow | None = None


@dataclass(frozen=True, slots=True)
class Entrant:
    """A named player: how to make one, and whether it needs ``pyspiel``."""

    name: str
    description: str
    make: Callable[[ArenaContext], Player]
    needs_openspiel: bool = False


def _openspiel(context: ArenaContext) -> Player:
    if context.shadow is None:
        raise OpenSpielMissingError("the OpenSpiel bot")
    return OpenSpielBotPlayer(context.shadow)


def _greedy(lay_off: bool) -> Callable[[ArenaContext], Player]:
    def make(context: ArenaContext) -> Player:
        return GreedyHintPlayer(lay_off=lay_off)
    return make


def _eaai(context: ArenaContext) -> Player:
    return EaaiSimplePlayer()


def _marjj(context: ArenaContext) -> Player:
    return MarjjStylePlayer()


def _random(context: ArenaContext) -> Player:
    return RandomPlayer()


def _advisor(level: str) -> Callable[[ArenaContext], Player]:
    def make(context: ArenaContext) -> Player:
        return AdvisorPlayer(level)
    return make


ENTRANTS: dict[str, Entrant] = {e.name: e for e in (
    Entrant("advisor", "the move advisor, level standard (solver.play.advise)", _advisor("standard")),
    Entrant("advisor_novice", "the move advisor, level novice", _advisor("novice")),
    Entrant("advisor_expert", "the move advisor, level expert", _advisor("expert")),
    Entrant("greedy", "today's hints: draw_hint, knock_check, discard_hint, layoffs_hint", _greedy(True)),
    Entrant("greedy_no_layoff", "the greedy hint player, never laying off", _greedy(False)),
    Entrant("eaai_simple", "port of the EAAI-2021 SimpleGinRummyPlayer", _eaai),
    Entrant("openspiel_simple", "OpenSpiel's SimpleGinRummyBot (C++, pyspiel)", _openspiel,
            needs_openspiel=True),
    Entrant("marjj_style", "MARJJ-style: plays for gin, lookahead and danger discards", _marjj),
    Entrant("random", "a random legal player", _random),
)}


def make_player(name: str, context: ArenaContext) -> Player:
    """A fresh player named ``name`` (``KeyError`` names the known ones)."""
    if name not in ENTRANTS:
        raise KeyError(f"unknown player {name!r}; known: {', '.join(ENTRANTS)}")
    return ENTRANTS[name].make(context)
