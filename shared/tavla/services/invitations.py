"""The Super Final's invitations (R10.4, R5.7): sent from the list frozen at the season's close,
answered by each invited player by a deadline, passed down the list on a decline or a missed
deadline.

The close (`services.season.close_season`, the season's schedule) freezes the standings' top
`super_final_size` and the next `super_final_reserves` players with their places, points and
starting lives (`store.invitations`); nothing later (a tournament counted late, a rebuild)
changes that list. `fill_seats` invites the next player on it into each open seat, one
transaction each (`SuperFinalInvited` with it): notify tells the player, and the season
function schedules the deadline (`season-invite-...`, a one-time schedule, on itself). A
decline (the player's request) or the deadline (`expire`, the schedule, fired twice or late:
conditional on the invitation still pending) opens the seat again with `SuperFinalSeatPassed`,
and the seat goes to the next on the list. An answer deletes its deadline's schedule (one that
fires all the same finds the answer and does nothing). Every step is conditional on what it read, so
concurrent answers and passings-on never invite twice for one seat nor accept more players
than there are seats.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from botocore.exceptions import BotoCoreError, ClientError

from tavla import events, schedules
from tavla.caller import Caller
from tavla.errors import (
    Forbidden,
    InvitationAnswered,
    InvitationClosed,
    InvitationNotFound,
    SeasonNotClosed,
    SeasonNotFound,
    SuperFinalFull,
)
from tavla.models.season import (
    FinalPlayer,
    Invitation,
    InvitationList,
    SuperFinalAttendance,
    SuperFinalReplies,
)
from tavla.observability import logger
from tavla.rules.season import SeasonSettings
from tavla.rules.season_table import SeasonRow
from tavla.store import invitations as store
from tavla.store import outbox
from tavla.store import players as player_store
from tavla.store import season as season_store
from tavla.store.records import InvitationRecord, SeasonRecord, SuperFinalRecord

TARGET = "season"  # the registry function the deadlines' schedules invoke
MAX_ROUNDS = 200  # invitations one fill may send (a seat per round, a few retries)


def utc(moment: datetime) -> str:
    """Times as stored and compared by the conditions: UTC ISO text (string order = time order)."""
    return moment.astimezone(UTC).isoformat()


def frozen(season_id: str, rows: Sequence[SeasonRow], settings: SeasonSettings) -> SuperFinalRecord:
    """The list frozen at the close: the invited and the reserves, with their starting lives."""
    scoring = [r for r in rows if r.points > 0][: settings.super_final_size + settings.super_final_reserves]
    return SuperFinalRecord(
        season_id=season_id,
        seats=settings.super_final_size,
        rows=tuple(
            {
                "tavla_id": r.player_id,
                "place": r.place,
                "points": r.points,
                "lives": settings.final_lives.lives_for(r.place),
            }
            for r in scoring
        ),
        reply_days=settings.invitation_reply_days,
        open=min(settings.super_final_size, len(scoring)),
    )


def _invited_event(invitation: InvitationRecord, reserve: bool) -> outbox.Event:
    return outbox.Event(
        events.SUPER_FINAL_INVITED,
        {
            "season_id": invitation.season_id,
            "at": invitation.invited_at,
            "reserve": reserve,
            "invited": [
                {
                    "tavla_id": invitation.tavla_id,
                    "place": invitation.place,
                    "lives": invitation.lives,
                    "reply_by": invitation.reply_by,
                }
            ],
        },
        key=f"{invitation.season_id}/{invitation.tavla_id}",
    )


def _accepted(season_id: str, tavla_id: str, at: str) -> outbox.Event:
    return outbox.Event(
        events.SUPER_FINAL_ACCEPTED,
        {"season_id": season_id, "tavla_id": tavla_id, "at": at},
        key=f"{season_id}/{tavla_id}",
    )


def fill_seats(season_id: str, now: datetime) -> list[str]:
    """Invite the next players on the frozen list into the open seats; the players invited."""
    invited: list[str] = []
    for _ in range(MAX_ROUNDS):
        final = store.head(season_id)
        if final is None or final.open <= 0 or final.next >= len(final.rows):
            return invited
        row = final.rows[final.next]
        invitation = InvitationRecord(
            season_id=season_id,
            tavla_id=str(row["tavla_id"]),
            order=final.next,
            place=int(row["place"]),
            lives=int(row["lives"]),
            status=store.PENDING,
            invited_at=utc(now),
            reply_by=utc(now + timedelta(days=final.reply_days)),
        )
        try:
            store.invite(final, invitation, [_invited_event(invitation, final.next >= final.seats)])
        except store.SeatTaken:
            continue  # another writer invited meanwhile: read the head again
        invited.append(invitation.tavla_id)
    return invited


def deadline_name(season_id: str, tavla_id: str, reply_by: str) -> str:
    return schedules.schedule_name("season-invite", season_id, tavla_id, reply_by[:19].replace(":", "."))


def schedule_deadlines(detail: Mapping[str, Any], now: datetime) -> list[str]:
    """`SuperFinalInvited` -> one schedule per invitation at its deadline (on the season function);
    a deadline already past is applied at once. Idempotent (one name per deadline)."""
    season_id = str(detail["season_id"])
    outcomes = []
    for i in detail.get("invited") or ():
        if not i.get("reply_by"):
            continue
        at = datetime.fromisoformat(str(i["reply_by"]))
        payload = {"invitation_deadline": {"season_id": season_id, "tavla_id": str(i["tavla_id"])}}
        if at <= now:
            outcomes.append(expire(payload["invitation_deadline"], now))
            continue
        schedules.create_once(
            deadline_name(season_id, str(i["tavla_id"]), str(i["reply_by"])), at, TARGET, payload
        )
        outcomes.append("scheduled")
    return outcomes


def drop_deadline(invitation: InvitationRecord) -> None:
    """An answered invitation's deadline schedule is deleted: it has nothing left to do. A
    deletion that fails is only logged: the schedule, when it fires, finds the answer and
    changes nothing (`expire`)."""
    name = deadline_name(invitation.season_id, invitation.tavla_id, invitation.reply_by)
    try:
        schedules.delete(name)
    except (BotoCoreError, ClientError):
        logger.warning("invitation deadline schedule left to fire", extra={"schedule": name})


def _passed(season_id: str, tavla_id: str, reason: str, at: str) -> outbox.Event:
    return outbox.Event(
        events.SUPER_FINAL_SEAT_PASSED,
        {"season_id": season_id, "tavla_id": tavla_id, "reason": reason, "at": at},
        key=f"{season_id}/{tavla_id}/passed",
    )


def expire(target: Mapping[str, Any], now: datetime) -> str:
    """An invitation's deadline (its schedule): still unanswered -> expired, the seat passed on.
    Fired early, late, twice or after an answer: at most one expiry, never a second seat."""
    season_id, tavla_id = str(target["season_id"]), str(target["tavla_id"])
    invitation = store.get(season_id, tavla_id)
    if invitation is None:
        return "no_invitation"
    if invitation.status != store.PENDING:
        return "answered"
    if utc(now) < invitation.reply_by:
        return "not_yet"
    try:
        store.answer(
            season_id, tavla_id, store.EXPIRED, utc(now), [_passed(season_id, tavla_id, "expired", utc(now))]
        )
    except store.NotPending:
        return "answered"
    fill_seats(season_id, now)
    return "expired"


def _player_id(caller: Caller) -> str | None:
    return player_store.tavla_id_or_none(caller.sub)


def _view(
    record: InvitationRecord,
    names: Mapping[str, str],
    season: SeasonRecord | None = None,
    seats: int | None = None,
) -> Invitation:
    return Invitation(
        season_id=record.season_id,
        season_name=season.name if season else None,
        tavla_id=record.tavla_id,
        name=names.get(record.tavla_id),
        place=record.place,
        lives=record.lives,
        status=record.status,
        invited_at=record.invited_at,
        reply_by=record.reply_by,
        answered_at=record.answered_at,
        reserve=seats is not None and record.order >= seats,
    )


def _names(tavla_ids: Sequence[str]) -> dict[str, str]:
    profiles = player_store.get_profiles(list(set(tavla_ids))) if tavla_ids else {}
    return {p: r.name for p, r in profiles.items()}


def mine(caller: Caller) -> InvitationList:
    """The caller's Super Final invitations, the latest first."""
    tavla_id = _player_id(caller)
    if tavla_id is None:
        return InvitationList(invitations=[])
    found = store.of_player(tavla_id)
    ids = sorted({r.season_id for r in found})
    seasons = {s.id: s for s in season_store.get_many(ids)} if found else {}
    finals = store.heads(ids)  # a reserve's card says so: the seats are the frozen list's
    names = _names([tavla_id])
    return InvitationList(
        invitations=[
            _view(
                r,
                names,
                seasons.get(r.season_id),
                finals[r.season_id].seats if r.season_id in finals else None,
            )
            for r in found
        ]
    )


def reply(caller: Caller, season_id: str, answer: Literal["accept", "decline"], now: datetime) -> Invitation:
    """The invited player's answer, before the deadline. The same answer again is the same
    answer (200); the other one after it, or any after the deadline, is refused (409)."""
    tavla_id = _player_id(caller)
    invitation = store.get(season_id, tavla_id) if tavla_id else None
    if invitation is None or tavla_id is None:
        raise InvitationNotFound(f"You hold no invitation to the Super Final of season {season_id}.")
    wanted = store.ACCEPTED if answer == "accept" else store.DECLINED
    at = utc(now)
    if invitation.status == store.PENDING and at < invitation.reply_by:
        event = [
            _accepted(season_id, tavla_id, at)
            if wanted == store.ACCEPTED
            else _passed(season_id, tavla_id, "declined", at)
        ]
        try:
            store.answer(season_id, tavla_id, wanted, at, event)
        except store.FinalFull as full:
            raise SuperFinalFull(f"Every seat of the Super Final of season {season_id} is taken.") from full
        except store.NotPending:
            pass  # answered meanwhile (a second tab, the deadline): what stands is read below
        else:
            drop_deadline(invitation)
        if wanted == store.DECLINED:
            fill_seats(season_id, now)
        invitation = store.get(season_id, tavla_id) or invitation
    if invitation.status == wanted:
        return _view(invitation, _names([tavla_id]))
    if invitation.status == store.EXPIRED or (
        invitation.status == store.PENDING and at >= invitation.reply_by
    ):
        raise InvitationClosed(f"The deadline to answer passed at {invitation.reply_by}.")
    raise InvitationAnswered(f"You {invitation.status} this invitation already.")


def season_and_final(season_id: str) -> tuple[SeasonRecord, SuperFinalRecord]:
    season = season_store.get(season_id)
    if season is None:
        raise SeasonNotFound(f"No season {season_id}.")
    final = store.head(season_id)
    if final is None:
        raise SeasonNotClosed(f"Season {season_id} has not closed: its Super Final list is not frozen yet.")
    return season, final


def is_final_staff(caller: Caller, season: SeasonRecord) -> bool:
    """Admins and the season's Super Final organiser."""
    return caller.is_admin or (season.organiser is not None and _player_id(caller) == season.organiser)


def _players(
    final: SuperFinalRecord, wanted: Sequence[str], profiles: Mapping[str, Any]
) -> list[FinalPlayer]:
    rows = {str(r["tavla_id"]): (n, r) for n, r in enumerate(final.rows)}
    out = []
    for p in wanted:
        (order, r), profile = rows[p], profiles.get(p)
        out.append(
            FinalPlayer(
                tavla_id=p,
                name=profile.name if profile else None,
                club=profile.club if profile else None,
                place=int(r["place"]),
                points=int(r["points"]),
                lives=int(r["lives"]),
                reserve=order >= final.seats,
            )
        )
    return out


def attendance(season_id: str) -> SuperFinalAttendance:
    """Who comes (public): the players who accepted, in season order, and the champion. Before
    the close nobody is invited yet: the seats, and `frozen` false."""
    season = season_store.get(season_id)
    if season is None:
        raise SeasonNotFound(f"No season {season_id}.")
    final = store.head(season_id)
    if final is None:
        seats = SeasonSettings.model_validate(season.settings).super_final_size
        return SuperFinalAttendance(season_id=season_id, seats=seats, accepted=[], frozen=False)
    return _replies(final, staff=False)


def replies(caller: Caller, season_id: str) -> SuperFinalReplies:
    """Every invitation with its answer or deadline, and the reserves (the final's organiser, admins)."""
    season, final = season_and_final(season_id)
    if not is_final_staff(caller, season):
        raise Forbidden("Only the Super Final's organiser and platform admins see the replies.")
    found = _replies(final, staff=True)
    assert isinstance(found, SuperFinalReplies)
    return found


def _replies(final: SuperFinalRecord, *, staff: bool) -> SuperFinalAttendance:
    invitations = store.of_season(final.season_id)
    accepted = [i.tavla_id for i in invitations if i.status == store.ACCEPTED]
    reserves = [str(r["tavla_id"]) for r in final.rows[final.next :]]
    shown = [*accepted, *([final.champion] if final.champion else [])]
    if staff:
        shown += [i.tavla_id for i in invitations] + reserves
    profiles = player_store.get_profiles(sorted(set(shown))) if shown else {}
    base = {
        "season_id": final.season_id,
        "seats": final.seats,
        "accepted": _players(final, accepted, profiles),
        "tournament_id": final.tournament_id,
        "champion": _players(final, [final.champion], profiles)[0] if final.champion else None,
    }
    if not staff:
        return SuperFinalAttendance(**base)
    names = {p: r.name for p, r in profiles.items()}

    def having(status: str) -> list[Invitation]:
        return [_view(i, names, seats=final.seats) for i in invitations if i.status == status]

    return SuperFinalReplies(
        **base,
        declined=having(store.DECLINED),
        expired=having(store.EXPIRED),
        pending=having(store.PENDING),
        reserves=_players(final, reserves, profiles),
    )


def remind(caller: Caller, season_id: str, now: datetime) -> SuperFinalReplies:
    """Tell the players still to answer again (admins): the same notice, the same deadline."""
    if not caller.is_admin:
        raise Forbidden("Only platform admins may send the Super Final invitations.")
    _, final = season_and_final(season_id)
    waiting = [i for i in store.of_season(season_id) if i.status == store.PENDING and utc(now) < i.reply_by]
    if waiting:
        outbox.write(
            [
                outbox.Event(
                    events.SUPER_FINAL_INVITED,
                    {**_invited_event(i, i.order >= final.seats).detail, "reminder": True},
                    key=f"{season_id}/{i.tavla_id}/{utc(now)}",
                )
                for i in waiting
            ]
        )
    return replies(caller, season_id)
