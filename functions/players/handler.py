"""Player accounts: POST /players, /me, check-in pass, notifications, my data, erasure, public
profile, merge."""

from __future__ import annotations

from typing import Annotated

from tavla import clock, params
from tavla.contract import errors
from tavla.errors import (
    ClubNotFound,
    Conflict,
    EntriesOpen,
    ErasureNotConfirmed,
    Forbidden,
    Invalid,
    InvalidCursor,
    NotFound,
    PhoneTaken,
    PlayerNotFound,
    ProfileExists,
    ProfileMissing,
    RolesHeld,
)
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.models.players import (
    CheckinPass,
    Erasure,
    ErasureRequest,
    MergeRequest,
    MyData,
    MyProfile,
    Notification,
    PrivacyNotice,
    ProfileCreate,
    ProfileUpdate,
)
from tavla.models.push import PushKey, PushSubscriptionBody, PushSubscriptionId
from tavla.models.season import PlayerPage
from tavla.observability import entry
from tavla.services import players, push

app = make_resolver()


@app.post(
    "/players",
    security=SIGNED_IN,
    tags=["players"],
    status_code=201,
    responses=errors(ProfileExists, Invalid, PhoneTaken, ClubNotFound),
)
def create_profile(body: ProfileCreate) -> tuple[MyProfile, int]:
    """Create my player profile.

    Assigns my Tavla ID, the short ID staff type at the referee table (R1.1). One profile
    per signed-in user: a second one is a 409.
    """
    return players.create(caller(app), body, clock.now()), 201


@app.get("/me", security=SIGNED_IN, tags=["players"], responses=errors(ProfileMissing))
def get_me() -> MyProfile:
    """My profile.

    Public fields and my private ones (phone, e-mail, gender, birth year; R1.2).
    """
    return players.me(caller(app))


@app.patch(
    "/me",
    security=SIGNED_IN,
    tags=["players"],
    responses=errors(ProfileMissing, Invalid, PhoneTaken, Conflict, ClubNotFound),
)
def patch_me(body: ProfileUpdate) -> MyProfile:
    """Correct my profile.

    Only the fields sent change; `null` clears an optional field (R12.2).
    """
    return players.update_me(caller(app), body, clock.now())


@app.get("/me/checkin-pass", security=SIGNED_IN, tags=["players"], responses=errors(ProfileMissing))
def get_checkin_pass() -> CheckinPass:
    """My check-in pass.

    A signed, expiring token and its QR code, scanned at the referee table (R4.1).
    """
    return players.checkin_pass(caller(app), clock.now())


@app.get("/me/notifications", security=SIGNED_IN, tags=["players"], responses=errors(ProfileMissing))
def get_notifications() -> list[Notification]:
    """My notifications.

    The in-app feed, newest first: promotions from a waiting list and the like.
    """
    return players.notifications(caller(app))


@app.put(
    "/me/push-subscriptions",
    security=SIGNED_IN,
    tags=["players"],
    responses=errors(ProfileMissing, Invalid),
)
def put_push_subscription(body: PushSubscriptionBody) -> PushSubscriptionId:
    """Take my notices in this browser.

    The browser's Web Push subscription (`PushSubscription.toJSON()`); table calls, promotions,
    appeal decisions and payment reminders then reach it in my language. Saving the same one
    again changes nothing; at most 10 browsers per player.
    """
    return push.subscribe(caller(app), body, clock.now())


@app.delete(
    "/me/push-subscriptions/<subscription_id>",
    security=SIGNED_IN,
    tags=["players"],
    responses=errors(ProfileMissing, NotFound),
)
def delete_push_subscription(
    subscription_id: Annotated[str, params.Path(pattern=r"^[0-9a-f]{32}$")],
) -> PushSubscriptionId:
    """Take no more notices in that browser.

    Removing one already removed is done; another player's is not found.
    """
    return push.unsubscribe(caller(app), subscription_id)


@app.get("/push/key", tags=["players"])
def get_push_key() -> PushKey:
    """The stage's Web Push key.

    The VAPID public key a browser subscribes with (`applicationServerKey`).
    """
    return push.key()


@app.get("/me/data", security=SIGNED_IN, tags=["players"], responses=errors(ProfileMissing))
def get_my_data() -> MyData:
    """Everything held about me.

    Profile, private fields, entries, notifications and the privacy notice (R12.2).
    """
    return players.my_data(caller(app))


@app.post(
    "/me/erasure",
    security=SIGNED_IN,
    tags=["players"],
    responses=errors(ProfileMissing, ErasureNotConfirmed, EntriesOpen, RolesHeld),
)
def erase_me(body: ErasureRequest) -> Erasure:
    """Erase my account (GDPR Art. 17).

    Confirmed by typing my Tavla ID back. Contacts, consents, notices, push subscriptions,
    payer names and the sign-in are deleted; results and ratings stay under a pseudonym, so
    nobody else's rating or standing changes; money records stay, without contact data, for as
    long as the law keeps them (`kept` says until when). Refused while I am entered in a
    tournament that is not over, or hold a platform role. Asking again answers the same.
    """
    from tavla.services import erasure  # every store a player is in: loaded by this rare route

    return erasure.erase_me(caller(app), body.confirm, clock.now())


@app.get("/privacy", tags=["players"])
def get_privacy_notice() -> PrivacyNotice:
    """The data protection notice.

    What is public, what is private, who sees it and why, and how long each kind of personal
    data is kept (R12.2, GDPR Art. 13).
    """
    return players.privacy_notice()


@app.get("/players/<tavla_id>", tags=["players"], responses=errors(PlayerNotFound, InvalidCursor))
def get_player(
    tavla_id: Annotated[str, params.Path(max_length=32)],
    limit: Annotated[int, params.Query(ge=1, le=100)] = 100,
    before: Annotated[str | None, params.Query(min_length=1, max_length=400)] = None,
) -> PlayerPage:
    """A player's public profile.

    Name, club, city, rating (provisional during the first 30 rated matches) and the latest
    official matches with the rating before and after each and its K (R10.3), `limit` at a
    time: `history_next` is the cursor (`before`) of the older ones; never phone or e-mail
    (R12.1). A merged-away Tavla ID shows the account it was merged into.
    """
    return players.public_profile(tavla_id, limit, before)


@app.post(
    "/admin/players/merge",
    security=SIGNED_IN,
    tags=["admin"],
    responses=errors(Forbidden, PlayerNotFound, Conflict, Invalid),
)
def merge_players(body: MergeRequest) -> MyProfile:
    """Merge a duplicate account.

    The merged account's entries and sign-in move to the one kept (R1.1; platform admins
    only). Refused while both are entered in the same tournament.
    """
    return players.merge(caller(app), body.keep, body.merge, clock.now())


handler = entry(app)
