"""Category-prize eligibility (R11.4): who competes for the women's, youth and veteran prizes.

Private (R12): the player declares gender and birth year in their profile; the organiser may
set or correct an entry's categories (that wins over the profile) until the tournament is
finished; the finish freezes who is eligible (`snapshot`), so a profile edited afterwards
changes no prize. Only the award itself is ever public.
"""

from __future__ import annotations

from datetime import datetime

from tavla.rules.prizes import categories_of
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store.records import PrizeEligibilityRecord, RegistrationRecord, TournamentRecord


def entry_categories(
    tournament: TournamentRecord, only: RegistrationRecord | None = None
) -> list[tuple[RegistrationRecord, frozenset[str], bool]]:
    """Each entry still in (not refused), or `only` that one, its prize categories and whether
    the organiser set them (else the player's private profile decides; contacts are read only
    for those)."""
    entries = (
        [only]
        if only is not None
        else [r for r in registration_store.all_entries(tournament.id) if r.status != "refused"]
    )
    from_profile = [r.tavla_id for r in entries if r.categories is None]
    contacts = player_store.get_contacts(from_profile) if from_profile else {}
    prizes = tournament.prizes
    year = datetime.fromisoformat(tournament.starts_at).year
    out: list[tuple[RegistrationRecord, frozenset[str], bool]] = []
    for r in entries:
        if r.categories is not None:
            out.append((r, frozenset(r.categories), True))
            continue
        c = contacts.get(r.tavla_id)
        found = categories_of(
            c.gender if c else None,
            c.birth_year if c else None,
            year,
            youth_under=prizes.youth_under,
            veteran_from=prizes.veteran_from,
        )
        out.append((r, found, False))
    return out


def eligible(tournament: TournamentRecord) -> dict[str, frozenset[str]]:
    """Category -> the Tavla IDs eligible for it now (nothing read when no category prize is announced)."""
    if not tournament.prizes.has_categories:
        return {}
    sets: dict[str, set[str]] = {}
    for registration, categories, _ in entry_categories(tournament):
        for category in categories:
            sets.setdefault(category, set()).add(registration.tavla_id)
    return {k: frozenset(v) for k, v in sets.items()}


def snapshot(tournament: TournamentRecord) -> PrizeEligibilityRecord | None:
    """Who is eligible, to freeze at the finish (None: no category prize is announced)."""
    if not tournament.prizes.has_categories:
        return None
    found = eligible(tournament)
    return PrizeEligibilityRecord(
        tournament_id=tournament.id, categories={k: tuple(sorted(v)) for k, v in sorted(found.items())}
    )
