"""The quick lane: ``POST`` of an operation with a quick path, answered
without FastAPI's routing.

A gin solve costs microseconds; FastAPI's request objects, dependency
solving and route matching cost ten times that.  ``QuickLaneMiddleware`` sits
inside the service's own middleware (request context, keys, body guard), so a
request in the lane is still stamped, logged, counted, authorised and size
checked, and answers exactly what its route answers: it decodes the body and
checks it with the operation's ``parse`` (a bad body gets the route's 422),
then answers from the quick path (``api.server.dispatch.quick_answer``).  A call the
quick path does not cover goes on to its route with the checked call in
``scope["state"]["call"]``, so it is not checked twice.
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from api.server.dispatch import quick_answer
from api.server.http_errors import rejected_response
from api.shared.decode import decode
from api.shared.deprecation import deprecation_headers
from api.shared.errors import RequestRejected
from api.shared.operations import OPERATIONS, Operation
from api.shared.settings import Settings

_JSON = [(b"content-type", b"application/json")]


class QuickLaneMiddleware:
    """See the module docstring."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.settings = settings
        self.lanes: dict[str, Operation] = {
            op.path: op for op in OPERATIONS.values() if op.quick is not None}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        operation = self.lanes.get(scope.get("path", "")) if scope["type"] == "http" else None
        if operation is None or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away before sending the whole body
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        state = scope.setdefault("state", {})
        try:
            call = operation.parse(decode(body, "body"), self.settings)
        except RequestRejected as rejected:
            await rejected_response(rejected)(scope, receive, send)
            return
        answered = quick_answer(call)
        if answered is None:
            state["call"] = call
            replayed = False

            async def replay() -> Message:
                nonlocal replayed
                if not replayed:
                    replayed = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            await self.app(scope, replay, send)
            return
        content, state["log_fields"] = answered
        state["route"] = operation.path
        deprecation = [(name.lower().encode(), value.encode())
                       for name, value in deprecation_headers(call.deprecated).items()]
        await send({"type": "http.response.start", "status": 200,
                    "headers": [*_JSON, (b"content-length", str(len(content)).encode()),
                                *deprecation]})
        await send({"type": "http.response.body", "body": content})
