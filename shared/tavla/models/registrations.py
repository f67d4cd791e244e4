"""Registration, waiting list and check-in bodies (R3.1, R3.2, R4)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal, Self

from pydantic import ConfigDict, Field, model_validator

from tavla.models.common import ApiModel, Money, OpaqueId, Phone, StrictModel, TavlaId

RegistrationStatus = Literal["registered", "waitlisted"]
# An entry's state, approval included (R3.7): pending entries take no place; refused ones stay.
EntryStatus = Literal["registered", "waitlisted", "pending", "refused"]


class RegistrationRequest(StrictModel):
    division: OpaqueId | None = Field(
        default=None, description="the division entered (R3.7); required when the tournament has several"
    )


class RegistrationResult(ApiModel):
    status: EntryStatus
    position: int | None = Field(default=None, description="waiting-list position, waiting list only")
    checkin_code: str
    division: str | None = Field(default=None, description="the division entered (R3.7)")


class WithdrawalResult(ApiModel):
    """A withdrawal, the same whichever route made it (`DELETE .../registrations/me` or
    `POST .../withdrawals`): before the draw the entry leaves its list, refunded by the
    organiser's policy, the first waiting player promoted (R3.2, R3.5); after it the player
    leaves the day, their current match forfeited now and every later one when due, no
    refund (R8.2, R3.5)."""

    tournament_id: str
    tavla_id: str
    kind: Literal["withdrawal"] = "withdrawal"
    stage: Literal["before_draw", "after_draw"]
    at: datetime
    refund_due: Money = Field(description="what the refund policy gives back (0 after the draw)")
    refund: Literal["policy", "none"] = Field(
        description="policy: refunded by the organiser's refund policy (before the draw); "
        "none: no refund after the draw (R3.5)"
    )
    promoted: str | None = Field(default=None, description="Tavla ID of the promoted waiting player")
    forfeited: list[str] = Field(
        default_factory=list, description="after the draw: match ids forfeited now; later ones when due"
    )


class Entry(ApiModel):
    """A public entry-list line: public fields only (R12.1)."""

    tavla_id: str
    name: str
    club: str | None = None
    city: str | None = None
    status: EntryStatus
    position: int
    checked_in: bool = False
    division: str = Field(default="main", description="the division entered (R3.7)")


class EntryWithContacts(Entry):
    phone: str | None = None
    email: str | None = None


class Entries(ApiModel):
    main: list[Entry]
    waiting: list[Entry]


class EntriesWithContacts(ApiModel):
    main: list[EntryWithContacts]
    waiting: list[EntryWithContacts]
    pending: list[EntryWithContacts] = Field(
        default_factory=list, description="entries waiting for the organiser's approval (R3.7)"
    )


class CheckinRequest(StrictModel):
    """Exactly one way to identify the player (R4.1)."""

    pass_: str | None = Field(default=None, alias="pass", max_length=2048)
    tavla_id: TavlaId | None = None
    phone: Phone | None = None

    model_config = ConfigDict(populate_by_name=True, extra="forbid")

    @model_validator(mode="after")
    def _exactly_one(self) -> Self:
        given = [v for v in (self.pass_, self.tavla_id, self.phone) if v is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of `pass`, `tavla_id` or `phone`")
        return self


class CheckinState(ApiModel):
    checkin_open: bool = Field(description="false once check-in is closed (R4.2)")


class CheckinResult(ApiModel):
    tavla_id: str
    name: str
    club: str | None = None
    status: RegistrationStatus
    already_checked_in: bool
    checked_in_at: str
