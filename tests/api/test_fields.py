"""The marshmallow schemas and the validators compiled from their JSON Schema say the same thing:
real bodies pass both, and each kind of bad input is refused by both."""

from __future__ import annotations

import copy

import pytest
from marshmallow import ValidationError

from service.api.envelopes import validate_move
from service.api.modes import Mode
from service.api.parts import Parts
from service.errors import SchemaViolation
from service.games.registry import GAMES


def _validators(app):
    return app.extensions["flask-smorest"]["apis"][""]["ext_obj"]


@pytest.fixture(scope="module")
def compiled(app):
    from service.api.parsing import CompiledValidators

    api = _validators(app)
    return CompiledValidators(lambda: api.spec.to_dict()["components"]["schemas"])


def _bodies(client, game_id):
    state = client.post(f"/v1/games/{game_id}/deal", json={"seed": "fields"}).json["state"]
    move = client.post(f"/v1/games/{game_id}/legal-moves", json={"state": state}).json["moves"][0]
    return {"state": state, "move": move}


MUTATIONS = {
    "unknown-card": lambda b: b["move"].__setitem__("cards", ["1Z"]) if "cards" in b["move"]
    else b["state"]["hands"][0].append("1Z"),
    "extra-field": lambda b: b["state"].__setitem__("surprise", 1),
    "bool-for-int": lambda b: b["move"].__setitem__("seat", True),
    "string-for-int": lambda b: b["move"].__setitem__("seat", "1"),
    "missing-required": lambda b: b["state"].pop("hands"),
    "unknown-move-type": lambda b: b["move"].__setitem__("type", "fly"),
    "int-for-bool": lambda b: b["state"]["options"].__setitem__(
        next(k for k, v in b["state"]["options"].items() if isinstance(v, bool)), 1),
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_real_bodies_pass_both(client, compiled, game_id):
    body = _bodies(client, game_id)
    schema = validate_move(Parts(GAMES[game_id].info, GAMES[game_id].schemas), Mode.OPEN).request
    schema().load(copy.deepcopy(body))
    compiled.validate(schema.__name__, copy.deepcopy(body))


@pytest.mark.parametrize("mutation", sorted(MUTATIONS))
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_bad_bodies_are_refused_by_both(client, compiled, game_id, mutation):
    body = _bodies(client, game_id)
    MUTATIONS[mutation](body)
    schema = validate_move(Parts(GAMES[game_id].info, GAMES[game_id].schemas), Mode.OPEN).request
    with pytest.raises(ValidationError):
        schema().load(copy.deepcopy(body))
    with pytest.raises(SchemaViolation):
        compiled.validate(schema.__name__, copy.deepcopy(body))
