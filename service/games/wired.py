"""A game's wire side as its game object takes it: the functions of its wire module
(``WireForm``) made the protocol's wire methods (``Wired``), and the kind of the derived
``status`` every game's state carries. A game's rules never import this module: it stands on
the schema vocabulary (``service.wire``), which loads marshmallow."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from service.games.base import Status, Wire
from service.wire.kinds import OneOf

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
    load_move: Callable[[Wire], M]
    dump_move: Callable[[M], Wire]
    view: Callable[[S, int | None], Wire]
    rebuild: Callable[[Wire], S]
    """A state from a wire form this service dumped itself (a sealed token's): built, not
    checked, and a field the dump lacks (a token sealed before the field was added) takes its
    default."""
    dump_family: Callable[[Any], Wire] | None = None
    """A family of moves (``MeldingRules.listing``) on the wire; None for a game without them."""


_WIRE_METHODS = ("load_state", "dump_state", "rebuild", "load_move", "dump_move", "view")


class Wired(Generic[S, M]):
    """The protocol's wire methods of a game that declares its ``wire_form``: written once here.

    A subclass's ``wire_form`` functions become its methods themselves (static methods, set as
    the class is made), so a call costs what a call of the wire module's function costs, with no
    delegating frame. The methods below are what the protocol's type checker reads."""

    wire_form: WireForm[S, M]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        form = cls.__dict__.get("wire_form")
        if form is None:
            return
        for name in _WIRE_METHODS:
            if name not in cls.__dict__:
                setattr(cls, name, staticmethod(getattr(form, name)))

    def load_state(self, state: Wire) -> S:
        return self.wire_form.load_state(state)

    def dump_state(self, state: S) -> Wire:
        return self.wire_form.dump_state(state)

    def rebuild(self, wire: Wire) -> S:
        return self.wire_form.rebuild(wire)

    def load_move(self, move: Wire) -> M:
        return self.wire_form.load_move(move)

    def dump_move(self, move: M) -> Wire:
        return self.wire_form.dump_move(move)

    def view(self, state: S, seat: int | None) -> Wire:
        return self.wire_form.view(state, seat)
