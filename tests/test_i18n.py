"""Russian and English: the language negotiated per request, the catalogs complete, cards named
as players name them, and refusals met in play written wholly in the language asked for."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from service.cards import CARDS
from service.games.registry import GAMES
from service.i18n.cards import card_name, suit_name
from service.i18n.text import Suit, Text
from tests.russian import assert_refusal_is_russian, english_in
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


def test_a_message_names_its_values_in_the_case_the_sentence_asks():
    """The values of a sentence, whatever its words (an id no catalog holds keeps its English):
    cards with their article in English and in their case in Russian, lists joined as people
    join them, seats from 1, the reader as «вы» in its case, and the first letter a capital."""
    from service.i18n.text import Amount, Seat

    cards = [CARDS["QS"], CARDS["KS"]]
    said = Text("{seat} gives {to:dat} {cards:acc} for {points}", {
        "seat": Seat(0), "to": Seat(2), "cards": cards, "points": Amount(21, "point")}, capital=True)
    assert said.render("en") == "Seat 1 gives seat 3 the queen of spades and the king of spades for 21 points"
    assert said.render("ru") == "Место 1 gives месту 3 даму пик и короля пик for 21 очко"
    assert said.render("ru", reader=2) == "Место 1 gives вам даму пик и короля пик for 21 очко"
    assert suit_name("H", "ru", "gen") == "червей"
    assert Text("{suit:ins}", {"suit": Suit("H")}).render("ru") == "червями"
    mine = Text("{seat} takes the trick", {"seat": Seat(1)}, you="you take the trick", capital=True)
    assert (mine.render("en", 1), mine.render("en", 0), mine.render("en")) == (
        "You take the trick", "Seat 2 takes the trick", "Seat 2 takes the trick")


def test_every_message_id_has_its_russian_form_and_the_compiled_catalog_is_current():
    assert missing() == []


def _refusals(game_id: str, hands: int) -> dict[str, Any]:
    """A refusal of each reason code met when every move of every shape is tried at the positions
    of a few random hands (the game's laws enumerate the moves)."""
    import importlib

    from service.cards import SeedStream
    from service.errors import IllegalMove
    from service.games.base import DealSetup

    game = GAMES[game_id]
    laws = importlib.import_module(f"tests.games.{game_id.replace('-', '_')}_laws")
    found: dict[str, Any] = {}
    rng = random.Random(game_id)
    for n in range(hands):
        state = game.deal(DealSetup(game.info.default_players, None, {}, None), SeedStream(f"i18n {n}"))
        while (seat := game.to_move(state)) is not None:
            for move in laws.universe(state):
                try:
                    game.check(state, move)
                except IllegalMove as refusal:
                    found.setdefault(refusal.reason, refusal)
            state, _ = game.apply(state, rng.choice(game.legal_moves(state, seat)))
    return found


@pytest.mark.parametrize("game_id", list(GAMES))
def test_refusals_met_in_play_are_wholly_russian(game_id):
    found = _refusals(game_id, hands=2)
    assert len(found) >= 3
    for refusal in found.values():
        assert_refusal_is_russian(refusal)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_every_reason_code_is_met_by_the_rule_tables(game_id):
    """The rule tables (whose every refusal ``tests.games.steps.refusal`` writes in Russian and
    checks) refuse a move for each of the game's reason codes."""
    tables = "\n".join(p.read_text() for p in Path(__file__).parent.joinpath("games").glob(
        f"test_{game_id.replace('-', '_')}*.py"))
    unmet = [reason.value for reason in GAMES[game_id].info.reasons
             if f'"{reason.value}"' not in tables and f"Reason.{reason.name}" not in tables]
    assert unmet == []


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
def test_every_option_choice_move_event_and_kind_says_what_it_does(game_id):
    info = GAMES[game_id].info
    blank = [f"options.{name}" for name, text in info.option_texts.items() if not text.description]
    blank += [f"options.{name}.{value}" for name, text in info.option_texts.items()
              for value, label in text.choices.items() if not label]
    blank += [f"moves.{kind}" for kind in info.move_types if not info.move_texts.get(kind)]
    blank += [f"events.{kind}" for kind, event in info.event_types.items() if not event.doc]
    kinds = {value for event in info.event_types.values() for value in event.kinds}
    for move in GAMES[game_id].schemas.moves.values():
        kind = move().fields.get("kind")
        kinds |= {value for check in (kind.validators if kind else []) for value in getattr(check, "choices", [])}
    blank += [f"kinds.{value}" for value in sorted(kinds) if not info.kind_texts.get(value)]
    assert blank == []


def test_every_russian_text_is_wholly_russian():
    """Every translation in the catalogs: no English word outside a code in backticks, a
    placeholder, or a game's codes (a card code has two letters at most: 10H, AS)."""
    from tools.messages import _read, parts

    english = []
    for path in parts():
        for message in _read(path):
            forms = message.string if isinstance(message.string, tuple) else (message.string,)
            for form in forms:
                if message.id and form and (words := english_in(form)):
                    english.append(f"{path.name} {form!r}: {words}")
    assert english == []


# --- every problem type, in Russian -------------------------------------------------------------

SIX = "/v1/games/sixty-six"


def _problems(client) -> dict[str, Any]:
    """One request per problem the service answers, each made as a client would make it."""
    state = client.post(f"{SIX}/deal", json={"seed": "problems"}).json["state"]
    bura = client.post("/v1/games/bura/deal", json={"seed": "problems", "players": 2}).json["state"]
    sealed = client.post(f"{SIX}/sealed/deal", json={}).json
    mover = state["to_move"]
    other = 1 - mover
    move = client.post(f"{SIX}/legal-moves", json={"state": state, "seat": mover}).json["moves"][0]
    wrong_to_move = {**state, "to_move": other}
    return {
        "malformed-json": ("post", f"{SIX}/deal", {"data": "{", "content_type": "application/json"}),
        "unsupported-media-type": ("post", f"{SIX}/deal", {"data": "x", "content_type": "text/plain"}),
        "schema-violation": ("post", f"{SIX}/deal", {"json": {"players": "two", "seed": 5, "extra": 1}}),
        "schema-violation (a value out of its set)": ("post", f"{SIX}/validate", {
            "json": {"state": state, "move": {**move, "type": "fly"}}}),
        "schema-violation (too many items)": ("post", f"{SIX}/legal-moves", {
            "json": {"state": {**state, "stock": state["stock"] * 5}}}),
        "invalid-state": ("post", f"{SIX}/legal-moves", {"json": {"state": wrong_to_move}}),
        "invalid-state (a card twice)": ("post", f"{SIX}/legal-moves", {
            "json": {"state": {**state, "stock": [state["hands"][0][0], *state["stock"][1:]]}}}),
        "bad-seat": ("post", "/v1/games/bura/view", {"json": {"state": bura, "seat": 3}}),
        "invalid-deck": ("post", f"{SIX}/deal", {"json": {"deck": ["AS", "AS"]}}),
        "unknown-game": ("post", "/v1/games/preferans/deal", {"json": {}}),
        "invalid-match": ("post", f"{SIX}/deal", {"json": {"seed": "m", "match": {
            "party_score": [3, 4], "over": True, "winner": 0, "next_dealer": 0}}}),
        "hand-not-finished": ("post", f"{SIX}/score", {"json": {"state": state}}),
        "illegal-recorded-move": ("post", f"{SIX}/score", {"json": {"record": {
            "start": state, "moves": [{**move, "seat": other}]}}}),
        "record-mismatch": ("post", f"{SIX}/suggest", {"json": {"state": state, "seat": mover, "record": {
            "start": state, "moves": [move]}}}),
        "bad-token": ("post", f"{SIX}/sealed/view", {"json": {"token": "AAAA", "seat_key": "AAAA"}}),
        "wrong-seat-key": ("post", f"{SIX}/sealed/validate", {"json": {
            "token": sealed["token"], "seat_key": sealed["seat_keys"][other], "move": {**move, "seat": mover}}}),
        "over-budget": ("post", f"{SIX}/suggest", {"json": {"state": state, "seat": mover, "budget_ms": 5000}}),
        "no-move": ("post", f"{SIX}/suggest", {"json": {"state": state, "seat": other}}),
        "not-found": ("get", "/v1/nowhere", {}),
        "method-not-allowed": ("delete", "/v1/games", {}),
        "too-large": ("post", f"{SIX}/deal", {"data": "[" + "1," * 2_000_000 + "1]",
                                              "content_type": "application/json"}),
    }


def test_every_problem_is_wholly_russian_when_asked_in_russian(client):
    """Title, detail and every field's message: no English, with pointers unchanged."""
    from service.errors import ServiceError

    met: dict[str, str] = {}
    for case, (method, path, kwargs) in _problems(client).items():
        english = getattr(client, method)(path, **kwargs)
        answer = getattr(client, method)(path, headers={"Accept-Language": "ru"}, **kwargs)
        body = answer.json
        assert answer.status_code == english.status_code >= 400, (case, body)
        assert [e["pointer"] for e in body.get("errors", ())] == [
            e["pointer"] for e in english.json.get("errors", ())], case
        texts = [body["title"], body["detail"], *(e["message"] for e in body.get("errors", ()))]
        assert not [(t, english_in(t)) for t in texts if english_in(t)], (case, body)
        met[body["type"]] = case
    slugs = {f"urn:card-rules:problem:{cls.slug}" for cls in _subclasses(ServiceError)
             if cls.__module__.startswith("service.")}  # the table host's: tests/host
    elsewhere = {"internal", "limit-exceeded", "replayed", "replay-store-down", "token-refused", "wrong-mode",
                 "hand-unknown", "computer-busy"}
    assert slugs - set(met) == {f"urn:card-rules:problem:{slug}" for slug in elsewhere} & slugs


def _subclasses(cls):
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def _busy():
    from service.errors import ComputerBusy
    from service.slots import Slots

    slots = Slots(1)
    with slots.held():
        try:
            with slots.held():
                pass
        except ComputerBusy as busy:
            return busy
    raise AssertionError("a second holder of one slot")


def _unmet_problems():
    from service.errors import LimitExceeded, ReplayStoreDown, WrongMode
    from service.replay import _moved_on, _unknown

    return [
        _unknown(),
        _busy(),
        LimitExceeded("the listing has {entries} entries, more than this server's MAX_LISTING ({most})",
                      limit="MAX_LISTING", value=5, entries=9, most=5),
        _moved_on(3, 5),
        ReplayStoreDown("the replay guard's store did not answer; try again"),
        WrongMode("/players", "this match is played by {players}", players=2),
    ]


@pytest.mark.parametrize("error", _unmet_problems(), ids=lambda error: error.slug)
def test_the_problems_this_client_does_not_meet_are_russian_too(error):
    """A listing past an operator's limit, the replay guard's refusals (met against its stores in
    tests/api/test_replay_guard.py and test_replay_faults.py), every search slot taken
    (tests/api/test_computer_guard.py), a sealed match's table (tests/api/test_sealed_http.py)."""
    from service.i18n import translate, written

    for text in (translate(error.title, "ru"), written(error.detail, "ru")):
        assert text and not english_in(text), text


COUNTS = (0, 1, 2, 5, 11, 21, 22)
BABEL_FORM = {"one": 0, "few": 1, "many": 2, "other": 2}
"""gettext's Russian forms (the catalog's Plural-Forms, which Babel writes) by Babel's CLDR
category: 1, 21 one; 2, 22 few; 0, 5, 11 many."""


def test_every_counted_message_takes_the_form_babels_plural_rules_give():
    from babel import Locale

    from service.i18n import translations
    from tools.messages import merged

    russian, catalog = Locale("ru"), translations("ru")
    counted = [m for m in merged() if isinstance(m.id, tuple)]
    assert len(counted) >= 18
    for message in counted:
        for n in COUNTS:
            expected = message.string[BABEL_FORM[russian.plural_form(n)]]
            found = (catalog.npgettext(message.context, *message.id, n) if message.context
                     else catalog.ngettext(*message.id, n))
            assert found == expected, (message.id, message.context, n)


@pytest.mark.parametrize(("noun", "case", "written"), [
    ("point", "nom", ["0 очков", "1 очко", "2 очка", "5 очков", "11 очков", "21 очко", "22 очка"]),
    ("card", "acc", ["ноль карт", "одну карту", "две карты", "пять карт", "одиннадцать карт",
                     "двадцать одну карту", "двадцать две карты"]),
    ("card", "ins", ["нолём картами", "одной картой", "двумя картами", "пятью картами",
                     "одиннадцатью картами", "двадцатью одной картой", "двадцатью двумя картами"]),
    ("trick", "gen", ["ноля взяток", "одной взятки", "двух взяток", "пяти взяток", "одиннадцати взяток",
                      "двадцати одной взятки", "двадцати двух взяток"]),
])
def test_a_count_agrees_with_its_noun_in_every_case(noun, case, written):
    from service.i18n.text import amount

    assert [amount(n, noun, "ru", case) for n in COUNTS] == written
    assert amount(1, noun, "en") == f"1 {noun}" and amount(21, noun, "en", case) == f"21 {noun}s"


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_every_counted_sentence_renders_at_every_count(lang):
    """Every plural message id of the games' refusals, written at each count with stand-in
    values for its other placeholders: no placeholder left, no error."""
    from string import Formatter

    from service.i18n.text import Seat, Text
    from tools.messages import merged

    stand_ins = {"seat": Seat(1), "card": CARDS["QS"], "cards": [CARDS["QS"], CARDS["KS"]], "suit": Suit("H")}
    for message in merged():
        if not isinstance(message.id, tuple) or message.context:
            continue
        names = {name for form in (*message.id, *message.string)
                 for _, name, _, _ in Formatter().parse(form) if name}
        for n in COUNTS:
            params = {name: stand_ins.get(name, n) for name in names}
            params["count"] = n
            text = Text(message.id[0], params, plural=message.id[1]).render(lang)
            assert "{" not in text and text
