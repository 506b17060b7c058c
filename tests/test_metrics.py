"""/metrics over the Dockerfile's gunicorn command (two workers, prometheus-client's multiprocess
mode): after a known mix of requests it shows exactly those counts, whichever worker served
each, once every worker has handed its counts over (``FLUSH_SECONDS``), and a worker killed keeps
its counts but leaves the in-flight gauge. In process: what a flush hands over."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from prometheus_client import REGISTRY, CollectorRegistry, Histogram
from prometheus_client.parser import text_string_to_metric_families

from service.api import metering
from service.api.metering import BOUNDS, FLUSH_SECONDS, ILLEGAL_KEY, REFUSAL_KEY, Meter, Refusal, Route
from tests.live import gunicorn

pytestmark = pytest.mark.xdist_group("live")


def _post(url: str, body: Any, *, raw: bytes | None = None) -> tuple[int, Any]:
    data = raw if raw is not None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def scrape(url: str) -> dict[str, dict[tuple[tuple[str, str], ...], float]]:
    """Each sample by its name, then by its labels (sorted pairs)."""
    with urllib.request.urlopen(url + "/metrics", timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/plain")
        text = answer.read().decode()
    samples: dict[str, dict[tuple[tuple[str, str], ...], float]] = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, {})[tuple(sorted(sample.labels.items()))] = sample.value
    return samples


def settled(url: str, requests: int) -> tuple[dict[str, dict[tuple[tuple[str, str], ...], float]], int]:
    """A scrape once ``requests`` answers (scrapes aside) have reached it, every worker having
    handed its counts over (at most ``FLUSH_SECONDS`` late, later on a loaded machine), and how
    many scrapes came before it."""
    deadline, scrapes = time.monotonic() + 30, 0
    while True:
        time.sleep(FLUSH_SECONDS)
        seen = scrape(url)
        counted = sum(v for k, v in seen.get("card_rules_requests_total", {}).items()
                      if ("operation", "metrics") not in k)
        if counted >= requests or time.monotonic() > deadline:
            return seen, scrapes
        scrapes += 1


def labels(**pairs: str) -> tuple[tuple[str, str], ...]:
    return tuple(sorted(pairs.items()))


def known_mix(url: str) -> str:
    """The requests the test counts; answers the reason code of its illegal moves."""
    games = f"{url}/v1/games"
    for n in range(3):
        assert _post(f"{games}/sixty-six/deal", {"seed": f"mix {n}"})[0] == 200
    status, dealt = _post(f"{games}/bura/deal", {"seed": "mix"})
    assert status == 200
    status, dealt = _post(f"{games}/sixty-six/deal", {"seed": "mix 0"})
    state = dealt["state"]
    mover = state["to_move"]
    foreign = state["hands"][1 - mover][0]  # the other seat's card: not in the mover's hand
    reasons = set()
    for _ in range(2):
        status, answer = _post(f"{games}/sixty-six/validate",
                               {"state": state, "move": {"type": "play", "seat": mover, "cards": [foreign]}})
        assert status == 200 and answer["legal"] is False, answer
        reasons.add(answer["reason"]["code"])
    assert _post(f"{games}/sixty-six/validate", {})[0] == 422
    assert _post(f"{games}/sixty-six/sealed/view", {"token": "abc", "seat_key": "k"})[0] == 422
    assert _post(f"{games}/sixty-six/suggest", {"state": state, "seat": mover, "budget_ms": 5000})[0] == 422
    assert _post(f"{games}/sixty-six/deal", None, raw=json.dumps({"seed": "x" * 3000}).encode())[0] == 413
    try:
        urllib.request.urlopen(f"{url}/no/such/path", timeout=10)
    except urllib.error.HTTPError as error:
        assert error.code == 404
    (reason,) = reasons
    return reason


def test_metrics_show_exactly_the_requests_made_across_workers_and_outlive_a_killed_worker():
    with gunicorn(MAX_BODY_BYTES="2000") as url:
        reason = known_mix(url)
        seen, scrapes = settled(url, 13)
        metrics = labels(game="", operation="metrics", mode="")
        # Each earlier scrape counted once answered; the last one's own count is not in it.
        assert seen["card_rules_requests_total"].pop((*metrics, ("status", "200")), 0) == scrapes
        assert seen["card_rules_request_duration_seconds_count"].pop(metrics, 0) == scrapes
        # Four deals of Sixty-six (one of them in the mix's setup) and the 413 one; the rest once,
        # with the health check tests.live makes before it answers the server's URL.
        assert seen["card_rules_requests_total"] == {
            labels(game="sixty-six", operation="deal", mode="open", status="200"): 4,
            labels(game="bura", operation="deal", mode="open", status="200"): 1,
            labels(game="sixty-six", operation="validate", mode="open", status="200"): 2,
            labels(game="sixty-six", operation="validate", mode="open", status="422"): 1,
            labels(game="sixty-six", operation="view", mode="sealed", status="422"): 1,
            labels(game="sixty-six", operation="suggest", mode="open", status="422"): 1,
            labels(game="sixty-six", operation="deal", mode="open", status="413"): 1,
            labels(game="", operation="other", mode="", status="404"): 1,
            labels(game="", operation="health", mode="", status="200"): 1,
        }
        assert seen["card_rules_illegal_moves_total"] == {labels(game="sixty-six", reason=reason): 2}
        assert seen["card_rules_problems_total"] == {
            labels(game="sixty-six", operation="validate", mode="open", type="schema-violation"): 1,
            labels(game="sixty-six", operation="view", mode="sealed", type="bad-token"): 1,
            labels(game="sixty-six", operation="suggest", mode="open", type="over-budget"): 1,
            labels(game="sixty-six", operation="deal", mode="open", type="about:blank"): 1,
            labels(game="", operation="other", mode="", type="about:blank"): 1,
        }
        assert seen["card_rules_token_refusals_total"] == {labels(game="sixty-six", cause="not-a-token"): 1}
        assert seen["card_rules_limit_refusals_total"] == {
            labels(limit="SUGGEST_MAX_BUDGET_MS"): 1, labels(limit="MAX_BODY_BYTES"): 1}
        latency = seen["card_rules_request_duration_seconds_count"]
        assert latency[labels(game="sixty-six", operation="deal", mode="open")] == 5
        assert sum(latency.values()) == 13
        # One series per worker; the scrape itself is the one request in flight.
        in_flight = seen["card_rules_requests_in_flight"]
        assert len(in_flight) == 2 and sum(in_flight.values()) == 1

        killed = int(dict(next(iter(in_flight)))["pid"])
        os.kill(killed, signal.SIGKILL)
        deadline = time.monotonic() + 20
        while True:  # until the replacement worker has answered a scrape too
            after = scrape(url)
            pids = {dict(k)["pid"] for k in after["card_rules_requests_in_flight"]}
            if len(pids) == 2 and str(killed) not in pids:
                break
            assert time.monotonic() < deadline, pids
            time.sleep(0.2)
        requests = after["card_rules_requests_total"]
        assert requests[labels(game="sixty-six", operation="deal", mode="open", status="200")] == 4
        assert sum(v for k, v in requests.items() if ("operation", "metrics") not in k) == 13


def _value(name: str, **pairs: str) -> float:
    return REGISTRY.get_sample_value(name, pairs) or 0.0


def test_a_flush_hands_over_every_count_since_the_last_one_and_no_sooner() -> None:
    path = "/v1/games/flush-test/validate"
    meter = Meter({path: Route("flush-test", "validate", "open")})
    metering._METERS.discard(meter)  # flushed here only, not by the process's flushing thread
    route = {"game": "flush-test", "operation": "validate", "mode": "open"}
    before = {status: _value("card_rules_requests_total", **route, status=status) for status in ("200", "422")}
    times = [0.0004, 0.003, 0.003, 7.0]
    for seconds in times:
        meter.started({"PATH_INFO": path})
        meter.answered({"PATH_INFO": path, ILLEGAL_KEY: "not-your-turn"}, 200, seconds)
    meter.started({"PATH_INFO": path})
    meter.answered({"PATH_INFO": path, REFUSAL_KEY: Refusal("bad-token", token="altered")}, 422, 0.001)
    assert _value("card_rules_requests_total", **route, status="200") == before["200"]
    meter.flush()
    assert _value("card_rules_requests_total", **route, status="200") == before["200"] + 4
    assert _value("card_rules_requests_total", **route, status="422") == before["422"] + 1
    assert _value("card_rules_illegal_moves_total", game="flush-test", reason="not-your-turn") == 4
    assert _value("card_rules_token_refusals_total", game="flush-test", cause="altered") == 1
    meter.flush()  # nothing new: nothing counted twice
    assert _value("card_rules_requests_total", **route, status="200") == before["200"] + 4
    # The latency as observe() would have written it, time by time.
    registry = CollectorRegistry()
    one_by_one = Histogram("t", "t", buckets=BOUNDS[:-1], registry=registry)
    for seconds in [*times, 0.001]:
        one_by_one.observe(seconds)
    for bucket in ("0.0005", "0.001", "0.0025", "0.005", "+Inf"):
        assert (_value("card_rules_request_duration_seconds_bucket", **route, le=bucket)
                == registry.get_sample_value("t_bucket", {"le": bucket}))
    assert _value("card_rules_request_duration_seconds_sum", **route) == pytest.approx(sum(times) + 0.001)


def test_a_scrape_shows_the_answering_worker_as_one_request_in_flight_then_none() -> None:
    meter = Meter({})
    metering._METERS.discard(meter)
    meter.started({"PATH_INFO": "/metrics"})
    assert _value("card_rules_requests_in_flight") == 1
    meter.answered({"PATH_INFO": "/metrics"}, 200, 0.001)
    assert _value("card_rules_requests_in_flight") == 0
