"""Who may act on a tournament (R1.3): its own staff, stored with it; platform admins."""

from __future__ import annotations

from tavla.errors import NotOrganiser, NotStaff
from tavla.http import Caller
from tavla.store.dynamo import Item

REFEREE = "referee"
ORGANISER = "organiser"


def role_in(tournament: Item, caller: Caller) -> str | None:
    member = (tournament.get("staff") or {}).get(caller.sub)
    return str(member["role"]) if member else None


def require_staff(tournament: Item, caller: Caller) -> None:
    """Referees and organisers of *this* tournament (a referee elsewhere has no power here)."""
    if caller.is_admin or role_in(tournament, caller) in (REFEREE, ORGANISER):
        return
    raise NotStaff("Only this tournament's referees and organisers may do that.")


def require_organiser(tournament: Item, caller: Caller) -> None:
    if caller.is_admin or role_in(tournament, caller) == ORGANISER:
        return
    raise NotOrganiser("Only this tournament's organisers may do that.")
