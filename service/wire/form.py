"""A game's wire form declared once: each field of a state, a view, a move or a record written in
one place (its name, kind, bounds, whether it is required, derived or nullable, what it means),
from which follow its marshmallow schema and its loader and dumper.

The loader and the dumper are Python source generated from the declaration and compiled once,
at import (``service.wire.codegen``): a state is built by one positional call of its dataclass,
a dump is one dict display, and neither looks at the declaration again, so a request costs what
hand-written code costs. ``Record.source`` shows the code.

Fields:

- ``field(kind)``: read from the wire into the attribute of the same name (or ``attr``) and
  written back from it; ``optional``, ``default`` (a wire value, taken when the field is absent)
  and ``nullable`` say how it may be sent.
- ``derived(kind, of)``: written from ``of`` (an attribute or property, or a function of the
  value; of the state and the seat in a view's own fields), never read: the client may leave it
  out, and when sent it must be what the rest implies (``Record.check``). ``load=computed(...)``
  fills a dataclass field that is derived from others as the state is read.
- ``const(value)``: written as it is, never read (``game``, a fixed ``seats``).

A dataclass field on no declared field keeps its default; one without a default is an error at
import, as is a declared attribute the dataclass does not have.
"""

from __future__ import annotations

import copy
import keyword
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, is_dataclass
from dataclasses import fields as dataclass_fields
from typing import Any, Generic, TypeVar

import marshmallow as ma
from marshmallow import fields as ma_fields

from service.errors import FieldError, InvalidState, SchemaViolation
from service.i18n.text import Text
from service.wire.codegen import Source, occurrences, substitute
from service.wire.kinds import SEAT, Const, Kind, Options
from service.wire.schemas import CardFields, named

T = TypeVar("T")
Wire = dict[str, Any]

_SRC = "_src_"
"""What stands for a value's source in a kind's expression until it is known."""
_TAKEN = frozenset(dir(ma.Schema()))
"""Names a schema class already uses: a field of such a name is a member ``name_`` with a
``data_key`` (the document is the same)."""


class _Nothing:
    def __repr__(self) -> str:
        return "NOTHING"


NOTHING: Any = _Nothing()
"""No default: the field is required unless it is optional."""


@dataclass(frozen=True)
class Computed:
    """A dataclass field computed, as the state is read, from the values read into others."""

    function: Callable[..., Any]
    using: tuple[str, ...]


def computed(function: Callable[..., Any], *using: str) -> Computed:
    return Computed(function, using)


@dataclass(frozen=True)
class Field:
    """One declared field; made by ``field``, ``derived`` and ``const``."""

    kind: Kind
    description: str = ""
    required: bool = True
    nullable: bool = False
    default: Any = NOTHING
    attr: str | None = None
    """The attribute it is read into and written from; by default the field's name."""
    of: str | Callable[..., Any] | None = None
    """What it is written from, if not ``attr``: an attribute (a property too), or a function."""
    read: bool = True
    checked: bool = False
    computed: Computed | None = None
    sometimes: bool = False
    """Left out of an answer where it does not apply (by a dumper written by hand)."""

    def schema_field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        metadata: dict[str, Any] = {"description": self.description} if self.description else {}
        if self.sometimes:
            metadata["sometimes"] = True  # service.api.answers leaves it optional
        if metadata:
            kwargs["metadata"] = metadata
        if self.required:
            kwargs["required"] = True
        if self.nullable:
            kwargs["allow_none"] = True
        if self.default is not NOTHING:
            default = self.default
            # a list or object default is given as a factory, as a mutable default must be (and
            # the document, as before, leaves it unsaid)
            kwargs["load_default"] = (lambda: copy.deepcopy(default)) if isinstance(default, list | dict) \
                else default
        return self.kind.field(ctx, **kwargs)


def field(kind: Kind, description: str = "", *, nullable: bool = False, optional: bool = False,
          default: Any = NOTHING, attr: str | None = None, read: bool = True,
          sometimes: bool = False) -> Field:
    """A field read from the wire and written back. ``read=False``: written from its attribute
    but read by hand-written code (say why beside it); the loader leaves the attribute's default.
    ``sometimes``: a dumper written by hand leaves it out where it does not apply."""
    return Field(kind, description, required=not optional and default is NOTHING, nullable=nullable,
                 default=default, attr=attr, read=read, sometimes=sometimes)


def derived(kind: Kind, of: str | Callable[..., Any], description: str = "", *, nullable: bool = False,
            required: bool = False, checked: bool = True, load: Computed | None = None) -> Field:
    """A field written from ``of`` and never read: checked when sent (at the top level of a
    state) unless ``checked=False``. ``load`` computes the attribute ``of`` names as the state is
    read; without it that attribute keeps its default until hand-written code sets it."""
    if load is not None and not isinstance(of, str):
        raise TypeError("a computed field names the attribute it fills: of='...'")
    return Field(kind, description, required=required, nullable=nullable, of=of, read=False,
                 checked=checked, computed=load)


def const(value: Any) -> Field:
    return Field(Const(value), read=False)


def _member(name: str, declared: Field, ctx: CardFields) -> tuple[str, ma.fields.Field]:
    if name.isidentifier() and not keyword.iskeyword(name) and name not in _TAKEN:
        return name, declared.schema_field(ctx)
    return name + "_", declared.schema_field(ctx, data_key=name)


def _frozen(value: Any) -> Any:
    """A wire default as the loader passes it on: lists as tuples (never shared mutably)."""
    if isinstance(value, list | tuple):
        return tuple(_frozen(v) for v in value)
    return value


def _bind(body: str, src: str, code: Source, lines: list[str] | None) -> str:
    """``body`` with ``src`` in place; at a function's top level (``lines`` given), a source the
    body uses more than once is first bound to a local (one dict lookup or call, not several).
    Below it, ``src`` is a loop variable or an index of one, cheap to repeat."""
    if lines is not None and occurrences(body, _SRC) > 1:
        local = code.temp()
        lines.append(f"{local} = {src}")
        src = local
    return substitute(body, _SRC, src)


class _Plan:
    """Where each declared field of a value comes from and goes to: the attributes of a
    dataclass (or the positions of a tuple, ``cls`` ``tuple``)."""

    def __init__(self, name: str, cls: type, declared: Mapping[str, Field]) -> None:
        self.name, self.cls, self.declared = name, cls, dict(declared)
        self.positional = cls is tuple
        read = [n for n, f in self.declared.items() if f.read]
        self.attrs: dict[str, str] = {n: self.declared[n].attr or n for n in read}
        self.computed = {str(f.of): f.computed for f in self.declared.values() if f.computed is not None}
        written = {n: f.of if f.of is not None else (f.attr or n) for n, f in self.declared.items()
                   if not isinstance(f.kind, Const)}
        if self.positional:
            named_only = [n for n, of in written.items() if isinstance(of, str) and n not in self.attrs]
            if named_only or self.computed:
                raise TypeError(f"{name}: a tuple's fields are read and written by position: {named_only}")
            return
        if not is_dataclass(cls):
            raise TypeError(f"{name}: {cls.__name__} is not a dataclass")
        every = {f.name: f for f in dataclass_fields(cls)}
        init = {n: f for n, f in every.items() if f.init}
        for attr in [*self.attrs.values(), *self.computed]:
            if attr not in init:
                raise TypeError(f"{name}: {cls.__name__} has no field {attr!r} to read into")
        for attr, rule in self.computed.items():
            if not set(rule.using) <= set(self.attrs.values()):
                raise TypeError(f"{name}: {attr} is computed from fields read from the wire: {rule.using}")
        for n, source in written.items():
            if isinstance(source, str) and source not in every and not hasattr(cls, source):
                raise TypeError(f"{name}.{n}: {cls.__name__} has no attribute {source!r}")
        for attribute in init.values():
            if attribute.kw_only:
                raise TypeError(f"{name}: keyword-only {cls.__name__}.{attribute.name} is not supported")

    # --- reading -------------------------------------------------------------------------------

    def read(self, obj: str, code: Source, lines: list[str] | None = None) -> str:
        """An expression building the value from the wire object ``obj``."""
        values: dict[str, str] = {}
        for n, attr in self.attrs.items():
            values[attr] = self._read_field(n, self.declared[n], obj, code, lines)
        if self.computed:
            if lines is None:
                raise TypeError(f"{self.name}: computed fields only at a state's top level")
            for attr, rule in self.computed.items():
                args = []
                for used in rule.using:
                    if not values[used].isidentifier():
                        local = code.temp()
                        lines.append(f"{local} = {values[used]}")
                        values[used] = local
                    args.append(values[used])
                values[attr] = f"{code.ref(rule.function, rule.function.__name__)}({', '.join(args)})"
        if self.positional:
            return "(" + "".join(f"{values[self.attrs[n]]}, " for n in self.attrs) + ")"
        return f"{code.ref(self.cls, self.cls.__name__)}({', '.join(self._arguments(values, code))})"

    def _read_field(self, name: str, declared: Field, obj: str, code: Source, lines: list[str] | None) -> str:
        if declared.required:
            src = f"{obj}[{name!r}]"
        else:
            default = None if declared.default is NOTHING else _frozen(declared.default)
            src = f"{obj}.get({name!r}, {code.ref(default, 'default')})"
        body = declared.kind.read(_SRC, code)
        if declared.nullable and not declared.kind.plain:
            body = f"None if {_SRC} is None else {body}"
        return _bind(body, src, code, lines)

    def _arguments(self, values: dict[str, str], code: Source) -> list[str]:
        """The dataclass's arguments, positionally; the trailing defaults left out. (Measured:
        Sixty-six's 16-field ``State`` is built in 2.7 µs by position, 4.8 µs by keyword.)"""
        args: list[str] = []
        given = 0
        for f in dataclass_fields(self.cls):
            if not f.init:
                continue
            if f.name in values:
                args.append(values[f.name])
                given = len(args)
            elif f.default is not MISSING:
                args.append(code.ref(f.default, f.name))
            elif f.default_factory is not MISSING:
                args.append(f"{code.ref(f.default_factory, f.name)}()")
            else:
                raise TypeError(f"{self.name}: {self.cls.__name__}.{f.name} is on no declared field")
        return args[:given]

    # --- writing -------------------------------------------------------------------------------

    def written(self, name: str, obj: str, code: Source, lines: list[str] | None, args: str) -> str:
        """An expression for field ``name`` written from ``obj``; a function ``of`` is called
        with ``args``."""
        declared = self.declared[name]
        if isinstance(declared.kind, Const):
            return declared.kind.write("", code)
        source = declared.of if declared.of is not None else (declared.attr or name)
        if callable(source):
            src = f"{code.ref(source, getattr(source, '__name__', name))}({args})"
        elif self.positional:
            src = f"{obj}[{list(self.attrs).index(name)}]"
        else:
            src = f"{obj}.{source}"
        body = declared.kind.write(_SRC, code)
        if declared.nullable and not declared.kind.plain:
            body = f"None if {_SRC} is None else {body}"
        return _bind(body, src, code, lines)

    def items(self, obj: str, code: Source, lines: list[str] | None = None, *, args: str | None = None,
              names: list[str] | None = None) -> list[str]:
        """``"name": expression`` for each field (of ``names``), written from ``obj``."""
        return [f"{n!r}: {self.written(n, obj, code, lines, args or obj)}"
                for n in (names if names is not None else self.declared)]

    def write(self, obj: str, code: Source, lines: list[str] | None = None) -> str:
        """A dict display of the fields written from ``obj``."""
        return "{" + ", ".join(self.items(obj, code, lines)) + "}"

    def check_lines(self, code: Source) -> list[str]:
        """The body of ``check(w, o)``: each checked derived field, if sent, is what ``o`` implies."""
        lines: list[str] = []
        for n, declared in self.declared.items():
            if not declared.checked:
                continue
            inner: list[str] = []
            expected, value = self.written(n, "o", code, inner, "o"), code.temp()
            lines += [f"if {n!r} in w:", *(f"    {line}" for line in inner),
                      f"    if w[{n!r}] != ({value} := {expected}):",
                      f"        raise {code.ref(_refusal, 'refusal')}({n!r}, {value})"]
        return lines or ["return None"]


def _refusal(name: str, value: Any) -> InvalidState:
    return InvalidState(f"/{name}", "{field} must be {value} for this position", field=name,
                        value=repr(value))


class Record(Kind, Generic[T]):
    """An object on the wire and a dataclass (or tuple) in the state: a named schema, its kind
    (nested in others), and its own ``load``, ``dump`` and ``check`` (for a top-level value such
    as a state or a match standing)."""

    def __init__(self, ctx: CardFields, name: str, cls: type[T] | type[tuple], declared: Mapping[str, Field],
                 doc: str = "") -> None:
        self.name = name
        self.plan = _Plan(name, cls, declared)
        self.schema = named(name, doc, dict(_member(n, f, ctx) for n, f in declared.items()))
        code = Source(name)
        lines: list[str] = []
        built = self.plan.read("w", code, lines)
        code.function("load", "w", [*lines, f"return {built}"])
        lines = []
        written = self.plan.write("o", code, lines)
        code.function("dump", "o", [*lines, f"return {written}"])
        lines = []
        head = self.plan.items("o", code, lines, names=[n for n, f in declared.items() if f.of is None])
        code.function("dump_head", "o", [*lines, "return {" + ", ".join(head) + "}"])
        code.function("check", "w, o", self.plan.check_lines(code))
        compiled = code.compile()
        self.load: Callable[[Wire], T] = compiled["load"]
        """The value of a wire object the schema accepts."""
        self.dump: Callable[[T], Wire] = compiled["dump"]
        self.dump_head: Callable[[T], Wire] = compiled["dump_head"]
        """The dump without its derived fields, which ``load`` never reads: all it needs to build
        the value again (a sealed token's state). A move's head written, through JSON both ways and
        rebuilt: Sixty-six 12.4 µs against 13.4 with the whole dump, Bura 14.7 against 15.7,
        Bezique 54.9 against 58.3 (its head alone: 7.3 against 13.7; the bench's states in
        process, medians of 15 alternating rounds)."""
        self.check: Callable[[Wire, T], None] = compiled["check"]
        """Raises ``InvalidState`` (pointer ``/name``) for a derived field sent that disagrees."""
        self.source = code.text

    @property
    def fields(self) -> dict[str, Field]:
        return self.plan.declared

    def field(self, ctx: CardFields, **kwargs: Any) -> ma.fields.Field:
        return ma_fields.Nested(self.schema, **kwargs)

    def read(self, src: str, code: Source) -> str:
        return self.plan.read(src, code)

    def write(self, src: str, code: Source) -> str:
        return self.plan.write(src, code)


class View(Generic[T]):
    """What one seat (or a spectator) may see of a state: the fields it shares with the state
    (``table``, written from the state) and its own (written from a function of the state and
    the seat). ``dump(state, seat)`` is compiled like a record's."""

    def __init__(self, ctx: CardFields, name: str, cls: type[T], table: Mapping[str, Field],
                 own: Mapping[str, Field], doc: str = "") -> None:
        declared = {**table, **own}
        plan = _Plan(name, cls, declared)
        self.schema = named(name, doc, dict(_member(n, f, ctx) for n, f in declared.items()))
        code = Source(name)
        lines: list[str] = []
        items = [*plan.items("o", code, lines, names=list(table)),
                 *plan.items("o", code, lines, args="o, seat", names=list(own))]
        code.function("dump", "o, seat", [*lines, "return {" + ", ".join(items) + "}"])
        self.dump: Callable[[T, int | None], Wire] = code.compile()["dump"]
        self.source = code.text


def _unknown_move(kind: Any) -> SchemaViolation:
    return SchemaViolation("the move does not match the schema",
                           (FieldError("/type", Text("unknown move type {kind}", {"kind": repr(kind)})),))


class Moves(Generic[T]):
    """A game's moves, each a dataclass with its ``kind`` (its ``type`` on the wire) and its
    ``seat`` first, declared with its other fields: the move schemas by type (``SixtySixPlay``),
    and one ``load`` and one ``dump`` for them all."""

    def __init__(self, ctx: CardFields, moves: Mapping[type, tuple[str, Mapping[str, Field]]]) -> None:
        self.schemas: dict[str, type[ma.Schema]] = {}
        code = Source(f"{ctx.prefix}Move")
        loads, dumps = ["t = w['type']"], ["c = m.__class__"]  # 18 ns; type(m), a call, 26 ns
        for cls, (doc, declared) in moves.items():
            kind: str = cls.kind  # type: ignore[attr-defined]
            name = ctx.prefix + kind.title().replace("_", "")
            every = {"seat": field(SEAT), "type": const(kind), **declared}
            plan = _Plan(name, cls, every)
            self.schemas[kind] = named(name, doc, dict(_member(n, f, ctx) for n, f in every.items()))
            loads.append(f"if t == {kind!r}: return {plan.read('w', code)}")
            dumps.append(f"if c is {code.ref(cls, cls.__name__)}: return {plan.write('m', code)}")
        code.function("load", "w", [*loads, f"raise {code.ref(_unknown_move, 'unknown')}(t)"])
        code.function("dump", "m", [*dumps, f"raise {code.ref(TypeError, 'TypeError')}(m)"])
        compiled = code.compile()
        self.load: Callable[[Wire], T] = compiled["load"]
        """Raises ``SchemaViolation`` (pointer ``/type``) for a type no move has."""
        self.dump: Callable[[T], Wire] = compiled["dump"]
        self.source = code.text

    @property
    def types(self) -> tuple[str, ...]:
        return tuple(self.schemas)

    @property
    def docs(self) -> dict[str, str]:
        """What each move type does, by type."""
        return {kind: schema.__doc__ or "" for kind, schema in self.schemas.items()}


class GameWire(CardFields):
    """One game's wire vocabulary: its card and seat fields (``CardFields``), and the forms
    declared with them, each named after the game (``record("Marriage", ...)`` is
    ``SixtySixMarriage`` in the document)."""

    def options(self, cls: type[T]) -> Options[T]:
        return Options(f"{self.prefix}Options", cls)

    def record(self, name: str, cls: type[T] | type[tuple], declared: Mapping[str, Field],
               doc: str = "") -> Record[T]:
        return Record(self, self.prefix + name, cls, declared, doc)

    def schema(self, name: str, declared: Mapping[str, Field], doc: str = "") -> type[ma.Schema]:
        """The schema alone, of an object written by hand (a score's parts)."""
        return named(self.prefix + name, doc, dict(_member(n, f, self) for n, f in declared.items()))

    def view(self, cls: type[T], table: Mapping[str, Field], own: Mapping[str, Field],
             doc: str = "") -> View[T]:
        return View(self, f"{self.prefix}View", cls, table, own, doc)

    def moves_of(self, moves: Mapping[type, tuple[str, Mapping[str, Field]]]) -> Moves[Any]:
        return Moves(self, moves)
