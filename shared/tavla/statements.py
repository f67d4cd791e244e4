"""Bank statements read into lines (R3.3): CSV by a column mapping, MT940 (the `mt-940`
package), camt.053 (ISO 20022 XML, parsed with defusedxml: no entity expansion, no external
entities). Only credits in EUR are entry fees; debits and other currencies are skipped.
Amounts become integer cents exactly (Decimal), never floats.
"""

from __future__ import annotations

import csv
import io
import re
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from tavla.errors import Invalid
from tavla.rules.bank import StatementLine

DATE_FORMATS: dict[str, str] = {
    "2026-12-31": "%Y-%m-%d",
    "31/12/2026": "%d/%m/%Y",
    "12/31/2026": "%m/%d/%Y",
    "31.12.2026": "%d.%m.%Y",
    "31-12-2026": "%d-%m-%Y",
    "2026/12/31": "%Y/%m/%d",
    "20261231": "%Y%m%d",
    "31/12/26": "%d/%m/%y",
    "31.12.26": "%d.%m.%y",
    "2026-12-31 23:59:59": "%Y-%m-%d %H:%M:%S",
    "31/12/2026 23:59": "%d/%m/%Y %H:%M",
    "2026-12-31T23:59:59+02:00": "%Y-%m-%dT%H:%M:%S%z",
}
"""The date formats a statement may use, each named by how 31 December 2026 looks in it: the
organiser picks an example, never a strptime pattern; the pattern stays in here."""

DateExample = Literal[
    "2026-12-31",
    "31/12/2026",
    "12/31/2026",
    "31.12.2026",
    "31-12-2026",
    "2026/12/31",
    "20261231",
    "31/12/26",
    "31.12.26",
    "2026-12-31 23:59:59",
    "31/12/2026 23:59",
    "2026-12-31T23:59:59+02:00",
]
_BY_PATTERN = {pattern: example for example, pattern in DATE_FORMATS.items()}


class CsvMapping(BaseModel):
    """Which column holds what, in the organiser's bank's CSV export (saved per organiser).

    `date_format` is an example date (how 31 December 2026 is written), as the column preview
    (`POST .../bank-statements/csv-columns`) offers them."""

    model_config = ConfigDict(defer_build=True)  # built on first use, not at every cold start

    value_date: str = Field(min_length=1, max_length=64)
    amount: str = Field(min_length=1, max_length=64)
    reference: str = Field(min_length=1, max_length=64)
    payer: str | None = Field(default=None, max_length=64)
    currency: str | None = Field(default=None, max_length=64)
    transaction_id: str | None = Field(
        default=None, max_length=64, description="the column of the bank's own id of each transaction"
    )
    date_format: DateExample = Field(
        default="2026-12-31", description="how 31 December 2026 is written in the date column"
    )
    decimal_comma: bool = False
    delimiter: str = Field(default=",", min_length=1, max_length=1)

    @field_validator("date_format", mode="before")
    @classmethod
    def _example(cls, value: Any) -> Any:
        """A mapping saved (or a screen written) before the examples: its pattern, as its example."""
        return _BY_PATTERN.get(value, value) if isinstance(value, str) else value

    @property
    def pattern(self) -> str:
        return DATE_FORMATS[self.date_format]


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
            when = value_date(datetime.strptime((row.get(mapping.value_date) or "").strip(), mapping.pattern))
        except ValueError as error:
            raise Invalid(
                f"Line {number}: '{row.get(mapping.value_date)}' is not a date like {mapping.date_format}."
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


# -- choosing the mapping from the file itself -------------------------------------------------

PREVIEW_ROWS = 20
_COMMA_AMOUNT = re.compile(r"^[+-]?\d{1,3}(?:[.\s]?\d{3})*,\d{2}$")  # 20,00 or 1.234,56
ROLES = ("value_date", "amount", "reference", "payer", "currency", "transaction_id")


class ColumnPreview(BaseModel):
    """One column of an uploaded statement: its example values and what it could be."""

    model_config = ConfigDict(defer_build=True)  # built on first use, not at every cold start

    name: str
    examples: list[str] = Field(description="the first few values, as in the file")
    date_formats: list[DateExample] = Field(
        description="the date formats (as example dates) every value of the column reads in"
    )
    first_date_reads_as: dict[str, str] = Field(
        default_factory=dict,
        description="per date format offered, the column's first value read in it (ISO): "
        "tells 04/03 (4 March) from 03/04 (3 April)",
    )
    amounts: bool = Field(description="every value reads as an amount")


class CsvPreview(BaseModel):
    """The columns of an uploaded CSV statement, for the organiser to pick from by example."""

    model_config = ConfigDict(defer_build=True)  # built on first use, not at every cold start

    delimiter: str
    decimal_comma: bool = Field(description="amounts are written 1.234,56 (a guess from the values)")
    columns: list[ColumnPreview]
    suggested: dict[str, str] = Field(
        description="a column per role (value_date, amount, ...) where one stands out; the organiser confirms"
    )
    date_formats: list[DateExample] = Field(description="every date format the import reads, as examples")


def _delimiter(first_line: str) -> str:
    counts = {d: first_line.count(d) for d in (",", ";", "\t", "|")}
    return max(counts, key=lambda d: counts[d]) if any(counts.values()) else ","


def _reads_as_date(values: list[str], pattern: str) -> list[datetime] | None:
    try:
        return [datetime.strptime(v.strip(), pattern) for v in values]
    except ValueError:
        return None


def _amount_like(values: list[str], decimal_comma: bool) -> bool:
    try:
        return bool(values) and all(cents(v, decimal_comma) is not None for v in values)
    except Invalid:
        return False


def preview_csv(head: str) -> CsvPreview:
    """The first lines of a CSV statement read without a mapping: the columns with example
    values, the date formats each date column reads in (shown as example dates), amounts
    and a suggested role per column, so the organiser picks from what the file shows."""
    lines = head.splitlines()
    if not lines or not lines[0].strip():
        raise Invalid("The statement is empty: upload its first lines, the header first.")
    delimiter = _delimiter(lines[0])
    try:
        rows = list(csv.reader(io.StringIO("\n".join(lines[: PREVIEW_ROWS + 1])), delimiter=delimiter))
    except csv.Error as error:
        raise Invalid(f"The CSV statement could not be read: {error}.") from error
    header, body = rows[0], [r for r in rows[1:] if any(c.strip() for c in r)]
    if len(set(header)) != len(header):
        raise Invalid("The statement's header names a column twice.")
    by_column = {name: [r[i] for r in body if i < len(r) and r[i].strip()] for i, name in enumerate(header)}
    comma = any(_COMMA_AMOUNT.match(v.strip()) for values in by_column.values() for v in values)
    columns = []
    for name, values in by_column.items():
        formats: list[DateExample] = []
        reads: dict[str, str] = {}
        for example, pattern in DATE_FORMATS.items():
            parsed = _reads_as_date(values, pattern) if values else None
            if parsed:
                formats.append(example)  # type: ignore[arg-type]
                reads[example] = value_date(parsed[0]).isoformat()
        columns.append(
            ColumnPreview(
                name=name,
                examples=values[:3],
                date_formats=formats,
                first_date_reads_as=reads,
                amounts=not formats and _amount_like(values, comma),
            )
        )
    return CsvPreview(
        delimiter=delimiter,
        decimal_comma=comma,
        columns=columns,
        suggested=_suggested(columns),
        date_formats=list(DATE_FORMATS),
    )


_NAMES = {
    "value_date": ("value", "valuta", "date", "datum", "ημερομηνία"),
    "amount": ("amount", "credit", "betrag", "ποσό"),
    "reference": ("reference", "description", "remittance", "purpose", "details", "αιτιολογία"),
    "payer": ("payer", "name", "counterparty", "from", "sender"),
    "currency": ("currency", "ccy", "νόμισμα"),
    "transaction_id": ("transaction", "id", "bank reference"),
}


def _suggested(columns: list[ColumnPreview]) -> dict[str, str]:
    """A column per role where the header or the values make one stand out."""
    out: dict[str, str] = {}
    dates = [c.name for c in columns if c.date_formats]
    amounts = [c.name for c in columns if c.amounts]
    for role in ROLES:
        allowed = dates if role == "value_date" else amounts if role == "amount" else None
        for word in _NAMES[role]:
            found = next(
                (
                    c.name
                    for c in columns
                    if word in c.name.lower()
                    and c.name not in out.values()
                    and (allowed is None or c.name in allowed)
                ),
                None,
            )
            if found:
                out[role] = found
                break
        if role not in out and allowed and len(allowed) == 1 and allowed[0] not in out.values():
            out[role] = allowed[0]
    return out
