"""CSV cells a spreadsheet shows as text and never runs as a formula (CSV injection).

A treasurer opens an export in Excel or LibreOffice, whose list separator depends on the
locale (`,` in English, `;` in Greek and most of Europe, a tab when pasted); a name such as
`Eve;=1+2` is one quoted cell to the CSV writer but two cells to a spreadsheet that splits
on `;`, the second a formula. So a formula start (`=`, `+`, `-`, `@`, or a tab or return
before one) is neutralised with a leading `'` at the start of the text and after every
character that could start a new cell there. Every CSV export writes its cells through
`cell`; numbers stay numbers.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["cell"]

# a formula start at the beginning, or after a separator (spaces between are skipped by
# spreadsheets, so they do not protect)
_DANGER = re.compile(r"(^|[,;|\t\r\n])([ \t\r]*)(?=[=+\-@])")


def cell(value: Any) -> Any:
    """The value as a CSV cell: text neutralised, numbers as they are, None empty, booleans yes/no."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return value
    return _DANGER.sub(r"\1\2'", str(value))
