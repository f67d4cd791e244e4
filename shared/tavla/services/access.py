"""Who may act on a tournament (R1.3): its own staff, stored with it; platform admins."""

from __future__ import annotations

from tavla.caller import Caller
from tavla.errors import NotOrganiser, NotStaff
from tavla.store.records import Actor, TournamentRecord

REFEREE = "referee"
ORGANISER = "organiser"
ADMIN = "admin"
PLAYER = "player"


def role_in(tournament: TournamentRecord, caller: Caller) -> str | None:
    member = tournament.staff.get(caller.sub)
    return member.role if member else None


def require_staff(tournament: TournamentRecord, caller: Caller) -> Actor:
    """Referees and organisers of *this* tournament (a referee elsewhere has no power here).

    Returns the caller as the audit trail names them.
    """
    if role_in(tournament, caller) in (REFEREE, ORGANISER) or caller.is_admin:
        return staff_actor(tournament, caller)
    raise NotStaff("Only this tournament's referees and organisers may do that.")


def require_organiser(tournament: TournamentRecord, caller: Caller) -> Actor:
    if role_in(tournament, caller) == ORGANISER or caller.is_admin:
        return staff_actor(tournament, caller)
    raise NotOrganiser("Only this tournament's organisers may do that.")


def staff_actor(tournament: TournamentRecord, caller: Caller) -> Actor:
    """The caller as the audit trail names them: their role here (else admin) and Tavla ID."""
    member = tournament.staff.get(caller.sub)
    if member is not None:
        return Actor(role=member.role, tavla_id=member.tavla_id, sub=caller.sub)
    return Actor(role=ADMIN, sub=caller.sub)


def player_actor(caller: Caller, tavla_id: str) -> Actor:
    return Actor(role=PLAYER, tavla_id=tavla_id, sub=caller.sub)
