"""Whether the review's memory stays flat over a run: ``python -m benchmarks.speed.review_memory N``.

Plays ``N`` gin hands as ``benchmarks.speed.bulk``'s review log does (the
advisor at ``novice`` against itself, every third hand against a random
player), then reviews them one after another in this process at the
default level and prints the resident memory (MB) after every 50 reviews
and the peak so far: a leak grows with the count, a cache fills once.
Never asserted on: the figures are for docs/REVIEW_FIGURES.md.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence

from benchmarks.speed.bulk import recorded_hand
from benchmarks.speed.overrides import rss_kib
from solver.review import review

EVERY = 50
"""Reviews between two readings."""


def resident_mb() -> float:
    """This process's resident memory now (``overrides.rss_kib``; 0 without ``/proc``)."""
    return (rss_kib()["rss_kib"] or 0) / 1024


def main(argv: Sequence[str] | None = None) -> int:
    """Review ``N`` (the first argument, default 400) hands and print the readings."""
    args = list(sys.argv[1:] if argv is None else argv)
    count = int(args[0]) if args else 400
    bodies = [json.loads(recorded_hand(number)) for number in range(5000, 5000 + count)]
    print(f"{count} hands played; resident {resident_mb():.0f} MB", flush=True)
    print("| reviews | resident MB | peak MB |\n|---:|---:|---:|", flush=True)
    for done, body in enumerate(bodies, 1):
        seed = body.pop("seed")
        body.pop("id")
        body.pop("op")
        review(body, seed=seed)
        if done % EVERY == 0 or done == count:
            peak = (rss_kib()["max_rss_kib"] or 0) / 1024
            print(f"| {done} | {resident_mb():.0f} | {peak:.0f} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
