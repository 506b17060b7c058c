"""deploy/kubernetes: every manifest valid against Kubernetes' own schemas (offline, strict), and in
agreement with what it deploys: the Dockerfile's command, port, user and health check, compose's
health check and replay store, gunicorn's worker count and shutdown, deploy/nginx.conf's limits
(the general ones and the computer player's) and routes, the service's settings and paths, and the
replay guard's Redis; and the table host's Deployment (tables.yaml: the same image with the host's
app in gevent workers, its tables in that Redis, its routes, its event streams unbuffered), in
agreement with compose.yaml's `tables` service and nginx.conf's /v1/tables locations; the table at
/play routed to the pods that serve it; and, apart from the kustomization (their kinds need the
Prometheus Operator's CRDs), the ServiceMonitor and the README's alerts as a PrometheusRule, on the
metrics the service exports. No cluster, no network (one test starts Debian's redis-server on
loopback with the manifest's arguments, one runs Debian's promtool on the rules when installed)."""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import json
import math
import os
import re
import shlex
import shutil
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

import gunicorn.config
import kubernetes_validate
import pytest
import redis
import yaml
from kubernetes_validate.utils import SchemaNotFoundError
from werkzeug.exceptions import HTTPException

from host import create_app as create_host
from host.settings import HostSettings
from service.config import Settings, usable_cpus
from tests.live import free_port
from tests.live_redis import redis_process

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "kubernetes"
# The Kubernetes release whose schemas the manifests must satisfy. Pinned, and older than the
# newest the package ships (1.37): a cluster some releases behind (managed clusters on extended
# support) accepts what these schemas accept, and a newer package cannot change the verdict.
KUBERNETES_VERSION = "1.33.0"
IMAGE = "card-rules-service"
KUSTOMIZATION_KEYS = {"apiVersion", "kind", "resources", "labels", "images", "namespace"}
# Applied apart from the kustomization: kinds of the Prometheus Operator's CRDs, which neither the
# Kubernetes schemas nor a cluster without the operator know.
MONITORING = ("servicemonitor.yaml", "alerts.yaml")


@functools.cache
def _parsed(path: Path, text: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all(text) if d is not None]


def _documents(path: Path) -> list[dict[str, Any]]:
    """The file's documents, a fresh copy each time (tests change them)."""
    return copy.deepcopy(_parsed(path, path.read_text()))


def kustomization() -> dict[str, Any]:
    (document,) = _documents(K8S / "kustomization.yaml")
    return document


def manifests() -> list[tuple[str, dict[str, Any]]]:
    """(file name, document) for every document of every file kustomization.yaml lists."""
    return [(name, doc) for name in kustomization()["resources"] for doc in _documents(K8S / name)]


def the(kind: str, name: str | None = None) -> dict[str, Any]:
    """The one object of ``kind`` (named ``name``, where there are several of the kind)."""
    found = [doc for _, doc in manifests() if doc["kind"] == kind and name in (None, doc["metadata"]["name"])]
    assert len(found) == 1, f"one {kind} {name or ''} in deploy/kubernetes, found {len(found)}"
    return found[0]


# The service's objects, where a kind has others (redis.yaml's Service, the computer's Ingress,
# tables.yaml's): its Deployment, Service, ConfigMap and PodDisruptionBudget are all `card-rules`.
SERVICE, INGRESS, COMPUTER_INGRESS, REDIS = "card-rules", "card-rules", "card-rules-computer", "card-rules-redis"
# The table host's (tables.yaml): its Deployment, Service, ConfigMap and PodDisruptionBudget are
# all `card-rules-tables`; and its three Ingresses (ingress.yaml).
TABLES = "card-rules-tables"
TABLES_INGRESS, OPEN_INGRESS, EVENTS_INGRESS = TABLES, "card-rules-tables-open", "card-rules-tables-events"
HOST_APP = "host:create_app()"


def container(deployment: dict[str, Any]) -> dict[str, Any]:
    """The Deployment's one container: `service` (the rules) or `tables` (the table host)."""
    (one,) = [c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] in ("service", "tables")]
    return one


def env(c: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {e["name"]: e for e in c.get("env", [])}


# --- kustomization.yaml -------------------------------------------------------------------------

def test_kustomization_has_only_known_keys():
    # No schema ships for kustomization.yaml: its keys are checked here.
    k = kustomization()
    assert set(k) <= KUSTOMIZATION_KEYS, set(k) - KUSTOMIZATION_KEYS
    assert (k["apiVersion"], k["kind"]) == ("kustomize.config.k8s.io/v1beta1", "Kustomization")
    assert "namespace" not in k, "namespace-agnostic: the namespace is the one applied to (-n)"
    assert all(isinstance(r, str) for r in k["resources"])
    for entry in k["labels"]:
        assert set(entry) <= {"pairs", "includeSelectors", "includeTemplates", "fields"}
        assert all(isinstance(v, str) for v in entry["pairs"].values())
    for entry in k["images"]:
        assert set(entry) <= {"name", "newName", "newTag", "digest"}
    assert [i["name"] for i in k["images"]] == [IMAGE]


def test_every_resource_exists_and_every_manifest_is_listed():
    listed = kustomization()["resources"]
    assert len(listed) == len(set(listed))
    missing = [name for name in listed if not (K8S / name).is_file()]
    assert not missing, missing
    on_disk = {p.name for p in K8S.iterdir() if p.suffix in (".yaml", ".yml")} - {"kustomization.yaml"}
    assert on_disk == set(listed) | set(MONITORING)
    assert not set(listed) & set(MONITORING)


def test_manifests_are_namespace_agnostic_and_use_the_kustomized_image():
    for name, doc in manifests():
        assert "namespace" not in doc["metadata"], name
    # The name kustomization.yaml's `images:` rewrites, exactly (no registry, no tag): one image,
    # the rules' and the table host's.
    deployments = [doc for _, doc in manifests() if doc["kind"] == "Deployment"]
    assert sorted(d["metadata"]["name"] for d in deployments) == [SERVICE, TABLES]
    for deployment in deployments:
        assert [c["image"] for c in deployment["spec"]["template"]["spec"]["containers"]] == [IMAGE]


# --- the Kubernetes schemas, offline and strict ---------------------------------------------------

@pytest.mark.parametrize(("name", "doc"), manifests(),
                         ids=[f"{n}:{d['kind']}/{d['metadata']['name']}" for n, d in manifests()])
def test_manifest_validates_against_the_kubernetes_schema(name, doc):
    # strict: the schemas that refuse unknown fields, so a misspelled or misplaced key fails.
    validated = kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
    assert validated == "1.33"


def _unknown_container_field(d):
    container(d)["readinessProbes"] = container(d).pop("readinessProbe")


def _unknown_pod_field(d):
    d["spec"]["template"]["spec"]["securityContext"]["runAsUsr"] = 10001


def _wrong_type(d):
    container(d)["ports"][0]["containerPort"] = "8000"


def _missing_required(d):
    del d["spec"]["selector"]


@pytest.mark.parametrize("breakage", [_unknown_container_field, _unknown_pod_field, _wrong_type,
                                      _missing_required])
def test_a_broken_manifest_is_refused(breakage):
    """The validation above cannot pass by validating nothing."""
    broken = copy.deepcopy(the("Deployment", SERVICE))
    breakage(broken)
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES_VERSION, strict=True)


def test_a_kind_without_a_schema_is_an_error_not_a_pass():
    retired = {**copy.deepcopy(the("HorizontalPodAutoscaler")), "apiVersion": "autoscaling/v2beta2"}
    with pytest.raises(SchemaNotFoundError):
        kubernetes_validate.validate(retired, KUBERNETES_VERSION, strict=True)


# --- agreement with the Dockerfile and compose.yaml ----------------------------------------------

def dockerfile_instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of each instruction, continuation lines joined."""
    joined = re.sub(r"\\\n", " ", text)
    return [(m.group(1).upper(), m.group(2).strip()) for m in re.finditer(r"^\s*([A-Za-z]+)\s+(.*)$", joined, re.M)]


def dockerfile_facts(text: str) -> dict[str, Any]:
    instructions = dockerfile_instructions(text)
    cmd = re.search(r"^CMD (\[.*\])$", text, re.M)
    assert cmd, "the Dockerfile has an exec-form CMD"
    environment = {}
    for instruction, arguments in instructions:
        if instruction == "ENV":
            environment.update(word.split("=", 1) for word in shlex.split(arguments))
    (expose,) = [int(a) for i, a in instructions if i == "EXPOSE"]
    (healthcheck,) = [a for i, a in instructions if i == "HEALTHCHECK"]
    uid = re.search(r"useradd\b[^&;\n]*--uid[ =](\d+)", text)
    assert uid, "the Dockerfile makes its user with useradd --uid"
    return {"command": json.loads(cmd.group(1)), "env": environment, "expose": expose,
            "health_path": health_path(healthcheck), "uid": int(uid.group(1))}


def health_path(text: str) -> str:
    """The path of the loopback URL a health check command requests."""
    found = re.search(r"http://127\.0\.0\.1:[^/'\"\s]*(?:\{[^}]*\})?(/[A-Za-z0-9._~/-]*)", text)
    assert found, f"no loopback URL in {text!r}"
    return found.group(1)


def compose_health(compose: dict[str, Any]) -> tuple[str, int]:
    command = " ".join(compose["services"]["app"]["healthcheck"]["test"])
    port = re.search(r"http://127\.0\.0\.1:(\d+)/", command)
    assert port
    return health_path(command), int(port.group(1))


def disagreements(deployment: dict[str, Any], service: dict[str, Any], dockerfile: str,
                  compose: dict[str, Any]) -> list[str]:
    """Where the Deployment and Service differ from what the Dockerfile and compose run."""
    facts = dockerfile_facts(dockerfile)
    c = container(deployment)
    problems = []
    command = [*c.get("command", []), *c.get("args", [])]
    if command != facts["command"]:
        problems.append(f"command {command} is not the Dockerfile's CMD {facts['command']}")
    ports = {p.get("name"): p["containerPort"] for p in c.get("ports", [])}
    port = ports.get("http")
    variables = env(c)
    for name in ("HOST", "PORT"):
        if variables.get(name, {}).get("value") != facts["env"].get(name):
            problems.append(f"env {name}={variables.get(name, {}).get('value')!r}, "
                            f"the Dockerfile's {facts['env'].get(name)!r}")
    if str(port) != facts["env"].get("PORT") or port != facts["expose"]:
        problems.append(f"containerPort http={port}, the Dockerfile's PORT {facts['env'].get('PORT')} "
                        f"and EXPOSE {facts['expose']}")
    compose_path, compose_port = compose_health(compose)
    if compose_path != facts["health_path"] or compose_port != facts["expose"]:
        problems.append(f"compose checks {compose_path} on {compose_port}, the Dockerfile "
                        f"{facts['health_path']} on {facts['expose']}")

    def resolve(target: int | str) -> int | None:
        return ports.get(target) if isinstance(target, str) else target

    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        get = c.get(probe, {}).get("httpGet")
        if probe != "startupProbe" and get is None:
            problems.append(f"no {probe} httpGet")
        if get is None:
            continue
        if get["path"] != facts["health_path"]:
            problems.append(f"{probe} asks {get['path']}, the Dockerfile's health check {facts['health_path']}")
        if resolve(get["port"]) != port:
            problems.append(f"{probe} asks port {get['port']}, not the container's {port}")
    scraped = deployment["spec"]["template"]["metadata"].get("annotations", {}).get("prometheus.io/port")
    if scraped != str(port):
        problems.append(f"prometheus.io/port {scraped!r}, the container's port {port}")
    for entry in service["spec"]["ports"]:
        if resolve(entry["targetPort"]) != port:
            problems.append(f"the Service's targetPort {entry['targetPort']!r} is not container port {port}")
    return problems


def _actual() -> tuple[dict[str, Any], dict[str, Any], str, dict[str, Any]]:
    return (the("Deployment", SERVICE), the("Service", SERVICE), (ROOT / "Dockerfile").read_text(),
            yaml.safe_load((ROOT / "compose.yaml").read_text()))


def test_the_deployment_runs_the_image_as_the_dockerfile_does():
    assert disagreements(*_actual()) == []


def _set_env(d, name, value):
    env(container(d))[name]["value"] = value


@pytest.mark.parametrize(("mutate", "reported"), [
    (lambda d, s, f, c: container(d)["args"].append("--reload"), "command"),
    (lambda d, s, f, c: container(d).update(command=["/usr/local/bin/gunicorn"]), "command"),
    (lambda d, s, f, c: container(d)["ports"][0].update(containerPort=8080), "containerPort"),
    (lambda d, s, f, c: _set_env(d, "PORT", "8080"), "env PORT"),
    (lambda d, s, f, c: container(d)["readinessProbe"]["httpGet"].update(path="/healthz"), "readinessProbe asks /healthz"),
    (lambda d, s, f, c: container(d)["livenessProbe"]["httpGet"].update(path="/v1/games"), "livenessProbe asks /v1/games"),
    (lambda d, s, f, c: container(d)["livenessProbe"]["httpGet"].update(port=8001), "livenessProbe asks port"),
    (lambda d, s, f, c: s["spec"]["ports"][0].update(targetPort="web"), "targetPort"),
    (lambda d, s, f, c: s["spec"]["ports"][0].update(targetPort=80), "targetPort"),
    (lambda d, s, f, c: c["services"]["app"]["healthcheck"].update(
        test=["CMD", "curl", "-f", "http://127.0.0.1:8000/status"]), "compose checks /status"),
])
def test_a_disagreement_is_reported(mutate, reported):
    deployment, service, dockerfile, compose = copy.deepcopy(_actual())
    mutate(deployment, service, dockerfile, compose)
    found = disagreements(deployment, service, dockerfile, compose)
    assert any(reported in problem for problem in found), found


@pytest.mark.parametrize(("old", "new", "reported"), [
    ('"service:create_app()"]', '"service:create_app()", "--preload"]', "command"),
    ("EXPOSE 8000", "EXPOSE 9000", "EXPOSE 9000"),
    ("PORT=8000", "PORT=9000", "PORT"),
    ("}/health'", "}/ready'", "the Dockerfile's health check /ready"),
])
def test_a_changed_dockerfile_is_reported(old, new, reported):
    deployment, service, dockerfile, compose = _actual()
    assert old in dockerfile
    found = disagreements(deployment, service, dockerfile.replace(old, new), compose)
    assert any(reported in problem for problem in found), found


def test_the_health_path_is_read_from_both_checks():
    facts = dockerfile_facts((ROOT / "Dockerfile").read_text())
    assert facts["health_path"] == compose_health(_actual()[3])[0] == "/health"


# --- the pod's security ---------------------------------------------------------------------------

def test_the_pod_runs_as_the_dockerfiles_user_locked_down():
    uid = dockerfile_facts((ROOT / "Dockerfile").read_text())["uid"]
    pod = the("Deployment", SERVICE)["spec"]["template"]["spec"]
    context = pod["securityContext"]
    assert (context["runAsUser"], context["runAsGroup"], context["fsGroup"]) == (uid, uid, uid)
    assert context["runAsNonRoot"] is True
    assert context["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["automountServiceAccountToken"] is False
    own = container(the("Deployment", SERVICE))["securityContext"]
    assert own.get("runAsUser", uid) == uid
    assert own["readOnlyRootFilesystem"] is True
    assert own["allowPrivilegeEscalation"] is False
    assert own["capabilities"] == {"drop": ["ALL"]}


def test_tmp_is_the_only_writable_place_and_holds_the_metrics():
    pod = the("Deployment", SERVICE)["spec"]["template"]["spec"]
    c = container(the("Deployment", SERVICE))
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    assert set(mounts) == {"/tmp"}
    (volume,) = [v for v in pod["volumes"] if v["name"] == mounts["/tmp"]]
    assert volume["emptyDir"]["medium"] == "Memory"
    assert quantity(volume["emptyDir"]["sizeLimit"]) > 0
    for name in ("PROMETHEUS_MULTIPROC_DIR", "XDG_RUNTIME_DIR"):
        assert Path(env(c)[name]["value"]).is_relative_to("/tmp"), name


# --- resources and gunicorn -------------------------------------------------------------------------

UNITS = {"": 1, "m": 1e-3, "k": 1e3, "M": 1e6, "G": 1e9, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30}


def quantity(text: str | int) -> float:
    number, unit = re.fullmatch(r"([0-9.]+)([A-Za-z]*)", str(text)).groups()
    return float(number) * UNITS[unit]


def test_the_cpu_limit_is_the_worker_count_the_comment_claims(tmp_path, monkeypatch):
    c = container(the("Deployment", SERVICE))
    requests, limits = c["resources"]["requests"], c["resources"]["limits"]
    # Request = limit, memory too: Guaranteed QoS, whole cores for the sync workers.
    assert quantity(requests["cpu"]) == quantity(limits["cpu"])
    assert quantity(requests["memory"]) == quantity(limits["memory"])
    comments = re.sub(r"\n\s*#", " ", (K8S / "deployment.yaml").read_text())
    claimed = re.search(r"this (\d+)-CPU limit\s+means (\d+) workers", comments)
    assert claimed and claimed.group(1) == claimed.group(2)
    cores = quantity(limits["cpu"])
    assert math.ceil(cores) == int(claimed.group(2)) == 2
    # What gunicorn.conf.py will start on a large node under that limit: the kubelet writes the
    # limit as the cgroup's cpu.max (quota per 100 ms period).
    (tmp_path / "cpu.max").write_text(f"{round(cores * 100_000)} 100000\n")
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(64)))
    assert usable_cpus(tmp_path) == 2
    # Nothing overrides that count.
    assert "WORKERS" not in env(c)
    assert "WORKERS" not in the("ConfigMap", SERVICE)["data"]


def gunicorn_setting(name: str) -> Any:
    """A setting as gunicorn.conf.py leaves it in a pod that does not set it in the environment:
    the value its assignment computes with no variables, else gunicorn's default."""
    tree = ast.parse((ROOT / "gunicorn.conf.py").read_text())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            expression = ast.Expression(node.value)
            return eval(compile(expression, "gunicorn.conf.py", "eval"),
                        {"__builtins__": {}, "int": int, "float": float,
                         "os": SimpleNamespace(environ={})})
    (setting,) = [s for s in gunicorn.config.KNOWN_SETTINGS if s.name == name]
    return setting.default


def test_a_stopping_pod_finishes_its_requests_before_it_is_killed():
    pod = the("Deployment", SERVICE)["spec"]["template"]["spec"]
    c = container(the("Deployment", SERVICE))
    assert "TIMEOUT" not in env(c) and "GRACEFUL_TIMEOUT" not in env(c)
    sleep = c["lifecycle"]["preStop"]["exec"]["command"]
    assert sleep[0] == "sleep"
    graceful = gunicorn_setting("graceful_timeout")
    assert graceful == 30
    assert pod["terminationGracePeriodSeconds"] > int(sleep[1]) + graceful
    strategy = the("Deployment", SERVICE)["spec"]["strategy"]["rollingUpdate"]
    assert (strategy["maxUnavailable"], strategy["maxSurge"]) == (0, 1)


def test_probes_give_gunicorns_own_timeout_the_first_word():
    c = container(the("Deployment", SERVICE))
    live = c["livenessProbe"]
    assert live["failureThreshold"] > c["readinessProbe"]["failureThreshold"]
    assert live["periodSeconds"] * live["failureThreshold"] > gunicorn_setting("timeout")


# --- the other objects select the Deployment's pods -------------------------------------------------

def test_service_pdb_and_hpa_select_the_deployments_pods():
    deployment = the("Deployment", SERVICE)
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    service = the("Service", SERVICE)
    assert service["spec"]["selector"] == selector
    assert service["spec"]["type"] == "ClusterIP"
    assert [p["port"] for p in service["spec"]["ports"]] == [80]
    pdb = the("PodDisruptionBudget", SERVICE)["spec"]
    assert pdb["selector"]["matchLabels"] == selector
    hpa = the("HorizontalPodAutoscaler")["spec"]
    target = hpa["scaleTargetRef"]
    assert (target["apiVersion"], target["kind"], target["name"]) == ("apps/v1", "Deployment",
                                                                     deployment["metadata"]["name"])
    # The HPA owns the count; with one pod evicted and one more lost, two still serve.
    assert "replicas" not in deployment["spec"]
    assert hpa["minReplicas"] >= 3 and pdb.get("maxUnavailable") == 1
    assert hpa["behavior"]["scaleDown"]["stabilizationWindowSeconds"] > 0
    for constraint in deployment["spec"]["template"]["spec"]["topologySpreadConstraints"]:
        assert constraint["whenUnsatisfiable"] == "ScheduleAnyway"
        assert constraint["labelSelector"]["matchLabels"] == selector


# --- settings and the secret ------------------------------------------------------------------------

# Settings a pod derives from its CPUs, as gunicorn's worker count, rather than from the ConfigMap.
DERIVED = {"SEARCH_SLOTS"}


def pod_workers() -> int:
    """The sync workers gunicorn starts under the Deployment's CPU limit (one per CPU)."""
    return math.ceil(quantity(container(the("Deployment", SERVICE))["resources"]["limits"]["cpu"]))


def test_the_configmap_states_the_services_defaults_and_the_shared_replay_store():
    deployment = the("Deployment", SERVICE)
    data = the("ConfigMap", SERVICE)["data"]
    assert [e["configMapRef"]["name"] for e in container(deployment)["envFrom"]] == [
        the("ConfigMap", SERVICE)["metadata"]["name"]]
    # The defaults, as a pod reads them (its worker count is the CPU limit's), but the replay
    # store: the default is a SQLite file of each pod's own (one machine's), the pods need one
    # store they all share (test_the_replay_store_is_redis_yamls_redis).
    read = Settings.from_env({**data, "WORKERS": str(pod_workers())})
    assert read == dataclasses.replace(Settings(), replay_store=data["REPLAY_STORE"])
    assert Settings().replay_store.startswith("sqlite:") and data["REPLAY_STORE"].startswith("redis://")
    # Every setting, named as Settings.from_env reads it, but the secret one and those the pod
    # derives from its CPUs.
    assert set(data) == {f.name.upper() for f in dataclasses.fields(Settings)} - {"STATE_KEYS"} - DERIVED
    assert data["REPLAY_STORE_DOWN"] in ("refuse", "serve")
    assert {"STATE_KEYS", "HOST", "PORT"}.isdisjoint(data)


# A key as STATE_KEYS holds it: id, colon, 32 bytes in URL-safe base64 (43 characters unpadded).
KEY_LIKE = re.compile(r"[\w.-]+:[A-Za-z0-9_-]{43}")


def test_no_secret_and_no_state_key_in_the_repository():
    assert not [d for _, d in manifests() if d["kind"] == "Secret"]
    for path in K8S.iterdir():
        text = path.read_text()
        assert "kind: Secret" not in text, path.name
        assert not KEY_LIKE.search(text), path.name
    variables = env(container(the("Deployment", SERVICE)))
    assert variables["STATE_KEYS"] == {"name": "STATE_KEYS", "valueFrom": {"secretKeyRef": {
        "name": "card-rules-state-keys", "key": "STATE_KEYS"}}}

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            assert node.get("name") != "STATE_KEYS" or "value" not in node, node
            assert "STATE_KEYS" not in node or node is variables, node
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for _, doc in manifests():
        walk(doc)


# --- the Ingresses ----------------------------------------------------------------------------------

@functools.cache
def openapi() -> dict[str, Any]:
    return yaml.load((ROOT / "openapi.yaml").read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def blueprint_paths(module: str, example: str) -> set[str]:
    """The paths a blueprint of service/api serves, a route's variable part as ``example``."""
    found = re.findall(r'@bp\.get\("([^"]+)"\)', (ROOT / "service" / "api" / module).read_text())
    assert found, module
    return {re.sub(r"<[^>]+>", example, p) for p in found}


def public_paths() -> set[str]:
    """Every path the service answers but /metrics: the API document's, /docs' pages, and the
    table at /play."""
    return (set(openapi()["paths"]) | blueprint_paths("docs.py", "swagger-ui.css")
            | blueprint_paths("play.py", "app.js")) - {"/metrics"}


def _properties(schema: dict[str, Any]) -> set[str]:
    while "$ref" in schema:
        schema = openapi()["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    found = set(schema.get("properties", {}))
    for key in ("allOf", "oneOf", "anyOf"):
        for part in schema.get(key, []):
            found |= _properties(part)
    return found


def computer_paths() -> set[str]:
    """The API's paths that run the computer player: those whose request takes a ``budget_ms``."""
    found = set()
    for path, item in openapi()["paths"].items():
        for operation in item.values():
            schema = operation.get("requestBody", {}).get("content", {}).get("application/json", {}).get("schema")
            if schema and "budget_ms" in _properties(schema):
                found.add(path)
    return found


@functools.cache
def host_url_map() -> Any:
    """The table host's routes, from its own app (its store a SQLite file, made and dropped)."""
    with tempfile.TemporaryDirectory() as directory:
        return create_host(HostSettings(table_store=f"sqlite:///{directory}/tables.sqlite3")).url_map


def host_endpoint(path: str) -> str | None:
    """The host's endpoint for ``path`` under /v1/tables (``tables.create``, ``tables.events``...),
    by any of its methods; None for a path it has no route for."""
    adapter = host_url_map().bind("cards.example.com")
    for method in ("GET", "POST"):
        try:
            endpoint, _ = adapter.match(path, method=method)
        except HTTPException:
            continue
        return endpoint if endpoint.startswith("tables.") else None
    return None


def host_paths() -> set[str]:
    """Every path of the host under /v1/tables, a variable part as an example id."""
    found = {re.sub(r"<[^>]+>", "T4bLe-1d_x", rule.rule) for rule in host_url_map().iter_rules()
             if rule.endpoint.startswith("tables.")}
    assert len(found) >= 7 and "/v1/tables" in found
    return found


def routed_paths() -> set[str]:
    """What the public reaches: the rules' public paths and the table host's."""
    return public_paths() | host_paths()


# The Ingress each of the host's endpoints meets: the opening and the streams have their own
# (their own limits; the streams unbuffered), every other path card-rules-tables.
HOST_INGRESSES = {"tables.create": OPEN_INGRESS, "tables.events": EVENTS_INGRESS}
TABLES_INGRESSES = {TABLES_INGRESS, OPEN_INGRESS, EVENTS_INGRESS}


def expected_ingress(path: str) -> str:
    endpoint = host_endpoint(path)
    if endpoint is not None:
        return HOST_INGRESSES.get(endpoint, TABLES_INGRESS)
    return COMPUTER_INGRESS if path in computer_paths() else INGRESS


def ingresses() -> list[dict[str, Any]]:
    return [doc for _, doc in manifests() if doc["kind"] == "Ingress"]


def annotations(ingress: dict[str, Any]) -> dict[str, str]:
    return {k.removeprefix("nginx.ingress.kubernetes.io/"): v for k, v in ingress["metadata"]["annotations"].items()}


def answered_by(path: str, host: str, objects: list[dict[str, Any]]) -> str | None:
    """The Ingress whose location ingress-nginx gives ``path`` on ``host``, or None (its 404).
    With use-regex on any Ingress of the host, ingress-nginx writes every path of the host, of
    every Ingress and pathType, as `location ~* "^<path>"` and sorts them longest first (nginx
    takes the first regex that matches). Without it: Exact is the whole path, Prefix whole
    /-separated elements (the longest wins), ImplementationSpecific a plain prefix."""
    entries = [(ingress["metadata"]["name"], entry) for ingress in objects for rule in ingress["spec"]["rules"]
               if rule["host"] == host for entry in rule["http"]["paths"]]
    hosts = [ingress for ingress in objects if any(rule["host"] == host for rule in ingress["spec"]["rules"])]
    if any(annotations(ingress).get("use-regex") == "true" for ingress in hosts):
        for name, entry in sorted(entries, key=lambda e: len(e[1]["path"]), reverse=True):
            if re.match("^" + entry["path"], path, re.IGNORECASE):
                return name
        return None
    best: tuple[int, str] | None = None
    for name, entry in entries:
        if entry["pathType"] == "Exact":
            if path == entry["path"]:
                return name
            continue
        prefix = entry["path"].rstrip("/").split("/")
        matched = (path.split("/")[:len(prefix)] == prefix if entry["pathType"] == "Prefix"
                   else path.startswith(entry["path"]))
        if matched and (best is None or len(entry["path"]) > best[0]):
            best = (len(entry["path"]), name)
    return best and best[1]


def test_the_ingresses_route_the_public_paths_and_not_the_metrics():
    objects = ingresses()
    assert sorted(i["metadata"]["name"] for i in objects) == sorted([INGRESS, COMPUTER_INGRESS, *TABLES_INGRESSES])
    (host,) = {rule["host"] for i in objects for rule in i["spec"]["rules"]}
    assert computer_paths()
    assert {expected_ingress(path) for path in routed_paths()} == {INGRESS, COMPUTER_INGRESS, *TABLES_INGRESSES}
    for path in sorted(routed_paths()):
        assert answered_by(path, host, objects) == expected_ingress(path), path
    # Near misses of the host's own Ingresses reach the host, which answers them 404.
    for path in ("/v1/tables/", "/v1/tables/x/events/", "/v1/tables/x/y/events", "/v1/tables/x/eventsx"):
        assert host_endpoint(path) is None and answered_by(path, host, objects) == TABLES_INGRESS, path
    # /metrics stays inside the cluster, whatever the case (ingress-nginx's regexes ignore it).
    for hidden in ("/metrics", "/metrics/", "/METRICS", "/", "/static/x"):
        assert answered_by(hidden, host, objects) is None, hidden
    for ingress in objects:
        spec = ingress["spec"]
        service = the("Service", TABLES if ingress["metadata"]["name"] in TABLES_INGRESSES else SERVICE)
        assert spec["ingressClassName"] == "nginx"
        for rule in spec["rules"]:
            assert rule["host"] in {h for t in spec["tls"] for h in t["hosts"]}
            for entry in rule["http"]["paths"]:
                backend = entry["backend"]["service"]
                assert backend["name"] == service["metadata"]["name"]
                assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}
                # ingress-nginx (1.12 on) refuses an Exact or Prefix path with any other character.
                if entry["pathType"] in ("Exact", "Prefix"):
                    assert re.fullmatch(r"/[A-Za-z0-9_/-]*", entry["path"]), entry["path"]


def test_without_the_regexes_kubernetes_matching_routes_the_same():
    """The paths as Kubernetes defines them (a controller without ingress-nginx's regexes): the
    main Ingress alone routes every public path of the rules but the computer's, and not
    /metrics; with card-rules-tables, every path of the table host goes to the host."""
    main = [the("Ingress", INGRESS)]
    (host,) = {rule["host"] for rule in main[0]["spec"]["rules"]}
    for path in public_paths() - computer_paths() - host_paths():
        assert answered_by(path, host, main) == INGRESS, path
    for hidden in ("/metrics", "/metrics/", "/", "/v1games", "/healthz"):
        assert answered_by(hidden, host, main) is None, hidden
    plain = [*main, the("Ingress", TABLES_INGRESS)]
    for path in routed_paths() - computer_paths():
        assert answered_by(path, host, plain) == (TABLES_INGRESS if host_endpoint(path) else INGRESS), path
    assert answered_by("/v1/tablesx", host, plain) == INGRESS  # whole path elements


LIMITS = {"limit-rps", "limit-burst-multiplier", "limit-connections"}


def test_the_computer_ingress_proxies_as_the_main_one():
    main, computer = the("Ingress", INGRESS), the("Ingress", COMPUTER_INGRESS)
    assert {k: v for k, v in annotations(computer).items() if k not in LIMITS | {"use-regex"}} == {
        k: v for k, v in annotations(main).items() if k not in LIMITS}
    assert annotations(computer)["use-regex"] == "true"
    assert computer["spec"]["tls"] == main["spec"]["tls"]
    assert computer["spec"]["ingressClassName"] == main["spec"]["ingressClassName"]
    assert {r["host"] for r in computer["spec"]["rules"]} == {r["host"] for r in main["spec"]["rules"]}
    (entry,) = [e for r in computer["spec"]["rules"] for e in r["http"]["paths"]]
    assert entry["pathType"] == "ImplementationSpecific"


# --- deploy/nginx.conf's locations ------------------------------------------------------------------

def nginx_conf() -> str:
    return (ROOT / "deploy" / "nginx.conf").read_text()


def directive(pattern: str, text: str | None = None) -> str:
    found = re.search(pattern, nginx_conf() if text is None else text)
    assert found, pattern
    return found.group(1)


COMPUTER_LOCATION = re.compile(r"^\s*location ~ (\^/v1/games/\S+) \{$", re.M)
EVENTS_LOCATION = re.compile(r"^\s*location ~ (\^/v1/tables/\S+) \{$", re.M)
TABLES_LOCATION, OPEN_LOCATION = "location /v1/tables/ {", "location = /v1/tables {"


def location(header: re.Pattern[str] | str) -> str:
    """The body of nginx.conf's location whose header line matches (no braces inside)."""
    pattern = header if isinstance(header, re.Pattern) else re.compile(r"^\s*" + re.escape(header) + r"$", re.M)
    (found,) = list(pattern.finditer(nginx_conf()))
    return nginx_conf()[found.end():nginx_conf().index("}", found.end())]


def zones() -> dict[str, str]:
    """limit_req_zone's name: its rate."""
    return dict(re.findall(r"limit_req_zone \$limit_key zone=(\w+):\w+ rate=(\w+/[sm]);", nginx_conf()))


def limits(body: str) -> tuple[dict[str, tuple[int, bool]], dict[str, int]]:
    """A location's limit_req (zone: burst, nodelay) and limit_conn (zone: number)."""
    requests = {zone: (int(burst), bool(nodelay)) for zone, burst, nodelay in
                re.findall(r"limit_req zone=(\w+) burst=(\d+)( nodelay)?;", body)}
    connections = {zone: int(n) for zone, n in re.findall(r"limit_conn (\w+) (\d+);", body)}
    return requests, connections


def test_both_locations_proxy_alike_and_limit_only():
    """Every proxy_* directive is at the server level, so both locations proxy the same way; a
    location holds its limits and its proxy_pass only."""
    general, computer = location("location / {"), location(COMPUTER_LOCATION)
    for body in (general, computer):
        statements = [line.strip() for line in body.splitlines() if line.strip() and not line.strip().startswith("#")]
        assert all(re.match(r"(limit_req|limit_conn) ", st) for st in statements[:-1]), statements
        assert statements[-1] == "proxy_pass http://card_rules;"
    server = nginx_conf()[nginx_conf().index("    server {"):]
    assert re.search(r"^        proxy_next_upstream ", server, re.M)  # at the server level
    # The general limits apply to the computer's paths too, as they are.
    (general_requests, general_connections), (computer_requests, computer_connections) = limits(general), limits(computer)
    assert general_requests.items() <= computer_requests.items()
    assert general_connections.items() <= computer_connections.items()


def test_the_ingress_carries_nginx_confs_limits():
    notes = annotations(the("Ingress", INGRESS))
    assert notes["proxy-body-size"] == directive(r"client_max_body_size (\w+);")
    assert quantity(notes["proxy-body-size"].upper() + "i") == Settings().max_body_bytes
    assert notes["proxy-request-buffering"] == directive(r"proxy_request_buffering (\w+);") == "on"
    assert notes["proxy-buffering"] == directive(r"proxy_buffering (\w+);") == "on"
    assert notes["proxy-connect-timeout"] + "s" == directive(r"proxy_connect_timeout (\w+);")
    assert notes["proxy-read-timeout"] + "s" == directive(r"proxy_read_timeout (\w+);")
    assert int(notes["proxy-read-timeout"]) > gunicorn_setting("timeout")
    ((zone, (burst, nodelay)),), ((_, connections),) = (d.items() for d in limits(location("location / {")))
    assert notes["limit-rps"] + "r/s" == zones()[zone]
    assert int(notes["limit-rps"]) * int(notes["limit-burst-multiplier"]) == burst and nodelay
    assert int(notes["limit-connections"]) == connections
    # The same retries (which failures, how many tries, for how long): why, nginx.conf's comment.
    assert notes["proxy-next-upstream"] == directive(r"proxy_next_upstream ([\w ]+);")
    assert "non_idempotent" in notes["proxy-next-upstream"].split()
    assert notes["proxy-next-upstream-tries"] == directive(r"proxy_next_upstream_tries (\d+);")
    assert notes["proxy-next-upstream-timeout"] + "s" == directive(r"proxy_next_upstream_timeout (\w+);")
    assert int(notes["proxy-next-upstream-timeout"]) < int(notes["proxy-read-timeout"])


def computer_limits() -> tuple[str, int, bool, int]:
    """nginx.conf's computer limits: the rate, the burst, nodelay or not, requests in progress."""
    general_requests, general_connections = limits(location("location / {"))
    requests, connections = limits(location(COMPUTER_LOCATION))
    ((zone, (burst, nodelay)),) = [(z, b) for z, b in requests.items() if z not in general_requests]
    ((_, in_progress),) = [(z, n) for z, n in connections.items() if z not in general_connections]
    return zones()[zone], burst, nodelay, in_progress


def test_the_computer_ingress_carries_nginx_confs_computer_limits():
    notes = annotations(the("Ingress", COMPUTER_INGRESS))
    rate, burst, nodelay, in_progress = computer_limits()
    assert notes["limit-rps"] + "r/s" == rate
    assert int(notes["limit-rps"]) * int(notes["limit-burst-multiplier"]) == burst
    assert int(notes["limit-connections"]) == in_progress == 1
    # nginx.conf paces the burst (ingress-nginx cannot: its comment says so).
    assert not nodelay
    # Tighter than the general limits.
    general = annotations(the("Ingress", INGRESS))
    assert int(notes["limit-rps"]) < int(general["limit-rps"])
    assert int(notes["limit-connections"]) < int(general["limit-connections"])


def test_the_computer_location_matches_the_computer_paths_and_no_other():
    (regex,) = COMPUTER_LOCATION.findall(nginx_conf())
    (entry,) = [e for r in the("Ingress", COMPUTER_INGRESS)["spec"]["rules"] for e in r["http"]["paths"]]
    assert regex == "^" + entry["path"]  # ingress-nginx adds the ^
    computer = computer_paths()
    assert len(computer) >= 3
    for path in sorted(routed_paths() | {"/v1/games/x/suggest/", "/v1/games/suggest", "/v1/games/x/y/suggest",
                                         "/v1/games/x/sealed/computer-moves", "/v1/games/x/suggestx"}):
        assert bool(re.search(regex, path)) == (path in computer), path


def test_the_computer_limits_bound_each_addresss_search_time():
    """Per address at most rate x SUGGEST_MAX_BUDGET_MS of search a second, and one at a time:
    the numbers nginx.conf's comment states. (Samples stop at the max budget too.)"""
    rate, _, _, in_progress = computer_limits()
    per_second = int(rate.removesuffix("r/s"))
    most_ms = int(the("ConfigMap", SERVICE)["data"]["SUGGEST_MAX_BUDGET_MS"])
    assert most_ms == Settings().suggest_max_budget_ms
    claimed = re.search(r"at most (\d+) x (\d+) ms = ([0-9.]+) s of one core", re.sub(r"\n\s*#", "", nginx_conf()))
    assert claimed and (int(claimed.group(1)), int(claimed.group(2))) == (per_second, most_ms), claimed
    assert float(claimed.group(3)) == per_second * most_ms / 1000 <= 0.5
    assert in_progress == 1


# --- the replay guard's Redis -----------------------------------------------------------------------

def redis_container() -> dict[str, Any]:
    (c,) = the("StatefulSet", REDIS)["spec"]["template"]["spec"]["containers"]
    return c


def redis_arguments() -> dict[str, str]:
    """redis-server's options as the manifest passes them (``--name value`` pairs)."""
    c = redis_container()
    argv = [*c.get("command", []), *c.get("args", [])]
    assert argv[0] == "redis-server", argv
    assert len(argv) % 2 == 1 and all(a.startswith("--") for a in argv[1::2]), argv
    return {name.removeprefix("--"): value for name, value in zip(argv[1::2], argv[2::2], strict=True)}


def test_the_replay_store_is_redis_yamls_redis():
    url = urlsplit(the("ConfigMap", SERVICE)["data"]["REPLAY_STORE"])
    service = the("Service", REDIS)
    (port,) = service["spec"]["ports"]
    assert (url.scheme, url.hostname, url.port, url.path) == ("redis", service["metadata"]["name"], port["port"], "/0")
    statefulset = the("StatefulSet", REDIS)
    assert statefulset["spec"]["replicas"] == 1
    pods = statefulset["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= pods.items()
    assert statefulset["spec"]["selector"]["matchLabels"] == service["spec"]["selector"]
    assert statefulset["spec"]["serviceName"] == service["metadata"]["name"]
    # Not the service's pods: its Service must not send the API's traffic to Redis, nor Redis's to them.
    assert not the("Service", SERVICE)["spec"]["selector"].items() <= pods.items()
    assert {p["name"]: p["containerPort"] for p in redis_container()["ports"]}[port["targetPort"]] == port["port"]


def test_redis_keeps_what_it_was_told():
    """An append-only file on a PersistentVolume, and no eviction: a Redis that forgot would let
    old tokens play again (or, as the service detects it, end every hand in play)."""
    options = redis_arguments()
    assert options["appendonly"] == "yes"
    assert options["appendfsync"] in ("everysec", "always")
    assert options["maxmemory-policy"] == "noeviction"
    most = quantity(options["maxmemory"].replace("mb", "Mi").replace("gb", "Gi"))
    resources = redis_container()["resources"]
    assert 0 < most < quantity(resources["limits"]["memory"]) == quantity(resources["requests"]["memory"])
    statefulset = the("StatefulSet", REDIS)["spec"]
    (claim,) = statefulset["volumeClaimTemplates"]
    mounts = {m["mountPath"]: m["name"] for m in redis_container()["volumeMounts"]}
    assert mounts == {options["dir"]: claim["metadata"]["name"]}  # the data, and nothing else writable
    assert quantity(claim["spec"]["resources"]["requests"]["storage"]) >= 2 * most
    assert statefulset["persistentVolumeClaimRetentionPolicy"] == {"whenDeleted": "Retain", "whenScaled": "Retain"}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert "redis-cli" in " ".join(redis_container()[probe]["exec"]["command"]), probe
        assert "ping" in " ".join(redis_container()[probe]["exec"]["command"]), probe


def test_redis_runs_locked_down():
    pod = the("StatefulSet", REDIS)["spec"]["template"]["spec"]
    context = pod["securityContext"]
    assert context["runAsNonRoot"] is True and context["runAsUser"] > 0
    assert context["fsGroup"] == context["runAsGroup"]  # the volume writable by the user's group
    assert context["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["automountServiceAccountToken"] is False
    own = redis_container()["securityContext"]
    assert own["readOnlyRootFilesystem"] is True
    assert own["allowPrivilegeEscalation"] is False
    assert own["capabilities"] == {"drop": ["ALL"]}


def test_only_the_service_and_the_table_host_reach_redis():
    policy = the("NetworkPolicy", REDIS)["spec"]
    assert policy["podSelector"]["matchLabels"] == the("StatefulSet", REDIS)["spec"]["selector"]["matchLabels"]
    assert policy["policyTypes"] == ["Ingress"]
    (rule,) = policy["ingress"]
    assert [f["podSelector"]["matchLabels"] for f in rule["from"]] == [
        the("Deployment", name)["spec"]["selector"]["matchLabels"] for name in (SERVICE, TABLES)]
    # Each selects its Deployment's pods, and only them.
    pods = {name: the("Deployment", name)["spec"]["template"]["metadata"]["labels"] for name in (SERVICE, TABLES)}
    for allowed, name in zip(rule["from"], (SERVICE, TABLES), strict=True):
        assert [other for other, labels in pods.items()
                if allowed["podSelector"]["matchLabels"].items() <= labels.items()] == [name]
    assert [p["port"] for p in rule["ports"]] == [p["name"] for p in redis_container()["ports"]]


def test_redis_starts_with_the_manifests_arguments():
    """Debian's redis-server (7.0, as the image's redis:7) takes the arguments as written, and
    reports the settings the manifest means (on loopback, in a directory of its own)."""
    if shutil.which("redis-server") is None and shutil.which("redis-server", path="/usr/bin:/usr/sbin") is None:
        pytest.skip("Debian's redis-server is not installed (apt-get install redis-server)")
    options = redis_arguments()
    with redis_process(free_port(), options) as (url, _):
        client = redis.Redis.from_url(url, decode_responses=True)
        try:
            for name in ("appendonly", "appendfsync", "maxmemory-policy", "save", "protected-mode"):
                if name in options:
                    assert client.config_get(name)[name] == options[name], name
            assert int(client.config_get("maxmemory")["maxmemory"]) == quantity(
                options["maxmemory"].replace("mb", "Mi").replace("gb", "Gi"))
        finally:
            client.close()


# --- compose.yaml's replay store --------------------------------------------------------------------

def test_compose_keeps_the_replay_store_on_a_volume_the_image_user_owns():
    """One machine's store: a SQLite file on a named volume every replica of the app mounts, in a
    directory the Dockerfile makes for its user (a new named volume takes the image's owner)."""
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text())
    app = compose["services"]["app"]
    store = app["environment"]["REPLAY_STORE"]
    assert store.startswith("sqlite:////"), store  # an absolute path
    directory = str(Path(store.removeprefix("sqlite:///")).parent)
    volumes = {target: source for source, target in (v.split(":")[:2] for v in app["volumes"])}
    assert volumes[directory] in compose["volumes"]  # a named volume, not a bind mount
    dockerfile = (ROOT / "Dockerfile").read_text()
    user = re.search(r"useradd\b[^&;\n]*--uid[ =]\d+ (\w+)", dockerfile)
    assert user
    made = re.search(r"install -d -o (\w+) -g (\w+)(?: -m \d+)? (\S+)", dockerfile)
    assert made and made.group(1) == made.group(2) == user.group(1) and made.group(3) == directory
    assert dockerfile.index(user.group(0)) < dockerfile.index(made.group(0))


# --- nginx.conf's routes ------------------------------------------------------------------------------

NGINX_LOCATION = re.compile(r"^\s*location (?:(=|~) )?(\S+) \{$", re.M)


def nginx_location(path: str) -> str:
    """The header of the location nginx gives ``path``: an exact match; else the first regex, in
    the file's order, that matches; else the longest prefix. (No `^~` in nginx.conf.)"""
    conf = nginx_conf()
    assert "^~" not in conf
    found = [(m.group(1) or "", m.group(2), m.group(0).strip()) for m in NGINX_LOCATION.finditer(conf)]
    for modifier, where, header in found:
        if modifier == "=" and where == path:
            return header
    for modifier, where, header in found:
        if modifier == "~" and re.search(where, path):
            return header
    prefixes = [(len(where), header) for modifier, where, header in found if not modifier and path.startswith(where)]
    return max(prefixes)[1]


# The nginx.conf location each Ingress stands for: the same paths, the same limits.
INGRESS_LOCATION = {INGRESS: "location / {", TABLES_INGRESS: TABLES_LOCATION, OPEN_INGRESS: OPEN_LOCATION}


def location_of(ingress: str) -> str:
    if ingress == COMPUTER_INGRESS:
        return f"location ~ {COMPUTER_LOCATION.findall(nginx_conf())[0]} {{"
    if ingress == EVENTS_INGRESS:
        return f"location ~ {EVENTS_LOCATION.findall(nginx_conf())[0]} {{"
    return INGRESS_LOCATION[ingress]


def test_nginx_routes_every_path_as_the_ingresses_do():
    """Each path meets the location standing for the Ingress that routes it, and that location
    proxies to the rules' upstream or to the table host's; /metrics to neither."""
    for path in sorted(routed_paths()):
        expected = expected_ingress(path)
        header = nginx_location(path)
        assert header == location_of(expected), path
        upstream = "card_rules_tables" if expected in TABLES_INGRESSES else "card_rules"
        assert directive(r"proxy_pass http://(\w+);", location(header)) == upstream, path
    for path in ("/v1/tables/", "/v1/tables/x/events/", "/v1/tables/x/y/events"):
        assert nginx_location(path) == TABLES_LOCATION, path
    assert nginx_location("/v1/tablesx") == "location / {"  # the rules' 404
    assert "proxy_pass" not in location("location = /metrics {")


def seconds(value: str) -> int:
    """An nginx time (10s, 1h...) in seconds."""
    number, unit = re.fullmatch(r"(\d+)(s|m|h|d)?", value).groups()
    return int(number) * {"s": 1, "m": 60, "h": 3600, "d": 86400}[unit or "s"]


def statements(body: str) -> list[str]:
    return [line.strip() for line in body.splitlines() if line.strip() and not line.strip().startswith("#")]


# --- the table host: tables.yaml, its Ingresses, compose's `tables` ------------------------------------

def host_command() -> list[str]:
    """The Dockerfile's CMD with the host's app in place of the rules' (as its comment says)."""
    command = dockerfile_facts((ROOT / "Dockerfile").read_text())["command"]
    assert command[-1] == "service:create_app()"
    return [*command[:-1], HOST_APP]


def compose_file() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "compose.yaml").read_text())


def test_the_image_holds_the_host_and_says_how_to_run_it():
    text = (ROOT / "Dockerfile").read_text()
    instructions = dockerfile_instructions(text)
    copied = instructions.index(("COPY", "host ./host"))
    (installed,) = [n for n, (i, a) in enumerate(instructions) if i == "RUN" and "pip install ." in a]
    assert copied < installed
    (documented,) = re.findall(r"^#\s+(WORKER_CLASS=gevent .*)$", text, re.M)
    assert shlex.split(documented) == ["WORKER_CLASS=gevent", *host_command()]


def test_the_tables_deployment_runs_the_host_as_compose_does():
    facts = dockerfile_facts((ROOT / "Dockerfile").read_text())
    deployment = the("Deployment", TABLES)
    c = container(deployment)
    assert [*c["command"], *c["args"]] == host_command()
    variables = env(c)
    assert variables["WORKER_CLASS"]["value"] == "gevent"
    for name in ("HOST", "PORT"):
        assert variables[name]["value"] == facts["env"][name], name
    ports = {p["name"]: p["containerPort"] for p in c["ports"]}
    assert ports == {"http": facts["expose"]} and str(ports["http"]) == facts["env"]["PORT"]
    # One gevent worker per CPU, as the rules' sync workers: nothing sets a count.
    assert "WORKERS" not in variables and "WORKERS" not in the("ConfigMap", TABLES)["data"]
    assert [e["configMapRef"]["name"] for e in c["envFrom"]] == [TABLES]
    # The probes ask the host's own health path (the Dockerfile's and compose's too).
    assert facts["health_path"] in {rule.rule for rule in host_url_map().iter_rules()}
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert c[probe]["httpGet"] == {"path": facts["health_path"], "port": "http"}, probe
    (port,) = the("Service", TABLES)["spec"]["ports"]
    assert (port["name"], port["port"], port["targetPort"]) == ("http", 80, "http")
    # compose.yaml's `tables` runs the same.
    tables = compose_file()["services"]["tables"]
    assert tables["command"] == host_command()
    assert tables["environment"]["WORKER_CLASS"] == "gevent"
    assert tables["build"] == compose_file()["services"]["app"]["build"]
    check = " ".join(tables["healthcheck"]["test"])
    assert health_path(check) == facts["health_path"] and f"127.0.0.1:{facts['expose']}/" in check


def test_the_tables_objects_select_the_hosts_pods_and_no_others():
    deployment = the("Deployment", TABLES)
    selector = deployment["spec"]["selector"]["matchLabels"]
    pods = deployment["spec"]["template"]["metadata"]["labels"]
    rules_pods = the("Deployment", SERVICE)["spec"]["template"]["metadata"]["labels"]
    assert selector.items() <= pods.items()
    assert the("Service", TABLES)["spec"]["selector"] == selector
    assert the("Service", TABLES)["spec"]["type"] == "ClusterIP"
    pdb = the("PodDisruptionBudget", TABLES)["spec"]
    assert pdb["selector"]["matchLabels"] == selector
    # Neither Deployment's Service or budget counts the other's pods.
    for kind in ("Service", "PodDisruptionBudget"):
        assert not the(kind, SERVICE)["spec"]["selector"].items() <= pods.items(), kind
        assert not the(kind, TABLES)["spec"]["selector"].items() <= rules_pods.items(), kind
    # A fixed count (the HPA scales the rules only), of which a drain takes one at a time.
    assert the("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]["name"] == SERVICE
    assert deployment["spec"]["replicas"] >= 2 > pdb["maxUnavailable"] == 1
    strategy = deployment["spec"]["strategy"]["rollingUpdate"]
    assert (strategy["maxUnavailable"], strategy["maxSurge"]) == (0, 1)
    for constraint in deployment["spec"]["template"]["spec"]["topologySpreadConstraints"]:
        assert constraint["labelSelector"]["matchLabels"] == selector


def test_the_tables_pods_run_locked_down_and_stop_before_they_are_killed():
    uid = dockerfile_facts((ROOT / "Dockerfile").read_text())["uid"]
    pod = the("Deployment", TABLES)["spec"]["template"]["spec"]
    c = container(the("Deployment", TABLES))
    context = pod["securityContext"]
    assert (context["runAsUser"], context["runAsGroup"], context["fsGroup"]) == (uid, uid, uid)
    assert context["runAsNonRoot"] is True and context["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["automountServiceAccountToken"] is False and pod["enableServiceLinks"] is False
    own = c["securityContext"]
    assert own["readOnlyRootFilesystem"] is True and own["allowPrivilegeEscalation"] is False
    assert own["capabilities"] == {"drop": ["ALL"]}
    mounts = {m["mountPath"]: m["name"] for m in c["volumeMounts"]}
    assert set(mounts) == {"/tmp"}
    (volume,) = [v for v in pod["volumes"] if v["name"] == mounts["/tmp"]]
    assert volume["emptyDir"]["medium"] == "Memory"
    assert Path(env(c)["XDG_RUNTIME_DIR"]["value"]).is_relative_to("/tmp")
    resources = c["resources"]
    assert resources["requests"] == resources["limits"]
    # The pod's stop: the preStop pause, then gunicorn's graceful timeout for the requests in
    # flight, within the grace period; not the streams' whole time, as they open again elsewhere.
    sleep = c["lifecycle"]["preStop"]["exec"]["command"]
    assert sleep[0] == "sleep"
    graceful = gunicorn_setting("graceful_timeout")
    stream = HostSettings.from_env(the("ConfigMap", TABLES)["data"]).stream_seconds
    assert int(sleep[1]) + graceful < pod["terminationGracePeriodSeconds"] < stream
    live = c["livenessProbe"]
    assert live["periodSeconds"] * live["failureThreshold"] > gunicorn_setting("timeout")


def _other(name: str, value: str) -> str:
    return "redis://elsewhere:6379/1" if name == "TABLE_STORE" else str(int(float(value)) + 1)


def test_the_table_store_is_redis_yamls_redis_in_a_database_of_its_own():
    data = the("ConfigMap", TABLES)["data"]
    url = urlsplit(data["TABLE_STORE"])
    service = the("Service", REDIS)
    (port,) = service["spec"]["ports"]
    assert (url.scheme, url.hostname, url.port) == ("redis", service["metadata"]["name"], port["port"])
    assert re.fullmatch(r"/\d+", url.path) and url.path != urlsplit(the("ConfigMap", SERVICE)["data"]["REPLAY_STORE"]).path
    # The host's defaults, written out, but the store and the openings a minute (why: below).
    read = HostSettings.from_env(data)
    assert read == dataclasses.replace(HostSettings(), table_store=data["TABLE_STORE"], trusted_proxies=1)
    assert HostSettings().table_store.startswith("sqlite:")
    # Every key is one the host reads, and every setting of the host is written out.
    changed = {name: HostSettings.from_env({**data, name: _other(name, value)}) for name, value in data.items()}
    assert all(other != read for other in changed.values()), [n for n, o in changed.items() if o == read]
    for field in dataclasses.fields(HostSettings):
        assert any(getattr(other, field.name) != getattr(read, field.name) for other in changed.values()), field.name


def test_the_host_counts_each_clients_openings_by_the_address_its_one_proxy_forwards():
    """Behind one proxy (nginx in compose, the ingress controller in Kubernetes) the host reads
    the client's address from X-Forwarded-For, which nginx sets to the client's own, replacing
    any the client sent; else every client's openings would be counted as the proxy's."""
    for settings in (the("ConfigMap", TABLES)["data"], compose_file()["services"]["tables"]["environment"]):
        assert HostSettings.from_env(settings).trusted_proxies == 1
        assert HostSettings.from_env(settings).tables_per_minute == HostSettings().tables_per_minute
    assert "proxy_set_header X-Forwarded-For $remote_addr;" in (ROOT / "deploy" / "nginx.conf").read_text()


def test_compose_keeps_the_tables_on_a_volume_the_image_user_owns():
    compose = compose_file()
    tables = compose["services"]["tables"]
    store = tables["environment"]["TABLE_STORE"]
    assert store.startswith("sqlite:////"), store
    directory = str(Path(store.removeprefix("sqlite:///")).parent)
    volumes = {target: source for source, target in (v.split(":")[:2] for v in tables["volumes"])}
    assert volumes[directory] in compose["volumes"]
    made = re.search(r"install -d -o (\w+) -g (\w+)(?: -m \d+)? (\S+)", (ROOT / "Dockerfile").read_text())
    assert made and made.group(3) == directory


def test_composes_proxy_renders_every_placeholder_for_both_upstreams():
    """The proxy's sed fills @SERVERS@ with `app` and @TABLES@ with `tables`, at their exposed
    ports, and leaves no placeholder; it starts once both are healthy (nginx resolves the names
    when it starts)."""
    compose = compose_file()
    proxy = compose["services"]["proxy"]
    script = proxy["command"][-1]
    words = shlex.split(script)
    expressions = [words[n + 1] for n, word in enumerate(words) if word == "-e"]
    conf = nginx_conf()
    for expression in expressions:
        pattern, replacement = re.fullmatch(r"s/([^/]*)/([^/]*)/", expression).groups()
        conf = "\n".join(re.sub(re.escape(pattern), lambda _, r=replacement: r, line, count=1)
                         for line in conf.split("\n"))
    assert not re.search(r"@[A-Z]+@", conf), re.findall(r"@[A-Z]+@", conf)
    upstreams = dict(re.findall(r"^    upstream (\w+) \{\n\s*server (\S+) ", conf, re.M))
    for upstream, service in (("card_rules", "app"), ("card_rules_tables", "tables")):
        name, port = upstreams[upstream].split(":")
        assert name == service and compose["services"][service]["expose"] == [port], upstream
        assert proxy["depends_on"][service] == {"condition": "service_healthy"}


def test_the_tables_ingresses_proxy_as_the_main_one_but_never_resend_a_post():
    main = annotations(the("Ingress", INGRESS))
    tables = annotations(the("Ingress", TABLES_INGRESS))
    retries = "proxy-next-upstream"
    assert {k: v for k, v in tables.items() if k != retries} == {k: v for k, v in main.items() if k != retries}
    # The same failures as the rules', but a POST that reached a pod is never sent to another.
    assert tables[retries].split() == [w for w in main[retries].split() if w != "non_idempotent"]
    for ingress in TABLES_INGRESSES:
        notes = annotations(the("Ingress", ingress))
        assert notes[retries] == tables[retries], ingress
        assert directive(r"proxy_next_upstream ([\w ]+);", location(location_of(ingress))) == tables[retries]
        spec, main_spec = the("Ingress", ingress)["spec"], the("Ingress", INGRESS)["spec"]
        assert (spec["tls"], spec["ingressClassName"]) == (main_spec["tls"], main_spec["ingressClassName"])
    # The other two differ from card-rules-tables only where they must: a regex path, their
    # limits, and (the streams) the SSE settings.
    sse = {"proxy-buffering", "proxy-read-timeout", "proxy-send-timeout", "proxy-http-version"}
    for ingress, own in ((OPEN_INGRESS, LIMITS | {"limit-rpm"}), (EVENTS_INGRESS, LIMITS | sse)):
        notes = annotations(the("Ingress", ingress))
        assert notes["use-regex"] == "true"
        assert {k: v for k, v in notes.items() if k not in own | {"use-regex"}} == {
            k: v for k, v in tables.items() if k not in own}, ingress
        (entry,) = [e for r in the("Ingress", ingress)["spec"]["rules"] for e in r["http"]["paths"]]
        assert entry["pathType"] == "ImplementationSpecific"


def test_opening_a_table_has_its_own_limit_in_both_proxies():
    general_requests, general_connections = limits(location("location / {"))
    requests, connections = limits(location(OPEN_LOCATION))
    assert general_requests.items() <= requests.items() and connections == general_connections
    ((zone, (burst, nodelay)),) = [(z, b) for z, b in requests.items() if z not in general_requests]
    notes = annotations(the("Ingress", OPEN_INGRESS))
    assert notes["limit-rpm"] + "r/m" == zones()[zone]
    assert int(notes["limit-rpm"]) * int(notes["limit-burst-multiplier"]) == burst and nodelay
    assert int(notes["limit-connections"]) == general_connections["requests_in_progress_per_address"]
    # Its 429 says when the bucket lets the next opening through, in whole seconds: nginx keeps
    # the rate in thousandths of a request a second (rounded down), and a request is 1,000.
    (regex, wait) = re.search(r"map \$request_uri \$retry_after_429 \{\s*(\S+) (\d+);", nginx_conf()).groups()
    assert int(wait) == math.ceil(1000 / (int(notes["limit-rpm"]) * 1000 // 60))
    matched = [p for p in ("/v1/tables", "/v1/tables?x=1", "/v1/tables/", "/v1/tables/x/join", "/v1/tablesx")
               if re.search(regex.removeprefix("~"), p)]
    assert matched == ["/v1/tables", "/v1/tables?x=1"]
    # Its path: exactly the host's opening.
    (entry,) = [e for r in the("Ingress", OPEN_INGRESS)["spec"]["rules"] for e in r["http"]["paths"]]
    for path in sorted(routed_paths() | {"/v1/tables/", "/v1/tablesx"}):
        assert bool(re.match("^" + entry["path"], path, re.I)) == (host_endpoint(path) == "tables.create"), path


def test_the_event_streams_pass_unbuffered_and_are_never_cut_short():
    body = location(location_of(EVENTS_INGRESS))
    notes = annotations(the("Ingress", EVENTS_INGRESS))
    assert directive(r"proxy_buffering (\w+);", body) == notes["proxy-buffering"] == "off"
    assert directive(r"proxy_cache (\w+);", body) == "off"
    assert directive(r"gzip (\w+);", body) == "off" and not re.search(r"^\s*gzip on;", nginx_conf(), re.M)
    read = seconds(directive(r"proxy_read_timeout (\w+);", body))
    assert read == int(notes["proxy-read-timeout"]) == int(notes["proxy-send-timeout"]) == 3600
    host = HostSettings.from_env(the("ConfigMap", TABLES)["data"])
    assert host.heartbeat_seconds < host.stream_seconds < read
    assert host.heartbeat_seconds * 4 <= 60  # a load balancer's usual idle timeout (60 s) never meets a stream
    # HTTP/1.1 with `Connection: ""` to the host: the server's, which no table location overrides.
    server = nginx_conf()[nginx_conf().index("    server {"):]
    assert directive(r"proxy_http_version ([\d.]+);", server) == notes["proxy-http-version"] == "1.1"
    assert re.search(r'^        proxy_set_header Connection "";$', server, re.M)
    for ingress in TABLES_INGRESSES:
        assert not [st for st in statements(location(location_of(ingress)))
                    if st.startswith(("proxy_set_header", "proxy_http_version"))], ingress
    # The general rate counts each opening of a stream; the streams open, a limit of their own.
    general_requests, general_connections = limits(location("location / {"))
    requests, connections = limits(body)
    assert requests == general_requests
    ((zone, streams),) = connections.items()
    assert zone not in general_connections and int(notes["limit-connections"]) == streams
    assert (notes["limit-rps"], notes["limit-burst-multiplier"]) == tuple(
        annotations(the("Ingress", INGRESS))[k] for k in ("limit-rps", "limit-burst-multiplier"))
    # The path: the host's event streams and nothing else, in nginx.conf and the Ingress alike.
    (regex,) = EVENTS_LOCATION.findall(nginx_conf())
    (entry,) = [e for r in the("Ingress", EVENTS_INGRESS)["spec"]["rules"] for e in r["http"]["paths"]]
    assert regex == "^" + entry["path"]
    for path in sorted(routed_paths() | {"/v1/tables/x/events/", "/v1/tables/x/y/events", "/v1/tables/events"}):
        assert bool(re.search(regex, path)) == (host_endpoint(path) == "tables.events"), path


# --- the table at /play -------------------------------------------------------------------------------

def _import_app(spec: str) -> Any:
    """The WSGI app a gunicorn argument names (``service:create_app()``), made."""
    module, call = re.fullmatch(r"([\w.]+):(\w+)\(\)", spec).groups()
    return getattr(__import__(module, fromlist=[call]), call)()


@functools.cache
def rules_url_map() -> Any:
    """The routes of the app the rules' Deployment runs (its gunicorn command's last argument)."""
    c = container(the("Deployment", SERVICE))
    return _import_app([*c["command"], *c["args"]][-1]).url_map


def test_the_table_at_play_reaches_the_pods_whose_app_serves_it():
    """/play and everything the page loads (its script, style and icon, under /play/) go, by the
    Ingress as by nginx.conf, to the rules' pods, whose app serves them from the page the image
    builds; make run serves the same app, the tables beside it (host.create_site)."""
    page = (ROOT / "clients" / "web" / "static" / "index.html").read_text()
    loaded = re.findall(r'\b(?:src|href)="(/[^"]*)"', page)
    assert "/play/app.js" in loaded and all(path.startswith("/play/") for path in loaded), loaded
    objects = ingresses()
    (host,) = {rule["host"] for i in objects for rule in i["spec"]["rules"]}
    service = the("Service", SERVICE)
    pods = the("Deployment", SERVICE)["spec"]["template"]["metadata"]["labels"]
    assert service["spec"]["selector"].items() <= pods.items()
    adapter = rules_url_map().bind(host)
    for path in ["/play", *loaded]:
        assert answered_by(path, host, objects) == INGRESS, path
        (backend,) = {e["backend"]["service"]["name"] for r in the("Ingress", INGRESS)["spec"]["rules"]
                      for e in r["http"]["paths"] if path.split("/")[1] == e["path"].strip("/").split("/")[0]}
        assert backend == service["metadata"]["name"], path
        endpoint, _ = adapter.match(path, method="GET")
        assert endpoint.startswith("play."), (path, endpoint)
        header = nginx_location(path)
        assert header == "location / {" and directive(r"proxy_pass http://(\w+);", location(header)) == "card_rules"
        assert host_endpoint(path) is None  # not the table host's
    # The image has the page where the app serves it from: the web stage's script and static
    # files, copied to service/play (service/api/play.py's BUILT).
    dockerfile = (ROOT / "Dockerfile").read_text()
    built = re.search(r"^COPY --from=web (\S+) \./(\S+)$", dockerfile, re.M)
    assert built and (ROOT / built.group(2)).resolve() == (ROOT / "service" / "play").resolve()
    outfile = re.search(r"--outfile=(\S+)", dockerfile)
    assert outfile and Path(outfile.group(1)).parent == Path(built.group(1))
    static = {p.name for p in (ROOT / "clients" / "web" / "static").iterdir()}
    for path in loaded:
        assert path.removeprefix("/play/") in static | {Path(outfile.group(1)).name}, path


# --- monitoring: the ServiceMonitor and the README's alerts (apart from the kustomization) ----------

def monitoring(kind: str) -> dict[str, Any]:
    found = [doc for name in MONITORING for doc in _documents(K8S / name) if doc["kind"] == kind]
    assert len(found) == 1, kind
    return found[0]


DURATION = {"type": "string", "pattern": r"^(0|(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?)$"}
STRINGS = {"type": "object", "additionalProperties": {"type": "string"}}
SELECTOR = {"type": "object", "additionalProperties": False, "properties": {
    "matchLabels": STRINGS, "matchExpressions": {"type": "array"}}}
# The Prometheus Operator's CRDs (monitoring.coreos.com/v1, operator 0.82), their spec as a JSON
# schema that refuses unknown fields: every field of a PrometheusRule's spec, and of a
# ServiceMonitor's those this repository may use (a field added here must be one of the CRD's).
CRD_SPECS = {
    "PrometheusRule": {"type": "object", "additionalProperties": False, "properties": {"groups": {
        "type": "array", "items": {"type": "object", "required": ["name"], "additionalProperties": False, "properties": {
            "name": {"type": "string", "minLength": 1}, "interval": DURATION, "labels": STRINGS,
            "limit": {"type": "integer"}, "partial_response_strategy": {"type": "string"}, "query_offset": DURATION,
            "rules": {"type": "array", "items": {
                "type": "object", "required": ["expr"], "additionalProperties": False, "properties": {
                    "alert": {"type": "string"}, "record": {"type": "string"}, "expr": {"type": ["string", "integer"]},
                    "for": DURATION, "keep_firing_for": DURATION, "labels": STRINGS, "annotations": STRINGS}}}}}}}},
    "ServiceMonitor": {"type": "object", "required": ["selector"], "additionalProperties": False, "properties": {
        "selector": SELECTOR, "jobLabel": {"type": "string"}, "targetLabels": {"type": "array"},
        "podTargetLabels": {"type": "array"}, "sampleLimit": {"type": "integer"},
        "namespaceSelector": {"type": "object", "additionalProperties": False, "properties": {
            "any": {"type": "boolean"}, "matchNames": {"type": "array", "items": {"type": "string"}}}},
        "endpoints": {"type": "array", "items": {"type": "object", "additionalProperties": False, "properties": {
            "port": {"type": "string"}, "targetPort": {"type": ["string", "integer"]}, "path": {"type": "string"},
            "scheme": {"enum": ["http", "https"]}, "interval": DURATION, "scrapeTimeout": DURATION,
            "honorLabels": {"type": "boolean"}, "honorTimestamps": {"type": "boolean"},
            "params": {"type": "object"}, "relabelings": {"type": "array"}, "metricRelabelings": {"type": "array"},
            "tlsConfig": {"type": "object"}, "followRedirects": {"type": "boolean"},
            "enableHttp2": {"type": "boolean"}, "filterRunning": {"type": "boolean"}}}}}},
}


@pytest.mark.parametrize("kind", sorted(CRD_SPECS))
def test_the_monitoring_manifests_are_valid_and_applied_apart(kind):
    """Their metadata against Kubernetes' ObjectMeta (strict), their spec against the CRD's fields;
    and not in the kustomization, whose every manifest must validate without CRDs."""
    import jsonschema

    doc = monitoring(kind)
    assert set(doc) == {"apiVersion", "kind", "metadata", "spec"}
    assert doc["apiVersion"] == "monitoring.coreos.com/v1"
    with pytest.raises(SchemaNotFoundError):
        kubernetes_validate.validate(doc, KUBERNETES_VERSION, strict=True)
    as_meta = {"apiVersion": "v1", "kind": "ConfigMap", "metadata": doc["metadata"]}
    kubernetes_validate.validate(as_meta, KUBERNETES_VERSION, strict=True)
    assert "namespace" not in doc["metadata"]
    # The labels the kustomization gives every object, written out (it does not apply these).
    part_of = {k: v for entry in kustomization()["labels"] for k, v in entry["pairs"].items()}
    assert part_of.items() <= doc["metadata"]["labels"].items()
    assert {k: v for k, v in doc["metadata"]["labels"].items() if k not in part_of} == {
        k: v for k, v in the("Deployment", SERVICE)["metadata"]["labels"].items() if k not in part_of}
    jsonschema.validate(doc["spec"], CRD_SPECS[kind])
    broken = copy.deepcopy(doc["spec"])
    broken["selectr" if kind == "ServiceMonitor" else "group"] = {}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, CRD_SPECS[kind])


def test_the_servicemonitor_scrapes_the_rules_pods_metrics():
    """service.yaml's Service and no other, on the port name that reaches the pods' 8000, at the
    path the rules' app serves its counts on, as the pods' prometheus.io annotations say too.
    The table host serves no /metrics (nor does Redis): it has no endpoint."""
    spec = monitoring("ServiceMonitor")["spec"]
    selected = spec["selector"]["matchLabels"]
    services = [doc for _, doc in manifests() if doc["kind"] == "Service"]
    assert [s["metadata"]["name"] for s in services if selected.items() <= s["metadata"]["labels"].items()] == [SERVICE]
    assert "namespaceSelector" not in spec  # the ServiceMonitor's own namespace, the one applied to
    (endpoint,) = spec["endpoints"]
    (port,) = [p for p in the("Service", SERVICE)["spec"]["ports"] if p["name"] == endpoint["port"]]
    c = container(the("Deployment", SERVICE))
    (container_port,) = [p["containerPort"] for p in c["ports"] if p["name"] == port["targetPort"]]
    notes = the("Deployment", SERVICE)["spec"]["template"]["metadata"]["annotations"]
    assert (notes["prometheus.io/path"], int(notes["prometheus.io/port"])) == (endpoint["path"], container_port)
    endpoint_name, _ = rules_url_map().bind("cards.example.com").match(endpoint["path"], method="GET")
    assert endpoint_name == "metrics.exposition"
    assert endpoint["scheme"] == "http"
    assert seconds(endpoint["scrapeTimeout"]) < seconds(endpoint["interval"]) <= 60
    assert "/metrics" not in {rule.rule for rule in host_url_map().iter_rules()}


@functools.cache
def exported() -> dict[str, tuple[str, ...]]:
    """Every series name the service exports (a counter's ``_total``, a histogram's ``_bucket``,
    ``_sum`` and ``_count``), with the labels it has, read from the rules' own /metrics."""
    from prometheus_client.parser import text_string_to_metric_families

    from service import metrics

    text = _import_app("service:create_app()").test_client().get("/metrics").get_data(as_text=True)
    labels = {m._name: tuple(m._labelnames) for m in vars(metrics).values() if hasattr(m, "_labelnames")}
    found: dict[str, tuple[str, ...]] = {}
    for family in text_string_to_metric_families(text):
        if not family.name.startswith("card_rules_"):
            continue
        own = labels[family.name]
        if family.type == "counter":
            found[family.name + "_total"] = own
        elif family.type == "histogram":
            found.update({family.name + "_bucket": (*own, "le"), family.name + "_sum": own, family.name + "_count": own})
        else:
            found[family.name] = (*own, "pid")  # multiprocess "liveall": one series per worker
    assert len(found) >= 8, found
    return found


def alerts() -> list[dict[str, Any]]:
    return [rule for group in monitoring("PrometheusRule")["spec"]["groups"] for rule in group["rules"]]


MATCHER = re.compile(r'(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"')


def selectors(expr: str) -> list[tuple[str, list[tuple[str, str, str]]]]:
    """Each metric an expression reads, with its label matchers."""
    return [(m.group(1), MATCHER.findall(m.group(2) or "")) for m in re.finditer(r"\b(card_rules_\w+)(\{[^}]*\})?", expr)]


def test_every_alert_reads_series_and_labels_the_service_exports():
    series = exported()
    # The operations that take their budget: those of the paths whose request has a budget_ms.
    budgeted = {route.operation for path, route in metered()
                if path in {re.sub(r"^/v1/games/[^/]+", "/v1/games/x", p) for p in computer_paths()}}
    assert budgeted == {"suggest", "computer_move"}
    sources = "\n".join(p.read_text() for p in (ROOT / "service").rglob("*.py"))
    operations = {route.operation for _, route in metered()}
    for rule in alerts():
        expr = rule["expr"]
        read = selectors(expr)
        assert read, rule["alert"]
        for name, matchers in read:
            assert name in series, (rule["alert"], name)
            for label, op, value in matchers:
                assert label in series[name], (rule["alert"], name, label)
                if label in ("cause", "limit"):  # values the code counts under
                    assert f'"{value}"' in sources, (rule["alert"], label, value)
                if label == "operation":
                    assert set(value.split("|")) <= operations and (op != "!~" or set(value.split("|")) == budgeted)
        for grouped in re.findall(r"\bby \(([^)]*)\)", expr):
            for label in (g.strip() for g in grouped.split(",")):
                assert all(label in series[name] for name, _ in read), (rule["alert"], label)
        assert rule["labels"]["severity"] in ("warning", "critical")
        assert rule["annotations"]["summary"] and rule["annotations"]["description"]
    names = [rule["alert"] for rule in alerts()]
    assert len(names) == len(set(names)) and all(re.fullmatch(r"CardRules[A-Z]\w+", n) for n in names)


def metered() -> list[tuple[str, Any]]:
    from service.api.routes import metered_routes

    return list(metered_routes(("x",)).items())


def readme_alerts() -> list[dict[str, Any]]:
    """README's "Worth alerting on" list, an entry per thing to watch: a whole expression, or a
    metric with the matchers a code span gives it (a bare matcher span reuses the bullet's
    metric); and the bullet's "for N minutes" and "over N ms"."""
    text = (ROOT / "README.md").read_text()
    section = text[text.index("Worth alerting on:"):]
    section = section[:section.index("\n\n", section.index("\n- "))]
    entries = []
    for bullet in re.split(r"\n- ", section)[1:]:
        bullet = " ".join(bullet.split())
        metric = None
        for span in re.findall(r"`([^`]+)`", bullet):
            whole = re.search(r"\s[<>]=?\s", span) is not None
            named = re.match(r"card_rules_\w+", span)
            if named:
                metric = named.group()
            if whole or named or (MATCHER.fullmatch(span) and metric):
                entries.append({"expr": span if whole else None, "metric": metric,
                                "matchers": MATCHER.findall(span) if not whole else [],
                                "for": re.search(r"\bfor (\d+) minutes", bullet),
                                "over_ms": re.search(r"\bover (\d+) ms", bullet)})
    return entries


def test_the_rules_are_exactly_the_alerts_the_readme_lists():
    entries = readme_alerts()
    assert len(entries) >= 9, entries
    rules = alerts()
    assert len(rules) == len(entries)

    def matches(rule: dict[str, Any], entry: dict[str, Any]) -> bool:
        expr = " ".join(rule["expr"].split())
        if entry["expr"] is not None:
            return expr == entry["expr"]
        return any(entry["metric"] in (name, name.rsplit("_", 1)[0]) and set(entry["matchers"]) <= set(found)
                   for name, found in selectors(expr))

    for entry in entries:
        (rule,) = [rule for rule in rules if matches(rule, entry)] or [None]
        assert rule is not None, entry
        if entry["for"]:
            assert rule["for"] == f"{entry['for'].group(1)}m", (rule["alert"], rule.get("for"))
        if entry["over_ms"]:
            assert rule["expr"].endswith(f"> {int(entry['over_ms'].group(1)) / 1000:g}"), rule["alert"]
    assert len({id(r) for e in entries for r in rules if matches(r, e)}) == len(rules)


def test_promtool_accepts_the_rules():
    """Debian's promtool (package prometheus) parses every expression, as Prometheus will."""
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.skip("Debian's promtool is not installed (apt-get install prometheus)")
    import subprocess

    with tempfile.TemporaryDirectory() as directory:
        rules = Path(directory) / "rules.yaml"
        rules.write_text(yaml.safe_dump({"groups": monitoring("PrometheusRule")["spec"]["groups"]}))
        run = subprocess.run([promtool, "check", "rules", str(rules)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"SUCCESS: {len(alerts())} rules found" in run.stdout
