"""tavla's frozen dataclasses compare, hash and print as `@dataclass(frozen=True)` would make
them, though `tavla.frozen.Frozen` writes those methods once instead of each class compiling
its own (docs/decisions/0033)."""

from __future__ import annotations

import dataclasses
import importlib
import pkgutil
from typing import Any

import pytest

import tavla
from tavla.frozen import Frozen


def _every_frozen() -> list[type]:
    found = set()
    for module in pkgutil.walk_packages(tavla.__path__, "tavla."):
        loaded = importlib.import_module(module.name)
        found |= {
            c
            for c in vars(loaded).values()
            if isinstance(c, type) and issubclass(c, Frozen) and dataclasses.is_dataclass(c)
        }
    return sorted(found, key=lambda c: (c.__module__, c.__qualname__))


FROZEN = _every_frozen()


def _reference(cls: type) -> type:
    """The same fields, flags included, as a plain frozen dataclass named alike (for the repr)."""
    made = dataclasses.make_dataclass(
        cls.__name__,
        [
            (f.name, object, dataclasses.field(compare=f.compare, repr=f.repr, hash=f.hash))
            for f in dataclasses.fields(cls)
        ],
        frozen=True,
    )
    made.__qualname__ = cls.__qualname__
    return made


def _made(cls: type, values: dict[str, Any]) -> Any:
    """An instance with these field values, past any `__post_init__` check (what is compared
    here is the methods, not the values' meaning)."""
    made: Any = object.__new__(cls)
    for name, value in values.items():
        object.__setattr__(made, name, value)
    return made


def test_the_frozen_dataclasses_are_found() -> None:
    names = {c.__name__ for c in FROZEN}
    assert {"TournamentRecord", "FixtureRecord", "Record", "PlaySettings"} <= names, names


@pytest.mark.parametrize("cls", FROZEN, ids=lambda c: f"{c.__module__}.{c.__qualname__}")
def test_a_frozen_dataclass_behaves_as_its_generated_methods(cls: type) -> None:
    assert "__eq__" not in vars(cls) and "__repr__" not in vars(cls), "declare it eq=False, repr=False"
    fields = dataclasses.fields(cls)
    reference = _reference(cls)
    values = {f.name: f"{f.name}-1" for f in fields}
    mine, theirs = _made(cls, values), _made(reference, values)
    assert repr(mine) == repr(theirs)
    assert mine == _made(cls, values) and hash(mine) == hash(_made(cls, values)) == hash(theirs)
    for changed in fields:
        other = _made(cls, {**values, changed.name: "changed"})
        assert (mine == other) == (not changed.compare)
        assert (mine == other) == (
            _made(reference, values) == _made(reference, {**values, changed.name: "changed"})
        )
    assert mine != theirs  # another class is never equal, as between dataclasses
    if fields:
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(mine, fields[0].name, "x")
