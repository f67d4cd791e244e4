"""Who is calling: the signed-in user as the JWT authorizer saw them, and the groups that matter.

Services take a `Caller`; only the HTTP layer builds one (from the verified token's claims).
"""

from __future__ import annotations

from dataclasses import dataclass

from tavla.frozen import Frozen

# Cognito groups (platform-wide roles); per-tournament staff live with the tournament.
ADMINS = "admins"
ORGANISERS = "organisers"
# the user pool whose groups follow the platform's role records (unset locally: no user pool)
USER_POOL_ENV = "USER_POOL_ID"


@dataclass(frozen=True, eq=False, repr=False)
class Caller(Frozen):
    """The signed-in user: the token's subject (internal, never shown) and Cognito groups."""

    sub: str
    groups: frozenset[str]

    @property
    def is_admin(self) -> bool:
        return ADMINS in self.groups

    @property
    def is_organiser(self) -> bool:
        return ORGANISERS in self.groups or self.is_admin
