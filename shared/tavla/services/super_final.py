"""The Super Final as a tournament (R10.4, R5.7): created from a closed season with the players
who accepted their invitations already entered, each starting with the lives their frozen
season place gives; drawn and played as any lives event; its winner the season's champion.

Creating it is one transaction: the tournament, its entries (with their check-in codes) and
the season's claim on it (`tournament_id` on the final's head, set only where none is), so the
same request twice, or two at once, make one tournament; a repeat returns the one made.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from tavla import ids
from tavla.caller import Caller
from tavla.errors import Forbidden, Invalid, InvitationsPending
from tavla.models.season import SuperFinalBody, SuperFinalTournament
from tavla.rules.season import SeasonSettings
from tavla.services import invitations
from tavla.store import invitations as invitation_store
from tavla.store import tournaments as tournament_store
from tavla.store.records import RegistrationRecord
from tavla.store.registrations import REGISTERED
from tavla.store.transactions import Cancelled

_system_random = random.SystemRandom()
ATTEMPTS = 3  # a check-in code drawn twice: draw them again


def create(
    caller: Caller, season_id: str, body: SuperFinalBody, now: datetime, rng: random.Random = _system_random
) -> tuple[SuperFinalTournament, bool]:
    """The season's Super Final (admins, the season's final organiser); True when made now."""
    season, final = invitations.season_and_final(season_id)
    if not invitations.is_final_staff(caller, season):
        raise Forbidden("Only the Super Final's organiser and platform admins create the final.")
    if final.tournament_id:
        return _made(season_id, final.tournament_id), False
    answers = invitation_store.of_season(season_id)
    if any(i.status == invitation_store.PENDING for i in answers):
        raise InvitationsPending("Invited players are still to answer: the final is created once all have.")
    accepted = [i for i in answers if i.status == invitation_store.ACCEPTED]
    if len(accepted) < 2:
        raise Invalid("A final needs at least two players who accepted.")
    # Creating a tournament loads its models and services (~0.2 s): only this request pays it,
    # not the cold start of the function that answers the season's public pages.
    from tavla.models.tournaments import TournamentCreate
    from tavla.services import tournaments

    settings = SeasonSettings.model_validate(season.settings)
    lives = {i.tavla_id: i.lives for i in accepted}
    page = TournamentCreate(
        name=body.name or f"Super Final {season.name}",
        venue=body.venue,
        city=body.city,
        time_zone=body.time_zone,
        description=body.description,
        starts_at=body.starts_at,
        registration_closes_at=max(now + timedelta(minutes=1), body.starts_at - timedelta(days=1)),
        capacity=len(accepted),
        format="lives",
        lives=settings.final_lives.other_lives,
        lives_by_player=lives,
        match_lengths=body.match_lengths,
        rule_profile=body.rule_profile,
        tables=body.tables,
        seeding="rating",
        season_id=season_id,
        requires_approval=True,  # nobody else takes a seat: an entry would wait for the organiser
    )
    for _ in range(ATTEMPTS):
        record, change = tournaments.new_record(caller, page, now, rng)
        record = replace(record, registered=len(accepted))
        entries = [
            RegistrationRecord(
                tournament_id=record.id,
                tavla_id=i.tavla_id,
                division="main",
                status=REGISTERED,
                checkin_code=ids.checkin_code(rng),
                registered_at=now.isoformat(),
                listed_at=(now + timedelta(microseconds=i.order)).isoformat(),  # season order
                starts_at=record.starts_at,
            )
            for i in accepted
        ]
        try:
            tournament_store.create_entered(
                record,
                change,
                entries,
                partial(invitation_store.claim_tournament, season_id=season_id, tournament_id=record.id),
            )
        except Cancelled as cancelled:
            if cancelled.failed("final"):  # made by a request at the same time
                made = invitation_store.head(season_id)
                if made is not None and made.tournament_id:
                    return _made(season_id, made.tournament_id), False
            if any(cancelled.failed(f"code {n}") for n in range(len(entries))):
                continue
            raise
        return _made(season_id, record.id), True
    raise Invalid("Could not draw unique check-in codes: try again.")  # pragma: no cover


def _made(season_id: str, tournament_id: str) -> SuperFinalTournament:
    from tavla.services import tournaments

    page = tournaments.get(tournament_id)
    return SuperFinalTournament(
        season_id=season_id,
        tournament_id=tournament_id,
        name=page.name,
        starts_at=page.starts_at.isoformat(),
        lives_by_player=dict(page.lives_by_player or {}),
    )


def crown(detail: Mapping[str, Any]) -> bool:
    """`TournamentFinished` of a season's own Super Final: its winner is the season's champion
    (recorded once). False for any other tournament (its season points count as usual)."""
    season_id = detail.get("season_id")
    if not season_id:
        return False
    final = invitation_store.head(str(season_id))
    if final is None or final.tournament_id != detail.get("tournament_id"):
        return False
    main: list[Mapping[str, Any]] = list((detail.get("events") or {}).get("main") or ())
    winner = next((r["tavla_id"] for r in main if r.get("place") == 1 and r.get("place_to") == 1), None)
    if winner:
        invitation_store.set_champion(str(season_id), str(final.tournament_id), str(winner))
    return True
