"""The federation's own records through the API: platform roles, requests to organise, clubs."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from tavla.models.common import ApiModel, ShortText, StrictModel

Role = Literal["organisers", "admins"]


class RoleState(ApiModel):
    """Who holds a platform role now; it reaches the user's token when they next sign in."""

    tavla_id: str
    role: Role
    held: bool
    changed: bool = Field(description="false when the role was already as asked")


class RoleHolder(ApiModel):
    tavla_id: str | None = None
    granted_at: str | None = None


class OrganiserRequestBody(StrictModel):
    club: ShortText
    reason: str = Field(min_length=1, max_length=1000)


class OrganiserRequestView(ApiModel):
    tavla_id: str
    club: str
    reason: str
    status: Literal["pending", "approved", "refused"]
    requested_at: str
    decided_at: str | None = None
    note: str | None = None


class OrganiserDecision(StrictModel):
    note: str | None = Field(default=None, max_length=1000)
