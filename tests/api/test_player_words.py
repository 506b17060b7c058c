"""Words a player can be shown, over HTTP: each event's ``text`` said to its reader, a refusal's
``message`` with its ``template`` and ``params``, a problem's ``message``, and ``card_forms``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from service import create_app
from service.api import events
from service.api.events import EVERY_SEAT, redacted, said, spoken, told
from service.cards import SeedStream
from service.config import Settings
from service.games.base import DealSetup
from service.games.registry import GAMES
from service.i18n.cards import CASES
from tests.api.test_sealed_games import KEY
from tests.test_sentences import faults, sentences


@pytest.fixture(scope="module")
def client() -> Any:
    return create_app(Settings(state_keys=(KEY,))).test_client()


def _sealed_hand(client: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    dealt = client.post("/v1/games/sixty-six/sealed/deal?lang=ru", json={"seed": "words"}).json
    seat = dealt["to_move"]
    listed = client.post("/v1/games/sixty-six/sealed/legal-moves",
                         json={"token": dealt["token"], "seat_key": dealt["seat_keys"][seat]}).json
    return dealt, listed["moves"][0]


def test_a_sealed_move_is_told_to_its_mover_in_the_second_person_and_to_others_in_the_third(client):
    dealt, move = _sealed_hand(client)
    seat = move["seat"]
    played = client.post("/v1/games/sixty-six/sealed/validate?lang=ru", json={
        "token": dealt["token"], "seat_key": dealt["seat_keys"][seat], "move": move}).json
    mine, public = played["events"][0], played["public_events"][0]
    assert mine["type"] == public["type"] == "card_played"
    assert mine["text"].startswith("Вы ") and not faults(mine["text"], "ru")
    assert public["text"].startswith(f"Место {seat + 1} ") and not faults(public["text"], "ru")
    other = client.post("/v1/games/sixty-six/sealed/events?lang=ru", json={
        "token": played["token"], "seat_key": dealt["seat_keys"][1 - seat], "since": 0}).json
    assert other["moves"][0]["events"][0]["text"] == public["text"]


def test_an_open_move_is_told_in_the_third_person_in_the_language_asked(client):
    dealt = client.post("/v1/games/sixty-six/deal", json={"seed": "words"}).json["state"]
    seat = dealt["to_move"]
    move = {"type": "play", "seat": seat, "cards": [dealt["hands"][seat][0]]}
    english = client.post("/v1/games/sixty-six/validate", json={"state": dealt, "move": move}).json
    assert english["events"][0]["text"].startswith(f"Seat {seat + 1} plays the ")


def test_a_refusal_says_why_to_its_mover_with_its_template_and_values(client):
    dealt = client.post("/v1/games/sixty-six/deal", json={"seed": "words"}).json["state"]
    seat = dealt["to_move"]
    card = dealt["hands"][1 - seat][0]
    move = {"type": "play", "seat": seat, "cards": [card]}
    reason = client.post("/v1/games/sixty-six/validate?lang=ru", json={"state": dealt, "move": move}).json["reason"]
    assert reason["code"] == "card_not_in_hand" and reason["rule"].startswith("§")
    assert not faults(reason["message"], "ru"), reason
    assert "{card" in reason["template"] and reason["params"]["card"] == card
    out_of_turn = {"type": "play", "seat": 1 - seat, "cards": [card]}
    reason = client.post("/v1/games/sixty-six/validate?lang=ru",
                         json={"state": dealt, "move": out_of_turn}).json["reason"]
    assert f"места {seat + 1}" in reason["message"] or f"место {seat + 1}" in reason["message"], reason
    assert reason["params"]["seat"] == seat


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_a_problem_has_a_sentence_for_a_player(client, lang):
    answer = client.post(f"/v1/games/sixty-six/validate?lang={lang}", json={"state": {}})
    assert answer.status_code == 422
    assert answer.json["message"] and not faults(answer.json["message"], lang)
    missing = client.get(f"/v1/games/no-such-game?lang={lang}")
    assert missing.status_code == 404 and not faults(missing.json["message"], lang)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_card_of_every_game_is_named_in_all_six_cases(client, game_id):
    detail = client.get(f"/v1/games/{game_id}?lang=ru").json
    forms = detail["card_forms"]
    assert set(forms) == set(detail["card_values"])
    for code, named in forms.items():
        assert list(named) == list(CASES)
        assert named["nom"] == detail["card_names"].get(code, named["nom"])
        assert all(not faults(name, "ru") for name in named.values()), (code, named)


def test_bezique_names_its_joker_as_its_players_do(client):
    forms = client.get("/v1/games/bezique?lang=ru").json["card_forms"]["JK"]
    assert forms["nom"] == "инфузорка" and forms["ins"] == "инфузоркой"
    assert client.get("/v1/games/canasta?lang=ru").json["card_forms"]["JK"]["nom"] == "джокер"


def test_a_sentence_remembered_is_the_sentence_written():
    game = GAMES["kozel"]
    info = game.info
    list(sentences("kozel", 4, {}, "ru", "remembered"))  # fills the memory
    assert events.SAID

    rng = random.Random(1)
    state = game.deal(DealSetup(4, None, {}, None), SeedStream("remembered"))
    while (seat := game.to_move(state)) is not None:
        state, caused = game.apply(state, rng.choice(game.legal_moves(state, seat)))
        every = told(info.event_types, caused, EVERY_SEAT)
        for reader in (None, 0, 1, 2, 3):
            for lang in ("en", "ru"):
                shown = redacted(info.event_types, every, reader)
                assert [e["text"] for e in spoken(info.event_types, shown, reader, lang, info.vocabulary)] == [
                    said(info.event_types[e["type"]], e, reader, lang, info.vocabulary) for e in shown]


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("game_id", list(GAMES))
def test_a_games_descriptions_are_sentences_without_codes(client, game_id, lang):
    detail = client.get(f"/v1/games/{game_id}?lang={lang}").json
    described = detail["descriptions"]
    texts = {"deck": detail["deck"],
             **{f"moves.{k}": v for k, v in described["moves"].items()},
             **{f"events.{k}": v for k, v in described["events"].items()},
             **{f"kinds.{k}": v for k, v in described["kinds"].items()}}
    for name, option in described["options"].items():
        texts[f"options.{name}"] = option["description"]
        texts.update({f"options.{name}.{value}": label for value, label in option["choices"].items()})
    bad = {where: (text, found) for where, text in texts.items() if (found := faults(text, lang))}
    assert bad == {}
