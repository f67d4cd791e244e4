"""Player accounts (R1, R12): one Tavla ID per person, public and private fields kept apart."""

from __future__ import annotations

import base64
import json
import random
from dataclasses import asdict
from datetime import datetime
from typing import Any

from tavla import events, ids, passes, phones
from tavla.caller import Caller
from tavla.errors import Conflict, Forbidden, Invalid, InvalidCursor
from tavla.models.players import (
    CheckinPass,
    Consent,
    MyData,
    MyProfile,
    Notification,
    PrivacyNotice,
    ProfileCreate,
    ProfileUpdate,
    PublicProfile,
    RetentionPeriod,
    TableNeed,
)
from tavla.models.season import PlayerPage, RatingLine
from tavla.rules import privacy
from tavla.rules.rating import PROVISIONAL_MATCHES, START_RATING
from tavla.store import notifications as notification_store
from tavla.store import outbox
from tavla.store import payments as payment_store
from tavla.store import players as player_store
from tavla.store import ratings as rating_store
from tavla.store import registrations as registration_store
from tavla.store.records import ContactsRecord, ProfileRecord

PUBLIC = ("name", "club", "club_id", "city")
PRIVATE = ("phone", "email", "gender", "birth_year", "notify_by_email", "language", "sms_opt_in")
# the channels a player consents to (GDPR Art. 7): the choice -> when it was made
CONSENT_TIMES = {"sms_opt_in": "sms_opt_in_at", "notify_by_email": "notify_by_email_at"}
_CHANNELS = {"sms_opt_in": "sms", "notify_by_email": "email"}
_system_random = random.SystemRandom()
HISTORY_SHOWN = 100  # the latest official matches on a player's page


def _public(profile: ProfileRecord) -> PublicProfile:
    return PublicProfile.model_validate(asdict(profile))


def _mine(profile: ProfileRecord, contacts: ContactsRecord) -> MyProfile:
    private = {k: getattr(contacts, k) for k in (*PRIVATE, *CONSENT_TIMES.values())}
    return MyProfile.model_validate({**asdict(profile), **private})


def _private_fields(body: ProfileCreate | ProfileUpdate, now: datetime) -> dict[str, Any]:
    given = body.model_dump(include=set(PRIVATE), exclude_unset=True)
    if given.get("phone"):
        given["phone"] = phones.normalise(given["phone"])
    for choice, at in CONSENT_TIMES.items():  # each choice is recorded with its time (consent)
        if choice in given:
            given[at] = now.isoformat()
    return given


def create(
    caller: Caller, body: ProfileCreate, now: datetime, rng: random.Random = _system_random
) -> MyProfile:
    """Create the caller's profile with a fresh Tavla ID; a second one is refused (R1.1),
    and so is a phone number another account holds."""
    # The federation's clubs (their service, models and roles) are read by the writes that
    # name a club, not by every request of the players function (cold start).
    from tavla.services import clubs

    chosen = clubs.profile_fields(body.model_dump(include=set(PUBLIC), exclude_unset=True))
    public = {k: v for k, v in chosen.items() if v is not None}
    private = {k: v for k, v in _private_fields(body, now).items() if v is not None}
    for _ in range(8):
        tavla_id = ids.tavla_id(rng)
        profile = ProfileRecord(
            tavla_id=tavla_id, created_at=now.isoformat(), rating=START_RATING, rated_matches=0, **public
        )
        contacts = ContactsRecord(tavla_id=tavla_id, **private)
        try:
            player_store.create(caller.sub, profile, contacts)
        except player_store.TavlaIdTaken:
            continue
        return _mine(profile, contacts)
    raise RuntimeError("could not draw a free Tavla ID in 8 tries")  # pragma: no cover - 2e10 ids


def me(caller: Caller) -> MyProfile:
    profile, contacts = player_store.get_profile_and_contacts(player_store.tavla_id_of(caller.sub))
    return _mine(profile, contacts)


def update_me(caller: Caller, body: ProfileUpdate, now: datetime) -> MyProfile:
    tavla_id = player_store.tavla_id_of(caller.sub)
    from tavla.services import clubs  # as in create

    public = clubs.profile_fields(body.model_dump(include=set(PUBLIC), exclude_unset=True))
    if "name" in public and public["name"] is None:
        raise Invalid("name: a player needs a name.")
    private = _private_fields(body, now)
    old_phone = None
    if "phone" in private:
        old_phone = player_store.get_profile_and_contacts(tavla_id)[1].phone
    player_store.update(tavla_id, public, private, old_phone)
    return me(caller)


def _history_cursor(tavla_id: str, key: str) -> str:
    payload = json.dumps({"p": tavla_id, "k": key}, separators=(",", ":"))
    return base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")


def _history_key(cursor: str, tavla_id: str) -> str:
    try:
        payload = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
        key = payload["k"]
        ok = payload["p"] == tavla_id and isinstance(key, str) and "#" in key
    except (ValueError, TypeError, KeyError) as error:
        raise InvalidCursor("This history cursor is not from this player's page: start again.") from error
    if not ok:
        raise InvalidCursor("This history cursor is not from this player's page: start again.")
    return str(key)


def public_profile(tavla_id: str, limit: int = HISTORY_SHOWN, before: str | None = None) -> PlayerPage:
    """A player's public page: profile, rating, provisional or not, the latest official matches
    with the rating before and after each (R10.3, R12.1), older ones page by page
    (`history_next`); a merged-away Tavla ID shows the account it was merged into."""
    profile = player_store.get_profile(tavla_id.upper())
    if profile.merged_into:
        profile = player_store.get_profile(profile.merged_into)
    key = _history_key(before, profile.tavla_id) if before else None
    lines, last = rating_store.history_page(profile.tavla_id, limit, key)
    return PlayerPage(
        **_public(profile).model_dump(),
        provisional=profile.rated_matches < PROVISIONAL_MATCHES,
        history=[RatingLine(**s.model_dump(), official_at=s.key.split("#", 1)[0]) for s in lines],
        history_next=_history_cursor(profile.tavla_id, last) if last else None,
    )


def checkin_pass(caller: Caller, now: datetime) -> CheckinPass:
    tavla_id = player_store.tavla_id_of(caller.sub)
    token, expires = passes.issue(tavla_id, now, passes.signing_key())
    return CheckinPass(
        tavla_id=tavla_id, token=token, expires_at=expires.isoformat(), qr_svg=passes.qr_svg(token)
    )


def notifications(caller: Caller, limit: int = 50) -> list[Notification]:
    tavla_id = player_store.tavla_id_of(caller.sub)
    return [Notification.model_validate(asdict(n)) for n in notification_store.latest(tavla_id, limit)]


def _retention() -> list[RetentionPeriod]:
    """Each period as `rules.privacy` sets it: the notice states what the purge job does."""
    periods = privacy.Periods.from_env()
    money = [
        RetentionPeriod(
            kind="money_records",
            federation=federation,
            data=f"money records of tournaments under {federation} rules (entry fees, refunds, prizes), "
            "without contact data",
            years=kept.years,
            after="the year of the payment",
            then="may be deleted; the platform keeps them until the federation does",
            source=kept.source,
        )
        for federation, kept in privacy.MONEY_RECORDS.items()
    ]
    return [
        RetentionPeriod(
            kind="contacts",
            data="phone, e-mail, gender, birth year and message consents",
            days=periods.inactive_contacts,
            after="your last tournament entry",
            then="deleted; your profile, results and rating stay",
        ),
        RetentionPeriod(
            kind="matched_payer",
            data="the payer's name and text of a bank transfer",
            days=periods.matched_payer,
            after="the transfer is matched to your entry",
            then="deleted; the amount and date stay as a money record",
        ),
        RetentionPeriod(
            kind="notifications",
            data="your notices (the in-app feed)",
            days=periods.notifications,
            after="the notice was sent",
            then="deleted",
        ),
        RetentionPeriod(
            kind="audit_details",
            data="details of the audit trail (what a change said, the sign-in that made it)",
            days=periods.audit_details,
            after="the change",
            then="deleted; who did what and when stays",
        ),
        *money,
        RetentionPeriod(
            kind="erased_account",
            data="name, club, city, results and rating",
            after="your account is erased",
            then="results and rating stay under a pseudonym; name, club and city are deleted",
            source="GDPR Art. 17(3)(d) and the federations' archives of official results",
        ),
    ]


def privacy_notice() -> PrivacyNotice:
    return PrivacyNotice(
        controller="The federation or club running the tournament, through the Tavla platform.",
        public=["name", "club", "city", "results", "ranking", "rating"],
        private=list(PRIVATE),
        who_sees_private_data="Phone and e-mail are shown only to the organisers and referees of a "
        "tournament you entered (R12.1); gender and birth year only decide category-prize eligibility, "
        "which is the only thing shown about them.",
        why="To run the tournaments you enter: registration, check-in, table calls, results, "
        "ratings, season points and prizes. SMS and e-mail only with your consent, which you "
        "withdraw with one tap on your profile.",
        your_rights="GET /me/data shows everything held about you, as JSON; PATCH /me corrects it; "
        "POST /me/erasure deletes your account (your results stay under a pseudonym).",
        retention=_retention(),
    )


def my_data(caller: Caller) -> MyData:
    """Everything held about the caller (GDPR Art. 15 and 20, R12.2): profile, private fields,
    consents with their times, entries, money records, messages."""
    tavla_id = player_store.tavla_id_of(caller.sub)
    profile, contacts = player_store.get_profile_and_contacts(tavla_id)
    entries = registration_store.of_player(tavla_id)
    consents = [
        Consent(channel=_CHANNELS[choice], given=bool(getattr(contacts, choice)), at=getattr(contacts, at))
        for choice, at in CONSENT_TIMES.items()
    ]
    return MyData(
        profile=_mine(profile, contacts),
        registrations=[{k: v for k, v in asdict(e).items() if v is not None} for e in entries],
        notifications=notifications(caller, limit=1000),
        consents=consents,
        payments=[
            {k: v for k, v in asdict(e).items() if v is not None} for e in payment_store.of_payer(tavla_id)
        ],
        table_needs=_table_needs(tavla_id, [e.tournament_id for e in entries]),
        privacy_notice=privacy_notice(),
    )


def _table_needs(tavla_id: str, entered: list[str]) -> list[TableNeed]:
    from tavla.rules.venue import ACCESSIBLE
    from tavla.services import hall  # the day's whole model: only this rare request needs it

    return [
        TableNeed(tournament_id=t, accessible=ACCESSIBLE in needs)
        for t, needs in hall.needs_of(tavla_id, entered).items()
    ]


def merge(caller: Caller, keep: str, merge_id: str, now: datetime) -> MyProfile:
    """Merge a duplicate account into `keep` (R1.1): its entries, sign-in and phone move over.

    Refused when both players are entered in the same tournament: a referee decides which
    entry stays before the merge.
    """
    if not caller.is_admin:
        raise Forbidden("Only platform admins may merge accounts.")
    if keep == merge_id:
        raise Invalid("keep and merge must be two different Tavla IDs.")
    kept, kept_contacts = player_store.get_profile_and_contacts(keep)
    merged, merged_contacts = player_store.get_profile_and_contacts(merge_id)
    kept_tournaments = {r.tournament_id for r in registration_store.of_player(keep)}
    moving = registration_store.of_player(merge_id)
    clash = [r.tournament_id for r in moving if r.tournament_id in kept_tournaments]
    if clash:
        raise Conflict(f"Both players are entered in tournament {clash[0]}: withdraw one entry first.")
    contacts = ContactsRecord(
        tavla_id=keep,
        **{k: getattr(kept_contacts, k) or getattr(merged_contacts, k) for k in PRIVATE},
    )
    # ratings and season points follow the merge (R1.1), off this request
    merge_event = outbox.Event(
        events.PLAYERS_MERGED, {"keep": keep, "merged": merge_id, "at": now.isoformat()}
    )
    player_store.merge(kept, merged, moving, merged_contacts, contacts, now, [merge_event])
    profile, contacts = player_store.get_profile_and_contacts(keep)
    return _mine(profile, contacts)
