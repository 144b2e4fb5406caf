"""The move advisor: the move a strong player would make, from what a player may know.

``advise(game, ...)`` takes the public state of a hand -- the player's own
cards, the pile, the public history, the score -- checks that it could have
arisen (``InvalidStateError`` saying why not), and answers every legal move
of the decision ranked, with expected points, win probabilities and reasons
(``solver.play.advice``).  Games (``GAMES``, each a ``solver.play.model.Game``):
``gin`` (``solver.play.gin``), ``indian13`` and ``indian21``
(``solver.play.indian``), ``rummy500``, ``rommy`` and ``basic``
(``solver.play.laydown``).  One call serves every game: each game takes the
fields it needs and refuses, by name, a field it does not take
(``field_not_for_game``): ``score`` and ``oklahoma`` are gin's,
``wild_rank`` (the cut card) Indian rummy's, ``players`` every game's but
gin's.  A library caller or an experiment may pass ``params``, the game's
parameters object (``dataclasses.replace`` of ``GAMES[game].params``).

>>> advice = advise("gin", hand="AS 2S 3S 7H 7D 7C KD QH 4C 9S", upcard="4S",
...                 me=0, dealer=1, history=[], seed=1, level="novice")
>>> advice.phase, advice.recommended.move.action
('first_upcard', 'take_discard')
>>> advice = advise("indian13", hand="AH 2H 3H 5S 6S JK 9D 9C 9S KD QD 4C 2D", upcard="8C",
...                 wild_rank="7H", players=2, me=1, dealer=0, seed=1, level="novice")
>>> advice.phase, sorted(m.move.action for m in advice.moves)
('draw', ['draw_stock', 'drop', 'take_discard'])
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from solver.cards import JOKER
from solver.deadline import Deadline, DeadlineExceeded, play_deadline, time_ran_out
from solver.errors import InvalidOptionError, InvalidRulesError, plain_int, shown
from solver.play.advice import Advice, Layoff, Move, MoveValue
from solver.play.gin.game import Gin
from solver.play.indian.game import Indian13, Indian21
from solver.play.laydown.game import Basic, Rommy, Rummy500
from solver.play.model import FIELDS, GAMES, Request, register

for _game in (Gin(), Indian13(), Indian21(), Rummy500(), Rommy(), Basic()):
    register(_game)
LEVELS: tuple[str, ...] = tuple(dict.fromkeys(name for game in GAMES.values()
                                              for name in game.levels))
"""Every level some game plays (each game checks its own)."""

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
    rules: Mapping[str, Any] | None = None,
    level: str | None = None,
    seed: int = 0,
    time_limit_ms: int | None = None,
    deadline: Deadline | None = None,
    params: object = None,
    consider: Sequence[Move] = (),
    **fields: Any,
) -> Advice:
    """Every legal move of the player to act, ranked (see the module docstring).

    ``rules`` overrides the game preset's knobs; the game's own ``fields``:
    ``score`` (gin: the match score), ``oklahoma`` (gin: the first upcard
    sets the knock limit), ``wild_rank`` (Indian: the cut card) and
    ``players`` (Indian 2 to 6, Rummy 500 2 to 8 -- two decks from 5 --,
    Rommy and basic 2 to 6; default 2); ``level`` is one of the game's
    levels (``novice``, ``standard`` -- the default -- or ``expert``);
    ``seed`` makes the answer reproducible; the call returns by
    ``time_limit_ms`` (or ``deadline``) with the best valuation found
    (``time_limit_too_small`` when it runs out before the history is replayed).
    ``consider`` (a library caller's, e.g. a game review's): moves to value
    besides the ones the advisor lists, on the same deals (a played move the
    list leaves out); ``InvalidStateError`` (``illegal_move``) for one that is
    not legal now."""
    unknown = [name for name in fields if name not in FIELDS]
    if unknown:
        raise TypeError(f"advise() got an unexpected keyword argument {shown(unknown[0])}")
    model = GAMES.get(game) if isinstance(game, str) else None
    if model is None:
        raise InvalidRulesError("game", f"unknown game {shown(game)}; the advisor plays "
                                        f"{', '.join(GAMES)}", code="unknown_variant")
    level = model.default_level if level is None else level
    if not isinstance(level, str) or level not in model.levels:
        raise InvalidOptionError("level", f"unknown level {shown(level)}; choose one of "
                                          f"{', '.join(model.levels)}", code="invalid_level")
    given_seed = plain_int(seed)
    if given_seed is None:
        raise InvalidOptionError("seed", f"seed must be an integer; got {shown(seed)}",
                                 code="invalid_seed")
    seed = given_seed
    if params is None:
        params = model.params
    elif type(params) is not type(model.params):
        raise TypeError(f"params of {game} are a {type(model.params).__name__}; got "
                        f"{type(params).__name__}")
    extra = tuple(consider) if isinstance(consider, Iterable) and \
        not isinstance(consider, str) else None
    if extra is None or not all(isinstance(move, Move) for move in extra):
        raise InvalidOptionError("consider", "consider must be a list of solver.play.Move",
                                 code="illegal_move")
    checked: list[Move] = []
    for index, move in enumerate(extra):
        card = None if move.card is None else plain_int(move.card)
        if move.card is not None and (card is None or not 0 <= card <= JOKER):
            raise InvalidOptionError(f"consider[{index}]", f"consider[{index}]: a move's card "
                                     f"is a card id (0 to {JOKER}: solver.parse_card), not "
                                     f"{shown(move.card)}", code="illegal_move")
        checked.append(move if card is None or type(move.card) is int
                       else dataclasses.replace(move, card=card))
    extra = tuple(checked)
    until = play_deadline(time_limit_ms, deadline)
    request = Request(hand, upcard, history, me, dealer, discard_pile, stock_count, rules,
                      fields)
    model.check_fields(request)
    model.check_rules(request)
    try:
        position = model.position(request, until)
    except DeadlineExceeded:
        events = len(history) if isinstance(history, Sequence) else 0
        raise time_ran_out(f"the history's {events} events were replayed") from None
    return model.advise(position, params, model.levels[level], seed, until, extra)
