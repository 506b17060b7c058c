"""`make profile`'s layers (bench.profile): every marker names a module of today's tree, and a
sample is charged to the innermost layer it crosses."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from bench.profile import FLUSHER_WAITING, LAYERS, WIRE_CODE, _layer

ROOT = Path(__file__).resolve().parent.parent


def test_every_layer_marker_names_a_module_or_package_that_exists() -> None:
    for marker, _ in LAYERS:
        if marker == WIRE_CODE:
            assert f'f"{WIRE_CODE}' in (ROOT / "service/wire/codegen.py").read_text()
        elif marker.startswith(("service/", "bench/")):
            assert (ROOT / marker).exists(), marker
        else:
            assert importlib.util.find_spec(marker.rstrip("/")) is not None, marker


def test_every_layer_of_the_issue_is_named() -> None:
    named = " ".join(layer for _, layer in LAYERS)
    for part in ("WSGI middleware", "negotiation", "metering", "body read", "schema check", "rules",
                 "wire", "sealing", "answer", "Flask", "gunicorn"):
        assert part in named, part


def test_a_sample_goes_to_its_innermost_known_frame() -> None:
    stack = ("run (/x/gunicorn/arbiter.py:10);__call__ (/x/flask/app.py:5);"
             "__call__ (/w/service/api/observability.py:99);answered (/w/service/api/metering.py:90);"
             "inc (/x/prometheus_client/values.py:3)")
    assert _layer(stack) == "metering (counts, prometheus-client)"
    inner = "view (/w/service/api/routes.py:1);dump (<wire Sixty-six #3>:2);x (/w/service/cards.py:1)"
    assert _layer(inner) == "rules (state check, rule)"
    assert _layer("view (/w/service/api/routes.py:1);dump (<wire Sixty-six #3>:2)") == "wire load and dump"
    assert _layer("select (selectors.py:1)") == "other"


def test_the_flushing_thread_asleep_is_no_layer() -> None:
    asleep = "_bootstrap (/x/threading.py:1);run (/x/threading.py:2);_run (/w/service/api/metering.py:190)"
    assert _layer(asleep) is None
    flushing = f"{asleep};flush (/w/service/api/metering.py:150);inc (/x/prometheus_client/values.py:3)"
    assert _layer(flushing) == "metering (counts, prometheus-client)"


def test_the_flushing_thread_is_where_the_profile_looks_for_it() -> None:
    from service.api.metering import _Flusher
    assert FLUSHER_WAITING[0] == f"{_Flusher._run.__name__} ("
