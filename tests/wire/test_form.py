"""The declared wire forms (service.wire.form): for every kind of field, the generated loader and
dumper agree with each other and with the schema made from the same declaration, both as
marshmallow sees it and as the JSON Schema the service compiles from the document."""

from __future__ import annotations

import copy
from dataclasses import dataclass, make_dataclass
from enum import StrEnum
from typing import Any, ClassVar

import marshmallow as ma
import pytest
from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin
from marshmallow import ValidationError

from service.api import openapi
from service.api.parsing import CompiledValidators
from service.cards import CARDS, Card, cards
from service.errors import InvalidState, SchemaViolation
from service.games.base import option
from service.games.wired import STATUS
from service.wire.fields import StrictInteger
from service.wire.form import GameWire, computed, const, derived, field
from service.wire.kinds import (
    BOOL,
    CARD,
    CARD_IN_LIST,
    SEAT,
    Int,
    ListOf,
    OneOf,
    PerSeat,
    Pile,
    Raw,
)

WIRE = GameWire("Test", ("AS", "KS", "QS", "JS", "10H", "9H"), max_seats=4)


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True, slots=True)
class Inner:
    """A nested record: an object on the wire, a dataclass in the state."""

    seat: int
    card: Card
    colour: Colour


Opts = make_dataclass("Opts", [  # options as every game declares them: a default, a meaning, a range
    ("fast", bool, option(False, "Go fast.")),
    ("size", int, option(3, "How big.", within=(1, 9))),
], frozen=True, slots=True)


@dataclass(frozen=True, slots=True)
class Thing:
    options: Opts
    dealer: int
    to_move: int | None
    count: int
    flag: bool
    colour: Colour
    name: str
    card: Card
    maybe: Card | None
    pile: tuple[Card, ...]
    pairs: tuple[tuple[Card, ...], ...]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    sizes: tuple[int, ...]
    inners: tuple[tuple[Inner, ...], ...]
    one_each: tuple[Inner | None, Inner | None]
    lead: tuple[int, Card] | None
    raw: Any
    total: int = 0
    note: int | None = None
    extra: int = 7

    @property
    def finished(self) -> bool:
        return self.to_move is None


OPTS = WIRE.options(Opts)
INNER = WIRE.record("Inner", Inner, {"seat": field(SEAT), "card": field(CARD), "colour": field(OneOf(Colour))})
LEAD = WIRE.record("Lead", tuple, {"seat": field(SEAT), "card": field(CARD)})


def _total(sizes: tuple[int, ...]) -> int:
    return sum(sizes)


def _hand_of(thing: Thing, seat: int | None) -> tuple[Card, ...] | None:
    return None if seat is None else thing.hands[seat]


TABLE = {
    "game": const("test"),
    "seats": const(2),
    "dealer": field(SEAT),
    "to_move": field(SEAT, nullable=True),
    "status": derived(STATUS, "finished", "derived"),
    "options": field(OPTS, default={}),
    "count": field(Int(0, 99)),
    "flag": field(BOOL, default=False),
    "colour": field(OneOf(Colour)),
    "name": field(OneOf(("x", "y"))),
    "card": field(CARD),
    "maybe": field(CARD, nullable=True, default=None),
    "pairs": field(ListOf(Pile(2, 2), 0, 3)),
    "sizes": field(PerSeat(Int(0, 9), (2, 4))),
    "inners": field(PerSeat(ListOf(INNER, 0, 2), (2, 4))),
    "one_each": field(PerSeat(INNER, 2), nullable=False),
    "lead": field(LEAD, nullable=True),
    "raw": field(Raw(lambda ctx, **kw: StrictInteger(**kw))),
    "total": derived(Int(0, 99), "total", load=computed(_total, "sizes")),
    "note": field(SEAT, nullable=True, optional=True, read=False),
    "doubled": derived(Int(0, 198), lambda t: 2 * t.count, checked=True),
}
STATE = WIRE.record("State", Thing, {**TABLE, "pile": field(Pile(0, 6)), "hands": field(PerSeat(Pile(0, 6), 2))})
VIEW = WIRE.view(Thing, TABLE, {
    "seat": derived(SEAT, lambda t, seat: seat, required=True, nullable=True),
    "hand": derived(Pile(0, 6), _hand_of, required=True, nullable=True),
})


def _thing(**changes: Any) -> Thing:
    inner = Inner(1, CARDS["AS"], Colour.BLUE)
    values = dict(
        options=Opts(), dealer=1, to_move=0, count=4, flag=True, colour=Colour.RED, name="y",
        card=CARDS["KS"], maybe=None, pile=cards("QS JS"), pairs=(cards("AS KS"), cards("10H 9H")),
        hands=(cards("AS"), ()), sizes=(1, 2, 3), inners=((inner,), (), (inner, inner)),
        one_each=(inner, Inner(0, CARDS["9H"], Colour.RED)), lead=(2, CARDS["10H"]), raw=5, total=6,
    )
    return Thing(**{**values, **changes})


@pytest.fixture(scope="module")
def validators():
    spec = APISpec("t", "1", "3.1.0", plugins=[MarshmallowPlugin(
        schema_name_resolver=lambda s: (s if isinstance(s, type) else type(s)).__name__)])
    openapi.install(spec.plugins[0])
    for schema in (STATE.schema, VIEW.schema, *MOVES.schemas.values()):
        spec.components.schema(schema.__name__, schema=schema)
    return CompiledValidators(lambda: spec.to_dict()["components"]["schemas"])


def _valid(validators, schema, wire):
    schema().load(copy.deepcopy(wire))  # marshmallow
    validators.validate(schema.__name__, copy.deepcopy(wire))  # the compiled JSON Schema


THINGS = {
    "full": _thing(),
    "nulls": _thing(to_move=None, maybe=CARDS["QS"], lead=None, sizes=(0, 0), inners=((), ()), total=0),
    "options": _thing(options=Opts(fast=True, size=9), pairs=(), flag=False),
}


@pytest.mark.parametrize("name", THINGS)
def test_every_kind_round_trips_and_matches_its_schema(validators, name):
    thing = THINGS[name]
    wire = STATE.dump(thing)
    assert set(wire) == {f.data_key or n for n, f in STATE.schema._declared_fields.items()}
    _valid(validators, STATE.schema, wire)
    assert STATE.load(wire) == thing
    STATE.check(wire, thing)
    assert STATE.dump(STATE.load(copy.deepcopy(wire))) == wire


def test_the_loaded_values_have_the_state_types():
    state = STATE.load(STATE.dump(_thing()))
    assert state.colour is Colour.RED and state.card is CARDS["KS"] and state.options == Opts()
    assert type(state.pairs) is tuple and all(type(p) is tuple for p in state.pairs)
    assert state.lead == (2, CARDS["10H"]) and state.one_each[0] == Inner(1, CARDS["AS"], Colour.BLUE)


def test_defaults_derived_fields_and_fields_read_by_hand():
    wire = STATE.dump(_thing(note=3))
    assert wire["note"] == 3 and wire["total"] == 6 and wire["doubled"] == 8 and wire["status"] == "in_progress"
    for name in ("status", "options", "flag", "maybe", "total", "note", "doubled"):
        del wire[name]
    loaded = STATE.load(wire)
    assert loaded.note is None, "a field read by hand keeps its default"
    assert loaded.total == 6, "a computed field is computed from the others"
    assert (loaded.options, loaded.flag, loaded.maybe, loaded.extra) == (Opts(), False, None, 7)


@pytest.mark.parametrize("name", THINGS)
def test_the_head_is_the_dump_without_its_derived_fields_and_loads_the_same(name):
    thing = THINGS[name]
    head, wire = STATE.dump_head(thing), STATE.dump(thing)
    assert set(wire) - set(head) == {"status", "total", "doubled"}
    assert head == {key: value for key, value in wire.items() if key in head}
    assert STATE.load(head) == thing


@pytest.mark.parametrize(("name", "value"), [("status", "finished"), ("total", 5), ("doubled", 9)])
def test_a_derived_field_sent_must_agree(name, value):
    thing = _thing()
    wire = {**STATE.dump(thing), name: value}
    with pytest.raises(InvalidState) as error:
        STATE.check(wire, thing)
    assert error.value.errors[0].pointer == f"/{name}"


def test_the_view_shares_the_table_and_adds_its_own(validators):
    thing = _thing()
    for seat in (0, 1, None):
        view = VIEW.dump(thing, seat)
        assert list(view) == [*TABLE, "seat", "hand"]
        assert view["hand"] == (None if seat is None else [c.code for c in thing.hands[seat]])
        _valid(validators, VIEW.schema, view)


def test_the_schema_says_what_the_declaration_says():
    fields = STATE.schema._declared_fields
    assert fields["dealer"].required and not fields["status"].required and fields["to_move"].allow_none
    assert fields["options"].load_default() == {} and fields["flag"].load_default is False
    assert fields["status"].metadata == {"description": "derived"}
    assert not fields["note"].required and fields["note"].load_default is ma.missing  # no default said


# --- moves -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Go:
    """A card sent as a list of one code, and a flag with a default; the seat need not be first."""

    card: Card
    seat: int
    loud: bool = False
    kind: ClassVar[str] = "go"


@dataclass(frozen=True, slots=True)
class Stop:
    """A type of two words, and an enum that may be null."""

    seat: int
    why: Colour | None = None
    kind: ClassVar[str] = "stop_now"


MOVES = WIRE.moves_of({
    Go: ("Go.", {"cards": field(CARD_IN_LIST, attr="card"), "loud": field(BOOL, default=False)}),
    Stop: ("Stop.", {"why": field(OneOf(Colour), nullable=True, default=None)}),
})


@pytest.mark.parametrize("move", [Go(CARDS["AS"], 0), Go(CARDS["9H"], 3, loud=True), Stop(1), Stop(2, Colour.BLUE)],
                         ids=repr)
def test_moves_round_trip_and_match_their_schemas(validators, move):
    wire = MOVES.dump(move)
    assert wire["type"] == move.kind and wire["seat"] == move.seat
    _valid(validators, MOVES.schemas[move.kind], wire)
    assert MOVES.load(wire) == move


def test_move_schemas_are_named_by_game_and_type():
    assert [s.__name__ for s in MOVES.schemas.values()] == ["TestGo", "TestStopNow"]
    assert MOVES.types == ("go", "stop_now")
    assert MOVES.load({"seat": 1, "type": "go", "cards": ["KS"]}) == Go(CARDS["KS"], 1)


def test_an_unknown_move_is_refused():
    with pytest.raises(SchemaViolation) as error:
        MOVES.load({"seat": 0, "type": "fly"})
    assert error.value.errors[0].pointer == "/type"
    with pytest.raises(TypeError):
        MOVES.dump(Inner(0, CARDS["AS"], Colour.RED))


# --- declarations that cannot work are refused at import ---------------------------------------


@pytest.mark.parametrize(("declared", "says"), [
    ({"seat": field(SEAT)}, "is on no declared field"),
    ({"seat": field(SEAT), "card": field(CARD), "colour": field(OneOf(Colour)), "wing": field(BOOL)},
     "no field 'wing'"),
    ({"seat": field(SEAT), "card": field(CARD), "colour": field(OneOf(Colour)),
      "hue": derived(BOOL, "hue")}, "no attribute 'hue'"),
])
def test_a_declaration_the_dataclass_cannot_follow_is_an_error(declared, says):
    with pytest.raises(TypeError, match=says):
        WIRE.record("Broken", Inner, declared)


def test_a_tuple_has_no_attributes_to_name():
    with pytest.raises(TypeError, match="by position"):
        WIRE.record("BadLead", tuple, {"seat": field(SEAT), "size": derived(Int(), "size")})


def test_a_bad_value_is_refused_by_the_schema_made_from_the_declaration(validators):
    wire = {**STATE.dump(_thing()), "count": 100}
    with pytest.raises(ValidationError):
        STATE.schema().load(wire)
    with pytest.raises(SchemaViolation):
        validators.validate(STATE.schema.__name__, wire)


def test_the_generated_code_is_kept_and_readable():
    assert "def load(w):" in STATE.source and "def dump(o):" in STATE.source
    assert "def dump(o, seat):" in VIEW.source
