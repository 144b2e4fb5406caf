"""What the library raises for input it cannot use: errors that carry their own meaning.

Every input error is a ``SolverInputError`` (a ``ValueError``) with three parts,
so a front end turns it into its wire form without knowing the library:

* ``code``: a stable, machine-readable type (``invalid_card``, ``invalid_rules``,
  ``invalid_engine`` ...);
* ``loc``: where the input is wrong, as a path from the top of the call's
  arguments (``("hand", 3)``, ``("rules", "decks")``, ``("players", 1, "melded", 0)``);
* ``message``: what is wrong and what is allowed, for a person.

The subclasses say which kind of input is at fault, as python-chess splits
invalid, illegal and ambiguous moves: ``InvalidHandError`` (cards and the
arrangements made of them), ``InvalidRulesError`` (a variant or knob),
``InvalidOptionError`` (how the call should run: engine, time limit, worker
count) and ``InvalidStateError`` (a game state that cannot arise: a card in two
places, a history out of turn, a pile that does not match its history).

>>> error = InvalidHandError("unknown card 'ZZ'", code="invalid_card", index=3)
>>> error.loc, error.code
(('hand', 3), 'invalid_card')
>>> InvalidRulesError("decks", "decks must be 1 to 4").loc
('rules', 'decks')
>>> field_loc("players[1].melded[0]")
('players', 1, 'melded', 0)
"""

from __future__ import annotations

import itertools
import operator
import re
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

Loc = tuple[str | int, ...]

_FIELD_PART = re.compile(r"([A-Za-z_]\w*)|\[(\d+)\]")


def field_loc(field: str) -> Loc:
    """A field path written as text, as a ``loc``: ``"melds[2]"`` -> ``("melds", 2)``."""
    loc: Loc = tuple(name if name else int(index) for name, index in _FIELD_PART.findall(field))
    return loc or (field,)


class SolverInputError(ValueError):
    """Input the library cannot use (see the module docstring): ``code``, ``loc``, ``message``."""

    def __init__(self, message: str, *, code: str, loc: Loc) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.loc: Loc = tuple(loc)

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle by attributes: the keyword-only arguments of ``__init__``
        are not in ``args``, so the default would fail to unpickle, and a
        process pool whose task raised one would hang on its result.

        >>> import pickle
        >>> error = pickle.loads(pickle.dumps(InvalidHandError("bad", code="invalid_card", index=2)))
        >>> type(error).__name__, error.message, error.code, error.loc, error.index
        ('InvalidHandError', 'bad', 'invalid_card', ('hand', 2), 2)
        """
        return (_rebuilt, (type(self), self.message, dict(self.__dict__)))


def _rebuilt(kind: type[SolverInputError], message: str,
             state: dict[str, object]) -> SolverInputError:
    """A pickled input error again (``SolverInputError.__reduce__``)."""
    error = kind.__new__(kind, message)
    Exception.__init__(error, message)
    error.__dict__.update(state)
    return error


class InvalidHandError(SolverInputError):
    """A hand, card token, cut card or declared arrangement that cannot be used.

    ``field`` names the input (``hand``, ``wild_rank``, ``melds[2]`` ...) and
    ``index`` the 0-based position of the bad token in it, if any."""

    def __init__(self, message: str, *, code: str, field: str = "hand",
                 index: int | None = None) -> None:
        loc = field_loc(field) + (() if index is None else (index,))
        super().__init__(message, code=code, loc=loc)
        self.field = field
        self.index = index


class InvalidRulesError(SolverInputError):
    """An unknown variant or knob, or an impossible knob value; ``knob`` names it
    (``variant`` and ``rules`` stand for themselves, any other is under ``rules``)."""

    def __init__(self, knob: str, message: str, *, code: str = "invalid_rules") -> None:
        loc: Loc = (knob,) if knob in ("variant", "rules") else ("rules", knob)
        super().__init__(message, code=code, loc=loc)
        self.knob = knob


class InvalidOptionError(SolverInputError):
    """An option of the call itself (not of the game) that cannot be used:
    an unknown engine, a time limit out of range, a bad worker count."""

    def __init__(self, option: str, message: str, *, code: str) -> None:
        super().__init__(message, code=code, loc=field_loc(option))
        self.option = option


class InvalidStateError(SolverInputError):
    """A game state that cannot arise under the rules (``solver.play``): the
    message says why, ``loc`` points at the first part that does not fit."""

    def __init__(self, message: str, *, code: str, loc: Loc) -> None:
        super().__init__(message, code=code, loc=loc)


_SHOWN_DEPTH = 3
_SHOWN_ITEMS = 8


def shown(value: object, depth: int = _SHOWN_DEPTH) -> str:
    """``repr(value)`` for an error message, bounded: lists, tuples and
    mappings are shown ``depth`` levels deep and ``_SHOWN_ITEMS`` items long,
    the rest as ``...``.  A caller's input may nest a list 100,000 deep, and
    ``repr`` would recurse into all of it (``RecursionError``, not the error
    the message was for); a plain value, or a short shallow list, reads as
    ``repr`` gives it.

    >>> shown("ZZ"), shown(3), shown([1, (2,)]), shown({"A": [1]})
    ("'ZZ'", '3', '[1, (2,)]', "{'A': [1]}")
    >>> deep: list[object] = []
    >>> for _ in range(100_000):
    ...     deep = [deep]
    >>> shown(deep), shown(list(range(20)))
    ('[[[[...]]]]', '[0, 1, 2, 3, 4, 5, 6, 7, ...]')
    """
    if isinstance(value, list | tuple):
        opening, closing = ("[", "]") if isinstance(value, list) else ("(", ")")
        if not value:
            return opening + closing
        if depth <= 0:
            return f"{opening}...{closing}"
        parts = [shown(item, depth - 1) for item in value[:_SHOWN_ITEMS]]
        if len(value) > _SHOWN_ITEMS:
            parts.append("...")
        elif isinstance(value, tuple) and len(value) == 1:
            parts[0] += ","
        return f"{opening}{', '.join(parts)}{closing}"
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        if depth <= 0:
            return "{...}"
        items = list(itertools.islice(value.items(), _SHOWN_ITEMS + 1))
        parts = [f"{shown(key, depth - 1)}: {shown(item, depth - 1)}"
                 for key, item in items[:_SHOWN_ITEMS]]
        if len(items) > _SHOWN_ITEMS:
            parts.append("...")
        return "{" + ", ".join(parts) + "}"
    return repr(value)


def is_list(value: object) -> TypeGuard[Sequence[Any]]:
    """Whether a caller gave ``value`` as a list of things (a list, a tuple,
    any ``Sequence``), not as a string, a mapping or a single value: the
    shape every list-taking argument is checked for before it is read.

    >>> is_list(["AS"]), is_list(("AS",)), is_list("AS"), is_list({"AS": 1}), is_list(None)
    (True, True, False, False, False)
    """
    return isinstance(value, Sequence) and not isinstance(value, str)


def plain_int(value: object) -> int | None:
    """``value`` as a plain ``int`` when it is an integer of any type -- an
    ``int``, numpy's ``int64``, anything with ``__index__`` -- else None:
    every integer input is checked through it, so a count or score read from
    numpy or pandas is taken as the ``int`` it is, and what the library keeps
    (cache keys, hashes, JSON) never holds a foreign type.  A ``bool`` is not
    a number here (``True`` is no card count), nor is a float, even ``5.0``.

    >>> class Count:  # numpy-like: an integer, not an int
    ...     def __index__(self) -> int:
    ...         return 5
    >>> plain_int(5), plain_int(Count()), type(plain_int(Count())).__name__
    (5, 5, 'int')
    >>> plain_int(True), plain_int(5.0), plain_int("5"), plain_int(None)
    (None, None, None, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, bool):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # any object may try
    except TypeError:
        return None
