"""Values used across the API: money and bounded strings."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
ShortText = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=120)]
LongText = Annotated[str, StringConstraints(strip_whitespace=True, max_length=2000)]
TavlaId = Annotated[str, StringConstraints(strip_whitespace=True, to_upper=True, pattern=r"^[A-Za-z0-9]{7}$")]
OpaqueId = Annotated[str, StringConstraints(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_-]+$")]


class StrictModel(BaseModel):
    """Request bodies refuse unknown fields, so a typo is a 422, not a silent no-op."""

    model_config = ConfigDict(extra="forbid")


class Money(StrictModel):
    """An exact amount in minor units (cents); never a float."""

    amount: int = Field(ge=0, le=100_000_000)
    currency: Literal["EUR"] = "EUR"
