"""/metrics over the Dockerfile's gunicorn command (two workers, prometheus-client's multiprocess
mode): after a known mix of requests it shows exactly those counts, whichever worker served
each, and a worker killed keeps its counts but leaves the in-flight gauge."""

from __future__ import annotations

import json
import os
import signal
import time
import urllib.error
import urllib.request
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

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
        seen = scrape(url)
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
