"""Audit records (who did what, when) written inside the transaction of the change itself."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from tavla.store import keys
from tavla.store.dynamo import serialize, table_name
from tavla.store.schema import MAIN


def audit_put(tournament_id: str, actor: str, action: str, at: datetime, **details: Any) -> dict[str, Any]:
    """A TransactWriteItems `Put` of one audit record for a tournament."""
    stamp = at.isoformat()
    item = {
        "pk": keys.tournament_pk(tournament_id),
        "sk": f"{keys.AUDIT_PREFIX}{stamp}#{uuid.uuid4().hex[:12]}",
        "actor": actor,
        "action": action,
        "at": stamp,
        "details": {k: v for k, v in details.items() if v is not None},
    }
    return {"Put": {"TableName": table_name(MAIN), "Item": serialize(item)}}
