"""What a request body's ``Content-Type`` may say: JSON, or NDJSON for a stream.

The operations read their body as JSON whatever it was labelled, so a
``text/plain`` or form body was answered as if it were JSON; a client that
labels its body as something else most likely sends something else (a
form, a file).  ``BodyGuardMiddleware`` answers such a body 415
``unsupported_media_type`` before reading it.

* An operation's body: ``application/json`` or any ``application/*+json``.
* ``/v1/solve/stream``: NDJSON, ``application/x-ndjson`` (or its other
  spellings, ``ACCEPTED_NDJSON``).
* **No ``Content-Type`` at all** is read as the route's type: HTTP lets a
  client leave it out (RFC 9110 section 8.3), clients written against the
  API before this check may have, and such a body is refused anyway with a
  422 if it is not JSON.  Parameters (``charset=utf-8``) are allowed; the
  body must be UTF-8 whatever they say (422 ``body_not_utf8``).
* **A ``Content-Encoding``** other than ``identity`` (gzip, br ...) is
  refused with the same 415: the service does not decompress bodies, and
  reading a compressed one as JSON gave a 422 ``body_not_utf8`` at byte 1
  that did not say why.

>>> refusal("application/json; charset=utf-8", JSON), refusal(None, JSON)
(None, None)
>>> refusal("application/vnd.example+json", JSON) is None
True
>>> refusal("text/plain", JSON)
"the body's Content-Type is 'text/plain'; send JSON as application/json"
>>> encoding_refusal(None), encoding_refusal("identity")
(None, None)
>>> encoding_refusal("gzip")
"the body's Content-Encoding is 'gzip'; the service takes bodies uncompressed only"
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class BodyType:
    """The media types a route's body may be sent as."""

    names: frozenset[str]
    suffix: str | None
    """Any ``application/*<suffix>`` type is taken too (``+json``)."""
    advice: str
    """How the 415 says to send the body."""

    def takes(self, media_type: str) -> bool:
        """Whether a body labelled ``media_type`` (lower case, no parameters) is taken."""
        return media_type in self.names or (
            self.suffix is not None and media_type.startswith("application/")
            and media_type.endswith(self.suffix))


JSON = BodyType(frozenset({"application/json"}), "+json", "send JSON as application/json")
"""An operation's body."""
ACCEPTED_NDJSON = frozenset({"application/x-ndjson", "application/ndjson", "application/jsonl",
                             "application/x-jsonlines", "application/jsonlines"})
NDJSON = BodyType(ACCEPTED_NDJSON, None,
                  "send one JSON request a line as application/x-ndjson")
"""``/v1/solve/stream``'s body."""


def refusal(content_type: str | None, accepted: BodyType) -> str | None:
    """Why a body labelled ``content_type`` is refused (the 415's message),
    or None when it is taken (a missing label is: see the module docstring)."""
    if content_type is None:
        return None
    media_type = content_type.partition(";")[0].strip().lower()
    if not media_type or accepted.takes(media_type):
        return None
    shown = media_type if len(media_type) <= 60 else media_type[:60] + "..."
    return f"the body's Content-Type is {shown!r}; {accepted.advice}"


def encoding_refusal(content_encoding: str | None) -> str | None:
    """Why a body sent with ``content_encoding`` is refused (the 415's
    message), or None when it is not encoded (no header, or ``identity``)."""
    if content_encoding is None:
        return None
    codings = [c.strip().lower() for c in content_encoding.split(",")]
    if all(c in ("", "identity") for c in codings):
        return None
    shown = content_encoding.strip()
    shown = shown if len(shown) <= 60 else shown[:60] + "..."
    return f"the body's Content-Encoding is {shown!r}; the service takes bodies uncompressed only"
