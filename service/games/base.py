"""The one small interface every game implements, and the value types the games share.

A game is a stateless object: every method takes a state (an immutable value of the game's own
type) and answers without side effects. The HTTP layer only ever talks to this interface.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from enum import Enum, StrEnum
from typing import Any, Generic, NoReturn, Protocol, Self, TypeVar

from service.cards import Card, DeckSource, codes
from service.errors import BadSeat, IllegalMove, InvalidState
from service.games.advice import Advice
from service.i18n.cards import COMMON_WORDS, Vocabulary
from service.i18n.text import Text
from service.wire.kinds import OneOf
from service.wire.schemas import GameSchemas

S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")
MC = TypeVar("MC", contravariant=True)
Wire = dict[str, Any]
"""A JSON object as it travels (already checked against the game's JSON schema)."""


@dataclass(frozen=True, slots=True)
class Event:
    """Something a move caused: a card played or drawn, a trick won, a marriage scored, the hand
    over. Which of its fields travel is its type's ``EventType`` (``GameInfo.event_types``)."""

    type: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    points: int | None = None
    suit: str | None = None
    kind: str | None = None
    to: int | None = None
    """The seat the cards go to, for a type that passes cards between seats."""


@dataclass(frozen=True, slots=True)
class Saying:
    """An event told in one sentence, each an English message id. Its placeholders are the
    event's fields: ``{seat}`` and ``{to}`` (seats, «место 2», or «вы» to the reader), ``{cards}``,
    ``{suit}``, ``{kind}`` (written by ``kinds``), and the counted ones, ``{points}`` («21 очко»)
    and ``{count}`` (the number of cards a seat does not see: «3 карты»), each in the case its
    format asks for (``{cards:acc}``, ``{count:ins}``)."""

    other: str
    """Said of ``seat`` to anyone else (and in open mode, which has no reader)."""
    you: str | None = None
    """Said to ``seat`` itself: «Вы кладёте даму пик»."""
    hidden: str | None = None
    """A private type's sentence to a seat that does not see its cards (``{count}``)."""
    nobody: str | None = None
    """When ``seat`` is null (a hand with no one winner)."""
    kinds: Mapping[str, str] = field(default_factory=dict)
    """``kind``'s values as the sentence names them («безик», «сто тузов»)."""

    def texts(self) -> Iterable[str]:
        """Every message id it holds."""
        yield from (text for text in (self.other, self.you, self.hidden, self.nobody) if text)
        yield from self.kinds.values()


@dataclass(frozen=True, slots=True)
class EventType:
    """One type of event on the wire: what it means, and the fields it always carries besides
    ``type`` and ``seat``. ``hand`` says what it does to hands, so that a seat can follow its own
    hand and the others' sizes from its events alone: +1 the cards enter ``seat``'s hand, -1
    they leave it, 0 neither (a ``to`` type: they leave ``seat``'s and enter ``to``'s)."""

    doc: str
    cards: bool = False
    points: bool = False
    suit: bool = False
    kinds: Mapping[str, str] = field(default_factory=dict)
    """The values of ``kind``, for a type that carries one, each with what it means (an English
    message id)."""
    to: bool = False
    private: bool = False
    """The cards are seen by ``seat`` (and ``to``) only: every other seat is told their number."""
    hand: int = 0
    winner: bool = False
    """``seat`` is who won, possibly nobody (null), not who acted."""
    says: Saying = field(kw_only=True)
    """The event in a sentence, for a person (every event's ``text``)."""


class Status(StrEnum):
    """A hand's derived ``status`` on the wire, the same in every game."""

    IN_PROGRESS = "in_progress"
    FINISHED = "finished"

    @staticmethod
    def of(*, finished: bool) -> str:
        """The wire value (a plain string, as every value of a dumped state is)."""
        return _STATUS[finished]


_STATUS = {True: str(Status.FINISHED), False: str(Status.IN_PROGRESS)}
STATUS = OneOf({False: _STATUS[False], True: _STATUS[True]})
"""The kind of the derived ``status``, written from whether the hand is finished:
``derived(STATUS, "finished", ...)``."""


class Reason(StrEnum):
    """Base of every game's reason codes: each member is the code sent in a refusal and carries
    the rule of docs/rules/<game>.md that it enforces (``NOT_YOUR_TURN = "not_your_turn",
    "§4.2 only the seat to move may play"``)."""

    rule: str

    def __new__(cls, code: str, rule: str) -> Self:
        member = str.__new__(cls, code)
        member._value_ = code
        member.rule = rule
        return member


def refuse(reason: Reason, message: str, /, **params: object) -> NoReturn:
    """The one way a rule refuses a move. ``message`` is an English sentence for a person, its
    message id in the catalogs (``make messages``), said to the seat that tried the move («you
    must follow suit»); a sentence with values names them as ``{card}``, ``{seat}``..., given as
    ``params`` (a card as its ``Card``, a suit as ``Suit``, another seat as ``Seat``), and each
    language writes them its own way when the refusal is sent."""
    raise IllegalMove(reason.value, Text(message, params, capital=True), reason.rule)


def refuse_counted(reason: Reason, singular: str, plural: str, /, count: int, **params: object) -> NoReturn:
    """``refuse`` with a sentence whose form follows ``count`` by each language's plural rules
    («ответить одной картой», «…двумя картами»)."""
    raise IllegalMove(reason.value, Text(singular, {"count": count, **params}, plural=plural, capital=True),
                      reason.rule)


@dataclass(frozen=True, slots=True)
class GameInfo:
    """What ``GET /v1/games`` tells about a game."""

    id: str
    name_en: str
    name_ru: str
    player_counts: tuple[int, ...]
    default_players: int
    about_deck: str
    """The deck in a sentence, an English message id; ``{cards}`` stands for ``deck_cards``."""
    card_values: Mapping[str, int]
    """Card code -> its value, for every card of the game's largest deck."""
    deck_cards: tuple[str, ...]
    """The deck of the default options in its canonical order, each card as often as it is in
    the deck: what a ``deal`` with a given ``deck`` reorders."""
    move_types: tuple[str, ...]
    reasons: type[Reason]
    event_types: Mapping[str, EventType]
    options: Mapping[str, object]
    """Every option with its default value."""
    option_texts: Mapping[str, OptionText]
    move_texts: Mapping[str, str]
    """What each move type does, an English message id."""
    kind_texts: Mapping[str, str]
    """What each value of an event's ``kind`` (and a move's, the same values) means."""
    variants: tuple[str, ...] = field(default=())
    vocabulary: Vocabulary = field(default=COMMON_WORDS)
    """The game's own names for cards, where they differ from the common ones."""


@dataclass(frozen=True, slots=True)
class OptionText:
    """What an option means and what each of its choices (if it has a closed set) does: English
    message ids, as ``option()`` declared them."""

    description: str
    choices: Mapping[str, str]


def option_texts(options: type) -> dict[str, OptionText]:
    """Each option's texts, its choices by their wire value."""
    texts = {}
    for option_field in dataclass_fields(options):
        choices = option_field.metadata.get("choices") or {}
        texts[option_field.name] = OptionText(
            option_field.metadata.get("description") or "",
            {str(v.value if isinstance(v, Enum) else v): label for v, label in choices.items()})
    return texts


def describe(
    *, id: str, name_en: str, name_ru: str, players: tuple[int, ...], deck: Sequence[Card], about_deck: str,
    points: Mapping[Card, int] | Callable[[Card], int], moves: Mapping[str, str], reasons: type[Reason],
    events: Mapping[str, EventType], options: type, default_players: int | None = None,
    largest_deck: Sequence[Card] | None = None, variants: tuple[str, ...] = (),
    vocabulary: Vocabulary = COMMON_WORDS,
) -> GameInfo:
    """A game's ``GameInfo`` from what its rules declare: ``deck``, the deck of the default
    options (``deck_cards``; ``{cards}`` in ``about_deck`` lists its codes); ``points``, each
    card's value (``card_values``, over ``largest_deck`` if the game has a larger one); the move
    types with what each does; every option of the ``Options`` dataclass, its default and texts.
    ``default_players``: the first of ``players`` unless said."""
    values = points if callable(points) else lambda card: points.get(card, 0)
    return GameInfo(
        id=id, name_en=name_en, name_ru=name_ru, player_counts=players,
        default_players=players[0] if default_players is None else default_players,
        about_deck=about_deck,
        card_values={c.code: values(c) for c in (deck if largest_deck is None else largest_deck)},
        deck_cards=tuple(codes(deck)), move_types=tuple(moves), reasons=reasons, event_types=events,
        options=options_wire(options()), option_texts=option_texts(options), move_texts=dict(moves),
        kind_texts={value: text for event in events.values() for value, text in event.kinds.items()},
        variants=variants, vocabulary=vocabulary,
    )


@dataclass(frozen=True, slots=True)
class DealSetup:
    """What a deal request asks for, after the HTTP layer checked it against the schema."""

    players: int
    dealer: int | None
    """None: the match's next dealer, or seat 0."""
    options: Wire
    match: Wire | None

    def dealing_seat(self) -> int:
        """The dealer asked for, else the match's next dealer, else seat 0; 422 unless a seat."""
        asked = self.dealer is not None
        dealer = self.dealer if self.dealer is not None else (self.match or {}).get("next_dealer", 0)
        if dealer >= self.players:
            where = "/dealer" if asked else "/match/next_dealer"
            raise BadSeat(where, "seats are 0..{last}", last=self.players - 1)
        return int(dealer)


class Game(Protocol[S, M]):
    """The interface of a registered game, generic in its own state and move types ``S`` and
    ``M``. The HTTP layer, the all-games tests and the benchmark only ever use this."""

    info: GameInfo
    schemas: GameSchemas
    advice: Advice[S, M]
    """What the computer player (``service.player``) needs beyond the rules."""

    def deal(self, setup: DealSetup, source: DeckSource) -> S: ...

    def load_state(self, wire: Wire) -> S:
        """Wire state -> game state; raises ``InvalidState`` with pointers relative to the state."""

    def dump_state(self, state: S) -> Wire: ...

    def rebuild(self, wire: Wire) -> S:
        """A state from a wire form this service dumped (a sealed token's): not checked."""

    def load_move(self, wire: Wire) -> M:
        """Raises ``SchemaViolation`` with pointers relative to the move for a shape the schema
        cannot refuse by itself."""

    def dump_move(self, move: M) -> Wire: ...

    def to_move(self, state: S) -> int | None: ...

    def seats(self, state: S) -> int:
        """The number of seats at the hand's table."""

    def check(self, state: S, move: M) -> None:
        """Raises ``IllegalMove`` for a move the rules refuse; the one place legality is decided."""

    def apply(self, state: S, move: M) -> tuple[S, list[Event]]:
        """The next state and the events; only called with a move that ``check`` accepted."""

    def legal_moves(self, state: S, seat: int) -> list[M]:
        """Every move ``seat`` may make now, each exactly as ``check`` accepts it, except those a
        family of ``listing`` describes."""

    def listing(self, state: S, seat: int) -> Listing[M]:
        """What ``legal-moves`` answers: ``legal_moves``, and the families of moves it leaves out."""

    def view(self, state: S, seat: int | None) -> Wire: ...

    def score(self, state: S, match: Wire | None) -> Wire:
        """``{"hand": ..., "match": ...}``; raises ``HandNotFinished`` or ``InvalidMatch``."""


@dataclass(frozen=True, slots=True)
class Listing(Generic[M]):
    """Every move a seat may make now: the moves one by one, and the families of moves too many
    to list one by one, each in its wire form (the game's ``families`` schema). Only a game whose
    listing could grow past a few thousand entries has families."""

    moves: list[M]
    families: list[Wire] = field(default_factory=list)


class CandidateListing(ABC, Generic[S, M]):
    """The trick games' legal moves: a finite superset of what a seat could try now (its
    candidates), kept where ``check`` accepts them, so legality is still decided once."""

    @abstractmethod
    def check(self, state: S, move: M) -> None: ...

    @abstractmethod
    def candidate_moves(self, state: S, seat: int) -> Iterable[M]: ...

    def legal_moves(self, state: S, seat: int) -> list[M]:
        return [move for move in self.candidate_moves(state, seat) if accepts(self.check, state, move)]

    def listing(self, state: S, seat: int) -> Listing[M]:
        return Listing(self.legal_moves(state, seat))


class Moving(Protocol):
    """A state that says whose move it is (``None`` once the hand is over), with a hand per seat."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def hands(self) -> Sequence[Sequence[Card]]: ...


SM = TypeVar("SM", bound=Moving)


@dataclass(frozen=True, slots=True)
class RuleSet(Generic[S, M]):
    """A trick game's pure rules, as its rules module defines them."""

    check: Callable[[S, M], None]
    apply: Callable[[S, M], tuple[S, list[Event]]]
    candidate_moves: Callable[[S, int], Iterable[M]]


class Decides(Protocol[S, MC]):
    """What every game's rule set has: the one check, and the effects."""

    @property
    def check(self) -> Callable[[S, MC], None]: ...

    @property
    def apply(self) -> Callable[[S, MC], tuple[S, list[Event]]]: ...


class RulesOf(Generic[SM, M]):
    """The protocol's ``to_move``, ``check`` and ``apply`` for a game that declares its
    ``rule_set`` (a ``RuleSet`` or ``MeldingRules``)."""

    rule_set: Decides[SM, M]

    def to_move(self, state: SM) -> int | None:
        return state.to_move

    def seats(self, state: SM) -> int:
        return len(state.hands)  # a hand per seat, in every game (empty for a dealer sitting out)

    def check(self, state: SM, move: M) -> None:
        self.rule_set.check(state, move)

    def apply(self, state: SM, move: M) -> tuple[SM, list[Event]]:
        return self.rule_set.apply(state, move)


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


class TrickGame(RulesOf[SM, M], CandidateListing[SM, M], Wired[SM, M]):
    """The rules half of a trick game: its rule set decides and applies moves and proposes the
    candidates, and its ``wire_form`` gives the wire methods; the game class adds its info, its
    schemas, deal and score."""

    rule_set: RuleSet[SM, M]

    def candidate_moves(self, state: SM, seat: int) -> Iterable[M]:
        return self.rule_set.candidate_moves(state, seat)


@dataclass(frozen=True, slots=True)
class MeldingRules(Generic[S, M]):
    """A game's pure rules when they list the legal moves themselves (Bezique, Canasta)."""

    check: Callable[[S, M], None]
    apply: Callable[[S, M], tuple[S, list[Event]]]
    listing: Callable[[S, int], tuple[list[M], Sequence[Any]]]
    """The moves listed one by one, and the families of moves that are not (§4.13 of Canasta's
    rules, §4.6 of Bezique's)."""


class MeldingGame(RulesOf[SM, M], Wired[SM, M]):
    """The protocol's rules and wire methods for a game that declares its ``rule_set`` and
    ``wire_form`` (with its ``dump_family``); the game class adds its info, schemas, deal and
    score."""

    rule_set: MeldingRules[SM, M]

    def legal_moves(self, state: SM, seat: int) -> list[M]:
        return self.listing(state, seat).moves

    def listing(self, state: SM, seat: int) -> Listing[M]:
        moves, families = self.rule_set.listing(state, seat)
        if not families:
            return Listing(moves)
        dump = self.wire_form.dump_family
        if dump is None:
            raise TypeError(f"{type(self).__name__} lists families but its wire form has no dump_family")
        return Listing(moves, [dump(f) for f in families])


def accepts(check: Callable[[S, M], None], state: S, move: M) -> bool:
    """Whether ``check`` lets the move through (a rules module's own yes/no question)."""
    try:
        check(state, move)
    except IllegalMove:
        return False
    return True


def option(
    default: T, description: str, *, within: tuple[int, int] | None = None,
    choices: Mapping[T, str] | None = None,
) -> T:
    """A field of a game's ``Options`` dataclass, declared once: its default, what it means, and
    the values it takes (``within`` an integer range, or one of ``choices``, each with what it
    does); the wire schema is derived from it (``service.wire.schemas.options_schema``), and
    ``GET /v1/games/{game}`` shows the texts, English message ids, in the answer's language."""
    metadata = {"description": description, "within": within, "choices": choices}
    return field(default=default, metadata=metadata)  # type: ignore[no-any-return]


def options_wire(options: Any) -> Wire:
    """A game's options (a dataclass) as their wire object, every option named."""
    return {name: getattr(options, name) for name in options.__dataclass_fields__}


_new = object.__new__
_set = object.__setattr__


def evolve(state: T, **changes: Any) -> T:
    """A copy of a frozen, slotted dataclass with some fields changed: ``dataclasses.replace``
    without its per-call introspection, which showed at the top of the profiles. Every state and
    move class of the rules is such a dataclass, without ``__post_init__``."""
    cls: Any = type(state)
    new: T = _new(cls)
    for name in cls.__slots__:
        _set(new, name, getattr(state, name))
    for name, value in changes.items():
        _set(new, name, value)
    return new


def replace_at(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """A per-seat (or per-side) tuple with one entry replaced, by slicing."""
    return (*values[:index], value, *values[index + 1:])


Zones = Iterable[tuple[str, Sequence[Card]]]


def check_deck(full_deck: Sequence[Card], found: Sequence[Card], zones: Callable[[], Zones]) -> None:
    """Every card of the deck lies in exactly one place, as often as the deck holds it.

    ``found`` is every card of the state; ``zones`` lists the same cards by place, each pile with
    its JSON pointer (relative to the state), and is only asked for when the check fails: the first
    card seen more often than the deck holds it is reported at its own position.
    """
    if _same_multiset(full_deck, found):
        return  # the usual case, decided in C
    allowed = Counter(full_deck)
    seen: Counter[Card] = Counter()
    for pointer, pile in zones():
        for index, card in enumerate(pile):
            seen[card] += 1
            if seen[card] > allowed[card]:
                raise _overcount(f"{pointer}/{index}", card, allowed[card])
    missing = allowed - seen
    raise InvalidState("", "cards missing from the state: {cards}",
                       cards=sorted(missing.elements(), key=lambda c: c.code))


def _overcount(at: str, card: Card, allowed: int) -> InvalidState:
    if allowed == 0:
        return InvalidState(at, "{card} is not in this deck", card=card)
    if allowed == 1:
        return InvalidState(at, "{card} appears more often than the deck holds it (once)", card=card)
    return InvalidState(at, "{card} appears more often than the deck holds it ({times} times)", card=card,
                        times=allowed)


_PROFILES: dict[int, tuple[Sequence[Card], frozenset[Card] | Counter[Card]]] = {}
"""Each deck's profile by the deck's identity (the decks are constants): hashing a 214-card
tuple to find it cost 3 µs a request."""


def _deck_profile(full_deck: Sequence[Card]) -> frozenset[Card] | Counter[Card]:
    """A one-pack deck as a set; a deck with repeated cards as a multiset."""
    known = _PROFILES.get(id(full_deck))
    if known is not None and known[0] is full_deck:
        return known[1]
    unique = frozenset(full_deck)
    profile = unique if len(unique) == len(full_deck) else Counter(full_deck)
    _PROFILES[id(full_deck)] = (full_deck, profile)  # the entry keeps the deck, so its id stays its own
    return profile


def _same_multiset(full_deck: Sequence[Card], found: Sequence[Card]) -> bool:
    if len(found) != len(full_deck):
        return False
    profile = _deck_profile(full_deck)
    if isinstance(profile, frozenset):
        return len(set(found)) == len(found) and profile.issuperset(found)
    # dict's own comparison, in C: counted piles hold no zero counts, so it is Counter's. Measured
    # on a 214-card Bezique state: 11 µs -> 3 µs a load.
    return dict.__eq__(Counter(found), profile)
