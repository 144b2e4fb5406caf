"""Option types of the command line shared by its commands and ``bulk``:
a bad value is an argparse error naming the option (``invalid_value`` with
``--json``), before anything runs; and ``whole_number``, the number of an
option that goes into a request body, for its model to check."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from api.shared.decode import MAX_INT_DIGITS
from api.shared.errors import RequestRejected


def whole(low: int, high: int | None = None, why: str = "") -> Callable[[str], int]:
    """An argparse ``type``: a whole number from ``low`` (to ``high``;
    ``why``: what the bound is, said when it is passed).

    >>> whole(1)("3"), whole(0, 9)("9")
    (3, 9)
    >>> whole(1)("0")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be at least 1; got 0
    >>> whole(1, 8, "4 per CPU")("500")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be from 1 to 8 (4 per CPU); got 500
    """
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number; got {text!r}") from None
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            bound += f" ({why})" if why else ""
            raise argparse.ArgumentTypeError(f"must be {bound}; got {value}")
        return value
    return parse


def whole_number(text: str, name: str) -> int | str:
    """The value of option ``--name`` for a request body's integer field:
    ``"12"`` -> 12, ``"-1"`` -> -1 (for the model's bound); anything else
    stays text, for the model to refuse (``int_type``), but for more digits
    than Python reads, which are a number (``invalid_value``, in the words of
    a JSON body's such number).

    >>> whole_number("-1", "seed"), whole_number("²", "seed")
    (-1, '²')
    """
    try:
        return int(text)
    except ValueError:
        digits = text.strip().lstrip("+-")
        if not digits.isdecimal():
            return text
    raise RequestRejected.one("invalid_value", [name], f"--{name.replace('_', '-')}: an integer "
                              f"of {len(digits):,} digits (at most {MAX_INT_DIGITS:,})")
