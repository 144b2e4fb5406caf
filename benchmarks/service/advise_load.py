"""``POST /v1/advise`` under load: the advisor's requests from real positions.

The bodies are the public states a player met in arena hands, one per
decision, sent as a game would send them: the hand, the upcard, the whole
history, the match score when there is one; the level is the service's
default.  Gin: the advisor at its novice level against the EAAI
SimpleGinRummyPlayer port; ``indian13`` and ``indian21``: the novice advisor
at a table of three with the greedy and the distance players
(``benchmarks.arena.indian``);
``rummy500``, ``rommy`` and ``basic``: the novice advisor at a table of
three with the greedy and the careful players (``benchmarks.arena.laydown``).
``run_advise_load`` starts the service with two workers and
measures the answers' latency at a steady rate a game server could send
(open loop) and with one request in flight per worker (closed loop), and
reports the slowest answer as the server timed it (arrival to answer);
first, each level's time per decision in one process (``level_times``).
Run it with ``python -m benchmarks --advise-load``.
"""

from __future__ import annotations

import functools
import json
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.arena.core.rotations import play_deal
from benchmarks.arena.core.stats import percentile
from benchmarks.arena.gin.players.advisor import AdvisorPlayer, advice_request
from benchmarks.arena.gin.protocol import PlayerView
from benchmarks.arena.gin.runner import Arena
from benchmarks.arena.indian.players import AdvisorPlayer as IndianAdvisor
from benchmarks.arena.indian.players import make_player as make_indian_player
from benchmarks.arena.indian.referee import PlayerView as IndianView
from benchmarks.arena.indian.runner import play_game
from benchmarks.arena.indian.variants import VARIANTS as INDIAN_VARIANTS
from benchmarks.arena.laydown.advisor_player import AdvisorPlayer as LayDownAdvisor
from benchmarks.arena.laydown.advisor_player import advice_request as lay_down_request
from benchmarks.arena.laydown.players import make_player as make_lay_down_player
from benchmarks.arena.laydown.referee import PlayerView as LayDownView
from benchmarks.arena.laydown.runner import play_round as play_lay_down_round
from benchmarks.arena.laydown.variants import VARIANTS as LAY_DOWN_VARIANTS
from benchmarks.service.load import HOST, Server, api_unavailable, run_phase
from benchmarks.speed.markdown import markdown_table
from solver.play import advise

HANDS = 8
"""Arena hands (gin) or deals (Indian) the positions come from (gin: about 17
decisions each; Indian: about 10 a deal for the advisor's seat)."""
INDIAN_TABLE = ("greedy", "distance")
"""The advisor's opponents at the Indian table."""
LAY_DOWN_TABLE = ("greedy", "careful")
"""The advisor's opponents at the Rummy 500 (Rommy, basic rummy) table."""
TABLE_PLAYERS = 3
"""The table the Indian and lay-down positions come from (gin seats two)."""
GAMES = ("gin", *INDIAN_VARIANTS, *LAY_DOWN_VARIANTS)
"""The games whose positions ``advise_bodies`` records."""
WORKERS = 2
RATES = (2.0, 4.0)
"""Open-loop request rates per second."""
TURN_TIMER_MS = 200
"""A game's turn timer: the last phase sends it as ``time_limit_ms`` (the
advisor is anytime: it answers with what it found by then)."""


class _Recorder(AdvisorPlayer):
    """The novice advisor, keeping each decision's request body."""

    def __init__(self) -> None:
        super().__init__("novice")
        self.bodies: list[dict[str, Any]] = []

    def _advice(self, view: PlayerView) -> Any:
        self.decisions += 1
        body = advice_request(view, (self.seed * 1000 + self.decisions) % 2**31)
        self.bodies.append(body)
        arguments = {k: v for k, v in body.items() if k != "game"}
        return advise(body["game"], **arguments, level="novice")


def advise_bodies(hands: int = HANDS, seed: int = 0, game: str = "gin",
                  players: int = TABLE_PLAYERS) -> list[dict[str, Any]]:
    """Request bodies of every advisor decision in ``hands`` arena hands (deals;
    ``players`` at the table but in gin, which seats two)."""
    if game in LAY_DOWN_VARIANTS:
        return _lay_down_bodies(game, hands, seed, players)
    if game in INDIAN_VARIANTS:
        return _indian_bodies(game, hands, seed, players)
    arena = Arena("advisor_novice", "eaai_simple", seed=seed, cross_check=False)
    recorder = _Recorder()
    arena.players["a"] = recorder
    arena.play_pairs((hands + 1) // 2)
    return recorder.bodies


class _IndianRecorder(IndianAdvisor):
    """The novice Indian advisor, keeping each decision's request body."""

    def __init__(self) -> None:
        super().__init__("novice")
        self.bodies: list[dict[str, Any]] = []

    def request(self, view: IndianView) -> dict[str, Any]:
        body = super().request(view)
        self.bodies.append(dict(body))
        return body


def _table(others: Sequence[str], players: int) -> tuple[str, ...]:
    """The recorded advisor and ``players - 1`` of ``others``, taken in turn.

    >>> _table(("greedy", "careful"), 5)
    ('advisor_novice', 'greedy', 'careful', 'greedy', 'careful')
    """
    return ("advisor_novice", *(others[i % len(others)] for i in range(players - 1)))


def _indian_bodies(game: str, deals: int, seed: int, players: int) -> list[dict[str, Any]]:
    """Request bodies of the novice advisor's decisions at a table of Indian
    rummy ``game`` (its seat rotated over each deal)."""
    variant = INDIAN_VARIANTS[game]
    return _recorded(_IndianRecorder(), _table(INDIAN_TABLE, players), variant.seeds,
                     variant.deck, deals, seed,
                     lambda deck, seats, seeds, players: play_game(deck, seats, seeds,
                                                                   variant.rules, players,
                                                                   variant),
                     make_indian_player)


class _LayDownRecorder(LayDownAdvisor):
    """The novice advisor of a lay-down game, keeping each decision's request body."""

    def __init__(self) -> None:
        super().__init__("novice")
        self.bodies: list[dict[str, Any]] = []

    def act(self, view: LayDownView) -> Any:
        seed = (self.seed * 1000 + self.decisions + 1) % 2**31
        body = lay_down_request(view, "novice", seed)
        self.bodies.append({"game": view.variant.name,
                            **{k: v for k, v in body.items() if k not in ("level", "time_limit_ms")}})
        return super().act(view)


def _lay_down_bodies(game: str, deals: int, seed: int, players: int) -> list[dict[str, Any]]:
    """Request bodies of the novice advisor's decisions at a table of ``game``
    (``LAY_DOWN_TABLE`` in turn; its seat rotated over each deal)."""
    variant = LAY_DOWN_VARIANTS[game]
    return _recorded(_LayDownRecorder(), _table(LAY_DOWN_TABLE, players), variant.name,
                     variant.cards_for(players), deals, seed,
                     functools.partial(play_lay_down_round, variant=variant),
                     lambda name: make_lay_down_player(name, variant.label))


def _recorded(recorder: Any, lineup: Sequence[str], stream: str, cards: Sequence[int],
              deals: int, seed: int, play: Callable[..., object],
              make: Callable[[str], Any]) -> list[dict[str, Any]]:
    """``recorder``'s request bodies over ``deals`` deals of ``lineup`` (the
    recorder in its first place), each played once per seat rotation;
    ``play(deck, seats, seeds, players)`` plays one game."""
    for deal in range(deals):
        play_deal(stream, cards, lineup, seed, deal,
                  lambda deck, seats, seeds: play(deck, seats, seeds,
                                                  [recorder if name == lineup[0] else make(name)
                                                   for name in seats]))
    return list(recorder.bodies)


def level_times(bodies: list[dict[str, Any]],
                levels: tuple[str, ...] = ("novice", "standard", "expert")) -> dict[str, Any]:
    """Per level, the library's time per decision over ``bodies`` (one
    process, one decision at a time): median, p90, p99 and max in ms."""
    out: dict[str, Any] = {}
    for level in levels:
        times = []
        for body in bodies:
            arguments = {k: v for k, v in body.items() if k != "game"}
            started = time.perf_counter()
            advise(body["game"], **arguments, level=level)
            times.append((time.perf_counter() - started) * 1000.0)
        times.sort()
        out[level] = {"decisions": len(times), "median_ms": statistics.median(times),
                      "p90_ms": percentile(times, 0.90), "p99_ms": percentile(times, 0.99),
                      "max_ms": times[-1]}
    return out


def raw_requests(bodies: list[dict[str, Any]], port: int) -> list[bytes]:
    """HTTP/1.1 ``POST /v1/advise`` requests of ``bodies``."""
    out = []
    for body in bodies:
        data = json.dumps(body).encode()
        head = (f"POST /v1/advise HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n")
        out.append(head.encode() + data)
    return out


def run_advise_load(seconds: float = 20.0, hands: int = HANDS, seed: int = 0,
                    progress: Callable[[str], None] | None = None,
                    game: str = "gin", players: int = TABLE_PLAYERS) -> dict[str, Any]:
    """Latency of ``/v1/advise`` at the default level with two workers, on the
    positions of a table of ``players`` (gin: two); ``{"skipped": reason}``
    when the API cannot run."""
    reason = api_unavailable()
    if reason is not None:
        return {"skipped": reason}
    bodies = advise_bodies(hands, seed, game, players)
    if progress:
        progress(f"advise load: {len(bodies)} {game} positions from {hands} arena hands")
    levels = level_times(bodies)
    phases: list[dict[str, Any]] = []
    with Server(WORKERS, log_level="info") as server:
        server.wait_ready()
        requests = raw_requests(bodies, server.port)
        run_phase(server.port, requests, 3.0, concurrency=WORKERS)  # warm up
        for rate in RATES:
            summary = run_phase(server.port, requests, seconds, concurrency=16,
                                rate=rate).summary()
            phases.append({"mode": f"open loop {rate:g}/s", **summary})
            if progress:
                progress(f"advise load: {phases[-1]}")
        summary = run_phase(server.port, requests, seconds, concurrency=WORKERS).summary()
        phases.append({"mode": f"closed loop, {WORKERS} in flight", **summary})
        timed = raw_requests([{**body, "time_limit_ms": TURN_TIMER_MS} for body in bodies],
                             server.port)
        summary = run_phase(server.port, timed, seconds, concurrency=16,
                            rate=RATES[-1]).summary()
        phases.append({"mode": f"open loop {RATES[-1]:g}/s, time_limit_ms {TURN_TIMER_MS}",
                       **summary})
        on_server = server.server_ms()
    return {"game": game, "players": 2 if game == "gin" else players, "workers": WORKERS,
            "positions": len(bodies), "levels": levels,
            "phases": phases,
            "slowest_on_server_ms": max(on_server.values(), default=0.0)}


def render_advise_load(results: dict[str, Any]) -> str:
    """The figures as a Markdown table."""
    if "skipped" in results:
        return f"advise load skipped: {results['skipped']}"
    rows = [[p["mode"], f"{p['requests_per_s']:.1f}", _ms(p["p50_ms"]), _ms(p["p99_ms"]),
             _ms(p["max_ms"]), str(p["errors"])] for p in results["phases"]]
    table = markdown_table(["load", "answers/s", "p50 ms", "p99 ms", "max ms", "errors"], rows)
    levels = markdown_table(
        ["level", "decisions", "median ms", "p90 ms", "p99 ms", "max ms"],
        [[name, str(t["decisions"]), _ms(t["median_ms"]), _ms(t["p90_ms"]), _ms(t["p99_ms"]),
          _ms(t["max_ms"])] for name, t in results["levels"].items()])
    return (f"advise() per decision, one process, {results['positions']} "
            f"{results.get('game', 'gin')} positions from arena hands "
            f"({results.get('players', 2)} players)\n\n{levels}\n\n"
            f"POST /v1/advise, default level, {results['workers']} "
            f"workers; slowest on the server: {results['slowest_on_server_ms']:.0f} ms\n\n{table}")


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"
