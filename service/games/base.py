"""The one small interface every game implements, and the value types the games share.

A game is a stateless object: every method takes a state (an immutable value of the game's own
type) and answers without side effects. The HTTP layer only ever talks to this interface. A
game's rules import this module for their vocabulary (events, reasons, refusals, options,
copies of frozen states) and nothing of the wire: a game object's composition is
``service.games.compose``, its wire side ``service.games.wired``, the deck checks
``service.games.decks``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, Generic, NoReturn, Protocol, Self, TypeVar

from service.cards import Card, DeckSource, codes
from service.errors import BadSeat, IllegalMove
from service.games.advice import Advice
from service.i18n.cards import COMMON_WORDS, Vocabulary
from service.i18n.text import Text

if TYPE_CHECKING:  # a type only: the rules import this module, and the schemas load marshmallow
    from service.wire.schemas import GameSchemas

S = TypeVar("S")
M = TypeVar("M")
T = TypeVar("T")
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

    def dump_head(self, state: S) -> Wire:
        """The state as a sealed token holds it: its dump without the derived fields."""

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
