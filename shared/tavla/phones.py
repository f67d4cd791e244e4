"""Phone numbers in one form (E.164), so every way of writing a number finds the same player."""

from __future__ import annotations

from tavla.errors import Invalid

DEFAULT_REGION = "GR"


def normalise(raw: str, region: str = DEFAULT_REGION) -> str:
    """'+30 697 123 4567' and '6971234567' both become '+306971234567'."""
    import phonenumbers  # here, not at module level: only a few routes pay its import

    try:
        number = phonenumbers.parse(raw, region)
    except phonenumbers.NumberParseException as error:
        raise Invalid(f"'{raw}' is not a phone number.") from error
    if not phonenumbers.is_valid_number(number):
        raise Invalid(f"'{raw}' is not a valid phone number.")
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164)
