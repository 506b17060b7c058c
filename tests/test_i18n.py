"""Russian and English: the language negotiated per request, the catalogs complete, cards named
as players name them, and refusals met in play written wholly in the language asked for."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from service.cards import CARDS
from service.games import GAMES
from service.i18n.cards import card_name, suit_name
from service.i18n.text import Suit, Text
from tools.messages import missing


@pytest.mark.parametrize(("header", "query", "expected"), [
    (None, "", "en"),
    ("ru", "", "ru"),
    ("ru-RU,ru;q=0.9,en-US;q=0.8", "", "ru"),
    ("en;q=0.5, ru;q=0.7", "", "ru"),
    ("de;q=1, ru;q=0.1", "", "ru"),
    ("de, fr", "", "en"),
    ("*", "", "en"),
    ("ru", "?lang=en", "en"),
    (None, "?lang=ru", "ru"),
])
def test_the_language_is_negotiated_and_said(client, header, query, expected):
    headers = {"Accept-Language": header} if header else {}
    answer = client.post(f"/v1/games/sixty-six/validate{query}", json={}, headers=headers)
    assert answer.status_code == 422
    assert answer.headers["Content-Language"] == expected
    assert "Accept-Language" in answer.headers.getlist("Vary")
    assert answer.json["title"] == {"en": "Request does not match the schema",
                                    "ru": "Запрос не соответствует схеме"}[expected]


def test_an_unknown_lang_parameter_is_a_problem_naming_it(client):
    answer = client.post("/v1/games/sixty-six/deal?lang=de", json={})
    assert answer.status_code == 400
    assert answer.mimetype == "application/problem+json"
    assert "lang" in answer.json["detail"] and "ru" in answer.json["detail"]


def test_machine_fields_never_change_with_the_language(client):
    """Codes, pointers, card codes and reason codes are the same in both languages."""
    dealt = client.post("/v1/games/sixty-six/deal", json={"seed": "i18n"}).json["state"]
    mover = dealt["to_move"]
    move = {"type": "play", "seat": mover, "cards": [dealt["hands"][1 - mover][0]]}
    answers = [client.post(f"/v1/games/sixty-six/validate?lang={lang}", json={"state": dealt, "move": move}).json
               for lang in ("en", "ru")]
    assert answers[0]["reason"]["code"] == answers[1]["reason"]["code"] == "card_not_in_hand"
    assert answers[0]["reason"]["message"] != answers[1]["reason"]["message"]
    assert answers[0]["reason"]["rule"].split()[0] == answers[1]["reason"]["rule"].split()[0]  # the §
    problems = [client.post(f"/v1/games/sixty-six/validate?lang={lang}", json={"state": dealt}).json
                for lang in ("en", "ru")]
    assert [e["pointer"] for e in problems[0]["errors"]] == [e["pointer"] for e in problems[1]["errors"]]
    assert problems[0]["type"] == problems[1]["type"]


@pytest.mark.parametrize(("code", "case", "russian", "english"), [
    ("AS", "nom", "туз пик", "ace of spades"),
    ("10H", "nom", "десятка червей", "ten of hearts"),
    ("QS", "acc", "даму пик", "queen of spades"),
    ("KC", "gen", "короля треф", "king of clubs"),
    ("9D", "ins", "девяткой бубён", "nine of diamonds"),
    ("JK", "nom", "джокер", "joker"),
])
def test_cards_are_named_as_players_name_them(code, case, russian, english):
    assert card_name(CARDS[code], "ru", case) == russian
    assert card_name(CARDS[code], "en", case) == english


def test_a_message_names_its_cards_and_suits_in_the_case_the_sentence_asks():
    text = Text("the player must beat the {card}", {"card": CARDS["QS"]})
    assert text.render("en") == "the player must beat the queen of spades"
    assert text.render("ru") == "игрок должен побить даму пик"
    assert suit_name("H", "ru", "gen") == "червей"
    assert Text("the player does not hold the king and queen of {suit}", {"suit": Suit("H")}).render("ru") == \
        "у игрока нет короля и дамы масти червей"


def test_every_message_id_has_its_russian_form_and_the_compiled_catalog_is_current():
    assert missing() == []


ENGLISH = re.compile(r"\b(?![a-z]+_)[A-Za-z]{3,}\b")
"""A word of three Latin letters or more that is not an option's snake_case name: English."""


def _refusals(game_id: str, hands: int) -> tuple[dict[str, Any], set[str]]:
    """A refusal of each reason code met when every move of every shape is tried at the positions
    of a few random hands (the game's laws enumerate the moves), and the phases met (codes)."""
    import importlib

    from service.cards import SeedStream
    from service.errors import IllegalMove
    from service.games.base import DealSetup

    game = GAMES[game_id]
    laws = importlib.import_module(f"tests.games.{game_id.replace('-', '_')}_laws")
    found: dict[str, Any] = {}
    phases: set[str] = set()
    rng = random.Random(game_id)
    for n in range(hands):
        state = game.deal(DealSetup(game.info.default_players, None, {}, None), SeedStream(f"i18n {n}"))
        while (seat := game.to_move(state)) is not None:
            phases.add(str(game.dump_state(state).get("phase")))
            for move in laws.universe(state):
                try:
                    game.check(state, move)
                except IllegalMove as refusal:
                    found.setdefault(refusal.reason, refusal)
            state, _ = game.apply(state, rng.choice(game.legal_moves(state, seat)))
    return found, phases


@pytest.mark.parametrize("game_id", list(GAMES))
def test_refusals_met_in_play_are_wholly_russian(game_id):
    from service.i18n import translate, written

    found, phases = _refusals(game_id, hands=2)
    codes = set(GAMES[game_id].info.move_types) | phases  # codes, as an option's name is
    assert len(found) >= 3
    for reason, refusal in found.items():
        for text in (written(refusal.message, "ru"), translate(refusal.rule, "ru")):
            english = [w for w in ENGLISH.findall(text) if w not in codes]
            assert not english, (reason, text)


def test_no_message_is_written_as_an_f_string():
    """A sentence built in code (an f-string, ``+``, ``%`` or ``.format``) cannot be a catalog's
    message id: its values go in as parameters, at the refusal's or the error's call."""
    import ast

    from tools.messages import SERVICE, keywords

    built = (ast.JoinedStr, ast.BinOp)
    offenders = []
    for path, node, sentence in _message_calls(SERVICE, keywords()):
        formatted = isinstance(sentence, ast.Call) and getattr(sentence.func, "attr", None) == "format"
        if isinstance(sentence, built) or formatted:
            offenders.append(f"{path.relative_to(SERVICE)}:{node.lineno}")
    assert offenders == []


def _message_calls(root, spec):
    """Each call of a message keyword in the service's code, with the argument that is its
    sentence."""
    import ast

    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name not in spec:
                continue
            index = (spec[name] or (1,))[0] - 1
            if len(node.args) > index:
                yield path, node, node.args[index]


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_option_choice_move_and_event_says_what_it_does(game_id):
    info = GAMES[game_id].info
    blank = [f"options.{name}" for name, text in info.option_texts.items() if not text.description]
    blank += [f"options.{name}.{value}" for name, text in info.option_texts.items()
              for value, label in text.choices.items() if not label]
    blank += [f"moves.{kind}" for kind in info.move_types if not info.move_texts.get(kind)]
    blank += [f"events.{kind}" for kind, event in info.event_types.items() if not event.doc]
    assert blank == []


def _codes() -> set[str]:
    """The words a Russian text may keep in Latin letters outside backticks: the games' codes
    (move, event and option names, option values, phases), as machine fields are."""
    codes = {"JSON"}
    for game in GAMES.values():
        info = game.info
        codes |= {*info.move_types, *info.event_types, *info.options, *info.variants}
        codes |= {value for text in info.option_texts.values() for value in text.choices}
    return codes


def test_every_russian_text_is_wholly_russian():
    """Every translation in the catalogs: no English word outside a code in backticks, a
    placeholder, or a game's codes (a card code has two letters at most: 10H, AS)."""
    from tools.messages import _read, parts

    codes = _codes()
    english = []
    for path in parts():
        for message in _read(path):
            if not (message.id and message.string):
                continue
            text = re.sub(r"`[^`]*`|\{[^}]*\}", "", message.string)
            words = [w for w in ENGLISH.findall(text) if w not in codes]
            if words:
                english.append(f"{path.name} {message.string!r}: {words}")
    assert english == []
