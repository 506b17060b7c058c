"""The consistency check a Bezique state passes before any rule runs (docs/rules/bezique.md §2-§5):
whether the position can arise under the rules. Its input has passed the JSON schema, so types
and codes are right, and has one entry per seat (``wire.load_state``); ``InvalidState`` pointers
are relative to the state."""

from __future__ import annotations

from functools import lru_cache
from itertools import chain

from service.cards import JOKER, Card
from service.errors import InvalidState
from service.games.bezique import declarations as decl
from service.games.bezique import rules
from service.games.bezique.declarations import LADDERED
from service.games.bezique.rules import HAND_SIZE, Phase, State
from service.games.decks import check_deck
from service.games.seating import left_of
from service.i18n import N_
from service.i18n.text import Suit


def check(state: State) -> None:
    _check_cards(state)
    _check_seats(state)
    _check_exposed(state)
    _check_trick(state)
    _check_progress(state)


def require(condition: bool, pointer: str, message: str, **params: object) -> None:
    """Refuse the state unless ``condition``: ``message`` is an English template (marked ``N_``
    where it is written), ``params`` its values."""
    if not condition:
        raise InvalidState(pointer, message, **params)


def _zones(state: State) -> list[tuple[str, tuple[Card, ...]]]:
    return [
        ("/stock", state.stock),
        *((f"/hands/{s}", h) for s, h in enumerate(state.hands)),
        *((f"/exposed/{s}", tuple(e.card for e in x)) for s, x in enumerate(state.exposed)),
        ("/trick", tuple(p.card for p in state.trick)),
        *((f"/won_cards/{s}", w) for s, w in enumerate(state.won_cards)),
    ]


def _check_cards(state: State) -> None:
    """Every card of the deck (§2.1, for these options) in exactly one place. (The pointers of
    ``_zones`` are only formatted for a state that fails: 5 µs a 214-card load.)"""
    found = [*state.stock, *chain.from_iterable(state.hands), *(e.card for x in state.exposed for e in x),
             *(p.card for p in state.trick), *chain.from_iterable(state.won_cards)]
    check_deck(rules.full_deck(state.options), found, lambda: _zones(state))


def _check_seats(state: State) -> None:
    """§2.3: a sitting-out dealer holds, shows, wins and scores nothing; the seats named are
    active ones."""
    active = state.active
    for seat in range(state.seats):
        if seat in active:
            continue
        for name, value, empty in (
                ("hands", state.hands[seat], ()), ("exposed", state.exposed[seat], ()),
                ("won_cards", state.won_cards[seat], ()), ("scores", state.scores[seat], 0),
                ("decl_counts", state.decl_counts[seat], (0,) * len(LADDERED)),
                ("last_declared_after_trick", state.last_declared_after_trick[seat], None)):
            require(value == empty, f"/{name}/{seat}", N_("seat {seat} deals and sits out this hand"),
                    seat=seat)
    require(state.leader in active, "/leader", N_("the leader is one of the active seats: {seats}"),
            seats=tuple(active))
    for seat, last in enumerate(state.last_declared_after_trick):
        require(last is None or 1 <= last <= state.tricks_played, f"/last_declared_after_trick/{seat}",
                N_("a trick number 1..{tricks}, or null"), tricks=state.tricks_played)


def _check_exposed(state: State) -> None:
    """Ids unique and below the counter; a card is its own identity unless wild; each tag a kind
    the identity can score in, one per family. (Plain ``if``s: the messages are only formatted
    for a state that fails.)"""
    ids: set[int] = set()
    for seat, shown in enumerate(state.exposed):
        for index, e in enumerate(shown):
            if e.id in ids or e.id >= state.next_exposed_id:
                raise InvalidState(f"/exposed/{seat}/{index}/id",
                                   "exposed id {id} is used twice or not below next_exposed_id", id=e.id)
            ids.add(e.id)
            if e.as_ is not e.card:
                _check_identity(e.card, e.as_, f"/exposed/{seat}/{index}")
            if not _tags_fit(state.trump_suit, e.as_, e.tags):
                raise InvalidState(f"/exposed/{seat}/{index}/tags",
                                   "the {card} cannot have scored in all of {kinds} with {suit} trumps "
                                   "(and scores once in a family)",
                                   card=e.as_, kinds=", ".join(sorted(e.tags)), suit=Suit(state.trump_suit))


@lru_cache(maxsize=4096)  # the combinations met in play are few; a client may send any
def _tags_fit(trump: str, identity: Card, tags: frozenset[str]) -> bool:
    """Each tag a kind the identity can score in, and at most one per family (§4.3.7); a few
    hundred combinations at most, so remembered."""
    kinds = decl.rules_for(trump)
    families = {decl.FAMILY[t] for t in tags}
    return len(families) == len(tags) and all(identity in kinds[t].identities for t in tags)


def _check_identity(card: Card, as_: Card, at: str) -> None:
    if card is JOKER:
        require(as_ in rules.IDENTITY_SET, f"{at}/as", N_("a wild card stands for A 10 K Q J or 9 of a suit"))
    else:
        require(as_ is card, f"{at}/as", N_("the {card} is no wild card: `as` is the card itself"), card=card)


def _check_trick(state: State) -> None:
    active = state.active
    for index, played in enumerate(state.trick):
        at = f"/trick/{index}"
        turn = active[left_of(active.index(state.leader), len(active), index)]
        require(played.seat == turn, f"{at}/seat",
                N_("cards are played by the active seats in turn from the leader"))
        _check_identity(played.card, played.as_, at)


def _check_progress(state: State) -> None:
    """The phase, the turn, the stock and the holdings agree with the tricks played (§4.1, §5)."""
    active, phase = state.active, state.phase
    if state.stock and state.stock[-1].suit != state.trump_suit:
        raise InvalidState(f"/stock/{len(state.stock) - 1}",
                           "the stock's last card is the turned trump card: a card of {suit}",
                           suit=Suit(state.trump_suit))
    a = len(active)
    dealt = len(rules.full_deck(state.options)) - HAND_SIZE * a
    drawn = a * (state.tricks_played - (phase == Phase.DECLARE))  # no draw yet for the trick just won
    require(len(state.stock) == dealt - drawn, "/stock",
            N_("after {tricks} tricks ({phase}) the stock holds {count} cards"), tricks=state.tricks_played,
            phase=phase, count=dealt - drawn)
    require(sum(map(len, state.won_cards)) == a * state.tricks_played, "/won_cards",
            N_("{tricks} tricks of {size} cards are won"), tricks=state.tricks_played, size=a)
    for seat in active:
        if len(state.won_cards[seat]) % a:
            raise InvalidState(f"/won_cards/{seat}", "whole tricks of {size} cards", size=a)
    _check_turn(state)
    in_trick = {p.seat for p in state.trick}
    for seat in active:
        holding = HAND_SIZE - (phase == Phase.DECLARE or seat in in_trick)
        size = len(state.hands[seat]) + len(state.exposed[seat])
        if size != holding:
            raise InvalidState(f"/hands/{seat}",
                               "seat {seat} holds {holding} cards (hand and exposed), not {size}",
                               seat=seat, holding=holding, size=size)


def _check_turn(state: State) -> None:
    phase, a = state.phase, len(state.active)
    window = phase == Phase.DECLARE
    require((state.trick_winner == state.leader) if window else state.trick_winner is None, "/trick_winner",
            N_("the trick winner is the leader during the declaration window, else null"))
    if phase == Phase.FINISHED:
        require(state.to_move is None and not state.trick, "/to_move",
                N_("nobody moves once the hand is over"))
        require(len(state.stock) < a, "/phase",
                N_("the hand ends only when fewer than {count} cards are left"), count=a)
        require(state.tricks_played > 0, "/tricks_played", N_("a hand ends after its last trick"))
        return
    require(len(state.stock) >= a, "/stock", N_("with fewer than {count} cards left the hand is finished"),
            count=a)
    expected = state.leader
    if phase == Phase.FOLLOW:
        require(0 < len(state.trick) < a, "/trick", N_("a trick in progress holds a card of some players"))
        expected = rules.next_active(state.active, state.trick[-1].seat)
    else:
        require(not state.trick, "/trick", N_("the trick is empty in the {phase} phase"), phase=phase)
    require(state.to_move == expected, "/to_move", N_("seat {seat} is to move"), seat=expected)
    if window:
        require(state.tricks_played > 0 and not state.declared_in_window, "/declared_in_window",
                N_("the window opens after a trick is won, undeclared"))
    else:
        require(state.declared_in_window == (state.tricks_played > 0), "/declared_in_window",
                N_("true once a window has closed this hand, false before the first trick"))
        if state.tricks_played == 0:
            require(state.leader == state.active[0], "/leader", N_("the dealer's left leads the first trick"))
