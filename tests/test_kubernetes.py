"""deploy/kubernetes: every manifest valid against Kubernetes' own schemas (offline, strict), and in
agreement with what it deploys: the Dockerfile's command, port, user and health check, compose's
health check, gunicorn's worker count and shutdown, deploy/nginx.conf's limits, the service's
settings and paths. No cluster, no network."""

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
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import gunicorn.config
import kubernetes_validate
import pytest
import yaml
from kubernetes_validate.utils import SchemaNotFoundError

from service.config import Settings, usable_cpus

ROOT = Path(__file__).resolve().parent.parent
K8S = ROOT / "deploy" / "kubernetes"
# The Kubernetes release whose schemas the manifests must satisfy. Pinned, and older than the
# newest the package ships (1.37): a cluster some releases behind (managed clusters on extended
# support) accepts what these schemas accept, and a newer package cannot change the verdict.
KUBERNETES_VERSION = "1.33.0"
IMAGE = "card-rules-service"
KUSTOMIZATION_KEYS = {"apiVersion", "kind", "resources", "labels", "images", "namespace"}


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


def the(kind: str) -> dict[str, Any]:
    found = [doc for _, doc in manifests() if doc["kind"] == kind]
    assert len(found) == 1, f"one {kind} in deploy/kubernetes, found {len(found)}"
    return found[0]


def container(deployment: dict[str, Any]) -> dict[str, Any]:
    (service,) = [c for c in deployment["spec"]["template"]["spec"]["containers"] if c["name"] == "service"]
    return service


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
    assert on_disk == set(listed)


def test_manifests_are_namespace_agnostic_and_use_the_kustomized_image():
    for name, doc in manifests():
        assert "namespace" not in doc["metadata"], name
    # The name kustomization.yaml's `images:` rewrites, exactly (no registry, no tag).
    assert container(the("Deployment"))["image"] == IMAGE


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
    broken = copy.deepcopy(the("Deployment"))
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
    return (the("Deployment"), the("Service"), (ROOT / "Dockerfile").read_text(),
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
    pod = the("Deployment")["spec"]["template"]["spec"]
    context = pod["securityContext"]
    assert (context["runAsUser"], context["runAsGroup"], context["fsGroup"]) == (uid, uid, uid)
    assert context["runAsNonRoot"] is True
    assert context["seccompProfile"] == {"type": "RuntimeDefault"}
    assert pod["automountServiceAccountToken"] is False
    own = container(the("Deployment"))["securityContext"]
    assert own.get("runAsUser", uid) == uid
    assert own["readOnlyRootFilesystem"] is True
    assert own["allowPrivilegeEscalation"] is False
    assert own["capabilities"] == {"drop": ["ALL"]}


def test_tmp_is_the_only_writable_place_and_holds_the_metrics():
    pod = the("Deployment")["spec"]["template"]["spec"]
    c = container(the("Deployment"))
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
    c = container(the("Deployment"))
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
    assert "WORKERS" not in the("ConfigMap")["data"]


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
    pod = the("Deployment")["spec"]["template"]["spec"]
    c = container(the("Deployment"))
    assert "TIMEOUT" not in env(c) and "GRACEFUL_TIMEOUT" not in env(c)
    sleep = c["lifecycle"]["preStop"]["exec"]["command"]
    assert sleep[0] == "sleep"
    graceful = gunicorn_setting("graceful_timeout")
    assert graceful == 30
    assert pod["terminationGracePeriodSeconds"] > int(sleep[1]) + graceful
    strategy = the("Deployment")["spec"]["strategy"]["rollingUpdate"]
    assert (strategy["maxUnavailable"], strategy["maxSurge"]) == (0, 1)


def test_probes_give_gunicorns_own_timeout_the_first_word():
    c = container(the("Deployment"))
    live = c["livenessProbe"]
    assert live["failureThreshold"] > c["readinessProbe"]["failureThreshold"]
    assert live["periodSeconds"] * live["failureThreshold"] > gunicorn_setting("timeout")


# --- the other objects select the Deployment's pods -------------------------------------------------

def test_service_pdb_and_hpa_select_the_deployments_pods():
    deployment = the("Deployment")
    selector = deployment["spec"]["selector"]["matchLabels"]
    assert selector.items() <= deployment["spec"]["template"]["metadata"]["labels"].items()
    assert the("Service")["spec"]["selector"] == selector
    assert the("Service")["spec"]["type"] == "ClusterIP"
    assert [p["port"] for p in the("Service")["spec"]["ports"]] == [80]
    pdb = the("PodDisruptionBudget")["spec"]
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

def test_the_configmap_states_the_services_defaults():
    deployment = the("Deployment")
    data = the("ConfigMap")["data"]
    assert [e["configMapRef"]["name"] for e in container(deployment)["envFrom"]] == [
        the("ConfigMap")["metadata"]["name"]]
    assert Settings.from_env(data) == Settings()
    # Every setting, named as Settings.from_env reads it, but the secret one.
    assert set(data) == {f.name.upper() for f in dataclasses.fields(Settings)} - {"STATE_KEYS"}
    assert data["REPLAY_STORE"] == ""
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
    variables = env(container(the("Deployment")))
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


# --- the Ingress ------------------------------------------------------------------------------------

def public_paths() -> set[str]:
    """Every path the service answers but /metrics: the API document's, and /docs' pages."""
    spec = yaml.load((ROOT / "openapi.yaml").read_text(), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    docs = re.findall(r'@bp\.get\("([^"]+)"\)', (ROOT / "service" / "api" / "docs.py").read_text())
    assert docs
    return (set(spec["paths"]) | {re.sub(r"<[^>]+>", "swagger-ui.css", p) for p in docs}) - {"/metrics"}


def routed(path: str, rules: list[dict[str, Any]]) -> bool:
    """Kubernetes' matching: Exact is the whole path; Prefix, whole /-separated elements."""
    for rule in rules:
        for entry in rule["http"]["paths"]:
            prefix = entry["path"].rstrip("/").split("/")
            if entry["pathType"] == "Exact" and path == entry["path"]:
                return True
            if entry["pathType"] == "Prefix" and path.split("/")[:len(prefix)] == prefix:
                return True
    return False


def test_the_ingress_routes_the_api_and_not_the_metrics():
    spec = the("Ingress")["spec"]
    assert spec["ingressClassName"] == "nginx"
    unrouted = sorted(p for p in public_paths() if not routed(p, spec["rules"]))
    assert not unrouted, unrouted
    for hidden in ("/metrics", "/metrics/", "/", "/static/x", "/v1games"):
        assert not routed(hidden, spec["rules"]), hidden
    service = the("Service")
    for rule in spec["rules"]:
        assert rule["host"] in {h for t in spec["tls"] for h in t["hosts"]}
        for entry in rule["http"]["paths"]:
            backend = entry["backend"]["service"]
            assert backend["name"] == service["metadata"]["name"]
            assert backend["port"]["name"] in {p["name"] for p in service["spec"]["ports"]}


def test_the_ingress_carries_nginx_confs_limits():
    conf = (ROOT / "deploy" / "nginx.conf").read_text()

    def directive(pattern: str) -> str:
        found = re.search(pattern, conf)
        assert found, pattern
        return found.group(1)

    notes = {k.removeprefix("nginx.ingress.kubernetes.io/"): v
             for k, v in the("Ingress")["metadata"]["annotations"].items()}
    assert notes["proxy-body-size"] == directive(r"client_max_body_size (\w+);")
    assert quantity(notes["proxy-body-size"].upper() + "i") == Settings().max_body_bytes
    assert notes["proxy-request-buffering"] == directive(r"proxy_request_buffering (\w+);") == "on"
    assert notes["proxy-buffering"] == directive(r"proxy_buffering (\w+);") == "on"
    assert notes["proxy-connect-timeout"] + "s" == directive(r"proxy_connect_timeout (\w+);")
    assert notes["proxy-read-timeout"] + "s" == directive(r"proxy_read_timeout (\w+);")
    assert int(notes["proxy-read-timeout"]) > gunicorn_setting("timeout")
    assert notes["limit-rps"] + "r/s" == directive(r"rate=(\w+/s);")
    burst = int(notes["limit-rps"]) * int(notes["limit-burst-multiplier"])
    assert str(burst) == directive(r"burst=(\d+)")
    assert notes["limit-connections"] == directive(r"limit_conn requests_in_progress_per_address (\d+);")
    # The same retries (which failures, how many tries, for how long): why, nginx.conf's comment.
    assert notes["proxy-next-upstream"] == directive(r"proxy_next_upstream ([\w ]+);")
    assert "non_idempotent" in notes["proxy-next-upstream"].split()
    assert notes["proxy-next-upstream-tries"] == directive(r"proxy_next_upstream_tries (\d+);")
    assert notes["proxy-next-upstream-timeout"] + "s" == directive(r"proxy_next_upstream_timeout (\w+);")
    assert int(notes["proxy-next-upstream-timeout"]) < int(notes["proxy-read-timeout"])
