"""The one registry type of the arena's players: every game lists its
``Entrant``s (gin in ``gin.players.registry``, Indian rummy in
``indian.players``, the lay-down games in ``laydown.players``), and
``make_player`` and ``check_names`` answer an unknown name with the known
ones.

A player's constructor gets an ``ArenaContext``: what the arena can hand it
beyond its name.  Today that is one option, gin's OpenSpiel shadow, for the
players that play on OpenSpiel's state (``Entrant.needs_openspiel``); the
other games' players take nothing from it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

PlayerT = TypeVar("PlayerT", covariant=True)


@dataclass(frozen=True, slots=True)
class ArenaContext:
    """What the arena can give a player's constructor."""

    shadow: object | None = None
    """Gin's ``OpenSpielShadow`` (a pyspiel state in step with the referee,
    referee-side) when the arena runs one, else None.  Typed loosely because
    the core knows no game: gin's registry checks it before handing it on."""


NO_CONTEXT = ArenaContext()
"""The context of a game that hands its players nothing (every game but gin)."""


@dataclass(frozen=True, slots=True)
class Entrant(Generic[PlayerT]):
    """A named player, how to make one, and whether it needs ``pyspiel``."""

    name: str
    description: str
    make: Callable[[ArenaContext], PlayerT]
    needs_openspiel: bool = False
    """The player plays on ``ArenaContext.shadow`` (the arena then runs one)."""


def check_names(entrants: Mapping[str, Entrant[object]], names: Iterable[str], game: str) -> None:
    """``KeyError`` for the first of ``names`` no entrant of ``game`` has."""
    for name in names:
        if name not in entrants:
            raise KeyError(f"unknown {game} player {name!r}; known: {', '.join(entrants)}")


def make_player(entrants: Mapping[str, Entrant[PlayerT]], name: str, game: str,
                context: ArenaContext = NO_CONTEXT) -> PlayerT:
    """A fresh player named ``name`` (``KeyError`` names the known ones)."""
    check_names(entrants, (name,), game)
    return entrants[name].make(context)
