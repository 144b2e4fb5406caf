"""The game model: what a game gives the advisor, and the registry of games.

A game (``Game``) is a small subclass: its name, its words
(``solver.play.words``), its levels, its parameters object and the fields
of a request it takes beyond the ones every game takes; ``position`` checks
and replays a public state (the 422s that say why), and ``advise`` values
the legal moves of a position through the one search
(``solver.play.search``), its game's decision supplying the legal moves,
the worlds consistent with what the player may know, a move applied in a
world, the fast playout policy and the returns.  ``solver.play.advise``
looks the game up in ``GAMES`` and calls it; adding a game is a subclass
and one line in ``register``'s callers.

>>> sorted(FIELDS)
['oklahoma', 'players', 'score', 'wild_rank']
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, TypeVar

from solver.deadline import Deadline
from solver.errors import InvalidRulesError, InvalidStateError, shown
from solver.play.advice import Advice, Move
from solver.play.search import Budget, Level, Tally
from solver.play.words import GameWords
from solver.rules import did_you_mean

FIELDS: dict[str, object] = {"score": None, "oklahoma": False, "wild_rank": None,
                             "players": None}
"""The request fields some games take and others do not, in the order they are
checked, each with its value when not given."""

Position = TypeVar("Position")
Params = TypeVar("Params")


@dataclass(frozen=True, slots=True)
class Request:
    """A public state as a caller sends it (card tokens, plain data): the
    fields every game takes, and in ``fields`` the game's own (``FIELDS``)."""

    hand: object
    upcard: object
    history: Sequence[object] | None = None
    me: int = 0
    dealer: int = 1
    discard_pile: object = None
    stock_count: int | None = None
    rules: Mapping[str, Any] | None = None
    fields: Mapping[str, Any] = field(default_factory=dict)

    def get(self, name: str) -> Any:
        """The game field ``name`` as given, else its value when not given."""
        return self.fields.get(name, FIELDS[name])


class Game(ABC, Generic[Position, Params]):
    """One game the advisor plays (see the module docstring)."""

    name: ClassVar[str]
    words: ClassVar[GameWords]
    levels: ClassVar[Mapping[str, Level]]
    default_level: ClassVar[str] = "standard"
    takes: ClassVar[tuple[str, ...]]
    """The ``FIELDS`` this game takes."""
    refuses: ClassVar[Mapping[str, str]]
    """For each of the other ``FIELDS``, what the game takes instead (the
    message of ``field_not_for_game``)."""
    knobs: ClassVar[tuple[str, ...]]
    """The rule knobs a house may change for this game (``rules``); any other
    is refused by name (``check_rules``)."""
    params: Params
    """The parameters ``advise`` plays with when the caller gives none."""

    def check_rules(self, request: Request) -> None:
        """``InvalidRulesError`` for the first knob of ``request.rules`` the
        game does not play (another game's knob, or a typo: the closest of
        the game's knobs is suggested)."""
        rules = request.rules
        if not isinstance(rules, Mapping):
            return  # the rules layer says what is wrong with it
        for knob in rules:
            if knob not in self.knobs:
                raise InvalidRulesError(
                    str(knob), f"{shown(knob)} is not a knob of the {self.name} advisor;"
                               f"{did_you_mean(knob, self.knobs)} it takes the preset's rules "
                               f"with these knobs changed: {', '.join(self.knobs)}")

    def check_fields(self, request: Request) -> None:
        """``InvalidStateError`` (``field_not_for_game``) for the first field
        the caller gave that this game does not take."""
        for name, unset in FIELDS.items():
            self.check_field(name, request.fields.get(name, unset))

    def check_field(self, name: str, value: object, given_as: str | None = None) -> None:
        """``InvalidStateError`` (``field_not_for_game``) when ``value`` is
        given (not None or False) for ``name``, one of ``FIELDS`` this game
        does not take; ``given_as``: the name the caller used for it (a
        recorded game's ``target`` is the match score's)."""
        if name in self.takes or value is None or value is False:
            return
        shown = given_as or name
        raise InvalidStateError(f"{shown} is not a field of {self.name}: it takes "
                                f"{self.refuses[name]}", code="field_not_for_game",
                                loc=(shown,))

    @abstractmethod
    def position(self, request: Request, deadline: Deadline | None = None) -> Position:
        """The checked position of ``request`` (``InvalidStateError`` saying why
        it cannot arise); its history is replayed by ``deadline``
        (``DeadlineExceeded`` once it passes)."""

    @abstractmethod
    def advise(self, position: Position, params: Params, level: Level, seed: int,
               deadline: Deadline, consider: Sequence[Move] = ()) -> Advice:
        """Every legal move of ``position`` valued and ranked; the moves of
        ``consider`` are valued too (on the same deals, searched in full) where
        the game lists fewer (``illegal_move`` for one that is not legal)."""

    def compare(self, position: Position, params: Params, seed: int, deadline: Deadline,
                moves: Sequence[Move], deals: int) -> list[Tally] | None:
        """``moves`` (each legal now) played on the same ``deals`` fresh deals
        of ``seed``, none dropped: figures no choice among them has touched,
        where a search's gap between its best and another move leans its way
        (a review's check, ``ReviewParams.check_deals``); a tally per move in
        order, None when ``deadline`` cut the deals short.  A game whose
        decisions cannot be played apart from their search raises
        ``NotImplementedError`` (its review keeps the search's gaps)."""
        raise NotImplementedError(f"the {self.name} advisor compares moves only in its search")

    @staticmethod
    def budget(level: Level, deadline: Deadline) -> Budget:
        """What one decision may spend."""
        return Budget(level, deadline)


def not_legal(move: Move, index: int) -> InvalidStateError:
    """The error of a move to consider that is not legal now."""
    return InvalidStateError(f"consider[{index}]: {move} is not a legal move now",
                             code="illegal_move", loc=("consider", index))


GAMES: dict[str, Game[Any, Any]] = {}
"""Every game the advisor plays, by name (filled by ``register``)."""


def register(game: Game[Any, Any]) -> Game[Any, Any]:
    """Add ``game`` to ``GAMES``."""
    GAMES[game.name] = game
    return game


__all__ = ["FIELDS", "GAMES", "Game", "Request", "not_legal", "register"]
