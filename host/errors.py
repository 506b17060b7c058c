"""The table host's refusals, each an RFC 9457 problem like the rules service's
(``service.errors.ServiceError``, answered by ``service.api.problems``)."""

from __future__ import annotations

from service.errors import LimitExceeded, Located, ServiceError
from service.i18n import N_


class NoSuchTable(ServiceError):
    """No table has this id: it never did, or it expired."""

    status, title, slug = 404, N_("No such table"), "no-such-table"


class SeatRefused(ServiceError):
    """A call that needs a seat's key (or the spectators') without one of this table's."""

    status, title, slug = 401, N_("Not one of this table's keys"), "seat-refused"


class SpectatorsOnlyWatch(ServiceError):
    """A spectator's key where a seat's is needed (a move, a ticket for a seat)."""

    status, title, slug = 403, N_("Spectators only watch"), "spectator"


class InviteUsed(Located):
    """An invitation this table does not have, or has already opened its seat with."""

    status, title, slug = 409, N_("This invitation cannot be used"), "invite-used"


class StaleMove(Located):
    """A move sent for a move number the hand has passed (or not reached): another move (a
    racing one, the timer's, the computer's) was played first."""

    status, title, slug = 409, N_("The hand has moved on"), "stale-move"


class NotYourTurn(Located):
    """A move from a seat that is not to move."""

    status, title, slug = 409, N_("Not this seat's turn"), "not-your-turn"


class TableOver(ServiceError):
    """A move at a table whose match is over."""

    status, title, slug = 409, N_("The match is over"), "table-over"


class TableBusy(ServiceError):
    """A table changed by several callers at once more often than a change retries (Redis)."""

    status, title, slug = 503, N_("The table is busy"), "table-busy"


class TooMany(LimitExceeded):
    """A limit of the host's: tables per address per minute, open tables, streams per seat."""

    status, title, slug = 429, N_("Too many"), "too-many"


class BadTicket(ServiceError):
    """An event stream opened with a ticket that is not this table's, or expired."""

    status, title, slug = 401, N_("This ticket cannot open the stream"), "bad-ticket"


class StoreDown(ServiceError):
    """The table store did not answer."""

    status, title, slug = 503, N_("The table store is unavailable"), "table-store-down"
