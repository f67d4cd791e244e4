"""Bank statements read into lines (R3.3): CSV by a column mapping, MT940 (the `mt-940`
package), camt.053 (ISO 20022 XML, parsed with defusedxml: no entity expansion, no external
entities). Only credits in EUR are entry fees; debits and other currencies are skipped.
Amounts become integer cents exactly (Decimal), never floats.
"""

from __future__ import annotations

import csv
import io
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from tavla.errors import Invalid
from tavla.rules.bank import StatementLine


class CsvMapping(BaseModel):
    """Which column holds what, in the organiser's bank's CSV export (saved per organiser)."""

    model_config = ConfigDict(defer_build=True)  # built on first use, not at every cold start

    value_date: str = Field(min_length=1, max_length=64)
    amount: str = Field(min_length=1, max_length=64)
    reference: str = Field(min_length=1, max_length=64)
    payer: str | None = Field(default=None, max_length=64)
    currency: str | None = Field(default=None, max_length=64)
    transaction_id: str | None = Field(
        default=None, max_length=64, description="the column of the bank's own id of each transaction"
    )
    date_format: str = Field(default="%Y-%m-%d", max_length=32)
    decimal_comma: bool = False
    delimiter: str = Field(default=",", min_length=1, max_length=1)


MAX_CENTS = 100_000_000  # the API's largest amount (tavla.models.common.Money)


def cents(text: str, decimal_comma: bool = False) -> int:
    raw = text.strip().replace(" ", "")
    raw = raw.replace(".", "").replace(",", ".") if decimal_comma else raw.replace(",", "")
    try:
        value = Decimal(raw) * 100
    except InvalidOperation as error:
        raise Invalid(f"'{text}' is not an amount.") from error
    if not value.is_finite() or value != value.to_integral_value():
        raise Invalid(f"'{text}' is not an amount in cents (two decimals at most).")
    if abs(value) > MAX_CENTS:
        raise Invalid(f"'{text}' is more than an entry fee can be.")
    return int(value)


def value_date(when: datetime) -> date | datetime:
    """A value date as the bank gave it: an instant with its UTC offset stays an instant (it
    counts in the tournament's zone); a time without one is the bank's own day, a date."""
    return when if when.utcoffset() is not None else when.date()


def parse_csv(content: str, mapping: CsvMapping) -> list[StatementLine]:
    try:
        return _parse_csv(content, mapping)
    except csv.Error as error:
        raise Invalid(f"The CSV statement could not be read: {error}.") from error


def _parse_csv(content: str, mapping: CsvMapping) -> list[StatementLine]:
    reader = csv.DictReader(io.StringIO(content), delimiter=mapping.delimiter)
    missing = {
        c
        for c in (mapping.value_date, mapping.amount, mapping.reference)
        if c not in (reader.fieldnames or [])
    }
    if missing:
        raise Invalid(f"The statement has no column {', '.join(sorted(missing))}.")
    lines = []
    if mapping.transaction_id and mapping.transaction_id not in (reader.fieldnames or []):
        raise Invalid(f"The statement has no column {mapping.transaction_id}.")
    for number, row in enumerate(reader, start=2):
        try:
            when = value_date(
                datetime.strptime((row.get(mapping.value_date) or "").strip(), mapping.date_format)
            )
        except ValueError as error:
            raise Invalid(
                f"Line {number}: '{row.get(mapping.value_date)}' is not a {mapping.date_format} date."
            ) from error
        bank_ref = (row.get(mapping.transaction_id) or "").strip() if mapping.transaction_id else ""
        lines.append(
            StatementLine(
                value_date=when,
                bank_ref=bank_ref[:140] or None,
                amount=cents(row.get(mapping.amount) or "", mapping.decimal_comma),
                currency=(row.get(mapping.currency) if mapping.currency else None) or "EUR",
                reference=row.get(mapping.reference) or "",
                payer=row.get(mapping.payer) if mapping.payer else None,
            )
        )
    return lines


def parse_mt940(content: str) -> list[StatementLine]:
    import mt940

    transactions = mt940.models.Transactions()
    try:
        transactions.parse(content)
    except Exception as error:  # the parser raises bare exceptions for malformed input
        raise Invalid("The MT940 statement could not be read.") from error
    lines = []
    for t in transactions:
        data: dict[str, Any] = t.data
        amount = data.get("amount")
        if amount is None or data.get("date") is None:
            continue
        details = " ".join(
            str(data.get(k) or "") for k in ("transaction_details", "customer_reference", "extra_details")
        )
        bank_ref = str(data.get("bank_reference") or "").strip()
        lines.append(
            StatementLine(
                bank_ref=bank_ref or None,
                value_date=date(data["date"].year, data["date"].month, data["date"].day),
                amount=cents(str(amount.amount)),
                currency=str(amount.currency or data.get("currency") or "EUR"),
                reference=details.strip(),
            )
        )
    return lines


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child(node: Any, *path: str) -> Any:
    for name in path:
        node = next((c for c in list(node) if _local(c.tag) == name), None) if node is not None else None
    return node


def _all(node: Any, name: str) -> list[Any]:
    return [n for n in node.iter() if _local(n.tag) == name]


def _text(node: Any) -> str:
    return (node.text or "").strip() if node is not None else ""


def _when(entry: Any) -> date | datetime | None:
    """The entry's value date (ValDt), else its booking date (BookgDt): each a date (Dt) or an
    instant (DtTm); an instant without a UTC offset is the bank's own day."""
    for parent in ("ValDt", "BookgDt"):
        day, instant = _text(_child(entry, parent, "Dt")), _text(_child(entry, parent, "DtTm"))
        try:
            if day:
                return date.fromisoformat(day[:10])
            if instant:
                return value_date(datetime.fromisoformat(instant.replace("Z", "+00:00")))
        except ValueError as error:
            raise Invalid(f"'{day or instant}' is not a date.") from error
    return None


def parse_camt053(content: str) -> list[StatementLine]:
    from defusedxml import ElementTree
    from defusedxml.common import DefusedXmlException

    try:
        root = ElementTree.fromstring(content)
    except (ElementTree.ParseError, DefusedXmlException) as error:
        raise Invalid("The camt.053 statement is not well-formed, safe XML.") from error
    lines = []
    for entry in _all(root, "Ntry"):
        amount, sign = _child(entry, "Amt"), _child(entry, "CdtDbtInd")
        when = _when(entry)
        if amount is None or when is None:
            continue
        value = cents(amount.text or "")
        if sign is not None and sign.text == "DBIT":
            value = -value
        references = [n.text or "" for n in _all(entry, "Ustrd")] + [n.text or "" for n in _all(entry, "Ref")]
        payer = _child(entry, "NtryDtls", "TxDtls", "RltdPties", "Dbtr", "Nm")
        if payer is None:
            payer = _child(entry, "NtryDtls", "TxDtls", "RltdPties", "Dbtr", "Pty", "Nm")
        bank_ref = next(
            (n.text.strip() for n in (_child(entry, "AcctSvcrRef"), _child(entry, "NtryRef")) if _text(n)),
            None,
        )
        lines.append(
            StatementLine(
                value_date=when,
                bank_ref=bank_ref,
                amount=value,
                currency=str(amount.get("Ccy") or "EUR"),
                reference=" ".join(r.strip() for r in references if r.strip()),
                payer=payer.text.strip() if payer is not None and payer.text else None,
            )
        )
    return lines
