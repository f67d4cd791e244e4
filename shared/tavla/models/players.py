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
    notify_by_email_at: str | None = Field(
        default=None, description="when e-mail notices were last chosen or refused"
    )


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


class RetentionPeriod(ApiModel):
    """How long one kind of personal data is kept, and what happens then (R12). `kind` names
    it for a screen that words it in the reader's language; the texts are English."""

    kind: Literal[
        "contacts", "matched_payer", "notifications", "audit_details", "money_records", "erased_account"
    ]
    federation: str | None = Field(
        default=None, description="money records: the federation whose law sets the period"
    )
    data: str
    days: int | None = Field(default=None, description="kept this many days (None: see `years`)")
    years: int | None = None
    after: str = Field(description="from when the period runs")
    then: str = Field(description="what happens at its end")
    source: str | None = Field(default=None, description="the law or decision the period comes from")


class PrivacyNotice(ApiModel):
    """The data protection notice (R12.2)."""

    controller: str
    public: list[str] = Field(description="fields anyone may see")
    private: list[str] = Field(description="fields only the player, and some the staff, see")
    who_sees_private_data: str
    why: str
    your_rights: str
    retention: list[RetentionPeriod] = Field(default_factory=list)


class Consent(ApiModel):
    """A channel the player chose or refused for notices, and when (GDPR Art. 7)."""

    channel: Literal["sms", "email"]
    given: bool
    at: str | None = None


class ErasureRequest(StrictModel):
    """The second confirmation of an erasure: the player's own Tavla ID, typed back."""

    confirm: str = Field(min_length=1, max_length=32, description="my Tavla ID, typed back")


class KeptRecord(ApiModel):
    kind: Literal["results", "tavla_id", "money_records"] = Field(
        description="names it for a screen that words it in the reader's language"
    )
    count: int | None = Field(default=None, description="money records: how many")
    what: str
    why: str
    until: str | None = Field(default=None, description="the last day it is kept (UTC date)")


class Erasure(ApiModel):
    """What an erasure did (GDPR Art. 17): the results stay under `pseudonym`."""

    tavla_id: str
    pseudonym: str
    erased_at: str
    erased: list[str]
    kept: list[KeptRecord]


class TableNeed(ApiModel):
    """A need at the tables the player or staff set for one tournament (private)."""

    tournament_id: str
    accessible: bool


class MyData(ApiModel):
    """Everything held about me (R12.2)."""

    profile: MyProfile
    registrations: list[dict[str, Any]]
    notifications: list[Notification]
    consents: list[Consent] = Field(default_factory=list)
    payments: list[dict[str, Any]] = Field(default_factory=list)
    table_needs: list[TableNeed] = Field(default_factory=list)
    privacy_notice: PrivacyNotice


class MergeRequest(StrictModel):
    keep: TavlaId
    merge: TavlaId
