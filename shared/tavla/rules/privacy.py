"""Personal data as the GDPR asks (R12): how long each kind is kept, and how an erased player
is shown in the results that stay.

Every retention period lives here, once: the purge job reads its cut-offs from `Periods`, the
privacy notice (`GET /privacy`) states them from the same values, and an erasure says until
when the money records it must keep are kept. Pure: no I/O, time is passed in.
"""

from __future__ import annotations

import os
import random
from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import datetime, timedelta
from typing import Any

from tavla.frozen import Frozen

PSEUDONYM_PREFIX = "Player "
PSEUDONYM_LENGTH = 6
# as the Tavla ID's: no 0/O, 1/I/L, U, so a pseudonym never reads as a person's initials
_ALPHABET = "23456789ABCDEFGHJKMNPQRSTVWXYZ"
ENV_PREFIX = "RETENTION_"


@dataclass(frozen=True, eq=False, repr=False)
class Periods(Frozen):
    """Retention periods in days. Defaults a federation's data protection officer confirms;
    each can be set per deployment with `RETENTION_<NAME>` (days)."""

    # contacts (phone, e-mail, gender, birth year, consents) of a player with no entry for this long
    inactive_contacts: int = 3 * 365
    # a bank statement line's payer name and text once the line is matched to an entry
    matched_payer: int = 0
    # the in-app notices of the feed
    notifications: int = 365
    # what an audit record says beyond who did what and when (its details, the actor's sign-in)
    audit_details: int = 2 * 365

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Periods:
        """The defaults, each overridden by its `RETENTION_<NAME>` variable where set."""
        source = os.environ if environ is None else environ
        given = {f.name: source.get(ENV_PREFIX + f.name.upper()) for f in fields(cls)}
        return cls(**{name: int(value) for name, value in given.items() if value})

    def cutoffs(self, now: datetime) -> Cutoffs:
        return Cutoffs(
            last_entry_before=now - timedelta(days=self.inactive_contacts),
            matched_before=now - timedelta(days=self.matched_payer),
            notified_before=now - timedelta(days=self.notifications),
            audited_before=now - timedelta(days=self.audit_details),
        )


@dataclass(frozen=True, eq=False, repr=False)
class Cutoffs(Frozen):
    """What is older than these instants is due for the purge."""

    last_entry_before: datetime
    matched_before: datetime
    notified_before: datetime
    audited_before: datetime


@dataclass(frozen=True, eq=False, repr=False)
class MoneyRecords(Frozen):
    """How long a federation's law keeps accounting records (entry fees, refunds, prizes)."""

    years: int
    source: str


# Not purged by the platform: the law obliges the federation to keep them, without contacts.
MONEY_RECORDS: Mapping[str, MoneyRecords] = {
    "hbf": MoneyRecords(
        5,
        "Greece: Law 4308/2014 art. 10 with the Tax Procedure Code (5 years after the end of the "
        "fiscal year; longer while a tax audit is open)",
    ),
    "cnb": MoneyRecords(10, "Italy: Civil Code art. 2220 (accounting records kept 10 years)"),
}
# a federation not listed keeps them for the longer of the two
DEFAULT_MONEY_RECORDS = MoneyRecords(
    10,
    "the longer of Greece's and Italy's (Civil Code art. 2220, 10 years) until the federation sets its own",
)


def money_records(federation: str | None) -> MoneyRecords:
    return MONEY_RECORDS.get(federation or "", DEFAULT_MONEY_RECORDS)


def money_kept_until(last_movement: str | None, federation: str | None) -> str | None:
    """The end of the year the last money record becomes free to delete (None: there is none)."""
    if not last_movement:
        return None
    year = int(last_movement[:4]) + money_records(federation).years
    return f"{year}-12-31"


def pseudonym(rng: random.Random) -> str:
    """A name for an erased player's results ("Player 7Q2XK4"): drawn at random once and stored,
    so it stays the same on every page and nothing about the player can be worked back from it."""
    return PSEUDONYM_PREFIX + "".join(rng.choice(_ALPHABET) for _ in range(PSEUDONYM_LENGTH))


def is_pseudonym(name: str | None) -> bool:
    return (
        bool(name)
        and str(name).startswith(PSEUDONYM_PREFIX)
        and len(str(name)) == len(PSEUDONYM_PREFIX) + PSEUDONYM_LENGTH
    )


_ID_FIELDS = ("tavla_id", "player_id")
NAME_FIELDS = ("name", "player_name")
# beside a pseudonym a club would point back at the person: it goes with the name
DROPPED_FIELDS = ("club",)

Path = tuple[str | int, ...]


def name_paths(value: Any, tavla_id: str, at: Path = ()) -> list[tuple[Path, Path]]:
    """Where stored JSON (standings, a field's entrants) names this player or their club: for
    each place, the path of the name (or club) and the path of the id beside it that says whose
    it is."""
    found: list[tuple[Path, Path]] = []
    if isinstance(value, Mapping):
        owner = next((k for k in _ID_FIELDS if value.get(k) == tavla_id), None)
        for key, inner in value.items():
            if owner is not None and key in (*NAME_FIELDS, *DROPPED_FIELDS):
                found.append(((*at, key), (*at, owner)))
            else:
                found.extend(name_paths(inner, tavla_id, (*at, key)))
    elif isinstance(value, list | tuple):
        for index, inner in enumerate(value):
            found.extend(name_paths(inner, tavla_id, (*at, index)))
    return found
