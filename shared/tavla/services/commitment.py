"""The draw's seed, committed before check-in closes (R5.1): the organiser commits whenever
they like before the first draw (opening check-in is a good moment); the first draw commits
if nobody did. From then on the tournament page shows the seed's SHA-256, and the first draw
reveals the seed every draw's seed follows from (`tavla.rules.commitment`)."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime

from tavla.caller import Caller
from tavla.errors import DrawnWithoutCommitment
from tavla.models.commitment import DrawCommitment
from tavla.rules import commitment as rules
from tavla.services.access import require_organiser
from tavla.store import draws as draw_store
from tavla.store import tournaments as tournament_store
from tavla.store.audit import entry as audit_entry
from tavla.store.records import Actor, TournamentRecord

_system_random = random.SystemRandom()


def commit(
    caller: Caller, tournament_id: str, now: datetime, rng: random.Random = _system_random
) -> DrawCommitment:
    """Commit to the draw's seed now (its organisers); the same commitment when asked again.

    409 when the tournament was drawn before seeds were committed."""
    tournament = tournament_store.get(tournament_id)
    organiser = require_organiser(tournament, caller)
    return _view(ensure(organiser, tournament, now, rng))


def ensure(
    organiser: Actor, tournament: TournamentRecord, now: datetime, rng: random.Random
) -> TournamentRecord:
    """The tournament with its commitment: made now unless it has one (of two commits at
    once, one lands and both answer with it)."""
    if tournament.draw_commitment is not None:
        return tournament
    if tournament.draws or tournament.drawing:
        raise DrawnWithoutCommitment("This tournament was drawn before its seed was committed.")
    secret = rules.new_secret(rng)
    public = {"hash": rules.commitment(secret), "committed_at": now.isoformat()}
    change = audit_entry(organiser, "seed_committed", now, hash=public["hash"])
    if draw_store.commit_seed(tournament.id, public, secret, change):
        return replace(tournament, draw_commitment=public, draw_secret=secret)
    again = draw_store.day(tournament.id, with_rounds=False).tournament
    if again is None or again.draw_commitment is None:
        raise DrawnWithoutCommitment("This tournament was drawn before its seed was committed.")
    return again


def _view(tournament: TournamentRecord) -> DrawCommitment:
    assert tournament.draw_commitment is not None
    return DrawCommitment.model_validate(dict(tournament.draw_commitment))
