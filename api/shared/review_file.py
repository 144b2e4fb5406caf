"""``rummy-solver review FILE``: the recorded game read from a file.

``FILE`` holds one recorded game, the JSON object ``POST /v1/review`` takes
(``-``: standard input); the command's options (``--seats``, ``--level``,
``--seed``, ``--time-limit-ms`` ...) are added to it, and win over the same
field in the file.  The body is then checked by the operation's model like
any request.  The operation registry names this as ``review_game``'s
command-line extra.
"""

from __future__ import annotations

import argparse
import gzip
from typing import Any

from api.shared.decode import UNREADABLE_INPUT, decode_field, open_input, unusable_file
from api.shared.errors import RequestRejected
from api.shared.settings import current


class ReviewFile:
    """The ``CliExtra`` of ``review_game``."""

    def add_arguments(self, parser: argparse.ArgumentParser) -> None:
        """Add the ``FILE`` argument."""
        parser.add_argument("file", metavar="FILE",
                            help="the recorded game: a JSON object, the body of POST "
                                 "/v1/review (- for standard input; gzip is read as such, "
                                 "known by its first bytes)")

    def apply(self, args: argparse.Namespace, body: dict[str, Any]) -> None:
        """Fill ``body`` with the file's fields (the options given win); the
        file read as an HTTP body is (``api.shared.decode``), gzip (known by
        its first bytes, as ``bulk`` knows it) uncompressed first, and bounded
        as one: no more than ``RUMMY_SOLVER_MAX_BODY_BYTES`` is read
        (uncompressed), so a small gzip bomb or an endless input cannot fill
        the memory."""
        limit = current().max_body_bytes
        try:
            stream = open_input(args.file)
            try:
                raw = stream.read(limit + 1)
                packed = isinstance(stream, gzip.GzipFile)
            finally:
                if args.file != "-":
                    stream.close()
        except UNREADABLE_INPUT as error:
            raise unusable_file("file", args.file, error) from None
        if len(raw) > limit:
            raise RequestRejected.one("body_too_large", ["file"],
                                      f"{'standard input' if args.file == '-' else args.file}"
                                      f" is over {limit} bytes"
                                      f"{' uncompressed' if packed else ''}"
                                      ", the limit of a request body "
                                      "(RUMMY_SOLVER_MAX_BODY_BYTES)")
        record = decode_field(raw, "file", "-" if args.file == "-" else args.file)
        if not isinstance(record, dict):
            raise RequestRejected.one("model_attributes_type", ["file"],
                                      f"{args.file} must hold one recorded game, a JSON "
                                      "object (for many, one a line: rummy-solver bulk --op "
                                      "review_game)")
        for name, value in record.items():
            body.setdefault(name, value)


REVIEW_FILE = ReviewFile()
