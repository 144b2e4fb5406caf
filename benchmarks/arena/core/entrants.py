"""The registry of the players a rotated-deal game of the arena can seat
(Indian rummy, Rummy 500): each game's ``players`` module lists its
``Entrant``s; ``make_player`` and ``check_names`` answer an unknown name
with the known ones.  (Gin's registry, ``players.registry``, also hands its
players the OpenSpiel shadow.)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

PlayerT = TypeVar("PlayerT", covariant=True)


@dataclass(frozen=True, slots=True)
class Entrant(Generic[PlayerT]):
    """A named player and how to make one."""

    name: str
    description: str
    make: Callable[[], PlayerT]


def check_names(entrants: Mapping[str, Entrant[object]], names: Iterable[str], game: str) -> None:
    """``KeyError`` for the first of ``names`` no entrant of ``game`` has."""
    for name in names:
        if name not in entrants:
            raise KeyError(f"unknown {game} player {name!r}; known: {', '.join(entrants)}")


def make_player(entrants: Mapping[str, Entrant[PlayerT]], name: str, game: str) -> PlayerT:
    """A fresh player named ``name`` (``KeyError`` names the known ones)."""
    check_names(entrants, (name,), game)
    return entrants[name].make()
