"""``POST /v1/solve/stream``: NDJSON in, NDJSON out, one answer line per input line."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.server.dispatch import settings_of
from api.server.routes.deps import KEY_RESPONSES
from api.server.stream import MEDIA_TYPE, NdjsonStream, StreamResponse
from api.shared.operations import line_names
from api.shared.schemas import ErrorResponse

router = APIRouter(prefix="/v1/solve", tags=["solve"])
PATH = router.prefix + "/stream"
"""The stream's path (its body is NDJSON: ``api.server.media_types``)."""

STREAM_EXAMPLE_IN = (
    '{"id": 1, "variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}\n'
    '{"id": 2, "op": "hint_discard", "variant": "gin", "hand": "AS 2S 3S 7H 7D 7C 8C 9C TC KH QD"}\n'
    '{"id": 3, "variant": "gin", "hand": "AS ZZ"}\n')


@router.post(
    "/stream", operation_id="solve_stream", response_class=Response,
    openapi_extra={"requestBody": {"required": True, "content": {MEDIA_TYPE: {
        "schema": {"type": "string", "description": (
            "one JSON request per line: a /v1/solve body, or with \"op\" an operation id ("
            f"{', '.join(line_names())}) and that endpoint's body; "
            "an optional \"id\" is echoed")},
        "example": STREAM_EXAMPLE_IN}}}},
    responses={200: {"description": (
        "one line per input line, in input order, each sent when ready: "
        "{\"id\", \"result\"} (the endpoint's answer less elapsed_ms) or "
        "{\"id\", \"line\", \"error\": {type, loc, msg}} (line: its number, from 1; the item "
        "exactly the endpoint's, loc under \"line\"); exactly what `rummy-solver bulk` writes"),
        "content": {MEDIA_TYPE: {"schema": {"type": "string"}, "example": (
            '{"id":1,"result":{"variant":"gin","melds":[...],"deadwood_points":33,...}}\n'
            '{"id":2,"result":{"variant":"gin","better":"lower","options":[...],...}}\n'
            '{"id":3,"line":3,"error":{"type":"invalid_card","loc":["line","hand",1],'
            '"msg":"unknown card \'ZZ\' at position 1: ..."}}\n')}}},
        415: {"model": ErrorResponse, "description": (
            "the body's Content-Type is not NDJSON (application/x-ndjson; a body without a "
            "Content-Type is read as NDJSON)")},
        **KEY_RESPONSES},
)
async def solve_stream(request: Request) -> Response:
    """Answer a game log line by line: NDJSON in, NDJSON out (as ``rummy-solver bulk``).

    Every line runs under its own deadline (its ``time_limit_ms`` or the
    default) and is sent as soon as it is answered, in input order; a bad
    line gets an error line and the stream goes on.  A line is at most
    ``RUMMY_SOLVER_MAX_BODY_BYTES``, the stream at most
    ``RUMMY_SOLVER_MAX_STREAM_BYTES``."""
    state = request.scope.setdefault("state", {})
    return StreamResponse(NdjsonStream(request.app.state.pool, settings_of(request),
                                       state.get("request_id", "-")))

