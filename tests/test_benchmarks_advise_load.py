"""The advise load benchmark sends what the API accepts: every recorded
position is a valid ``/v1/advise`` body, and the service's advice for it
(through the same operation the route calls) is a legal move of its phase."""

from __future__ import annotations

import pytest

from api.shared.operations import OPERATIONS
from api.shared.settings import Settings
from benchmarks.service.advise_load import advise_bodies, raw_requests
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


# An Indian advisor may drop on its first turn, so a deal can hold a single
# decision of its own: those games record several deals.
@pytest.mark.parametrize(("game", "players", "deals", "step", "phases"), [
    ("indian13", 3, 3, 1, {"draw"}),
    pytest.param("indian21", 3, 2, 3, {"draw"}, marks=pytest.mark.slow),
    pytest.param("rummy500", 3, 1, 3, {"draw", "play"}, marks=pytest.mark.slow),
    ("rummy500", 6, 1, 3, {"draw", "play"}),  # two decks: the lay-down games' default case
    pytest.param("rommy", 3, 1, 3, {"draw", "play"}, marks=pytest.mark.slow),
    pytest.param("basic", 3, 1, 3, {"draw", "play"}, marks=pytest.mark.slow),
])
def test_recorded_rotated_game_positions_are_advise_requests(game: str, players: int, deals: int,
                                                             step: int, phases: set[str]) -> None:
    bodies = advise_bodies(hands=deals, seed=5, game=game, players=players)
    assert len(bodies) >= 3 * deals
    seen = set()
    for body in bodies[::step]:
        assert body["game"] == game and body["players"] == players
        operation = OPERATIONS["advise"]
        call = operation.parse({**body, "level": "novice"}, Settings())
        answer = operation.execute(call.args, Deadline.after_ms(call.limit_ms))
        seen.add(answer["phase"])
        assert answer["moves"], body
    assert phases <= seen


def test_raw_requests_carry_the_body() -> None:
    raw = raw_requests([{"game": "gin"}], 8000)[0]
    head, body = raw.split(b"\r\n\r\n", 1)
    assert head.startswith(b"POST /v1/advise HTTP/1.1")
    assert f"Content-Length: {len(body)}".encode() in head
