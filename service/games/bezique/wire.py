"""Bezique states and moves to and from the wire, the consistency check, and a seat's view."""

from __future__ import annotations

from functools import lru_cache
from itertools import chain
from typing import Any

from service.cards import CARDS, JOKER, Card, codes, pile
from service.errors import FieldError, InvalidState, SchemaViolation
from service.games.base import Status, Wire, check_deck, check_derived, options_wire
from service.games.bezique import declarations as decl
from service.games.bezique import rules
from service.games.bezique.declarations import LADDERED
from service.games.bezique.rules import (
    HAND_SIZE,
    Declare,
    ExchangeTrump,
    Exposed,
    Move,
    Options,
    Pass,
    Phase,
    Play,
    Played,
    State,
)


def load_options(wire: Wire) -> Options:
    return Options(**wire)


# --- moves -------------------------------------------------------------------------------------


def _identity(wire: Wire) -> Card | None:
    as_ = wire.get("as")
    return None if as_ is None else CARDS[as_]


def load_move(wire: Wire) -> Move:
    """A move checked against the schema; raises ``SchemaViolation`` (pointers relative to the
    move) for a play that names no card or two."""
    kind, seat = wire["type"], wire["seat"]
    if kind == Play.kind:
        played = wire.get("cards")
        if (played is None) == (wire.get("exposed_id") is None):
            raise SchemaViolation("the move does not match the schema", (
                FieldError("/cards" if played is None else "/exposed_id",
                           "a play sends exactly one of: cards, exposed_id"),))
        card = None if played is None else CARDS[played[0]]
        return Play(seat, card, _identity(wire), wire.get("exposed_id"))
    if kind == Declare.kind:
        hand = tuple((CARDS[e["card"]], _identity(e)) for e in wire["from_hand"])
        table = tuple(wire.get("from_table", ()))
        return Declare(seat, wire["kind"], wire.get("multiplicity", 1), hand, table)
    return Pass(seat) if kind == Pass.kind else ExchangeTrump(seat)


def dump_move(move: Move) -> Wire:
    wire: Wire = {"seat": move.seat, "type": move.kind}
    if isinstance(move, Play):
        if move.exposed_id is not None:
            wire["exposed_id"] = move.exposed_id
        else:
            wire["cards"] = [move.card.code if move.card else None]
        if move.as_ is not None:
            wire["as"] = move.as_.code
    elif isinstance(move, Declare):
        wire.update(kind=move.declaration, multiplicity=move.multiplicity, from_hand=[
            {"card": c.code} if as_ is None else {"card": c.code, "as": as_.code} for c, as_ in move.from_hand
        ], from_table=list(move.from_table))
    return wire


def dump_family(family: rules.DeclareFamily) -> Wire:
    """A family of declarations (§4.6), as the schema ``BeziqueFamily`` describes it."""
    found = family.choices
    slots = [{"count": slot.count, "from": [_source(s) for s in slot.sources]} for slot in found.slots]
    return {"seat": family.seat, "type": family.kind, "kind": found.kind, "multiplicity": found.multiplicity,
            "slots": slots, "jokers": found.jokers, "count": found.count}


def _source(source: decl.Source) -> Wire:
    if source.ids:
        return {"table": list(source.ids), "most": source.most}
    if source.wild:
        return {"card": JOKER.code, "as": source.identity.code, "most": source.most}
    return {"card": source.identity.code, "most": source.most}


# --- states ------------------------------------------------------------------------------------


def _exposed(wire: Wire) -> Exposed:
    return Exposed(wire["id"], CARDS[wire["card"]], CARDS[wire["as"]], frozenset(wire["tags"]))


def load_state(wire: Wire) -> State:
    seats = wire["seats"]
    for name in ("hands", "exposed", "won_cards", "scores", "decl_counts", "last_declared_after_trick"):
        _require(len(wire[name]) == seats, f"/{name}", f"one entry per seat: {seats}")
    _require(wire["dealer"] < seats, "/dealer", f"seats are 0..{seats - 1}")
    state = State(
        options=load_options(wire.get("options", {})), seats=seats, dealer=wire["dealer"],
        trump_suit=wire["trump_suit"], stock=pile(wire["stock"]),
        hands=tuple(pile(h) for h in wire["hands"]),
        exposed=tuple(tuple(_exposed(e) for e in seat) for seat in wire["exposed"]),
        next_exposed_id=wire["next_exposed_id"], phase=Phase(wire["phase"]), leader=wire["leader"],
        to_move=wire["to_move"],
        trick=tuple(Played(t["seat"], CARDS[t["card"]], CARDS[t["as"]], t["from"]) for t in wire["trick"]),
        trick_winner=wire.get("trick_winner"), declared_in_window=wire["declared_in_window"],
        decl_counts=tuple(tuple(c[k] for k in LADDERED) for c in wire["decl_counts"]),
        last_declared_after_trick=tuple(wire["last_declared_after_trick"]),
        scores=tuple(wire["scores"]), won_cards=tuple(pile(w) for w in wire["won_cards"]),
        tricks_played=wire["tricks_played"],
    )
    _check_cards(state)
    _check_seats(state)
    _check_exposed(state)
    _check_trick(state)
    _check_progress(state)
    check_derived(wire, _derived(state))
    return state


def _require(condition: bool, pointer: str, message: str) -> None:
    if not condition:
        raise InvalidState(pointer, message)


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
            _require(value == empty, f"/{name}/{seat}", f"seat {seat} deals and sits out this hand")
    _require(state.leader in active, "/leader", f"the leader is one of the active seats {list(active)}")
    for seat, last in enumerate(state.last_declared_after_trick):
        _require(last is None or 1 <= last <= state.tricks_played, f"/last_declared_after_trick/{seat}",
                 f"a trick number 1..{state.tricks_played}, or null")


def _check_exposed(state: State) -> None:
    """Ids unique and below the counter; a card is its own identity unless wild; each tag a kind
    the identity can score in, one per family. (Plain ``if``s: the messages are only formatted
    for a state that fails.)"""
    ids: set[int] = set()
    for seat, shown in enumerate(state.exposed):
        for index, e in enumerate(shown):
            if e.id in ids or e.id >= state.next_exposed_id:
                raise InvalidState(f"/exposed/{seat}/{index}/id",
                                   f"exposed id {e.id} is used twice or not below next_exposed_id")
            ids.add(e.id)
            if e.as_ is not e.card:
                _check_identity(e.card, e.as_, f"/exposed/{seat}/{index}")
            if not _tags_fit(state.trump_suit, e.as_, e.tags):
                raise InvalidState(f"/exposed/{seat}/{index}/tags",
                                   f"{e.as_.code} cannot have scored in all of {sorted(e.tags)} "
                                   f"with {state.trump_suit} trumps (and scores once in a family)")


@lru_cache(maxsize=4096)  # the combinations met in play are few; a client may send any
def _tags_fit(trump: str, identity: Card, tags: frozenset[str]) -> bool:
    """Each tag a kind the identity can score in, and at most one per family (§4.3.7); a few
    hundred combinations at most, so remembered."""
    kinds = decl.rules_for(trump)
    families = {decl.FAMILY[t] for t in tags}
    return len(families) == len(tags) and all(identity in kinds[t].identities for t in tags)


def _check_identity(card: Card, as_: Card, at: str) -> None:
    if card is JOKER:
        _require(as_ in rules.IDENTITY_SET, f"{at}/as", "a wild card stands for A 10 K Q J or 9 of a suit")
    else:
        _require(as_ is card, f"{at}/as", f"{card.code} is no wild card: `as` is the card itself")


def _check_trick(state: State) -> None:
    active = state.active
    for index, played in enumerate(state.trick):
        at = f"/trick/{index}"
        _require(played.seat == active[(active.index(state.leader) + index) % len(active)], f"{at}/seat",
                 "cards are played by the active seats in turn from the leader")
        _check_identity(played.card, played.as_, at)


def _check_progress(state: State) -> None:
    """The phase, the turn, the stock and the holdings agree with the tricks played (§4.1, §5)."""
    active, phase = state.active, state.phase
    if state.stock and state.stock[-1].suit != state.trump_suit:
        raise InvalidState(f"/stock/{len(state.stock) - 1}",
                           f"the stock's last card is the turned trump card: a {state.trump_suit} card")
    a = len(active)
    dealt = len(rules.full_deck(state.options)) - HAND_SIZE * a
    drawn = a * (state.tricks_played - (phase == Phase.DECLARE))  # no draw yet for the trick just won
    _require(len(state.stock) == dealt - drawn, "/stock",
             f"after {state.tricks_played} tricks ({phase}) the stock holds {dealt - drawn} cards")
    _require(sum(map(len, state.won_cards)) == a * state.tricks_played, "/won_cards",
             f"{state.tricks_played} tricks of {a} cards are won")
    for seat in active:
        if len(state.won_cards[seat]) % a:
            raise InvalidState(f"/won_cards/{seat}", f"whole tricks of {a} cards")
    _check_turn(state)
    in_trick = {p.seat for p in state.trick}
    for seat in active:
        holding = HAND_SIZE - (phase == Phase.DECLARE or seat in in_trick)
        size = len(state.hands[seat]) + len(state.exposed[seat])
        if size != holding:
            raise InvalidState(f"/hands/{seat}",
                               f"seat {seat} holds {holding} cards (hand and exposed), not {size}")


def _check_turn(state: State) -> None:
    phase, a = state.phase, len(state.active)
    window = phase == Phase.DECLARE
    _require((state.trick_winner == state.leader) if window else state.trick_winner is None, "/trick_winner",
             "the trick winner is the leader during the declaration window, else null")
    if phase == Phase.FINISHED:
        _require(state.to_move is None and not state.trick, "/to_move", "nobody moves once the hand is over")
        _require(len(state.stock) < a, "/phase", f"the hand ends only when fewer than {a} cards are left")
        _require(state.tricks_played > 0, "/tricks_played", "a hand ends after its last trick")
        return
    _require(len(state.stock) >= a, "/stock", f"with fewer than {a} cards left the hand is finished")
    expected = state.leader
    if phase == Phase.FOLLOW:
        _require(0 < len(state.trick) < a, "/trick", "a trick in progress holds a card of some players")
        expected = rules.next_active(state.active, state.trick[-1].seat)
    else:
        _require(not state.trick, "/trick", f"the trick is empty in the {phase} phase")
    _require(state.to_move == expected, "/to_move", f"seat {expected} is to move")
    if window:
        _require(state.tricks_played > 0 and not state.declared_in_window, "/declared_in_window",
                 "the window opens after a trick is won, undeclared")
    else:
        _require(state.declared_in_window == (state.tricks_played > 0), "/declared_in_window",
                 "true once a window has closed this hand, false before the first trick")
        if state.tricks_played == 0:
            _require(state.leader == state.active[0], "/leader", "the dealer's left leads the first trick")


def result(state: State) -> Wire | None:
    """§7.2, once the hand is finished."""
    if state.phase != Phase.FINISHED:
        return None
    return {"scores": list(state.scores), "tricks_played": state.tricks_played,
            "last_trick_winner": state.leader, "hand_winners": rules.hand_winners(state)}


def _derived(state: State) -> Wire:
    trump_card = state.trump_card
    return {
        "status": Status.of(finished=state.phase == Phase.FINISHED), "active": list(state.active),
        "bezique_jack": state.bezique_jack.code,
        "trump_card": None if trump_card is None else trump_card.code,
        "result": result(state),
    }


def _exposed_wire(e: Exposed) -> Wire:
    return {"id": e.id, "card": e.card.code, "as": e.as_.code, "tags": list(_sorted_tags(e.tags))}


@lru_cache(maxsize=4096)
def _sorted_tags(tags: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(tags))


def _public(state: State) -> Wire:
    return {
        "game": "bezique", "seats": state.seats, "dealer": state.dealer, "to_move": state.to_move,
        **_derived(state), "options": options_wire(state.options), "trump_suit": state.trump_suit,
        "exposed": [[_exposed_wire(e) for e in seat] for seat in state.exposed],
        "next_exposed_id": state.next_exposed_id, "phase": str(state.phase), "leader": state.leader,
        "trick": [{"seat": p.seat, "card": p.card.code, "as": p.as_.code, "from": p.source}
                  for p in state.trick],
        "trick_winner": state.trick_winner, "declared_in_window": state.declared_in_window,
        "decl_counts": [dict(zip(LADDERED, c, strict=True)) for c in state.decl_counts],
        "last_declared_after_trick": list(state.last_declared_after_trick), "scores": list(state.scores),
        "tricks_played": state.tricks_played,
    }


def dump_state(state: State) -> Wire:
    return {**_public(state), "stock": codes(state.stock), "hands": [codes(h) for h in state.hands],
            "won_cards": [codes(w) for w in state.won_cards]}


def view(state: State, seat: int | None) -> Wire:
    """§D13 and API.md: the own concealed hand; other hands, the stock and the won cards as
    counts; everything on the table and the turned trump card public."""
    sizes: Any = [len(h) for h in state.hands]
    return {
        **_public(state), "seat": seat, "hand": None if seat is None else codes(state.hands[seat]),
        "hand_sizes": sizes, "stock_size": len(state.stock), "won_sizes": [len(w) for w in state.won_cards],
    }
