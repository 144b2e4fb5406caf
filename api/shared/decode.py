"""JSON documents in: an HTTP body or a line of a stream or bulk file, decoded one way.

``decode(raw, kind)`` gives the JSON value of ``raw`` (``bytes`` in UTF-8, or
``str``) or raises ``RequestRejected`` with one item, ``loc`` empty (the
front end adds ``"body"`` or ``"line"``):

* ``missing``: empty (or only white space);
* ``{kind}_too_large``: over ``max_bytes`` (a line; an HTTP body over the limit
  is refused before it is read, with 413);
* ``{kind}_not_utf8``: not UTF-8 (``loc`` the byte offset);
* ``json_invalid``: not standard JSON (``NaN`` and infinities are not;
  ``loc`` the character offset where known);
* ``{kind}_too_deep``: arrays and objects nested more than ``MAX_JSON_DEPTH``.

A leading byte-order mark is allowed.

>>> decode(b'{"hand": "AS"}', "body")
{'hand': 'AS'}
>>> decode(b'{"hand": NaN}', "line")
Traceback (most recent call last):
...
api.shared.errors.RequestRejected: JSON decode error: NaN is not valid JSON
"""

from __future__ import annotations

import gzip
import json
import math
import re
import sys
import typing
import zlib
from typing import IO, Any, Literal

from api.shared.errors import RequestRejected

Kind = Literal["body", "line"]

MAX_JSON_DEPTH = 32
MAX_INT_DIGITS = 4_300
"""The most digits of an integer read (Python's own limit on converting one)."""
UNREADABLE_INPUT: tuple[type[Exception], ...] = (OSError, EOFError, zlib.error)
"""What reading an input file or stream raises when it cannot be read to its
end (a read error; a gzip file cut short or corrupt): the command line's files
and bulk's lines catch these and say so."""
_STRING = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"')
r"""A JSON string, quotes included: the unrolled form of ``"(?:[^"\\]|\\.)*"``,
which matches the same strings but took one step of the regex engine per
character (a 600 KB string 138 ms, this form 7 ms)."""
_NOT_BRACKET = bytes(b for b in range(256) if b not in b"[]{}")


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


_WHOLE_LIMIT = 2**53
"""Whole numbers written with a fraction or an exponent up to this size are
read as integers (every one below it is exact as a float)."""


def _finite(text: str) -> float | int:
    """A JSON number written with a fraction or an exponent: a whole one is the
    integer it is (JSON Schema's ``integer`` takes ``500.0``, and strict fields
    would refuse the float).

    >>> _finite("500.0"), _finite("5e2"), _finite("0.5")
    (500, 500, 0.5)
    """
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"number {text[:40]} is out of range")
    if value.is_integer() and abs(value) <= _WHOLE_LIMIT:
        return int(value)
    return value


def _integer(text: str) -> int:
    """An integer of at most ``MAX_INT_DIGITS`` digits (past that Python's
    own refusal would tell the client how to configure the server)."""
    digits = len(text) - text.startswith("-")
    if digits > MAX_INT_DIGITS:
        raise ValueError(f"an integer of {digits:,} digits (at most {MAX_INT_DIGITS:,})")
    return int(text)


def depth_exceeds(text: bytes, limit: int = MAX_JSON_DEPTH) -> bool:
    """Whether the (valid) JSON ``text`` nests arrays/objects deeper than
    ``limit`` (strings removed by a C-speed regex first; only brackets are
    scanned, stopping at the first level past the limit)."""
    brackets = _STRING.sub(b"", text).translate(None, _NOT_BRACKET)
    if len(brackets) <= limit:
        return False
    depth = 0
    for byte in brackets:
        if byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        else:
            depth -= 1
    return False


def decode(raw: bytes | str, kind: Kind, max_bytes: int | None = None,
           name: str | None = None) -> object:
    """The JSON value of ``raw`` (see the module docstring); ``name``: what
    the messages call the document (a command-line option, a file), else
    "the body" or "the line"."""
    the = name or f"the {kind}"
    if isinstance(raw, str):
        # A command-line argument carries the bytes it could not decode as
        # U+DC80..U+DCFF (surrogateescape): back to those bytes, so that they
        # are reported as not UTF-8 like a body's, not as invalid JSON.
        text = raw
        try:
            raw = text.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:
            raw = text.encode("utf-8", "surrogatepass")
    if max_bytes is not None and len(raw) > max_bytes:
        raise too_large(kind, max_bytes, name)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RequestRejected.one(f"{kind}_not_utf8", (exc.start,),
                                  f"{the} is not UTF-8: byte {exc.start} cannot be "
                                  "decoded") from None
    data = raw
    if not text.strip():
        raise RequestRejected.one("missing", (), f"{the} is empty: send a JSON object")
    invalid = "JSON decode error" if name is None else f"{name} is not valid JSON"
    try:
        value = json.loads(text.removeprefix("\ufeff"), parse_constant=_reject_constant,
                           parse_float=_finite, parse_int=_integer)
    except json.JSONDecodeError as exc:
        raise RequestRejected.one("json_invalid", (exc.pos,),
                                  f"{invalid}: {exc.msg if name is None else exc}") from None
    except RecursionError:
        raise _too_deep(kind, name) from None
    except ValueError as exc:  # an integer of too many digits, NaN, an infinity
        raise RequestRejected.one("json_invalid", (), f"{invalid}: {exc}") from None
    # Only on valid JSON: there every quote the scan meets opens a string that ends.
    if depth_exceeds(data):
        raise _too_deep(kind, name)
    return value


def decode_field(raw: bytes | str, field: str, name: str) -> object:
    """``decode`` for a JSON document given apart from a request body that
    fills one of its fields (a command-line option, a file the command reads):
    the same checks and codes as an HTTP body, each error's ``loc`` the
    ``field`` (the offset, where there is one, in the message) and its
    message naming the document ``name``.

    >>> decode_field("[" * 40 + "]" * 40, "rules", "--rules")
    Traceback (most recent call last):
    ...
    api.shared.errors.RequestRejected: --rules nests arrays/objects more than 32 deep
    """
    try:
        return decode(raw, "body", name=name)
    except RequestRejected as rejected:
        raise RequestRejected([{**i, "loc": [field]} for i in rejected.items]) from None


GZIP_MAGIC = b"\x1f\x8b"
"""The first bytes of a gzip file (never of JSON text): how gzip input is known."""


def open_input(name: str) -> IO[bytes]:
    """The bytes of a file of the command line (``-``: standard input, left
    open when the stream is closed), uncompressed: gzip is known by its first
    bytes, whatever the name, and by a ``.gz`` name (``bulk IN``,
    ``review FILE``).  ``OSError`` when the file cannot be opened."""
    stream: IO[bytes] = sys.stdin.buffer if name == "-" else open(name, "rb")  # noqa: SIM115
    try:
        if not (gzip_name(name) or _starts_gzip(stream)):
            return stream
    except OSError:
        if name != "-":
            stream.close()
        raise
    if name == "-":
        return typing.cast(IO[bytes], gzip.GzipFile(fileobj=stream, mode="rb"))
    stream.close()
    return typing.cast(IO[bytes], gzip.open(name, "rb"))


def gzip_name(name: str | None) -> bool:
    """Whether a file's name says gzip (``.gz``, in any case)."""
    return name is not None and name.lower().endswith(".gz")


def _starts_gzip(stream: IO[bytes]) -> bool:
    """Whether ``stream`` starts with gzip's magic bytes; nothing is consumed
    (a buffered stream is peeked at, another one read and sought back)."""
    peek = getattr(stream, "peek", None)
    if peek is not None:
        return bytes(peek(2)[:2]) == GZIP_MAGIC
    if not stream.seekable():
        return False
    start = stream.tell()
    head = stream.read(2)
    stream.seek(start)
    return head == GZIP_MAGIC


def unusable_file(field: str, name: str, error: BaseException,
                  doing: str = "read") -> RequestRejected:
    """``invalid_value`` at ``field`` for a file of the command line that
    cannot be read (or written): its name and the system's reason, in the
    words ``review FILE`` and ``bulk`` (``IN``, ``-o``, ``--summary``) both use.

    >>> unusable_file("output", "a.jsonl", PermissionError(13, "Permission denied"),
    ...               "write").items
    [{'type': 'invalid_value', 'loc': ['output'], 'msg': 'cannot write a.jsonl: Permission denied'}]
    """
    reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
    return RequestRejected.one("invalid_value", [field], f"cannot {doing} {name}: {reason}")


def too_large(kind: Kind, max_bytes: int, name: str | None = None) -> RequestRejected:
    """``{kind}_too_large``: over ``max_bytes``, which is RUMMY_SOLVER_MAX_BODY_BYTES
    wherever a document is bounded (a stream reads its lines to the same limit
    and answers an overlong one with this item, as bulk does)."""
    return RequestRejected.one(f"{kind}_too_large", (), f"{name or kind} is over {max_bytes} "
                                                        "bytes (RUMMY_SOLVER_MAX_BODY_BYTES)")


def _too_deep(kind: Kind, name: str | None = None) -> RequestRejected:
    return RequestRejected.one(f"{kind}_too_deep", (),
                               f"{name or f'the JSON {kind}'} nests arrays/objects more than "
                               f"{MAX_JSON_DEPTH} deep")
