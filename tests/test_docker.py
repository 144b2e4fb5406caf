"""The Dockerfile builds an image that serves the API as a non-root user.

Slow (``--run-slow``) and skipped where no container runtime can build: it
needs a running Docker (or Podman) and the ``python:3.11-slim`` base image.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from benchmarks.service.load import free_port

ROOT = Path(__file__).resolve().parent.parent
RUNTIMES = [r for r in ("docker", "podman") if shutil.which(r)]


BASE_IMAGE = "python:3.11-slim"


def _buildable_runtime() -> tuple[str | None, str]:
    """A container runtime that runs here and has (or can pull) the base image,
    else None and why not."""
    reasons = []
    for runtime in RUNTIMES:
        try:
            if subprocess.run([runtime, "info"], capture_output=True, timeout=30).returncode:
                reasons.append(f"{runtime}: no daemon answers")
                continue
            for command in (["image", "inspect", BASE_IMAGE], ["pull", BASE_IMAGE]):
                if subprocess.run([runtime, *command], capture_output=True,
                                  timeout=300).returncode == 0:
                    return runtime, ""
            reasons.append(f"{runtime}: cannot get {BASE_IMAGE} (no registry access?)")
        except (OSError, subprocess.TimeoutExpired) as error:
            reasons.append(f"{runtime}: {error}")
    return None, "; ".join(reasons) or "neither docker nor podman is installed"


@pytest.mark.slow
def test_the_image_builds_and_serves_as_a_non_root_user() -> None:
    runtime, why_not = _buildable_runtime()
    if runtime is None:
        pytest.skip(why_not)
    tag = "rummy-solver:test"
    subprocess.run([runtime, "build", "-t", tag, str(ROOT)], check=True, timeout=1200)
    port = free_port()
    container = subprocess.run(
        [runtime, "run", "-d", "--rm", "-p", f"127.0.0.1:{port}:8000", tag, "--workers", "1"],
        check=True, capture_output=True, text=True, timeout=60).stdout.strip()
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=2) as reply:
                    if reply.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline, "the container never became ready"
            time.sleep(0.5)
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/v1/solve", method="POST",
            data=json.dumps({"variant": "gin", "hand": "AS 2S 3S 7H 7D 7C KD QH 4C 9S"}).encode(),
            headers={"content-type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as reply:
            assert json.load(reply)["deadwood_points"] == 33
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/play", timeout=10) as reply:
            assert reply.status == 200
        user = subprocess.run([runtime, "exec", container, "id", "-u"], check=True,
                              capture_output=True, text=True, timeout=30).stdout.strip()
        assert user != "0"
    finally:
        subprocess.run([runtime, "stop", container], capture_output=True, timeout=60)
