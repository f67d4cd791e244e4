"""Values used across the API: the models' bases, money, e-mail and bounded strings."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints
from pydantic.networks import validate_email

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
ShortText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
LongText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]
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
