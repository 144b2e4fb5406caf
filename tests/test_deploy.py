"""``deploy/``: the Kubernetes manifests and the Compose file are valid, and
agree with the app and with each other.

* Schemas: each Kubernetes manifest against the official JSON schemas of its
  ``apiVersion``/``kind`` (``kubernetes-validate``, which ships them for every
  Kubernetes minor version, strict: unknown fields are errors), for the oldest
  and the newest Kubernetes we support (the slow lane: ``pip install -e
  '.[test-slow]'`` and ``pytest --run-slow``); ``compose.yaml`` against the Compose
  Specification's schema (``check-jsonschema``'s vendored copy), and through
  ``docker compose config`` where the Compose plugin is installed.
* Our own checks: probe and scrape paths are routes of the app (and answer
  200), the SIGTERM drain ends before the grace period, limits cover requests
  and the memory the workers' solver processes may hold, the README's fair
  share has its solver processes, ports and labels line up, the Redis URL
  names the Redis that runs beside the service (and the app waits for it to
  be healthy in Compose), the key file is the mounted Secret and parses, every
  ``RUMMY_SOLVER_*`` variable is a setting the service reads.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import warnings
from collections.abc import Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from starlette.exceptions import StarletteDeprecationWarning

from api.server.keys import KeyRing
from api.server.main import create_app
from api.shared.settings import Settings, load_settings, variable

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
KUBERNETES = DEPLOY / "kubernetes"
COMPOSE = DEPLOY / "compose.yaml"
COMPOSE_KEYS = DEPLOY / "compose.keys.yaml"
KUBERNETES_VERSIONS = ("1.29.0", "1.37.0")
"""The oldest Kubernetes the manifests support (1.29: still in the managed
clouds' extended support) and the newest whose schemas kubernetes-validate ships."""
APP = "rummy-solver"
"""The name of the service's Deployment, Service and Compose service."""
APP_PORT = 8000
REDIS_PORT = 6379
WORKER_MIB = 208
"""What a uvicorn worker holds with its forkserver, its solver processes apart
(measured: about 70 + 128 MB at start on 2026-12-07, the forkserver holding
what the solver processes' warm-up built; 135 + 110 MB after expert advice of
every game while the worker still loaded CP-SAT)."""


def _kubernetes_validate() -> Any:
    """The schema checker (over 100 MB of schemas: the test-slow extra, the slow lane)."""
    return pytest.importorskip(
        "kubernetes_validate", reason="kubernetes-validate is not installed (pip install -e '.[test-slow]')")


def _documents(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def _manifest_files() -> list[Path]:
    return sorted(p for p in KUBERNETES.glob("*.yaml") if p.name != "kustomization.yaml")


def _manifests() -> list[dict[str, Any]]:
    return [doc for path in _manifest_files() for doc in _documents(path)]


def _one(kind: str, name: str = APP) -> dict[str, Any]:
    found = [doc for doc in _manifests() if doc["kind"] == kind and doc["metadata"]["name"] == name]
    assert len(found) == 1, f"expected one {kind} {name} in deploy/kubernetes, found {len(found)}"
    return found[0]


def _container(deployment: str = APP) -> dict[str, Any]:
    containers = _one("Deployment", deployment)["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    container: dict[str, Any] = containers[0]
    return container


def _pod_labels(deployment: str) -> dict[str, str]:
    labels: dict[str, str] = _one("Deployment", deployment)["spec"]["template"]["metadata"]["labels"]
    return labels


def _selects(selector: dict[str, str], labels: dict[str, str]) -> bool:
    return selector.items() <= labels.items()


def _env(container: dict[str, Any]) -> dict[str, str]:
    """A container's environment: the values it sets (a value from a Secret is
    the Secret's, unknown here: ``""``, the setting's empty default)."""
    return {item["name"]: item.get("value", "") for item in container.get("env", [])}


def _compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def _app_paths() -> set[str]:
    """Paths the app answers GET on, from its OpenAPI document (FastAPI's route list is lazy)."""
    paths = create_app(Settings(processes=0)).openapi()["paths"]
    return {path for path, operations in paths.items() if "get" in operations}


def _setting_names() -> set[str]:
    return set(_fields_by_variable())


def _fields_by_variable() -> dict[str, str]:
    """Each environment variable the service reads, and its setting."""
    return {variable(name): name for name in Settings.model_fields}


def _settings(env: dict[str, str]) -> Settings:
    """The settings the service starts with under ``env`` (``SettingsError`` if it would not)."""
    fields = _fields_by_variable()
    return load_settings(**{fields[name]: value for name, value in env.items() if name in fields})


_SUFFIXES = {"m": Decimal("0.001"), "": Decimal(1),
             "k": Decimal(10) ** 3, "M": Decimal(10) ** 6, "G": Decimal(10) ** 9,
             "T": Decimal(10) ** 12, "P": Decimal(10) ** 15, "E": Decimal(10) ** 18,
             "Ki": Decimal(2) ** 10, "Mi": Decimal(2) ** 20, "Gi": Decimal(2) ** 30,
             "Ti": Decimal(2) ** 40, "Pi": Decimal(2) ** 50, "Ei": Decimal(2) ** 60}


def quantity(text: str | int | float) -> Decimal:
    """A Kubernetes resource quantity (``"500m"``, ``"2"``, ``"1.5Gi"``) as a number."""
    match = re.fullmatch(r"([0-9.]+)([a-zA-Z]*)", str(text))
    if match is None or match.group(2) not in _SUFFIXES:
        raise ValueError(f"not a Kubernetes quantity: {text!r}")
    return Decimal(match.group(1)) * _SUFFIXES[match.group(2)]


@pytest.mark.parametrize(("text", "value"), [
    ("500m", Decimal("0.5")), ("2", Decimal(2)), (1, Decimal(1)), ("1.5", Decimal("1.5")),
    ("1Gi", Decimal(2**30)), ("512Mi", Decimal(2**29)), ("1G", Decimal(10**9)),
])
def test_quantity(text: str | int, value: Decimal) -> None:
    assert quantity(text) == value


# ---------------------------------------------------------------------------
# Schemas


@pytest.mark.slow
@pytest.mark.parametrize("version", KUBERNETES_VERSIONS)
@pytest.mark.parametrize("path", _manifest_files(), ids=lambda p: p.name)
def test_manifest_matches_the_kubernetes_schema(path: Path, version: str) -> None:
    kubernetes_validate = _kubernetes_validate()
    for doc in _documents(path):
        try:
            kubernetes_validate.validate(doc, version, strict=True)
        except kubernetes_validate.ValidationError as error:
            where = ".".join(str(p) for p in error.path)
            pytest.fail(f"{path.name}: {doc['kind']} is not valid Kubernetes {version}: "
                        f"{where}: {error.message}")


@pytest.mark.slow
def test_the_schema_check_catches_a_misspelt_field() -> None:
    """Strict mode: an unknown field (a typo) fails, not only a wrong type."""
    kubernetes_validate = _kubernetes_validate()
    deployment = yaml.safe_load(yaml.safe_dump(_one("Deployment")))
    deployment["spec"]["template"]["spec"]["terminationGracePeriod"] = 30
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(deployment, KUBERNETES_VERSIONS[-1], strict=True)


def test_kustomization_lists_every_manifest() -> None:
    kustomization = _documents(KUBERNETES / "kustomization.yaml")[0]
    assert kustomization["kind"] == "Kustomization"
    assert sorted(kustomization["resources"]) == [p.name for p in _manifest_files()]
    image = _container()["image"].split(":")[0]
    assert [entry["name"] for entry in kustomization["images"]] == [image]


def _check_compose_schema(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec", str(path)],
        capture_output=True, text=True, timeout=120, check=False)


def test_compose_matches_the_compose_specification(tmp_path: Path) -> None:
    result = _check_compose_schema(COMPOSE)
    assert result.returncode == 0, result.stdout + result.stderr
    misspelt = tmp_path / "compose.yaml"
    misspelt.write_text(COMPOSE.read_text().replace("stop_grace_period:", "stop_grace_perod:"))
    assert _check_compose_schema(misspelt).returncode != 0


def _compose_plugin() -> bool:
    try:
        return subprocess.run(["docker", "compose", "version"], capture_output=True,
                              timeout=30, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def test_docker_compose_config() -> None:
    """What Docker itself makes of the file (needs only the client and its Compose plugin)."""
    if not _compose_plugin():
        pytest.skip("the docker compose plugin is not installed")
    result = subprocess.run(["docker", "compose", "-f", str(COMPOSE), "config", "--quiet"],
                            capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr


# ---------------------------------------------------------------------------
# Kubernetes: our own checks


@pytest.fixture(scope="module")
def probe_client() -> Iterator[Any]:
    with warnings.catch_warnings():
        # Starlette 1.x prefers httpx2 for its TestClient; httpx works the same here.
        warnings.simplefilter("ignore", StarletteDeprecationWarning)
        from fastapi.testclient import TestClient
    with TestClient(create_app(Settings(processes=0))) as client:
        yield client


def _probes() -> dict[str, dict[str, Any]]:
    container = _container()
    return {kind: container[kind]["httpGet"]
            for kind in ("startupProbe", "readinessProbe", "livenessProbe") if kind in container}


def test_readiness_and_liveness_probes() -> None:
    probes = _probes()
    assert probes["readinessProbe"]["path"] == "/readyz"
    assert probes["livenessProbe"]["path"] == "/healthz"


def test_probe_and_scrape_paths_are_routes_that_answer(probe_client: Any) -> None:
    annotations = _one("Deployment")["spec"]["template"]["metadata"]["annotations"]
    paths = {probe["path"] for probe in _probes().values()} | {annotations["prometheus.io/path"]}
    missing = paths - _app_paths()
    assert not missing, f"not routes of the app: {sorted(missing)}"
    for path in sorted(paths):
        assert probe_client.get(path).status_code == 200, path


def test_ports_line_up() -> None:
    container = _container()
    (port,) = container["ports"]
    assert port["containerPort"] == APP_PORT
    for probe in _probes().values():
        assert probe["port"] in (port["name"], port["containerPort"])
    (service_port,) = _one("Service")["spec"]["ports"]
    assert service_port["targetPort"] in (port["name"], port["containerPort"])
    annotations = _one("Deployment")["spec"]["template"]["metadata"]["annotations"]
    assert annotations["prometheus.io/port"] == str(port["containerPort"])


def test_the_drain_ends_before_the_grace_period() -> None:
    """preStop sleep + ``RUMMY_SOLVER_DRAIN_S`` < ``terminationGracePeriodSeconds``:
    requests in flight finish before the kubelet's SIGKILL."""
    pod = _one("Deployment")["spec"]["template"]["spec"]
    container = _container()
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pre_stop_s = int(command[1])
    drain_s = _settings(_env(container)).drain_s
    assert pre_stop_s + drain_s < pod["terminationGracePeriodSeconds"]


def test_limits_cover_requests() -> None:
    resources = _container()["resources"]
    for name in ("cpu", "memory"):
        assert quantity(resources["limits"][name]) >= quantity(resources["requests"][name]), name


def test_environment_is_settings_the_service_reads() -> None:
    env = _env(_container())
    assert set(env) <= _setting_names(), set(env) - _setting_names()
    _settings(env)  # raises SettingsError on a value the service cannot start with


def _check_fair_share(settings: Settings) -> None:
    """README, "Overload and fair shares": a worker keeps its last free solver process
    for a client running nothing; 3 (the default) let two long clients run beside it."""
    assert settings.processes >= Settings.model_fields["processes"].default, (
        "fewer solver processes per worker than the README's fair share needs")


def _check_memory(memory_limit: Decimal, cpus: Decimal, settings: Settings) -> None:
    """One worker per CPU of the quota, each with its solver processes replaced past
    RUMMY_SOLVER_RECYCLE_RSS_MB: the limit holds them all at their largest."""
    workers = int(cpus)
    mib = Decimal(2) ** 20
    needed = workers * (WORKER_MIB + settings.processes * settings.recycle_rss_mb) * mib
    assert memory_limit >= needed, f"memory limit {memory_limit / mib} MiB < {needed / mib} MiB"


def test_each_worker_has_the_fair_shares_solver_processes() -> None:
    _check_fair_share(_settings(_env(_container())))


def test_the_memory_limit_holds_every_solver_process() -> None:
    limits = _container()["resources"]["limits"]
    _check_memory(quantity(limits["memory"]), quantity(limits["cpu"]), _settings(_env(_container())))


def test_the_redis_url_names_the_redis_beside_the_service() -> None:
    """RUMMY_SOLVER_REDIS_URL is a Service of deploy/kubernetes whose pods run Redis on
    that port, and the app's Service and budget select none of them."""
    url = urlsplit(_env(_container())["RUMMY_SOLVER_REDIS_URL"])
    assert url.scheme == "redis" and url.hostname is not None
    service = _one("Service", url.hostname)["spec"]
    (port,) = service["ports"]
    assert port["port"] == (url.port or REDIS_PORT)
    redis = _one("Deployment", url.hostname)
    container = _container(url.hostname)
    assert container["image"].startswith("redis:")
    (container_port,) = container["ports"]
    assert container_port["containerPort"] == REDIS_PORT
    assert port["targetPort"] in (container_port["name"], container_port["containerPort"])
    labels = _pod_labels(url.hostname)
    assert _selects(service["selector"], labels)
    assert _selects(redis["spec"]["selector"]["matchLabels"], labels)
    assert not _selects(_one("Service")["spec"]["selector"], labels)
    assert not _selects(_one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"], labels)
    assert not _selects(service["selector"], _pod_labels(APP))


def test_only_the_service_reaches_redis() -> None:
    host = urlsplit(_env(_container())["RUMMY_SOLVER_REDIS_URL"]).hostname
    assert host is not None
    policy = _one("NetworkPolicy", host)["spec"]
    assert _selects(policy["podSelector"]["matchLabels"], _pod_labels(host))
    assert policy["policyTypes"] == ["Ingress"]
    (rule,) = policy["ingress"]
    (source,) = rule["from"]
    assert _selects(source["podSelector"]["matchLabels"], _pod_labels(APP))
    (port,) = rule["ports"]
    (container_port,) = _container(host)["ports"]
    assert port["port"] in (container_port["name"], container_port["containerPort"])


def _key_file_parses(text: str, tmp_path: Path) -> None:
    path = tmp_path / "api-keys"
    path.write_text(text)
    KeyRing.load("", str(path), "10/second")  # KeyFileError on a line the service refuses


def test_the_key_file_is_the_mounted_secret(tmp_path: Path) -> None:
    path = Path(_env(_container())["RUMMY_SOLVER_API_KEYS_FILE"])
    (mount,) = [m for m in _container()["volumeMounts"] if Path(m["mountPath"]) == path.parent]
    assert mount.get("readOnly") is True
    volumes = _one("Deployment")["spec"]["template"]["spec"]["volumes"]
    (volume,) = [v for v in volumes if v["name"] == mount["name"]]
    secret = _one("Secret", volume["secret"]["secretName"])
    assert path.name in secret["stringData"]
    _key_file_parses(secret["stringData"][path.name], tmp_path)


@pytest.mark.slow
def test_kustomize_builds_valid_manifests() -> None:
    """What ``kubectl apply -k`` applies: kustomize's output, image set, still valid."""
    kubernetes_validate = _kubernetes_validate()
    kubectl = shutil.which("kubectl")
    if kubectl is None:
        pytest.skip("kubectl not installed")
    result = subprocess.run([kubectl, "kustomize", str(KUBERNETES)], capture_output=True,
                            text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    built = [doc for doc in yaml.safe_load_all(result.stdout) if doc]
    assert sorted((d["kind"], d["metadata"]["name"]) for d in built) == \
        sorted((d["kind"], d["metadata"]["name"]) for d in _manifests())
    for doc in built:
        kubernetes_validate.validate(doc, KUBERNETES_VERSIONS[-1], strict=True)


def test_selectors_and_targets_name_the_deployment() -> None:
    deployment = _one("Deployment")
    labels = _pod_labels(APP)
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert _one("Service")["spec"]["selector"].items() <= labels.items()
    assert _one("PodDisruptionBudget")["spec"]["selector"]["matchLabels"].items() <= labels.items()
    target = _one("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])


def test_the_autoscaler_owns_the_replica_count() -> None:
    """A ``replicas`` in the Deployment would reset the autoscaler's choice on every apply."""
    assert "replicas" not in _one("Deployment")["spec"]
    hpa = _one("HorizontalPodAutoscaler")["spec"]
    assert hpa["minReplicas"] >= 2  # the disruption budget can then always leave one pod up
    assert [m["resource"]["name"] for m in hpa["metrics"]] == ["cpu"]
    assert "cpu" in _container()["resources"]["requests"]  # utilisation is relative to it


def test_runs_as_the_images_user() -> None:
    """runAsNonRoot needs a numeric user to check; it must be the Dockerfile's."""
    uid = re.search(r"--uid (\d+)", (ROOT / "Dockerfile").read_text())
    assert uid is not None
    pod = _one("Deployment")["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsUser"] == int(uid.group(1))


# ---------------------------------------------------------------------------
# Compose: our own checks


def test_compose_stops_after_the_drain() -> None:
    service = _compose()["services"]["rummy-solver"]
    grace = re.fullmatch(r"(\d+)s", service["stop_grace_period"])
    assert grace is not None
    assert _settings(service["environment"]).drain_s < int(grace.group(1))


def test_compose_environment_is_settings_the_service_reads() -> None:
    env = _compose()["services"]["rummy-solver"]["environment"]
    unknown = set(env) - _setting_names()
    assert not unknown, unknown
    _settings(env)


def test_compose_has_the_fair_shares_solver_processes_and_their_memory() -> None:
    service = _compose()["services"]["rummy-solver"]
    settings = _settings(service["environment"])
    _check_fair_share(settings)
    limit = re.fullmatch(r"(\d+)([mg])", service["mem_limit"])
    assert limit is not None
    memory = Decimal(limit.group(1)) * Decimal(2) ** (20 if limit.group(2) == "m" else 30)
    _check_memory(memory, Decimal(service["cpus"]), settings)


def test_compose_waits_for_a_healthy_redis() -> None:
    """The Redis URL names the Compose service running Redis, which has a health check
    the app waits for."""
    services = _compose()["services"]
    url = urlsplit(services["rummy-solver"]["environment"]["RUMMY_SOLVER_REDIS_URL"])
    assert url.scheme == "redis" and (url.port or REDIS_PORT) == REDIS_PORT
    assert url.hostname is not None
    redis = services[url.hostname]
    assert redis["image"].startswith("redis:")
    assert "PONG" in " ".join(redis["healthcheck"]["test"])
    depends = services["rummy-solver"]["depends_on"]
    assert depends[url.hostname]["condition"] == "service_healthy"


def test_compose_keys_file(tmp_path: Path) -> None:
    """compose.keys.yaml is a valid Compose file that mounts a key file the service reads;
    the keys of a deployment stay out of the repository."""
    result = _check_compose_schema(COMPOSE_KEYS)
    assert result.returncode == 0, result.stdout + result.stderr
    keys: dict[str, Any] = yaml.safe_load(COMPOSE_KEYS.read_text())
    service = keys["services"]["rummy-solver"]
    (secret,) = service["secrets"]
    assert service["environment"]["RUMMY_SOLVER_API_KEYS_FILE"] == f"/run/secrets/{secret}"
    assert set(service["environment"]) <= _setting_names()
    source = keys["secrets"][secret]["file"]
    ignored = subprocess.run(["git", "check-ignore", "-q", str(DEPLOY / source)], cwd=ROOT,
                             capture_output=True, timeout=30, check=False)
    assert ignored.returncode == 0, f"deploy/{source} is not in .gitignore"


def test_compose_builds_the_dockerfile() -> None:
    build = _compose()["services"]["rummy-solver"]["build"]
    assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == ROOT / "Dockerfile"


def test_prometheus_scrapes_the_service() -> None:
    compose = _compose()["services"]
    mounted = [v.split(":")[0] for v in compose["prometheus"]["volumes"]]
    assert "./prometheus.yml" in mounted
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    (job,) = config["scrape_configs"]
    assert job["metrics_path"] in _app_paths()
    (target,) = [t for group in job["static_configs"] for t in group["targets"]]
    assert target == f"rummy-solver:{APP_PORT}"
    assert "rummy-solver" in compose
