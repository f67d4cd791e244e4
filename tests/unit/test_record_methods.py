"""Stored records compare, hash and print as `@dataclass(frozen=True)` would make them,
though `_Record` writes those methods once instead of each record compiling its own."""

from __future__ import annotations

import dataclasses

import pytest

from tavla.store import records
from tavla.store.records import _Record

RECORDS = sorted(
    (
        c
        for c in vars(records).values()
        if isinstance(c, type) and issubclass(c, _Record) and c is not _Record
    ),
    key=lambda c: c.__name__,
)


def _reference(cls: type) -> type:
    """The same fields as a plain frozen dataclass, named alike so the reprs can be compared."""
    made = dataclasses.make_dataclass(
        cls.__name__, [(f.name, object) for f in dataclasses.fields(cls)], frozen=True
    )
    made.__qualname__ = cls.__qualname__
    return made


@pytest.mark.parametrize("cls", RECORDS, ids=lambda c: c.__name__)
def test_a_record_behaves_as_its_dataclass(cls: type) -> None:
    reference = _reference(cls)
    values = {f.name: f"{f.name}-1" for f in dataclasses.fields(cls)}
    other = {**values, next(iter(values)): "changed"}
    mine, theirs = cls(**values), reference(**values)
    assert repr(mine) == repr(theirs)
    assert mine == cls(**values) and hash(mine) == hash(cls(**values)) == hash(theirs)
    assert mine != cls(**other)
    assert mine != theirs  # another class is never equal, as between dataclasses
    with pytest.raises(dataclasses.FrozenInstanceError):
        mine.status = "x"
