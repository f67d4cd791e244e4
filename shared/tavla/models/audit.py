"""The audit trail as its readers (a tournament's staff) see it: who by Tavla ID and role."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from tavla.models.common import ApiModel

AuditRole = Literal["organiser", "referee", "admin", "player", "system"]


class AuditActor(ApiModel):
    """Who made the change; `tavla_id` is absent for the system and staff without a profile."""

    role: AuditRole
    tavla_id: str | None = None


class AuditEntry(ApiModel):
    at: str = Field(description="when, ISO 8601")
    action: str = Field(
        description="tournament_created, settings_changed, staff_changed, registered, withdrawn, "
        "promoted, checked_in, checkin_closed"
    )
    actor: AuditActor
    details: dict[str, Any] = Field(default_factory=dict)


class AuditTrail(ApiModel):
    """A page of a tournament's audit trail, newest first; `next` is the opaque cursor of the
    following page (pass it back as `after`), null on the last."""

    records: list[AuditEntry]
    next: str | None = None
