"""Values used across the API: the models' bases, money, e-mail, bounded text people can
read, times that can be real."""

from __future__ import annotations

import unicodedata
from datetime import datetime, timedelta
from typing import Annotated, Literal

from pydantic import AfterValidator, AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints
from pydantic.networks import validate_email

# Characters that show nothing: format characters (zero-width space, joiners, bidi marks),
# separators, unassigned and private-use code points, and combining marks on their own.
_INVISIBLE = {"Cc", "Cf", "Cn", "Co", "Cs", "Zs", "Zl", "Zp", "Mn", "Me"}
_BLANK_LETTERS = {"\u115f", "\u1160", "\u3164", "\uffa0", "\u2800"}  # Hangul fillers, blank Braille
# Bidirectional overrides and isolates reorder what a reader sees ("Trojan Source").
_BIDI_CONTROLS = {chr(c) for c in (*range(0x202A, 0x202F), *range(0x2066, 0x206A))}


def _readable(text: str, allowed_controls: str = "") -> str:
    """Refuse control characters and text with nothing visible in it (R12: names shown to people)."""
    if any(
        (unicodedata.category(c) == "Cc" and c not in allowed_controls) or c in _BIDI_CONTROLS for c in text
    ):
        raise ValueError("control characters are not allowed")
    if not any(unicodedata.category(c) not in _INVISIBLE and c not in _BLANK_LETTERS for c in text):
        raise ValueError("needs at least one visible character")
    return text


def _readable_paragraphs(text: str) -> str:
    """Longer text may break lines and be empty; what it holds must still be readable."""
    return _readable(text, allowed_controls="\n\t") if text else text


Name = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80), AfterValidator(_readable)
]
ShortText = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120), AfterValidator(_readable)
]
LongText = Annotated[
    str, StringConstraints(strip_whitespace=True, max_length=2000), AfterValidator(_readable_paragraphs)
]
Phone = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=32),
    Field(description="Any common format; stored as E.164"),
]

# Real UTC offsets run from -12:00 to +14:00; pydantic accepts anything up to ±23:59.
MAX_UTC_OFFSET = timedelta(hours=14)


def _real_offset(moment: datetime) -> datetime:
    offset = moment.utcoffset()
    if offset is None or abs(offset) > MAX_UTC_OFFSET:
        raise ValueError("the UTC offset must be between -14:00 and +14:00")
    return moment


Instant = Annotated[AwareDatetime, AfterValidator(_real_offset)]
TavlaId = Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z0-9]{7}$")]
OpaqueId = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


def _normalised_email(value: str) -> str:
    return validate_email(value)[1]


# pydantic's own e-mail check, as `EmailStr` does it, but email-validator (~35 ms) is
# imported by the first e-mail validated, not by every cold start that builds the model.
Email = Annotated[str, AfterValidator(_normalised_email), Field(json_schema_extra={"format": "email"})]


class ApiModel(BaseModel):
    """Every API model: its validator is built on first use, not at import (cold start)."""

    model_config = ConfigDict(defer_build=True)


class StrictModel(ApiModel):
    """Request bodies refuse unknown fields, so a typo is a 422, not a silent no-op."""

    model_config = ConfigDict(extra="forbid")


class Money(StrictModel):
    """An exact amount in minor units (cents); never a float."""

    amount: int = Field(ge=0, le=100_000_000)
    currency: Literal["EUR"] = "EUR"


Profile = Literal["platform", "hbf", "cnb"]
MatchLength = Annotated[int, Field(ge=1, le=25)]


def _iana_zone(name: str) -> str:
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError  # here: only settings pay the import

    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError) as error:
        raise ValueError(f"'{name}' is not an IANA time zone (e.g. Europe/Athens)") from error
    return name


TimeZone = Annotated[
    str,
    Field(
        min_length=1,
        max_length=64,
        pattern=r"^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$",
        description="the venue's IANA time zone",
    ),
    AfterValidator(_iana_zone),
]


class MatchLengths(StrictModel):
    """Points per match by stage (R7.3): semi-finals and final may be longer.

    Unset stages take the rule profile's lengths (R2.2).
    """

    default: MatchLength | None = None
    semi_final: MatchLength | None = None
    final: MatchLength | None = None
