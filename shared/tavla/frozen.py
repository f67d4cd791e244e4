"""The base of tavla's frozen dataclasses: equality, hashing and the repr written once.

A dataclass compiles every method it generates when its class is made (one `exec` each on
Python 3.11): a frozen one six. Every function imports tens of them, and that compiling was
the largest part of what tavla's own import cost a cold start (docs/decisions/0033). Declared
`@dataclass(frozen=True, eq=False, repr=False)` on this base, a class compiles three (its
`__init__` and the frozen checks) and takes these, which behave as the generated ones do:
same class only, the fields in order with their `compare`, `hash` and `repr` flags honoured.
What each class compares is looked up once, as C getters (`operator.attrgetter`), so a
comparison costs what the generated one does.

A subclass is declared the same way (a generated `__eq__` in a parent would shadow these).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields
from operator import attrgetter
from typing import Any

Getter = Callable[[Any], tuple[Any, ...]]


class Frozen:
    """Equality, hashing and repr of a frozen dataclass, over its fields."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = _methods(self.__class__)[0]
        return compared(self) == compared(other)

    def __hash__(self) -> int:
        return hash(_methods(self.__class__)[1](self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in _methods(self.__class__)[2])
        return f"{self.__class__.__qualname__}({shown})"


_MADE: dict[type, tuple[Getter, Getter, tuple[str, ...]]] = {}


def _methods(cls: type) -> tuple[Getter, Getter, tuple[str, ...]]:
    """The class's compared fields, hashed fields and shown fields (made on first use)."""
    made = _MADE.get(cls)
    if made is None:
        every = fields(cls)
        compared = [f.name for f in every if f.compare]
        hashed = [f.name for f in every if (f.compare if f.hash is None else f.hash)]
        made = _MADE[cls] = (_values(compared), _values(hashed), tuple(f.name for f in every if f.repr))
    return made


def _values(names: list[str]) -> Getter:
    """The named attributes' values as a tuple (what a dataclass's methods compare)."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda value: (one(value),)
    return lambda value: ()
