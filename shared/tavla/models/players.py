"""Player profiles (R1, R12): public fields, private fields, and what leaves through which route."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from tavla.models.common import ApiModel, Email, Name, Phone, ShortText, StrictModel, TavlaId
from tavla.rules.rating import START_RATING

ClubId = Annotated[
    str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z0-9]{1,32}$")
]
Gender = Literal["female", "male", "other"]
Language = Literal["el", "en", "it"]


class PrivateFields(StrictModel):
    """Private data (R1.2, R12): shown only to the player, and phone/e-mail to staff."""

    phone: Phone | None = None
    email: Email | None = Field(default=None, max_length=254)
    gender: Gender | None = None
    birth_year: int | None = Field(default=None, ge=1900, le=2100)
    notify_by_email: bool | None = Field(
        default=None, description="also send table calls and other notices to the e-mail address"
    )
    language: Language | None = Field(
        default=None,
        description="the language of my notices; unset: the tournament's federation's "
        "(hbf el, cnb it, else el)",
    )
    sms_opt_in: bool | None = Field(
        default=None, description="notices by SMS too, when no browser of mine takes push notices"
    )


CLUB_ID = Field(default=None, description="the club chosen from GET /clubs; its name becomes `club`")
FREE_TEXT_CLUB = Field(default=None, description="a club typed as text (before clubs were records)")


class ProfileCreate(PrivateFields):
    name: Name
    club_id: ClubId | None = CLUB_ID
    club: ShortText | None = FREE_TEXT_CLUB
    city: ShortText | None = None


class ProfileUpdate(PrivateFields):
    name: Name | None = None
    club_id: ClubId | None = CLUB_ID
    club: ShortText | None = FREE_TEXT_CLUB
    city: ShortText | None = None


class PublicProfile(ApiModel):
    """What anyone may see of a player (R12.1): never phone or e-mail."""

    tavla_id: str
    name: str
    club: str | None = None
    club_id: str | None = Field(default=None, description="absent: no club, or one typed as text")
    city: str | None = None
    rating: float = START_RATING
    rated_matches: int = 0


class MyProfile(PublicProfile):
    phone: str | None = None
    email: str | None = None
    gender: Gender | None = None
    birth_year: int | None = None
    notify_by_email: bool | None = None
    language: Language | None = None
    sms_opt_in: bool | None = None
    sms_opt_in_at: str | None = Field(default=None, description="when SMS was last chosen or refused")


class CheckinPass(ApiModel):
    tavla_id: str
    token: str
    expires_at: str
    qr_svg: str


class Notification(ApiModel):
    id: str
    kind: str
    message: str
    created_at: str
    data: dict[str, str] = Field(default_factory=dict)


class PrivacyNotice(ApiModel):
    """The data protection notice (R12.2)."""

    controller: str
    public: list[str] = Field(description="fields anyone may see")
    private: list[str] = Field(description="fields only the player, and some the staff, see")
    who_sees_private_data: str
    why: str
    your_rights: str


class MyData(ApiModel):
    """Everything held about me (R12.2)."""

    profile: MyProfile
    registrations: list[dict[str, Any]]
    notifications: list[Notification]
    privacy_notice: PrivacyNotice


class MergeRequest(StrictModel):
    keep: TavlaId
    merge: TavlaId
