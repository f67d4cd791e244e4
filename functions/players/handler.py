"""Player accounts: POST /players, /me, check-in pass, notifications, my data, public profile, merge."""

from __future__ import annotations

from typing import Annotated, Any

from aws_lambda_powertools.event_handler.openapi.params import Path

from tavla import clock
from tavla.http import SIGNED_IN, caller, make_resolver
from tavla.models.players import (
    CheckinPass,
    MergeRequest,
    MyProfile,
    Notification,
    ProfileCreate,
    ProfileUpdate,
    PublicProfile,
)
from tavla.observability import entry
from tavla.services import players

app = make_resolver()


@app.post("/players", security=SIGNED_IN, tags=["players"], status_code=201)
def create_profile(body: ProfileCreate) -> tuple[MyProfile, int]:
    """Create my player profile; assigns my Tavla ID (R1.1)."""
    return players.create(caller(app), body, clock.now()), 201


@app.get("/me", security=SIGNED_IN, tags=["players"])
def get_me() -> MyProfile:
    return players.me(caller(app))


@app.patch("/me", security=SIGNED_IN, tags=["players"])
def patch_me(body: ProfileUpdate) -> MyProfile:
    return players.update_me(caller(app), body)


@app.get("/me/checkin-pass", security=SIGNED_IN, tags=["players"])
def get_checkin_pass() -> CheckinPass:
    """My signed, expiring check-in token and its QR code (R4.1)."""
    return players.checkin_pass(caller(app), clock.now())


@app.get("/me/notifications", security=SIGNED_IN, tags=["players"])
def get_notifications() -> list[Notification]:
    return players.notifications(caller(app))


@app.get("/me/data", security=SIGNED_IN, tags=["players"])
def get_my_data() -> dict[str, Any]:
    """Everything held about me (R12.2)."""
    return players.my_data(caller(app))


@app.get("/privacy", tags=["players"])
def get_privacy_notice() -> dict[str, Any]:
    """The data protection notice (R12.2): what is public, what is private, who sees it."""
    return players.PRIVACY_NOTICE


@app.get("/players/<tavla_id>", tags=["players"])
def get_player(tavla_id: Annotated[str, Path(max_length=32)]) -> PublicProfile:
    """A player's public profile: never phone or e-mail (R12.1)."""
    return players.public_profile(tavla_id)


@app.post("/admin/players/merge", security=SIGNED_IN, tags=["admin"])
def merge_players(body: MergeRequest) -> MyProfile:
    """Merge a duplicate account into the one kept (R1.1; admins only)."""
    return players.merge(caller(app), body.keep, body.merge, clock.now())


handler = entry(app)
