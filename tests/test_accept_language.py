"""``Accept-Language`` declared where it is honoured, so that a typed client can send it: in the
rules' document beside every ``lang`` parameter, in the table host's on every operation."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
HEADER = {"$ref": "#/components/parameters/AcceptLanguage"}


def operations(document: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """Each operation's parameters, its path's included."""
    return {f"{method.upper()} {path}": [*item.get("parameters", []), *operation.get("parameters", [])]
            for path, item in document["paths"].items()
            for method, operation in item.items() if method != "parameters"}


def test_the_header_is_a_header_parameter_of_that_name():
    for name in ("openapi.yaml", "host/openapi.yaml"):
        declared = yaml.safe_load((ROOT / name).read_text())["components"]["parameters"]["AcceptLanguage"]
        assert (declared["name"], declared["in"], declared["required"]) == ("Accept-Language", "header", False)


def test_every_operation_of_the_rules_that_takes_lang_declares_the_header():
    found = operations(yaml.safe_load((ROOT / "openapi.yaml").read_text()))
    lang = {"$ref": "#/components/parameters/Lang"}
    taking = {name for name, parameters in found.items() if lang in parameters}
    assert len(taking) > 100 and "GET /v1/games/{game}" not in found  # one path per game
    assert {name for name in taking if HEADER not in found[name]} == set()
    assert {name for name, parameters in found.items() if HEADER in parameters} == taking


def test_every_operation_of_the_table_host_declares_the_header():
    found = operations(yaml.safe_load((ROOT / "host/openapi.yaml").read_text()))
    assert found and all(HEADER in parameters for parameters in found.values())


def test_the_declared_header_is_honoured(client):
    answer = client.get("/v1/games/sixty-six", headers={"Accept-Language": "ru, en;q=0.5"})
    assert answer.headers["Content-Language"] == "ru"
