"""``docs/DEPLOYMENT.md`` says what ``deploy/`` holds: its tables list every
Kubernetes file and Compose service, its figures are the manifests', the
files and settings it names exist, and every reference to a section of the
README (there, in ``deploy/``, the ``Dockerfile`` and the other docs) names
one that is there."""

from __future__ import annotations

import re
import subprocess
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
import yaml

from api.shared.settings import ENV_PREFIX, Settings
from tests.test_deploy import quantity

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
DEPLOYMENT = (ROOT / "docs" / "DEPLOYMENT.md").read_text(encoding="utf-8")
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _section(markdown: str, heading: str) -> str:
    """The text under ``## heading`` up to the next ``## `` heading."""
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", markdown, re.M | re.S)
    assert match is not None, f"no section ## {heading}"
    return match.group(1)


def _table_column(text: str) -> list[str]:
    """The first column's code spans of the Markdown table rows in ``text``."""
    return re.findall(r"^\| `([^`]+)` \|", text, re.M)


def _app_deployment() -> dict[str, Any]:
    for doc in yaml.safe_load_all((DEPLOY / "kubernetes" / "deployment.yaml").read_text()):
        if doc and doc["kind"] == "Deployment":
            deployment: dict[str, Any] = doc
            return deployment
    raise AssertionError("no Deployment in deployment.yaml")


def _compose() -> dict[str, Any]:
    compose: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    return compose


def test_the_kubernetes_table_lists_every_file() -> None:
    listed = _table_column(_section(DEPLOYMENT, "Kubernetes"))
    assert sorted(listed) == sorted(p.name for p in (DEPLOY / "kubernetes").iterdir())


def test_the_compose_table_lists_every_service_and_its_image() -> None:
    section = _section(DEPLOYMENT, "Docker Compose")
    services = _compose()["services"]
    assert _table_column(section) == list(services)
    for name, service in services.items():
        if "build" not in service:
            assert f"`{service['image']}`" in section, name


def test_the_resources_are_the_manifests() -> None:
    resources = _app_deployment()["spec"]["template"]["spec"]["containers"][0]["resources"]
    match = re.search(r"Requests (\S+) CPU and (\S+ \w+), limits (\S+) CPUs and (\S+ \w+)\.",
                      " ".join(DEPLOYMENT.split()))
    assert match is not None
    said = [Decimal(match[1]), quantity(match[2].replace(" ", "").removesuffix("B")),
            Decimal(match[3]), quantity(match[4].replace(" ", "").removesuffix("B"))]
    assert said == [quantity(resources["requests"]["cpu"]), quantity(resources["requests"]["memory"]),
                    quantity(resources["limits"]["cpu"]), quantity(resources["limits"]["memory"])]


def _env(name: str) -> tuple[str, str]:
    """A setting's value in deployment.yaml and in compose.yaml."""
    container = _app_deployment()["spec"]["template"]["spec"]["containers"][0]
    kubernetes = {item["name"]: item.get("value") for item in container["env"]}[name]
    return kubernetes, _compose()["services"]["rummy-solver"]["environment"][name]


def test_the_solver_processes_and_recycling_are_the_files() -> None:
    text = " ".join(DEPLOYMENT.split())
    processes, compose_processes = _env("RUMMY_SOLVER_PROCESSES")
    assert processes == compose_processes
    assert f"`RUMMY_SOLVER_PROCESSES` solver processes per worker: {processes} here" in text
    recycle, compose_recycle = _env("RUMMY_SOLVER_RECYCLE_RSS_MB")
    assert recycle == compose_recycle
    assert text.count(f"`RUMMY_SOLVER_RECYCLE_RSS_MB` ({recycle} here)") == 2
    service = _compose()["services"]["rummy-solver"]
    assert f"limited to {service['cpus']} CPUs" in text
    memory = re.fullmatch(r"(\d+)g", service["mem_limit"])
    assert memory is not None
    assert f"and {memory.group(1)} GiB:" in text  # Docker's g is 2**30 bytes


def test_the_redis_urls_are_the_files() -> None:
    kubernetes, compose = _env("RUMMY_SOLVER_REDIS_URL")
    section = _section(DEPLOYMENT, "Rate limits shared through Redis")
    assert f"`{compose}` in Compose" in section
    assert f"`{kubernetes}`\non Kubernetes" in section or f"`{kubernetes}` on Kubernetes" in section


def test_the_forwarded_addresses_are_the_files_and_the_default() -> None:
    """The value DEPLOYMENT.md says both deployments give ``FORWARDED_ALLOW_IPS``
    is theirs, and the service's default (it said "uvicorn's default,
    127.0.0.1", neither the files' value nor the service's)."""
    kubernetes, compose = _env("FORWARDED_ALLOW_IPS")
    default = Settings.model_fields["forwarded_allow_ips"].default
    assert kubernetes == compose == default
    text = " ".join(_section(DEPLOYMENT, "Rate limits shared through Redis").split())
    assert f"leave it at the service's default, `{default}`" in text


def test_every_setting_named_is_one() -> None:
    names = {ENV_PREFIX + field.upper() for field in Settings.model_fields}
    named = set(re.findall(r"RUMMY_SOLVER_[A-Z_]+", DEPLOYMENT))
    assert named and named <= names, named - names


def _ignored(path: Path) -> bool:
    return subprocess.run(["git", "check-ignore", "-q", str(path)], cwd=ROOT,
                          capture_output=True, timeout=30, check=False).returncode == 0


def test_every_file_named_exists() -> None:
    """Repository paths in code spans (``deploy/compose.yaml``, ``api/pool/resources.py``
    ...) exist, but for the ones a user makes, which git ignores."""
    named = set(re.findall(r"`((?:deploy|api|tests|docs|clients)/[\w./-]*)`", DEPLOYMENT))
    assert "deploy/compose.yaml" in named
    missing = [p for p in sorted(named) if not (ROOT / p).exists() and not _ignored(ROOT / p)]
    assert not missing, missing


def _readme_sections() -> set[str]:
    """The README's headings and the bold words that open its paragraphs."""
    headings = re.findall(r"^#+ (.+)$", README, re.M)
    paragraphs = re.findall(r"^\*\*([^*]+?)\.?\*\*", README, re.M)
    return set(headings) | set(paragraphs)


REFERRING = ["Dockerfile", "deploy/compose.yaml", "deploy/compose.keys.yaml",
             "deploy/prometheus.yml", *(f"deploy/kubernetes/{p.name}" for p in
                                         sorted((DEPLOY / "kubernetes").glob("*.yaml"))),
             *(f"docs/{p.name}" for p in sorted((ROOT / "docs").glob("*.md")))]


@pytest.mark.parametrize("name", REFERRING)
def test_readme_sections_referred_to_exist(name: str) -> None:
    text = (ROOT / name).read_text(encoding="utf-8")
    # A comment's words run on over its next line: join them.
    text = " ".join(re.sub(r"\n\s*#\s*", " ", text).split())
    referred = re.findall(r"""README(?:'s|,|:)? "([^"]+)\"""", text)
    missing = set(referred) - _readme_sections()
    assert not missing, f"{name} refers to README sections that do not exist: {sorted(missing)}"


def test_the_reference_check_sees_a_wrong_name() -> None:
    text = 'see the README\'s "Service settings"'
    assert re.findall(r"""README(?:'s|,|:)? "([^"]+)\"""", text) == ["Service settings"]
    assert "Service settings" not in _readme_sections()
    assert {"Settings", "Deadlines", "Docker", "REST API"} <= _readme_sections()
