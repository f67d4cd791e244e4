"""A player erases their account (R12, GDPR Art. 17).

Contacts, e-mail, phone, birth year, gender, consents, notices, push subscriptions, needs at the
tables, the payer's name on bank transfers and the sign-in are deleted. Results and ratings stay as they were,
under a pseudonym drawn once and stored on the profile, so no opponent's rating, standing or
season place changes. Money records stay (the federation's law keeps them), without contact
data, and the answer says until when.

Refused while the player is entered in a tournament that is not over (the withdrawal and its
refund come first) or holds a platform role (an admin revokes it first). Asking again after a
failure finishes the erasure; asking again after it is done answers the same.
"""

from __future__ import annotations

import os
import random
from datetime import datetime

from tavla import aws
from tavla.caller import ADMINS, ORGANISERS, USER_POOL_ENV, Caller
from tavla.errors import EntriesOpen, ErasureNotConfirmed, ProfileMissing, RolesHeld
from tavla.models.players import Erasure, KeptRecord
from tavla.rules import privacy
from tavla.rules.model import Actor
from tavla.services import hall
from tavla.store import audit
from tavla.store import erasure as erasure_store
from tavla.store import late_entries as late_store
from tavla.store import payments as payment_store
from tavla.store import players as player_store
from tavla.store import registrations as registration_store
from tavla.store import roles as role_store
from tavla.store import tournaments as tournament_store
from tavla.store.records import FINISHED, LedgerEntryRecord, TournamentRecord

_system_random = random.SystemRandom()
OVER = frozenset({FINISHED, "cancelled"})  # tournaments whose entries no longer run

ERASED = [
    "name, club and city (results and rating stay under the pseudonym)",
    "phone, e-mail, gender, birth year",
    "SMS and e-mail consents and the language of notices",
    "your needs at the tables (an accessible table)",
    "notices, push subscriptions and requests to organise",
    "the payer's name and text of bank transfers for your entries",
    "the sign-in account",
]


def erase_me(caller: Caller, confirm: str, now: datetime, rng: random.Random = _system_random) -> Erasure:
    """Erase the caller's account once they typed their Tavla ID back (the second confirmation)."""
    identity = erasure_store.identity(caller.sub)
    if identity is None:
        raise ProfileMissing("You have no player profile to erase.")
    tavla_id = str(identity["tavla_id"])
    profile, contacts = player_store.get_profile_and_contacts(tavla_id)
    entries = registration_store.of_player(tavla_id)
    entered = {e.tournament_id for e in entries} | set(late_store.entered_late(tavla_id))
    ledger = payment_store.of_payer(tavla_id)
    tournaments = {t: tournament_store.get(t) for t in sorted(entered | {m.tournament_id for m in ledger})}
    if profile.erased_at is None:
        _may_erase(caller, [tournaments[t] for t in sorted(entered)])
    if confirm.strip().upper() != tavla_id:
        raise ErasureNotConfirmed("Type your own Tavla ID to confirm that the account goes for good.")
    pseudonym = profile.name if profile.erased_at else privacy.pseudonym(rng)
    at = profile.erased_at or now.isoformat()
    if profile.erased_at is None or identity.get("erased_at") is None:
        actor = Actor(role="player", tavla_id=tavla_id)
        record = audit.entry(actor, "account_erased", now, tavla_id=tavla_id, pseudonym=pseudonym)
        erasure_store.erase_account(tavla_id, caller.sub, pseudonym, at, contacts, record)
    hall.forget_needs(tavla_id, tournaments, now)
    _rename_everywhere(tavla_id, pseudonym, list(tournaments), [e.tournament_id for e in entries])
    _delete_sign_in(caller.sub)
    return Erasure(
        tavla_id=tavla_id, pseudonym=pseudonym, erased_at=at, erased=ERASED, kept=_kept(ledger, tournaments)
    )


def _may_erase(caller: Caller, entered: list[TournamentRecord]) -> None:
    if caller.is_organiser or role_store.roles_of(caller.sub, [ORGANISERS, ADMINS]):
        raise RolesHeld("You hold the organiser or admin role: an admin revokes it before your account goes.")
    running = [t.id for t in entered if t.status not in OVER]
    if running:
        raise EntriesOpen(
            f"You are entered in tournament {running[0]}, which is not over: withdraw first "
            "(your refund is settled then), and erase your account after."
        )


def _rename_everywhere(tavla_id: str, pseudonym: str, tournaments: list[str], entered: list[str]) -> None:
    """Every copy of the name in other records becomes the pseudonym; transfers lose the payer."""
    erasure_store.rename_registrations(entered, tavla_id, pseudonym)
    for tournament_id in tournaments:
        for document in erasure_store.documents_naming(tournament_id):
            erasure_store.rename_in(document, tavla_id, pseudonym)
        for line in erasure_store.bank_lines_of(tournament_id, tavla_id):
            erasure_store.forget_payer(line)
    erasure_store.delete_personal_items(tavla_id)


def _kept(ledger: list[LedgerEntryRecord], tournaments: dict[str, TournamentRecord]) -> list[KeptRecord]:
    kept = [
        KeptRecord(
            kind="results",
            what="results, rating history and season points, under the pseudonym",
            why="the official results of tournaments others played in (GDPR Art. 17(3)(d)); "
            "removing them would change opponents' ratings and standings",
        ),
        KeptRecord(
            kind="tavla_id",
            what="the Tavla ID as the key of those results, with no name, contact or sign-in behind it",
            why="results, draws and their published fingerprints refer to it",
        ),
    ]
    if ledger:
        until = max(
            filter(
                None,
                (
                    privacy.money_kept_until(m.value_date, _federation(tournaments.get(m.tournament_id)))
                    for m in ledger
                ),
            )
        )
        kept.append(
            KeptRecord(
                kind="money_records",
                count=len(ledger),
                what=f"{len(ledger)} money records (entry fees, refunds, prizes), without contact data",
                why="accounting law obliges the federation to keep them: "
                + "; ".join(
                    sorted({privacy.money_records(_federation(t)).source for t in tournaments.values()})
                ),
                until=until,
            )
        )
    return kept


def _federation(tournament: TournamentRecord | None) -> str | None:
    """The rule profile names the federation whose law the tournament's books follow."""
    return tournament.play.rule_profile if tournament else None


def _delete_sign_in(sub: str) -> None:
    """The user pool's account goes (the username of an e-mail sign-in is its sub); one already
    gone is what a repeated erasure expects. The local stack has no user pool."""
    pool = os.environ.get(USER_POOL_ENV)
    if not pool:
        return
    cognito = aws.session().client("cognito-idp")
    try:
        cognito.admin_delete_user(UserPoolId=pool, Username=sub)
    except cognito.exceptions.UserNotFoundException:
        return
