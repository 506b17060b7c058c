"""Each game's detail typed as its own: `deck_cards` an array of the game's cards, `move_types`
and `event_types` enums of its own, and the answer within them (the shape is every game's
`GameDetail`, which the document keeps)."""

from __future__ import annotations

from typing import Any

import pytest

from service.games.registry import GAMES


def resolved(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = spec["components"]["schemas"][schema["$ref"].rsplit("/", 1)[1]]
    return schema


@pytest.fixture(scope="module")
def spec(app) -> dict[str, Any]:
    return app.test_client().get("/openapi.json").get_json()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_detail_of_each_game_names_its_own_cards_moves_and_events(client, spec, game: str) -> None:
    answered = spec["paths"][f"/v1/games/{game}"]["get"]["responses"]["200"]["content"]["application/json"]
    prefix = GAMES[game].schemas.prefix
    assert answered["schema"] == {"$ref": f"#/components/schemas/{prefix}GameDetail"}
    schema = resolved(spec, answered["schema"])
    cards = resolved(spec, schema["properties"]["deck_cards"]["items"])["enum"]
    assert schema["properties"]["deck_cards"]["items"] == {"$ref": f"#/components/schemas/{prefix}Card"}
    detail = client.get(f"/v1/games/{game}").get_json()
    assert set(detail["deck_cards"]) <= set(cards) and set(detail["card_values"]) == set(cards)
    for listed in ("move_types", "event_types"):
        assert schema["properties"][listed]["items"]["enum"] == detail[listed]
    shared = resolved(spec, {"$ref": "#/components/schemas/GameDetail"})
    assert set(schema["properties"]) == set(shared["properties"]) and schema["required"] == shared["required"]
