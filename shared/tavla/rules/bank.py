"""Bank transfers (R3.3): references matched to check-in codes, lines identified by the bank.

Pure. A player quotes their check-in code as the payment reference; banks and payers mangle
it (lower case, spaces, dashes, other words around it), so the reference is normalised to
upper-case letters and digits and the code is looked for anywhere in it.

A statement line is identified by the bank's own id of the transaction where the format
carries one (a CSV column, MT940's `:61:` bank reference, camt's AcctSvcrRef or NtryRef):
the same transaction listed twice, in one statement or in two that overlap, is one line,
and two transactions alike in every field are two. Only where the bank gives no id is a line
identified by a checksum of what the bank says about it (value date, amount, currency,
reference, payer) and its occurrence among identical lines of the same statement, so the
same statement imported twice yields the same checksums, and nothing is added twice.

The value date is a date, or an instant with its UTC offset (camt's DtTm, a CSV time):
it counts in the tournament's time zone (tavla.rules.money.local_day).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence, Set
from dataclasses import dataclass
from datetime import date, datetime
from typing import Literal

from tavla.frozen import Frozen

Outcome = Literal["matched", "unmatched", "duplicate", "underpaid", "overpaid"]
CODE_LENGTH = 8

__all__ = ["StatementLine", "checksums", "classify", "find_code", "normalise"]


@dataclass(frozen=True, eq=False, repr=False)
class StatementLine(Frozen):
    """One credit on the organiser's account, as the bank reports it (cents)."""

    value_date: date | datetime  # an instant always has its UTC offset
    amount: int
    currency: str
    reference: str
    payer: str | None = None
    bank_ref: str | None = None  # the bank's own id of the transaction, where the format has one


def normalise(text: str) -> str:
    """Upper-case letters and digits only: ' wj9x-2g3r ' -> 'WJ9X2G3R'."""
    return re.sub(r"[^0-9A-Z]", "", text.upper())


def find_code(reference: str, codes: Set[str]) -> str | None:
    """The check-in code quoted anywhere in a reference (case, spaces and dashes ignored);
    None when there is none, or when two different codes are quoted (a person decides)."""
    text = normalise(reference)
    found = {text[i : i + CODE_LENGTH] for i in range(len(text) - CODE_LENGTH + 1)} & set(codes)
    return next(iter(found)) if len(found) == 1 else None


def checksums(lines: Sequence[StatementLine], account: str = "") -> list[str]:
    """Each line's identity: the bank's id of it, else its fields and its occurrence among
    identical lines (of those without an id)."""
    seen: dict[str, int] = {}
    out = []
    for line in lines:
        if line.bank_ref:
            identity = f"{account}|bank-ref|{line.bank_ref.strip()}"
            out.append(hashlib.sha256(identity.encode()).hexdigest()[:32])
            continue
        fields = "|".join(
            (
                account,
                line.value_date.isoformat(),
                str(line.amount),
                line.currency.upper(),
                normalise(line.reference),
                normalise(line.payer or ""),
            )
        )
        seen[fields] = seen.get(fields, 0) + 1
        out.append(hashlib.sha256(f"{fields}|{seen[fields]}".encode()).hexdigest()[:32])
    return out


def classify(amount: int, outstanding: int) -> Outcome:
    """A matched line against what the registration still owed before it (R3.3)."""
    if amount == outstanding:
        return "matched"
    return "underpaid" if amount < outstanding else "overpaid"
