"""The move advisor: the move a strong player would make, from what a player may know.

``advise(game, ...)`` takes the public state of a hand -- the player's own
cards, the pile, the public history, the score -- checks that it could have
arisen (``InvalidStateError`` saying why not), and answers every legal move
of the decision ranked, with expected points, win probabilities and reasons
(``solver.play.advice``).  Games: ``gin`` (``solver.play.gin``).

>>> advice = advise("gin", hand="AS 2S 3S 7H 7D 7C KD QH 4C 9S", upcard="4S",
...                 me=0, dealer=1, history=[], seed=1, level="novice")
>>> advice.phase, advice.recommended.move.action
('first_upcard', 'take_discard')
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from solver.deadline import Deadline, play_deadline
from solver.errors import InvalidOptionError, InvalidRulesError
from solver.gin import gin_deal, resolve_knock_limit
from solver.play.advice import Advice, Layoff, Move, MoveValue
from solver.play.gin.advisor import DEFAULT_LEVEL, LEVELS, GinAdvisor
from solver.play.gin.state import GinState

GAMES: tuple[str, ...] = ("gin",)

__all__ = ["GAMES", "LEVELS", "Advice", "Layoff", "Move", "MoveValue", "advise"]


def advise(
    game: str = "gin",
    *,
    hand: object,
    upcard: object,
    history: Sequence[object] | None = None,
    me: int = 0,
    dealer: int = 1,
    discard_pile: object = None,
    stock_count: int | None = None,
    score: Mapping[str, Any] | None = None,
    rules: Mapping[str, Any] | None = None,
    oklahoma: bool = False,
    level: str = DEFAULT_LEVEL,
    seed: int = 0,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
) -> Advice:
    """Every legal move of the player to act, ranked (see the module docstring).

    ``rules`` overrides the game preset's knobs; ``oklahoma`` makes the first
    upcard set the knock limit; ``level`` is ``novice``, ``standard`` or
    ``expert``; ``seed`` makes the answer reproducible; the call returns by
    ``time_limit_ms`` (or ``deadline``) with the best valuation found."""
    if game not in GAMES:
        raise InvalidRulesError("game", f"unknown game {game!r}; the advisor plays "
                                        f"{', '.join(GAMES)}", code="unknown_variant")
    if level not in LEVELS:
        raise InvalidOptionError("level", f"unknown level {level!r}; choose one of "
                                          f"{', '.join(LEVELS)}", code="invalid_level")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise InvalidOptionError("seed", f"seed must be an integer; got {seed!r}",
                                 code="invalid_seed")
    until = play_deadline(time_limit_ms, deadline)
    deal = gin_deal(rules)
    state = GinState.parse(me=me, dealer=dealer, hand=hand, upcard=upcard, history=history,
                           discard_pile=discard_pile, stock_count=stock_count, score=score)
    limit, _ = resolve_knock_limit(deal, upcard=upcard if oklahoma else None)  # type: ignore[arg-type]
    return GinAdvisor(state, deal, limit, LEVELS[level], seed, until).advise()
