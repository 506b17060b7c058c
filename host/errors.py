"""The table host's refusals, each an RFC 9457 problem like the rules service's
(``service.errors.ServiceError``, answered by ``service.api.problems``)."""

from __future__ import annotations

from service.errors import LimitExceeded, Located, ServiceError
from service.i18n import N_


class NoSuchTable(ServiceError):
    """No table has this id: it never did, or it expired."""

    status, title, slug = 404, N_("No such table"), "no-such-table"
    says = N_("There is no such table: it may have closed.")


class SeatRefused(ServiceError):
    """A call that needs a seat's key (or the spectators') without one of this table's."""

    status, title, slug = 401, N_("Not one of this table's keys"), "seat-refused"
    says = N_("This link opens no seat at this table.")


class SpectatorsOnlyWatch(ServiceError):
    """A spectator's key where a seat's is needed (a move, a ticket for a seat)."""

    status, title, slug = 403, N_("Spectators only watch"), "spectator"
    says = N_("You are watching: spectators do not play.")


class InviteUsed(Located):
    """An invitation this table does not have, or has already opened its seat with."""

    status, title, slug = 409, N_("This invitation cannot be used"), "invite-used"
    says = N_("This invitation has been used already: ask for another.")


class StaleMove(Located):
    """A move sent for a move number the hand has passed (or not reached): another move (a
    racing one, the timer's, the computer's) was played first."""

    status, title, slug = 409, N_("The hand has moved on"), "stale-move"
    says = N_("Another move came first: look at the table again.")


class NotYourTurn(Located):
    """A move from a seat that is not to move."""

    status, title, slug = 409, N_("Not this seat's turn"), "not-your-turn"
    says = N_("It is not your turn.")


class TableOver(ServiceError):
    """A move at a table whose match is over."""

    status, title, slug = 409, N_("The match is over"), "table-over"
    says = N_("The match is over.")


class TableBusy(ServiceError):
    """A table changed by several callers at once more often than a change retries (Redis)."""

    status, title, slug = 503, N_("The table is busy"), "table-busy"
    says = N_("The table is busy: try again in a moment.")


class TooMany(LimitExceeded):
    """A limit of the host's: tables per address per minute, open tables, streams per seat."""

    status, title, slug = 429, N_("Too many"), "too-many"
    says = N_("Too many at once: try again later.")


class BadTicket(ServiceError):
    """An event stream opened with a ticket that is not this table's, or expired."""

    status, title, slug = 401, N_("This ticket cannot open the stream"), "bad-ticket"
    says = N_("The connection to the table timed out: open the table again.")


class StoreDown(ServiceError):
    """The table store did not answer."""

    status, title, slug = 503, N_("The table store is unavailable"), "table-store-down"
    says = N_("The server is busy: try again in a moment.")
