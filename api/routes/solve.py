"""``POST /v1/solve`` and ``POST /v1/solve/batch``: optimal melds for hands."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from api.batch import check_solve_limits
from api.dispatch import answer, play_limit_ms, settings_of
from api.errors import RequestError
from api.routes.deps import ERROR_RESPONSES
from api.schemas import BatchRequest, BatchResponse, SolveRequest, SolveResponse, rules_overrides
from api.stream import MEDIA_TYPE, NdjsonStream, StreamResponse
from solver.bulk import OPS

router = APIRouter(prefix="/v1/solve", tags=["solve"])


@router.post("", operation_id="solve_hand", response_model=SolveResponse, responses=ERROR_RESPONSES)
async def solve_hand(payload: SolveRequest, request: Request) -> Response:
    """Split a hand into melds and deadwood optimally under a variant's rules."""
    limit_ms = check_solve_limits(payload, settings_of(request))
    return await answer(request, "solve", {
        "hand": list(payload.hand), "variant": payload.variant.value,
        "wild_rank": payload.wild_rank, "discard": payload.discard,
        "rules": rules_overrides(payload.rules), "engine": payload.engine.value,
    }, limit_ms)


@router.post("/batch", operation_id="solve_batch", response_model=BatchResponse,
             responses=ERROR_RESPONSES)
async def solve_batch(payload: BatchRequest, request: Request) -> Response:
    """Solve many hands in one call; each slot holds a solution or an error."""
    settings = settings_of(request)
    if len(payload.requests) > settings.max_batch:
        raise RequestError(
            ["body", "requests"],
            f"batch has {len(payload.requests)} requests; at most {settings.max_batch} are allowed",
            "batch_too_large",
        )
    return await answer(request, "batch", {"requests": payload.requests},
                        play_limit_ms(payload.time_limit_ms, settings))


STREAM_EXAMPLE_IN = (
    '{"id": 1, "variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}\n'
    '{"id": 2, "op": "discard_hint", "variant": "gin", "hand": "AS 2S 3S 7H 7D 7C 8C 9C TC KH QD"}\n'
    '{"id": 3, "variant": "gin", "hand": "AS ZZ"}\n')


@router.post(
    "/stream", operation_id="solve_stream", response_class=Response,
    openapi_extra={"requestBody": {"required": True, "content": {MEDIA_TYPE: {
        "schema": {"type": "string", "description": (
            "one JSON request per line: a /v1/solve body, or with \"op\" one of "
            f"{', '.join(OPS)} and that endpoint's body; an optional \"id\" is echoed")},
        "example": STREAM_EXAMPLE_IN}}}},
    responses={200: {"description": (
        "one line per input line, in input order, each sent when ready: "
        "{\"id\", \"result\"} (the endpoint's answer less elapsed_ms) or "
        "{\"id\", \"error\": {type, msg, loc}}; exactly what `rummy-solver bulk` writes"),
        "content": {MEDIA_TYPE: {"schema": {"type": "string"}, "example": (
            '{"id":1,"result":{"variant":"gin","melds":[...],"deadwood_points":33,...}}\n'
            '{"id":2,"result":{"variant":"gin","better":"lower","options":[...],...}}\n'
            '{"id":3,"error":{"type":"invalid_card","msg":"unknown card \'ZZ\' at position 1: ...",'
            '"loc":["line","hand",1]}}\n')}}}},
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

