"""A game's wire side as its game object takes it: the functions of its wire module
(``WireForm``, with the schemas of the same declarations: ``declared``) made the protocol's wire
methods (``Wired``), and the kind of the derived ``status`` every game's state carries. A game's
rules never import this module: it stands on the schema vocabulary (``service.wire``), which
loads marshmallow."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import marshmallow as ma

from service.games.base import Status, Wire
from service.wire.form import GameWire, Moves, Record, View
from service.wire.kinds import OneOf, Options
from service.wire.schemas import GameSchemas

S = TypeVar("S")
M = TypeVar("M")

STATUS = OneOf({finished: Status.of(finished=finished) for finished in (False, True)})
"""The kind of the derived ``status``, written from whether the hand is finished:
``derived(STATUS, "finished", ...)``."""


@dataclass(frozen=True, slots=True)
class WireForm(Generic[S, M]):
    """A game's states and moves on the wire, and its views, as its wire module defines them."""

    load_state: Callable[[Wire], S]
    dump_state: Callable[[S], Wire]
    dump_head: Callable[[S], Wire]
    """The state without its derived fields, which ``rebuild`` reads back."""
    load_move: Callable[[Wire], M]
    dump_move: Callable[[M], Wire]
    view: Callable[[S, int | None], Wire]
    rebuild: Callable[[Wire], S]
    """A state from a wire form this service dumped itself (a sealed token's): built, not
    checked, and a field the dump lacks (a token sealed before the field was added) takes its
    default."""
    schemas: GameSchemas
    """The schemas of the same declarations, which the HTTP layer wraps in its envelopes."""
    options: Options[Any]
    load_match: Callable[[Wire], Any]
    dump_match: Callable[[Any], Wire]
    dump_family: Callable[[Any], Wire] | None = None
    """A family of moves (``MeldingRules.listing``) on the wire; None for a game without them."""


def declared(wire: GameWire, load_state: Callable[[Wire], S], state: Record[S], view: View[S],
             moves: Moves[M], *, options: Options[Any], match: Record[Any],
             hand_score: Record[Any] | type[ma.Schema], family: Record[Any] | type[ma.Schema] | None = None,
             rebuild: Callable[[Wire], S] | None = None, by_hand: tuple[Callable[[Wire], M],
                                                                  Callable[[M], Wire]] | None = None,
             dump_family: Callable[[Any], Wire] | None = None) -> WireForm[S, M]:
    """A game's wire form from its declarations: the loaders, dumpers and schemas follow from the
    same records. Written by hand where a game needs to: ``rebuild``, the moves' loader and dumper
    (``by_hand``), ``dump_family`` (else the family record's dumper)."""
    load_move, dump_move = by_hand or (moves.load, moves.dump)
    if dump_family is None and isinstance(family, Record):
        dump_family = family.dump
    schemas = GameSchemas(fields=wire, state=state.schema, moves=moves.schemas, options=options.schema,
                          match=match.schema, view=view.schema, hand_score=_schema(hand_score),
                          family=None if family is None else _schema(family))
    return WireForm(load_state, state.dump, state.dump_head, load_move, dump_move, view.dump,
                    rebuild or state.load, schemas, options, match.load, match.dump, dump_family)


def _schema(declared: Record[Any] | type[ma.Schema]) -> type[ma.Schema]:
    return declared.schema if isinstance(declared, Record) else declared


_WIRE_METHODS = ("load_state", "dump_state", "dump_head", "rebuild", "load_move", "dump_move", "view")


class Wired(Generic[S, M]):
    """The protocol's wire methods of a game that declares its ``wire_form``: written once here.

    A subclass's ``wire_form`` functions become its methods themselves (static methods, set as
    the class is made), so a call costs what a call of the wire module's function costs, with no
    delegating frame. The methods below are what the protocol's type checker reads."""

    wire_form: WireForm[S, M]
    schemas: GameSchemas

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        form = cls.__dict__.get("wire_form")
        if form is None:
            return
        cls.schemas = form.schemas
        for name in _WIRE_METHODS:
            if name not in cls.__dict__:
                setattr(cls, name, staticmethod(getattr(form, name)))

    def load_state(self, state: Wire) -> S:
        return self.wire_form.load_state(state)

    def dump_state(self, state: S) -> Wire:
        return self.wire_form.dump_state(state)

    def dump_head(self, state: S) -> Wire:
        return self.wire_form.dump_head(state)

    def rebuild(self, wire: Wire) -> S:
        return self.wire_form.rebuild(wire)

    def load_move(self, move: Wire) -> M:
        return self.wire_form.load_move(move)

    def dump_move(self, move: M) -> Wire:
        return self.wire_form.dump_move(move)

    def view(self, state: S, seat: int | None) -> Wire:
        return self.wire_form.view(state, seat)
