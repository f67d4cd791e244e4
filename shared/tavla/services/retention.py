"""The retention purge (R12, GDPR Art. 5(1)(e)): what has been kept as long as `rules.privacy`
says is deleted, and nothing else.

- contacts (phone, e-mail, gender, birth year, consents) of a player whose last entry, profile
  creation and consent choice are all older than the inactivity period; profile and results stay;
- the payer's name and text of a statement line matched to an entry;
- notices of the in-app feed;
- the details (and the sign-in) of audit records; who did what and when stays.

Money records are never purged here: the federation's law keeps them (`privacy.MONEY_RECORDS`).
Each step is safe to repeat: a run that stops half-way is finished by the next.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime

from tavla.frozen import Frozen
from tavla.rules import privacy
from tavla.store import erasure as erasure_store
from tavla.store import retention as retention_store
from tavla.store.records import ContactsRecord


@dataclass(frozen=True, eq=False, repr=False)
class Purged(Frozen):
    contacts: int
    payers: int
    notices: int
    audit_details: int

    def summary(self) -> dict[str, int]:
        return asdict(self)


def _last_active(contacts: ContactsRecord) -> str:
    """The latest of: the last tournament entered, the profile's creation, a consent choice."""
    seen = [
        retention_store.last_entry_start(contacts.tavla_id),
        retention_store.created_at(contacts.tavla_id),
        contacts.sms_opt_in_at,
        contacts.notify_by_email_at,
    ]
    return max(s for s in seen if s) if any(seen) else ""


def purge(now: datetime, periods: privacy.Periods | None = None) -> Purged:
    """Delete what is due at `now` under `periods` (the deployment's, by default)."""
    cutoffs = (periods or privacy.Periods.from_env()).cutoffs(now)
    inactive_before = cutoffs.last_entry_before.isoformat()
    contacts = sum(
        retention_store.delete_contacts(c)
        for c in retention_store.every_contacts()
        if _last_active(c) < inactive_before
    )
    due = retention_store.due(
        notified_before=cutoffs.notified_before.isoformat(),
        matched_before=cutoffs.matched_before.isoformat(),
        audited_before=cutoffs.audited_before.isoformat(),
    )
    retention_store.delete_notices(due.notices)
    for line in due.payers:
        erasure_store.forget_payer(line)
    for record in due.audits:
        retention_store.strip_audit(record)
    return Purged(
        contacts=contacts, payers=len(due.payers), notices=len(due.notices), audit_details=len(due.audits)
    )
