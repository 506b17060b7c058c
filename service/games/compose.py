"""How a game object is composed from what its modules define: its rule set (a trick game's
``RuleSet``, a melding game's ``MeldingRules``) gives the protocol's ``check``, ``apply`` and
legal moves, its ``wire_form`` the wire methods and the schemas (``service.games.wired``), its
``match_rules`` the protocol's ``deal`` and ``score`` (``Matches``); the game class adds its info
and what of a deal and a score is its own."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from service.cards import Card, DeckSource
from service.errors import HandNotFinished
from service.games.base import DealSetup, Event, Listing, Wire, accepts
from service.games.match import MatchRules, Standing
from service.games.wired import Wired, WireForm

S = TypeVar("S")
M = TypeVar("M")
MC = TypeVar("MC", contravariant=True)
OP = TypeVar("OP")
OPC = TypeVar("OPC", covariant=True)
ST = TypeVar("ST", bound=Standing)


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


class TrickGame(RulesOf[SM, M], CandidateListing[SM, M], Wired[SM, M]):
    """The rules half of a trick game: its rule set decides and applies moves and proposes the
    candidates, and its ``wire_form`` gives the wire methods and the schemas."""

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
    ``wire_form`` (with its ``dump_family``)."""

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


class Hand(Protocol[OPC]):
    """What a match needs of a hand: its dealer, its options, its seats (a hand each) and whether
    it is over."""

    @property
    def dealer(self) -> int: ...

    @property
    def options(self) -> OPC: ...

    @property
    def hands(self) -> Sequence[Sequence[Card]]: ...

    @property
    def finished(self) -> bool: ...


HS = TypeVar("HS", bound=Hand[Any])


@dataclass(frozen=True, slots=True)
class Table(Generic[OP, S]):
    """The hand a standing is checked for: its seats, its dealer and its options, and at a score the
    hand itself (None at a deal)."""

    seats: int
    dealer: int
    options: OP
    hand: S | None = None


class Matches(ABC, Generic[HS, ST, OP]):
    """The protocol's ``deal`` and ``score``, written once on the game's ``match_rules``: the
    options read, the dealer found and the standing sent checked (a new one for a first hand)
    before the game deals; a finished hand scored against the standing checked, and the standing
    after it sent back. The game writes what is its own: ``new_match``, ``deal_hand`` and
    ``score_hand``, and where it has one, the options' ``target``."""

    match_rules: MatchRules
    wire_form: WireForm[HS, Any]

    def deal(self, setup: DealSetup, source: DeckSource) -> HS:
        options = self.load_options(setup)
        table: Table[OP, HS] = Table(setup.players, setup.dealing_seat(), options)
        return self.deal_hand(setup, self.standing(setup.match, table, at="/dealer"), table, source)

    def score(self, state: HS, match: Wire | None) -> Wire:
        self.check_over(state)
        table = Table(len(state.hands), state.dealer, state.options, state)
        hand, after = self.score_hand(state, self.standing(match, table, at="/match/next_dealer"))
        return {"hand": hand, "match": self.wire_form.dump_match(after)}

    def load_options(self, setup: DealSetup) -> OP:
        """The options asked for; an option ``players`` (the Bura family's) is the table's size.
        A game that checks them against the table says so here."""
        form = self.wire_form.options
        options: OP = form.load({**setup.options, "players": setup.players} if "players" in form.names
                                else setup.options)
        return options

    def check_over(self, state: HS) -> None:
        if not state.finished:
            raise HandNotFinished("/state/phase", "the hand is not over: play it out first")

    def target(self, options: OP) -> int | None:
        """The total that ends the match, where reaching it does (``MatchRules.reached``)."""
        return None

    def standing(self, match: Wire | None, table: Table[OP, HS], *, at: str) -> ST:
        """The standing sent, checked for this hand (``at`` points at where its dealer was
        asked for); a new one if none was sent."""
        standing: ST = self.match_rules.standing(
            match, self.wire_form.load_match, new=lambda: self.new_match(table), dealer=table.dealer, at=at,
            seats=table.seats, target=self.target(table.options))
        return standing

    @abstractmethod
    def new_match(self, table: Table[OP, HS]) -> ST: ...

    @abstractmethod
    def deal_hand(self, setup: DealSetup, standing: ST, table: Table[OP, HS], source: DeckSource) -> HS:
        """The hand dealt at ``table``, in the match ``standing``."""

    @abstractmethod
    def score_hand(self, state: HS, standing: ST) -> tuple[Wire, ST]:
        """The finished hand's score on the wire, and the standing after it."""


@dataclass(frozen=True, slots=True)
class KeptBy(Generic[HS, ST]):
    """A match its rules keep: ``new(seats=, dealer=)``, the standing before a first hand;
    ``deal(standing, players=, dealer=, options=, source=)``, the hand dealt in a standing;
    ``score(hand, standing)``, a finished hand's score on the wire; ``after(standing, hand)``, the
    standing after it."""

    new: Callable[..., ST]
    deal: Callable[..., HS]
    score: Callable[[HS, ST], Wire]
    after: Callable[[ST, HS], ST]


class KeptMatches(Matches[HS, ST, OP]):
    """``Matches`` whose match its rules keep (``kept``), so the game writes none of it."""

    kept: KeptBy[HS, ST]

    def new_match(self, table: Table[OP, HS]) -> ST:
        return self.kept.new(seats=table.seats, dealer=table.dealer)

    def deal_hand(self, setup: DealSetup, standing: ST, table: Table[OP, HS], source: DeckSource) -> HS:
        return self.kept.deal(standing, players=table.seats, dealer=table.dealer, options=table.options,
                              source=source)

    def score_hand(self, state: HS, standing: ST) -> tuple[Wire, ST]:
        return self.kept.score(state, standing), self.kept.after(standing, state)
