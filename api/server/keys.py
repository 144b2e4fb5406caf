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

``python -m api.server.keys KEY`` prints a key's line (``--id KEY``: the id
the logs name it by, under this environment's settings).  A key is only ever
held as its digest; it is compared in constant time (``hmac.compare_digest``,
after a look-up by digest, which tells nothing of the key) and never logged.

Logs, the fair share and the rate counts (in Redis too) name a key by its
*id*: 16 hex digits of an HMAC-SHA256 of the key's digest under a server
secret, so an id read in a log or in Redis cannot be tried against guessed
keys offline, as a plain hash prefix could.  The secret is
``RUMMY_SOLVER_KEY_ID_SECRET``; unset, it is derived from the configured
keys' digests (``derived_secret``): every worker and replica holding the same
keys computes the same ids, across restarts, with nothing more to configure,
and the secret is no easier to find than the keys themselves.  A change of
the key set then changes every id (log ids, and the rate counts start afresh
once); set the secret to keep ids stable across key changes, and in every
replica that shares one Redis, so that a rollout that changes the keys does
not count a key in two places.
"""

from __future__ import annotations

import hashlib
import hmac
import sys
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from limits import RateLimitItem

from api.shared.settings import NOT_PRINTABLE_KEY, Settings, SettingsError, current, parse_rate, printable_key

ID_DIGITS = 16
"""Hex digits of a key's HMAC that name it in logs and rate counts (64 bits:
two keys of a large ring never share a count)."""

_DERIVED_LABEL = b"rummy-solver key id secret, derived from the key digests\0"


class KeyFileError(SettingsError):
    """The key file cannot be read or has a bad line."""


@dataclass(frozen=True, slots=True)
class ApiKey:
    """A known key: its digest, rate limit and id (what names it in logs, the
    fair share and the rate counts; never the key)."""

    digest: bytes
    rate: RateLimitItem
    id: str = ""


def digest_of(key: str) -> bytes:
    """The SHA-256 of a key."""
    return hashlib.sha256(key.encode("utf-8")).digest()


def derived_secret(digests: Iterable[bytes]) -> bytes:
    """The id secret when ``RUMMY_SOLVER_KEY_ID_SECRET`` is unset: a hash of
    every configured key's digest, in a fixed order (the same keys give the
    same secret in every process)."""
    return hashlib.sha256(_DERIVED_LABEL + b"".join(sorted(set(digests)))).digest()


def key_id(secret: bytes, digest: bytes) -> str:
    """The id of the key whose digest is ``digest``: HMAC-SHA256 under ``secret``."""
    return hmac.new(secret, digest, hashlib.sha256).hexdigest()[:ID_DIGITS]


class KeyRing:
    """The keys the service accepts (see the module docstring); ``secret``
    names them (``derived_secret`` of the keys when empty)."""

    def __init__(self, keys: Iterable[ApiKey], secret: bytes = b"") -> None:
        found = list(keys)
        secret = secret or derived_secret(key.digest for key in found)
        self.by_digest = {key.digest: replace(key, id=key_id(secret, key.digest))
                          for key in found}

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
    def load(cls, keys: str, keys_file: str, default_rate: str, id_secret: str = "") -> KeyRing:
        """The keys of ``RUMMY_SOLVER_API_KEYS`` and ``RUMMY_SOLVER_API_KEYS_FILE``,
        named under ``id_secret``; ``KeyFileError`` when the file is unusable."""
        rate = parse_rate(default_rate)
        found = [ApiKey(digest_of(key.strip()), rate) for key in keys.split(",") if key.strip()]
        if keys_file:
            found += _read_file(Path(keys_file), rate)
        return cls(found, id_secret.encode("utf-8"))

    @classmethod
    def from_settings(cls, settings: Settings) -> KeyRing:
        """The keys ``settings`` configure (``load``)."""
        return cls.load(settings.api_keys, settings.api_keys_file, settings.rate_limit,
                        settings.key_id_secret)


_NOT_A_RATE = "{!r} is not {}"
"""What a key file line's rate that ``parse_rate`` refuses is told (``{!r}``: the rate,
``{}``: what a rate is)."""


def _read_file(path: Path, default_rate: RateLimitItem) -> list[ApiKey]:
    try:
        text = path.read_text(encoding="utf-8-sig")  # a BOM of a Windows editor is no line
    except OSError as error:
        raise KeyFileError(f"cannot read the key file {path}: {error.strerror}") from None
    except UnicodeDecodeError as error:
        line = path.read_bytes()[:error.start].count(b"\n") + 1
        raise KeyFileError(f"{path}:{line}: not UTF-8 text (byte {error.start}); the file "
                           "holds digests in hex and rates") from None
    keys = []
    lines: dict[bytes, int] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        fields = raw.split("#", 1)[0].split(maxsplit=1)
        if not fields:
            continue
        digest = fields[0].lower()
        if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
            raise KeyFileError(f"{path}:{number}: expected the SHA-256 of a key in hex "
                               "(64 digits; python -m api.server.keys KEY prints it)")
        try:
            rate = parse_rate(fields[1]) if len(fields) > 1 else default_rate
        except ValueError as error:
            raise KeyFileError(f"{path}:{number}: {_NOT_A_RATE.format(fields[1], error)}") from None
        digest_bytes = bytes.fromhex(digest)
        if digest_bytes in lines:
            raise KeyFileError(f"{path}:{number}: the key of line {lines[digest_bytes]} again "
                               "(one line a key: which rate would hold?)")
        lines[digest_bytes] = number
        keys.append(ApiKey(digest_bytes, rate))
    return keys


_USAGE = "usage: python -m api.server.keys KEY [RATE] | --id KEY"


def main(argv: list[str] | None = None) -> int:
    """``python -m api.server.keys KEY [RATE]``: the key file line of a key;
    ``--id KEY``: the id the service names a configured key by, under this
    environment's settings (to tell which key a log line is about)."""
    args = sys.argv[1:] if argv is None else argv
    if args in (["-h"], ["--help"]):  # the usage asked for, not the line of a key "--help"
        print(_USAGE)
        return 0
    if args[:1] == ["--id"]:
        if len(args) != 2:
            print(_USAGE, file=sys.stderr)
            return 2
        try:
            found = KeyRing.from_settings(current()).find(args[1])
        except SettingsError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
        if found is None:
            print("error: that key is not configured here (RUMMY_SOLVER_API_KEYS, "
                  "RUMMY_SOLVER_API_KEYS_FILE)", file=sys.stderr)
            return 1
        print(found.id)
        return 0
    if not args or len(args) > 2:
        print(_USAGE, file=sys.stderr)
        return 2
    if not printable_key(args[0]):
        print(f"error: the key {NOT_PRINTABLE_KEY}", file=sys.stderr)
        return 2
    if not args[0].strip() or args[0].strip() != args[0]:
        print("error: the key is empty or has spaces at an end, which the service strips",
              file=sys.stderr)
        return 2
    if len(args) > 1:
        # Checked as the service reads the file: a line it refuses stops it at start.
        try:
            parse_rate(args[1])
        except ValueError as error:
            print(f"error: {_NOT_A_RATE.format(args[1], error)}", file=sys.stderr)
            return 2
    print(digest_of(args[0]).hex() + (f"  {args[1]}" if len(args) > 1 else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
