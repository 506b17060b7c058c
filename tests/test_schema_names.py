"""One naming convention for the operations' bodies: a game's operation takes `<Game><Operation>In`
and answers `<Game><Operation>Out`; the names used before it stay as deprecated aliases."""

from __future__ import annotations

from pathlib import Path

import yaml

from service.api.openapi import FORMER_NAMES

SPEC = yaml.safe_load((Path(__file__).resolve().parent.parent / "openapi.yaml").read_text())
SCHEMAS = SPEC["components"]["schemas"]


def name(ref: dict[str, str]) -> str:
    return ref["$ref"].rsplit("/", 1)[1]


def test_every_operation_of_a_game_takes_in_and_answers_out():
    bodies = {(path, name(operation["requestBody"]["content"]["application/json"]["schema"]),
               name(operation["responses"]["200"]["content"]["application/json"]["schema"]))
              for path, item in SPEC["paths"].items() if path.startswith("/v1/games/")
              for operation in item.values() if "requestBody" in operation}
    assert len(bodies) > 100
    assert [(path, taken) for path, taken, _ in bodies if not taken.endswith("In")] == []
    assert [(path, answered) for path, _, answered in bodies if not answered.endswith("Out")] == []


def test_the_former_names_are_deprecated_aliases():
    aliases = {alias: schema for alias, schema in SCHEMAS.items() if schema.get("deprecated")}
    assert len(aliases) == len(FORMER_NAMES) * 6
    for alias, schema in aliases.items():
        assert name(schema) in SCHEMAS and name(schema).endswith("Out"), alias
