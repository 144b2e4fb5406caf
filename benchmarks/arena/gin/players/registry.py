"""The gin players ``--a`` / ``--b`` can name, in the arena's one registry
type (``benchmarks.arena.core.entrants``).  Adding one is a class
implementing ``Player`` plus one line in ``ENTRANTS``.

A player that needs OpenSpiel's state gets the arena's ``OpenSpielShadow``
through the ``ArenaContext`` (the shadow is referee-side; see
``players.openspiel_bot`` for what the C++ bot reads of it).
"""

from __future__ import annotations

from collections.abc import Callable

from benchmarks.arena.core.entrants import NO_CONTEXT, ArenaContext, Entrant
from benchmarks.arena.core.entrants import make_player as make_entrant
from benchmarks.arena.gin.openspiel_shadow import OpenSpielMissingError, OpenSpielShadow
from benchmarks.arena.gin.players.advisor import AdvisorPlayer
from benchmarks.arena.gin.players.eaai_simple import EaaiSimplePlayer
from benchmarks.arena.gin.players.greedy_hint import GreedyHintPlayer
from benchmarks.arena.gin.players.marjj import MarjjStylePlayer
from benchmarks.arena.gin.players.noisy import NOISE, NoisyPlayer
from benchmarks.arena.gin.players.openspiel_bot import OpenSpielBotPlayer
from benchmarks.arena.gin.players.random_player import RandomPlayer
from benchmarks.arena.gin.players.styles import (
    HUNT_STOCK,
    LOW_KNOCK,
    CarefulPlayer,
    GinHunterPlayer,
    LowKnockerPlayer,
)
from benchmarks.arena.gin.protocol import Player

LABEL = "gin"
"""The game as messages name it."""


def _openspiel(context: ArenaContext) -> Player:
    if not isinstance(context.shadow, OpenSpielShadow):
        raise OpenSpielMissingError("the OpenSpiel bot")
    return OpenSpielBotPlayer(context.shadow)


def _greedy(lay_off: bool) -> Callable[[ArenaContext], Player]:
    return lambda _: GreedyHintPlayer(lay_off=lay_off)


def _advisor(level: str) -> Callable[[ArenaContext], Player]:
    return lambda _: AdvisorPlayer(level)


def _noisy(name: str, base: Callable[[], Player]) -> Callable[[ArenaContext], Player]:
    return lambda _: NoisyPlayer(base(), name)


_NOISY = f"a random draw or discard {NOISE:.0%} of the time"


ENTRANTS: dict[str, Entrant[Player]] = {e.name: e for e in (
    Entrant("advisor", "the move advisor, level standard (solver.play.advise)", _advisor("standard")),
    Entrant("advisor_novice", "the move advisor, level novice", _advisor("novice")),
    Entrant("advisor_expert", "the move advisor, level expert", _advisor("expert")),
    Entrant("greedy", "today's hints: draw_hint, knock_check, discard_hint, layoffs_hint", _greedy(True)),
    Entrant("greedy_no_layoff", "the greedy hint player, never laying off", _greedy(False)),
    Entrant("eaai_simple", "port of the EAAI-2021 SimpleGinRummyPlayer", lambda _: EaaiSimplePlayer()),
    Entrant("openspiel_simple", "OpenSpiel's SimpleGinRummyBot (C++, pyspiel)", _openspiel,
            needs_openspiel=True),
    Entrant("marjj_style", "MARJJ-style: plays for gin, lookahead and danger discards",
            lambda _: MarjjStylePlayer()),
    Entrant("careful", "tracks the pile: will not throw what the opponent collects; takes "
                       "what melds, knocks at once", lambda _: CarefulPlayer()),
    Entrant("low_knocker", f"knocks only with {LOW_KNOCK} or less (gin always); draws and "
                           "discards like the EAAI player", lambda _: LowKnockerPlayer()),
    Entrant("gin_hunter", f"knocks only for gin until the stock is down to {HUNT_STOCK}; keeps "
                          "cards that work towards melds", lambda _: GinHunterPlayer()),
    Entrant("eaai_noisy", f"the EAAI port, {_NOISY}", _noisy("eaai_noisy", EaaiSimplePlayer)),
    Entrant("greedy_noisy", f"the greedy hint player, random tie-breaks, {_NOISY}",
            _noisy("greedy_noisy", lambda: GreedyHintPlayer(random_ties=True))),
    Entrant("careful_noisy", f"the careful player, {_NOISY}",
            _noisy("careful_noisy", CarefulPlayer)),
    Entrant("random", "a random legal player", lambda _: RandomPlayer()),
)}


def make_player(name: str, context: ArenaContext = NO_CONTEXT) -> Player:
    """A fresh player named ``name`` (``KeyError`` names the known ones)."""
    return make_entrant(ENTRANTS, name, LABEL, context)
