"""API keys: who may call ``/v1``, and each key's rate.

Keys are optional: with neither ``RUMMY_SOLVER_API_KEYS`` (keys, comma
separated) nor ``RUMMY_SOLVER_API_KEYS_FILE`` set, anyone who reaches the
port may call.  With either, every ``/v1`` request must carry a key, as
``Authorization: Bearer KEY`` or ``X-API-Key: KEY``.

The file holds one key per line as the SHA-256 of the key in hex (so the file
itself gives no key away), optionally followed by the key's rate limit in the
``limits`` notation, else ``RUMMY_SOLVER_RATE_LIMIT`` applies; ``#`` starts a
comment::

    # sha256 of the key                                               rate
    2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae  200/second

``python -m api.server.keys KEY`` prints a key's line.  A key is only ever held as
its digest; it is compared in constant time (``hmac.compare_digest``, after a
look-up by digest, which tells nothing of the key) and never logged: logs and
the fair share name a key by its *id*, the first 12 hex digits of its digest.
"""

from __future__ import annotations

import hashlib
import hmac
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from limits import RateLimitItem, parse

from api.shared.settings import SettingsError

ID_DIGITS = 12
"""Hex digits of a key's digest that name it in logs."""


class KeyFileError(SettingsError):
    """The key file cannot be read or has a bad line."""


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A known key: its digest, id and rate limit."""

    digest: bytes
    rate: RateLimitItem

    @property
    def id(self) -> str:
        """What names the key in logs and metrics (never the key)."""
        return self.digest.hex()[:ID_DIGITS]


def digest_of(key: str) -> bytes:
    """The SHA-256 of a key."""
    return hashlib.sha256(key.encode("utf-8")).digest()


class KeyRing:
    """The keys the service accepts (see the module docstring)."""

    def __init__(self, keys: Iterable[ApiKey]) -> None:
        self.by_digest = {key.digest: key for key in keys}

    def __bool__(self) -> bool:
        return bool(self.by_digest)

    def find(self, presented: str) -> ApiKey | None:
        """The key ``presented`` is, or None."""
        digest = digest_of(presented)
        known = self.by_digest.get(digest)
        if known is None or not hmac.compare_digest(known.digest, digest):
            return None
        return known

    @classmethod
    def load(cls, keys: str, keys_file: str, default_rate: str) -> KeyRing:
        """The keys of ``RUMMY_SOLVER_API_KEYS`` and ``RUMMY_SOLVER_API_KEYS_FILE``;
        ``KeyFileError`` when the file is unusable."""
        rate = parse(default_rate)
        found = [ApiKey(digest_of(key.strip()), rate) for key in keys.split(",") if key.strip()]
        if keys_file:
            found += _read_file(Path(keys_file), rate)
        return cls(found)


def _read_file(path: Path, default_rate: RateLimitItem) -> list[ApiKey]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise KeyFileError(f"cannot read the key file {path}: {error.strerror}") from None
    keys = []
    for number, raw in enumerate(text.splitlines(), 1):
        fields = raw.split("#", 1)[0].split(maxsplit=1)
        if not fields:
            continue
        digest = fields[0].lower()
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise KeyFileError(f"{path}:{number}: expected the SHA-256 of a key in hex "
                               "(64 digits; python -m api.server.keys KEY prints it)")
        try:
            rate = parse(fields[1]) if len(fields) > 1 else default_rate
        except ValueError:
            raise KeyFileError(f"{path}:{number}: {fields[1]!r} is not a rate such as "
                               "100/second or 6000 per minute") from None
        keys.append(ApiKey(bytes.fromhex(digest), rate))
    return keys


def main(argv: list[str] | None = None) -> int:
    """``python -m api.server.keys KEY [RATE]``: the key file line of a key."""
    args = sys.argv[1:] if argv is None else argv
    if not args or len(args) > 2:
        print("usage: python -m api.server.keys KEY [RATE]", file=sys.stderr)
        return 2
    print(digest_of(args[0]).hex() + (f"  {args[1]}" if len(args) > 1 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
