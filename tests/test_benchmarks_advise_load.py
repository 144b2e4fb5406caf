"""The advise load benchmark sends what the API accepts: every recorded
position is a valid ``/v1/advise`` body, and the service's advice for it
(through the same operation the route calls) is a legal move of its phase."""

from __future__ import annotations

from api.operations import OPERATIONS
from api.settings import Settings
from benchmarks.advise_load import advise_bodies, raw_requests
from solver.deadline import Deadline


def test_recorded_positions_are_advise_requests() -> None:
    bodies = advise_bodies(hands=2, seed=5)
    assert len(bodies) >= 10
    phases = set()
    for body in bodies:
        operation = OPERATIONS["advise"]
        call = operation.parse({**body, "level": "novice"}, Settings())
        answer = operation.execute(call.args, Deadline.after_ms(call.limit_ms))
        phases.add(answer["phase"])
        assert answer["moves"], body
    assert {"draw", "discard"} <= phases


def test_recorded_indian_positions_are_advise_requests() -> None:
    bodies = advise_bodies(hands=1, seed=5, game="indian13")
    assert len(bodies) >= 6
    phases = set()
    for body in bodies:
        assert body["game"] == "indian13" and body["players"] == 3
        operation = OPERATIONS["advise"]
        call = operation.parse({**body, "level": "novice"}, Settings())
        answer = operation.execute(call.args, Deadline.after_ms(call.limit_ms))
        phases.add(answer["phase"])
        assert answer["moves"], body
    assert "draw" in phases


def test_recorded_rummy500_positions_are_advise_requests() -> None:
    bodies = advise_bodies(hands=1, seed=5, game="rummy500")
    assert len(bodies) >= 6
    phases = set()
    for body in bodies[::3]:
        assert body["game"] == "rummy500" and body["players"] == 3
        operation = OPERATIONS["advise"]
        call = operation.parse({**body, "level": "novice"}, Settings())
        answer = operation.execute(call.args, Deadline.after_ms(call.limit_ms))
        phases.add(answer["phase"])
        assert answer["moves"], body
    assert {"draw", "play"} <= phases


def test_raw_requests_carry_the_body() -> None:
    raw = raw_requests([{"game": "gin"}], 8000)[0]
    head, body = raw.split(b"\r\n\r\n", 1)
    assert head.startswith(b"POST /v1/advise HTTP/1.1")
    assert f"Content-Length: {len(body)}".encode() in head
