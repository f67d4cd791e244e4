"""Platform roles granted by the federation's admins (R1.3), and requests to become an organiser.

The platform's role records are the truth; the user pool's group follows them right after
the record changes, so a grant or a revocation reaches the user's next token (a token already
issued keeps its groups until it expires: at most an hour). Every change is audited. A user
pool call that fails after the record changed is repaired by asking again: the same PUT or
DELETE finds the record as asked and sets the group once more.

The local stack has no user pool (`USER_POOL_ID` unset): its token issuer reads the same
records when it mints a token, which is how the cloud's next token sees them.
"""

from __future__ import annotations

import os
from datetime import datetime
from functools import cache
from typing import Any

from tavla import aws, events
from tavla.caller import ADMINS, ORGANISERS, USER_POOL_ENV, Caller
from tavla.errors import Forbidden, Invalid
from tavla.models.federation import OrganiserRequestBody, OrganiserRequestView, RoleHolder, RoleState
from tavla.rules.model import Actor
from tavla.store import audit, outbox
from tavla.store import players as player_store
from tavla.store import roles as role_store
from tavla.store.roles import OrganiserRequest, RoleGrant

ROLES = (ORGANISERS, ADMINS)


@cache
def _cognito() -> Any:  # no type stubs for cognito-idp among the project's extras
    return aws.session().client("cognito-idp")


def _sync_group(sub: str, role: str, held: bool) -> None:
    """The user pool's group as the record says (the username of an e-mail sign-in is its sub)."""
    pool = os.environ.get(USER_POOL_ENV)
    if not pool:
        return
    if held:
        _cognito().admin_add_user_to_group(UserPoolId=pool, Username=sub, GroupName=role)
    else:
        _cognito().admin_remove_user_from_group(UserPoolId=pool, Username=sub, GroupName=role)


def _require_admin(caller: Caller) -> Actor:
    if not caller.is_admin:
        raise Forbidden("Only the federation's admins may do that.")
    return Actor(role="admin", tavla_id=player_store.tavla_id_or_none(caller.sub), sub=caller.sub)


def adopt_admin(caller: Caller, now: datetime) -> Actor:
    """An admin of the user pool acting for the first time is recorded as one (and counted):
    admins made by hand before the platform kept roles are the count's first members."""
    actor = _require_admin(caller)
    if not role_store.roles_of(caller.sub, [ADMINS]):
        grant = RoleGrant(role=ADMINS, sub=caller.sub, tavla_id=actor.tavla_id, granted_at=now.isoformat())
        role_store.grant(grant, audit.entry(actor, "role adopted", now, role=ADMINS))
    return actor


def _role(role: str) -> str:
    if role not in ROLES:
        raise Invalid(f"role: one of {', '.join(ROLES)}, not {role!r}.")
    return role


def _sub_of(tavla_id: str) -> str:
    profile = player_store.get_profile(tavla_id)
    if profile.merged_into or not profile.user_sub:
        raise Invalid(f"{tavla_id} has no sign-in of its own (merged or erased): name the account kept.")
    return profile.user_sub


def grant(caller: Caller, tavla_id: str, role: str, now: datetime) -> RoleState:
    actor = adopt_admin(caller, now)
    sub = _sub_of(tavla_id)
    record = audit.entry(actor, "role granted", now, role=_role(role), tavla_id=tavla_id)
    changed = role_store.grant(RoleGrant(role, sub, tavla_id, now.isoformat()), record)
    _sync_group(sub, role, held=True)
    return RoleState(tavla_id=tavla_id, role=role, held=True, changed=changed)


def revoke(caller: Caller, tavla_id: str, role: str, now: datetime) -> RoleState:
    """Revoke a role; the last admin is refused (LastAdmin), even when two revoke at once."""
    actor = adopt_admin(caller, now)
    sub = _sub_of(tavla_id)
    record = audit.entry(actor, "role revoked", now, role=_role(role), tavla_id=tavla_id)
    changed = role_store.revoke(role, sub, record)
    _sync_group(sub, role, held=False)
    return RoleState(tavla_id=tavla_id, role=role, held=False, changed=changed)


def holders(caller: Caller, role: str, now: datetime) -> list[RoleHolder]:
    adopt_admin(caller, now)
    return [RoleHolder(tavla_id=g.tavla_id, granted_at=g.granted_at) for g in role_store.holders(_role(role))]


def token_groups(sub: str) -> set[str]:
    """The platform roles a user's next token carries (the local stack's issuer asks)."""
    return role_store.roles_of(sub, ROLES)


# -- requests to become an organiser --------------------------------------------------------


def _view(request: OrganiserRequest) -> OrganiserRequestView:
    return OrganiserRequestView.model_validate({k: v for k, v in vars(request).items() if k != "sub"})


def request_organiser(caller: Caller, body: OrganiserRequestBody, now: datetime) -> OrganiserRequestView:
    """A player asks to organise; the admins hear of it in the app. One pending request at a time."""
    tavla_id = player_store.tavla_id_of(caller.sub)
    if caller.is_organiser:
        raise Invalid("You are an organiser already.")
    request = OrganiserRequest(
        tavla_id=tavla_id,
        sub=caller.sub,
        club=body.club,
        reason=body.reason,
        status="pending",
        requested_at=now.isoformat(),
    )
    event = outbox.Event(
        events.ORGANISER_REQUESTED,
        {"tavla_id": tavla_id, "club": body.club, "at": now.isoformat()},
    )
    if not role_store.put_request(request, [event]):
        return _view(role_store.get_request(tavla_id))  # the pending one stands
    return _view(request)


def requests(caller: Caller, status: str | None, now: datetime) -> list[OrganiserRequestView]:
    adopt_admin(caller, now)
    return [_view(r) for r in sorted(role_store.requests(status), key=lambda r: r.requested_at)]


def decide(
    caller: Caller, tavla_id: str, approve: bool, note: str | None, now: datetime
) -> OrganiserRequestView:
    """Approve (the organisers role is granted with it) or refuse; the player hears either way."""
    actor = adopt_admin(caller, now)
    request = role_store.get_request(tavla_id)
    status = "approved" if approve else "refused"
    grant = RoleGrant(ORGANISERS, request.sub, tavla_id, now.isoformat()) if approve else None
    event = outbox.Event(
        events.ORGANISER_REQUEST_DECIDED,
        {"tavla_id": tavla_id, "status": status, "at": now.isoformat()},
    )
    record = audit.entry(actor, f"organiser request {status}", now, tavla_id=tavla_id, note=note)
    role_store.decide_request(tavla_id, status, now.isoformat(), note, record, [event], grant)
    if approve:
        _sync_group(request.sub, ORGANISERS, held=True)
    return _view(role_store.get_request(tavla_id))
