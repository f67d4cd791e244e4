"""Adjourned matches and breaks as the API shows them (R7.7)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from tavla.models.common import ApiModel, StrictModel, TavlaId

Side = Literal["home", "away"]
PhotoType = Literal["image/jpeg", "image/png", "image/webp"]


class AdjournRequest(StrictModel):
    """What the players leave on the table: the cube, the clocks (seconds left, when a clock is
    used), the photo uploaded for this match (its `key`), and the deadline to resume."""

    reason: str = Field(min_length=1, max_length=300)
    resume_by: datetime = Field(description="not resumed by then, the match goes to the referee")
    cube_value: Literal[1, 2, 4, 8, 16, 32, 64] = 1
    cube_owner: Literal["centre", "home", "away"] = "centre"
    clock_home: int | None = Field(default=None, ge=0, le=86_400)
    clock_away: int | None = Field(default=None, ge=0, le=86_400)
    photo: str | None = Field(default=None, max_length=300, description="the key of an uploaded photo")


class PhotoUploadRequest(StrictModel):
    content_type: PhotoType = "image/jpeg"


class PhotoUpload(ApiModel):
    """A presigned POST: send the photo as the form's `file` with these `fields` to `url`."""

    url: str
    fields: dict[str, str]
    key: str = Field(description="name it in the adjournment's `photo`")
    max_bytes: int
    expires_at: datetime


class PhotoLink(ApiModel):
    """A short-lived link to the position's photo (staff and the two players only)."""

    url: str
    expires_at: datetime


class AdjournmentView(ApiModel):
    """The last adjournment: what was left on the table, and when it must resume."""

    adjourned_at: datetime
    resume_by: datetime
    resumed_at: datetime | None = None
    table: int | None = Field(default=None, description="the table it left")
    score: list[int] = Field(description="home first")
    cube_value: int
    cube_owner: Literal["centre", "home", "away"]
    clock_home: int | None = None
    clock_away: int | None = None
    photo: bool = Field(description="a photo of the position is kept (GET .../adjournment-photo)")
    overdue: bool = Field(default=False, description="not resumed by its deadline: the referee decides")


class BreakRequest(StrictModel):
    """A break now: a player takes theirs (leave `tavla_id` out); the referee names the player,
    or `both` (where breaks may be pooled). `count`: breaks run together (where allowed)."""

    tavla_id: TavlaId | None = None
    both: bool = False
    count: int = Field(default=1, ge=1, le=4)


class BackRequest(StrictModel):
    """Back from the break: a player says it of themself; the referee names the player."""

    tavla_id: TavlaId | None = None


class BreaksView(ApiModel):
    """The breaks left to each player (R7.7) and the one running, both players see it."""

    left: dict[Side, int]
    running: list[Side] = Field(default_factory=list, description="who is on a break now")
    ends_at: datetime | None = None
    overrun_points: dict[Side, int] = Field(default_factory=dict, description="penalty points for overruns")
    allowed_now: bool = Field(
        default=False,
        description="a break may start now: between games (a series: only between its matches)",
    )
