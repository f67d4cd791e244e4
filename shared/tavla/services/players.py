"""Player accounts (R1, R12): one Tavla ID per person, public and private fields kept apart."""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

from tavla import ids, passes, phones
from tavla.errors import Forbidden, Invalid
from tavla.http import Caller
from tavla.models.players import (
    CheckinPass,
    MyData,
    MyProfile,
    Notification,
    PrivacyNotice,
    ProfileCreate,
    ProfileUpdate,
    PublicProfile,
)
from tavla.rules.rating import START_RATING
from tavla.store import notifications as note_store
from tavla.store import players as store
from tavla.store import registrations as reg_store
from tavla.store.dynamo import Item

PUBLIC = ("name", "club", "city")
PRIVATE = ("phone", "email", "gender", "birth_year")
_system_random = random.SystemRandom()


def _public(profile: Item) -> PublicProfile:
    return PublicProfile.model_validate(profile, from_attributes=False)


def _mine(profile: Item, contacts: Item) -> MyProfile:
    return MyProfile.model_validate({**profile, **{k: contacts.get(k) for k in PRIVATE}})


def _private_fields(body: ProfileCreate | ProfileUpdate) -> dict[str, Any]:
    given = body.model_dump(include=set(PRIVATE), exclude_unset=True)
    if given.get("phone"):
        given["phone"] = phones.normalise(given["phone"])
    return given


def create(
    caller: Caller, body: ProfileCreate, now: datetime, rng: random.Random = _system_random
) -> MyProfile:
    """Create the caller's profile with a fresh Tavla ID; a second one is refused (R1.1)."""
    profile = {k: v for k, v in body.model_dump(include=set(PUBLIC)).items() if v is not None}
    contacts = {k: v for k, v in _private_fields(body).items() if v is not None}
    for _ in range(8):
        tavla_id = ids.tavla_id(rng)
        record = {
            **profile,
            "tavla_id": tavla_id,
            "rating": START_RATING,
            "rated_matches": 0,
            "created_at": now.isoformat(),
        }
        try:
            store.create(caller.sub, record, contacts)
        except store.TavlaIdTaken:
            continue
        return _mine(record, contacts)
    raise RuntimeError("could not draw a free Tavla ID in 8 tries")  # pragma: no cover - 2e10 ids


def me(caller: Caller) -> MyProfile:
    profile, contacts = store.get_profile_and_contacts(store.tavla_id_of(caller.sub))
    return _mine(profile, contacts)


def update_me(caller: Caller, body: ProfileUpdate) -> MyProfile:
    tavla_id = store.tavla_id_of(caller.sub)
    public = body.model_dump(include=set(PUBLIC), exclude_unset=True)
    if "name" in public and public["name"] is None:
        raise Invalid("name: a player needs a name.")
    store.update(tavla_id, public, _private_fields(body))
    return me(caller)


def public_profile(tavla_id: str) -> PublicProfile:
    """A player's public profile; a merged-away Tavla ID shows the account it was merged into."""
    profile = store.get_profile(tavla_id.upper())
    if profile.get("merged_into"):
        profile = store.get_profile(profile["merged_into"])
    return _public(profile)


def checkin_pass(caller: Caller, now: datetime) -> CheckinPass:
    tavla_id = store.tavla_id_of(caller.sub)
    token, expires = passes.issue(tavla_id, now, passes.signing_key())
    return CheckinPass(
        tavla_id=tavla_id, token=token, expires_at=expires.isoformat(), qr_svg=passes.qr_svg(token)
    )


def notifications(caller: Caller, limit: int = 50) -> list[Notification]:
    tavla_id = store.tavla_id_of(caller.sub)
    return [Notification.model_validate(n) for n in note_store.latest(tavla_id, limit)]


PRIVACY_NOTICE = PrivacyNotice(
    controller="The federation or club running the tournament, through the Tavla platform.",
    public=["name", "club", "city", "results", "ranking", "rating"],
    private=list(PRIVATE),
    who_sees_private_data="Phone and e-mail are shown only to the organisers and referees of a "
    "tournament you entered (R12.1); gender and birth year only decide category-prize eligibility, "
    "which is the only thing shown about them.",
    why="To run the tournaments you enter: registration, check-in, table calls, results, "
    "ratings, season points and prizes.",
    your_rights="GET /me/data shows everything held about you; PATCH /me corrects it.",
)


def my_data(caller: Caller) -> MyData:
    """Everything held about the caller (R12.2): profile, private fields, entries, messages."""
    tavla_id = store.tavla_id_of(caller.sub)
    profile, contacts = store.get_profile_and_contacts(tavla_id)
    entries = reg_store.of_player(tavla_id)
    return MyData(
        profile=_mine(profile, contacts),
        registrations=[
            {k: v for k, v in e.items() if k not in ("pk", "sk", "gsi1pk", "gsi1sk", "wait_q")}
            for e in entries
        ],
        notifications=notifications(caller, limit=1000),
        privacy_notice=PRIVACY_NOTICE,
    )


def merge(caller: Caller, keep: str, merge_id: str, now: datetime) -> MyProfile:
    """Merge a duplicate account into `keep` (R1.1): its entries and sign-in move over."""
    if not caller.is_admin:
        raise Forbidden("Only platform admins may merge accounts.")
    if keep == merge_id:
        raise Invalid("keep and merge must be two different Tavla IDs.")
    kept, kept_contacts = store.get_profile_and_contacts(keep)
    merged, merged_contacts = store.get_profile_and_contacts(merge_id)
    store.merge(kept, merged, {**merged_contacts, **{k: v for k, v in kept_contacts.items() if v}}, now)
    profile, contacts = store.get_profile_and_contacts(keep)
    return _mine(profile, contacts)
