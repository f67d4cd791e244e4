"""The federation's own records through the API: platform roles, requests to organise, clubs."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, Field, StringConstraints

from tavla.models.common import ApiModel, ShortText, StrictModel, _readable

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


# -- clubs ----------------------------------------------------------------------------------

ShortName = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=16), AfterValidator(_readable)
]


class ClubBody(StrictModel):
    """A club of the federation as its admins keep it."""

    name: ShortText
    city: ShortText
    short_name: ShortName = Field(description="what a narrow board shows, e.g. OAP")
    contact: ShortText | None = Field(default=None, description="who answers for the club (admins only)")


class ClubUpdate(StrictModel):
    """Only the fields sent change; `contact: null` clears it."""

    name: ShortText | None = None
    city: ShortText | None = None
    short_name: ShortName | None = None
    contact: ShortText | None = None


class PublicClub(ApiModel):
    """A club as anyone sees it: never its contact."""

    id: str
    name: str
    city: str
    short_name: str


class Club(PublicClub):
    contact: str | None = None
    created_at: str
    updated_at: str | None = None


class ClubSpelling(ApiModel):
    name: str = Field(description="the club as players typed it")
    players: int


class NearDuplicateClubs(ApiModel):
    """Free-text spellings that look like one club, most used first; `club_id` is the record
    whose name reads the same, when there is one."""

    spellings: list[ClubSpelling]
    players: int
    club_id: str | None = None


class ClubMerge(StrictModel):
    """What to fold into a club: free-text spellings players typed, and duplicate club records."""

    spellings: list[Annotated[str, StringConstraints(min_length=1, max_length=120)]] = Field(
        default_factory=list, max_length=50
    )
    clubs: list[Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9]{1,32}$")]] = Field(
        default_factory=list, max_length=20
    )


class ClubMerged(ApiModel):
    club: Club
    moved: int = Field(description="players now in the club")
    changed_meanwhile: int = Field(
        description="players who changed their club while merging: left as they are"
    )
