"""Key formats of every table, in one place (the access patterns decide them).

Main table:
- a player's public profile ........ PLAYER#<tavla_id> / PROFILE
- a signed-in user's Tavla ID ....... USER#<sub> / IDENTITY
- a player's notifications ......... PLAYER#<tavla_id> / NOTE#<time>#<id>
- a notification given (once) ...... PLAYER#<tavla_id> / NOTIFIED#<id>
- a tournament ..................... TOURNAMENT#<id> / META (gsi1: TOURNAMENTS / <start>#<id>)
- a registration ................... TOURNAMENT#<id> / REG#<tavla_id> (gsi1: PLAYER#<tavla_id> / <start>#<id>)
- the waiting list ................. same items, LSI `waitlist` on wait_q (waiting only)
- a check-in code (unique) ......... CODE#<code> / CODE
- an audit record .................. TOURNAMENT#<id> / AUDIT#<time>#<id>
- the field fixed by the first draw  TOURNAMENT#<id> / FIELD
- a published draw ................. TOURNAMENT#<id> / ROUND#<nnn>
- a match (a fixture of a draw) .... TOURNAMENT#<id> / MATCH#<code>   (code: main.R2.3, main.S4.12 ...)
  attempt k >= 2 of a redrawn draw . TOURNAMENT#<id> / MATCH#<code>#<k> (staged unseen, shown
                                      once the tournament's `attempts` names k: decision 0047)
- the venue's tables ............... TOURNAMENT#<id> / TABLES
- the final standings (finish) ..... TOURNAMENT#<id> / STANDINGS
- category-prize eligibility, frozen
  by the finish (private, R11.4) .... TOURNAMENT#<id> / PRIZE_ELIGIBILITY
- an appeal (R9) ................... TOURNAMENT#<id> / APPEAL#<appeal id>  (the id holds the tournament's)
- a ledger entry (money, R3.3) ..... TOURNAMENT#<id> / LEDGER#<tavla_id>#<entry id>
                                      (gsi1: PAYER#<tavla_id> / <id>#<entry id>)
- a provider event, once (webhook) . TOURNAMENT#<id> / PROVIDER_EVENT#<provider>#<event id>
- an entry withdrawn (its ledger
  stays on the payments list) ...... TOURNAMENT#<id> / WITHDRAWN#<tavla_id>
- a winner's prize paid so far ..... TOURNAMENT#<id> / PAID_OUT#<tavla_id>  (the payouts' bound, R11.5)
- a bank statement line ............ TOURNAMENT#<id> / BANKLINE#<checksum>
- a statement's import and progress  TOURNAMENT#<id> / STATEMENT#<statement id>
- an organiser's CSV column mapping  USER#<sub> / STATEMENT_MAPPING
- a domain event not yet on the bus  OUTBOX#<event id> / EVENT  (written with its change; the
                                      table's stream moves it to the bus, then it is deleted)

- a player's rating history (R10.3)  PLAYER#<tavla_id> / RATING#<ledger key>
- the rating lists (R10.3) ........... the profile carries rating_list=NATIONAL, club, city and
                                       rating_key (GSIs ratings, ratings_club, ratings_city)
- the rating ledger, by month ....... LEDGER#<yyyy-mm> / <official_at UTC>#<match id>
- a rated match (applied once) ...... RATED#<match id> / RATED
- a season (R10.4) .................. SEASON#<id> / META
- a player's season entry ........... SEASON#<id> / PLAYER#<tavla_id>
- a tournament counted in a season .. SEASON#<id> / COUNTED#<tournament id>
- the season standings snapshot ..... SEASON#<id> / STANDINGS (which version, total, counted)
  and its pages ..................... SEASON#<id> / STANDINGS#<version>#<page>  (500 rows each)
- the Super Final (frozen list, seats)  SEASON#<id> / FINAL
- a Super Final invitation ........... SEASON#<id> / INVITE#<tavla_id>
  and the player's pointer to it ..... PLAYER#<tavla_id> / INVITE#<season id>
- where a player's table need is set  PLAYER#<tavla_id> / NEED#<tournament id>  (the need itself
                                       lives in that tournament's TABLES; private, R12)
- a tournament entered late (R5.5) .. PLAYER#<tavla_id> / LATE#<tournament id>  (a late entrant
                                       has no REG#: the field holds the entry)

- a platform role held (R1.3) ...... ROLE#<role> / USER#<sub>  (how many: ROLE#<role> / COUNT)
- a request to become an organiser . ORGANISER_REQUESTS / <tavla_id>
- the federation's own audit trail . FEDERATION_AUDIT / AUDIT#<time>#<id>
- a club of the federation ......... CLUBS / <club id>

Contacts table (private, R12):
- a player's contacts .............. CONTACTS#<tavla_id>
- a phone number's owner (unique) .. PHONE#<e164>  (one account per phone number)
- a browser's push subscription .... PUSH#<id>  (its endpoint, keys and owner; the owner's
                                       contacts list the ids in `push_subs`)
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

CALENDAR = "TOURNAMENTS"
REG_PREFIX = "REG#"
NOTE_PREFIX = "NOTE#"
AUDIT_PREFIX = "AUDIT#"
ROUND_PREFIX = "ROUND#"
MATCH_PREFIX = "MATCH#"
APPEAL_PREFIX = "APPEAL#"
LEDGER_PREFIX = "LEDGER#"
# ratings and the season
RATING_PREFIX = "RATING#"
SEASON_PLAYER_PREFIX = "PLAYER#"
INVITE_PREFIX = "INVITE#"
NEED_PREFIX = "NEED#"
LATE_PREFIX = "LATE#"
NATIONAL = "NATIONAL"


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def plain(key: dict[str, Any]) -> dict[str, str]:
    """A key as plain attributes, to spread into an item."""
    return {name: str(attribute["S"]) for name, attribute in key.items()}


def player_pk(tavla_id: str) -> str:
    return f"PLAYER#{tavla_id}"


def tournament_pk(tournament_id: str) -> str:
    return f"TOURNAMENT#{tournament_id}"


def profile(tavla_id: str) -> dict[str, Any]:
    return _key(player_pk(tavla_id), "PROFILE")


def identity(sub: str) -> dict[str, Any]:
    return _key(f"USER#{sub}", "IDENTITY")


def tournament(tournament_id: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), "META")


def registration(tournament_id: str, tavla_id: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), f"{REG_PREFIX}{tavla_id}")


def field(tournament_id: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), "FIELD")


def round_(tournament_id: str, number: int) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), f"{ROUND_PREFIX}{number:03d}")


def match(tournament_id: str, code: str, attempt: int = 1) -> dict[str, Any]:
    """A match of its draw's first attempt, or of attempt `attempt` of a redraw (its own key,
    so a redraw is written beside the published draw, not over it)."""
    suffix = f"#{attempt}" if attempt > 1 else ""
    return _key(tournament_pk(tournament_id), f"{MATCH_PREFIX}{code}{suffix}")


def tables(tournament_id: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), "TABLES")


def need_pointer(tavla_id: str, tournament_id: str) -> dict[str, Any]:
    return _key(player_pk(tavla_id), f"{NEED_PREFIX}{tournament_id}")


def live_gate(tournament_id: str) -> dict[str, Any]:
    """The tournament's live channel: its delta counter (`seq`, store.live_seq)."""
    return _key(f"LIVE#{tournament_id}", "GATE")


def late_pointer(tavla_id: str, tournament_id: str) -> dict[str, Any]:
    return _key(player_pk(tavla_id), f"{LATE_PREFIX}{tournament_id}")


def standings(tournament_id: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), "STANDINGS")


def prize_eligibility(tournament_id: str) -> dict[str, Any]:
    """R11.4: who was eligible for each category prize when the tournament finished."""
    return _key(tournament_pk(tournament_id), "PRIZE_ELIGIBILITY")


def appeal(tournament_id: str, appeal_id: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), f"{APPEAL_PREFIX}{appeal_id}")


def ledger_prefix(tavla_id: str | None = None) -> str:
    """All of a tournament's ledger entries, or one player's."""
    return f"{LEDGER_PREFIX}{tavla_id}#" if tavla_id else LEDGER_PREFIX


def ledger_entry(tournament_id: str, tavla_id: str, entry_id: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), f"{ledger_prefix(tavla_id)}{entry_id}")


def payer_pk(tavla_id: str) -> str:
    """gsi1 partition of a player's ledger entries across tournaments (GET /me/payments)."""
    return f"PAYER#{tavla_id}"


def provider_event(tournament_id: str, provider: str, event_id: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), f"PROVIDER_EVENT#{provider}#{event_id}")


WITHDRAWN_PREFIX = "WITHDRAWN#"


def withdrawn(tournament_id: str, tavla_id: str) -> dict[str, Any]:
    """A withdrawn entry, written with its withdrawal: the registration item is gone, but the
    treasurer still sees the player's ledger (what they paid, what is refunded)."""
    return _key(tournament_pk(tournament_id), f"{WITHDRAWN_PREFIX}{tavla_id}")


def paid_out(tournament_id: str, tavla_id: str) -> dict[str, Any]:
    """What a winner has been paid of their prize so far: every payout raises it under a
    condition, so payouts at once never pay more than was won."""
    return _key(tournament_pk(tournament_id), f"PAID_OUT#{tavla_id}")


def checkout(provider: str, session_id: str) -> dict[str, Any]:
    """A started checkout, found by the provider's session id alone (the webhook's only clue)."""
    return _key(f"CHECKOUT#{provider}#{session_id}", "CHECKOUT")


BANKLINE_PREFIX = "BANKLINE#"


def bank_line(tournament_id: str, checksum: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), f"{BANKLINE_PREFIX}{checksum}")


def statement(tournament_id: str, statement_id: str) -> dict[str, Any]:
    return _key(tournament_pk(tournament_id), f"STATEMENT#{statement_id}")


def statement_mapping(sub: str) -> dict[str, Any]:
    return _key(f"USER#{sub}", "STATEMENT_MAPPING")


OUTBOX_PREFIX = "OUTBOX#"


def notified(tavla_id: str, note_id: str) -> dict[str, Any]:
    """That a notice was given: an event delivered again (at another time) finds it."""
    return _key(player_pk(tavla_id), f"NOTIFIED#{note_id}")


def outbox(event_id: str) -> dict[str, Any]:
    """An event waiting for the publisher: its own partition, so writes of events never queue on one key."""
    return _key(f"{OUTBOX_PREFIX}{event_id}", "EVENT")


def checkin_code(code: str) -> dict[str, Any]:
    return _key(f"CODE#{code}", "CODE")


def by_start(starts_at: str, tournament_id: str) -> str:
    """gsi1 sort key: start time in UTC (string order is time order whatever the offset), then the id."""
    return f"{datetime.fromisoformat(starts_at).astimezone(UTC).isoformat()}#{tournament_id}"


def wait_q(sequence: int) -> str:
    """Waiting-list order key: zero-padded so string order is arrival order."""
    return f"{sequence:010d}"


def contacts(tavla_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"CONTACTS#{tavla_id}"}}


def phone_claim(phone: str) -> dict[str, Any]:
    return {"pk": {"S": f"PHONE#{phone}"}}


def push_subscription(subscription_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"PUSH#{subscription_id}"}}


# -- ratings and the season -------------------------------------------------------


def rating_step(tavla_id: str, ledger_key: str) -> dict[str, Any]:
    return _key(player_pk(tavla_id), f"{RATING_PREFIX}{ledger_key}")


def ledger_pk(ledger_key: str) -> str:
    """The ledger's month partition of a key (`2026-11-30T...#id` -> LEDGER#2026-11)."""
    return f"LEDGER#{ledger_key[:7]}"


def ledger(ledger_key: str) -> dict[str, Any]:
    return _key(ledger_pk(ledger_key), ledger_key)


def rated_match(match_id: str) -> dict[str, Any]:
    return _key(f"RATED#{match_id}", "RATED")


def rating_sort(rating: float, tavla_id: str) -> str:
    """The rating lists' sort key: string order is rating order (ratings above -100000)."""
    return f"{round((rating + 100_000) * 10_000):014d}#{tavla_id}"


def season_pk(season_id: str) -> str:
    return f"SEASON#{season_id}"


def season(season_id: str) -> dict[str, Any]:
    return _key(season_pk(season_id), "META")


def season_entry(season_id: str, tavla_id: str) -> dict[str, Any]:
    return _key(season_pk(season_id), f"{SEASON_PLAYER_PREFIX}{tavla_id}")


def season_counted(season_id: str, tournament_id: str) -> dict[str, Any]:
    return _key(season_pk(season_id), f"COUNTED#{tournament_id}")


def season_standings(season_id: str) -> dict[str, Any]:
    """The season standings snapshot's head: its version, total and counted tournaments."""
    return _key(season_pk(season_id), "STANDINGS")


def season_standings_page(season_id: str, version: int, page: int) -> dict[str, Any]:
    return _key(season_pk(season_id), f"STANDINGS#{version:09d}#{page:05d}")


def super_final(season_id: str) -> dict[str, Any]:
    """The Super Final: the list frozen at the season's close, its seats and counters."""
    return _key(season_pk(season_id), "FINAL")


def invitation(season_id: str, tavla_id: str) -> dict[str, Any]:
    return _key(season_pk(season_id), f"{INVITE_PREFIX}{tavla_id}")


def player_invitation(tavla_id: str, season_id: str) -> dict[str, Any]:
    """A player's pointer to their invitation of a season (GET /me/invitations)."""
    return _key(player_pk(tavla_id), f"{INVITE_PREFIX}{season_id}")


def seasons() -> dict[str, Any]:
    """The set of season ids that have counted a tournament (a merge visits each)."""
    return _key("SEASONS", "LIST")


# -- the federation: platform roles, organiser requests, clubs -------------------------

FEDERATION_AUDIT = "FEDERATION_AUDIT"
ORGANISER_REQUESTS = "ORGANISER_REQUESTS"
CLUBS = "CLUBS"


def role_pk(role: str) -> str:
    return f"ROLE#{role}"


def role_grant(role: str, sub: str) -> dict[str, Any]:
    return _key(role_pk(role), f"USER#{sub}")


def role_count(role: str) -> dict[str, Any]:
    """How many hold the role: the last admin is kept by a condition on it, not a read."""
    return _key(role_pk(role), "COUNT")


def organiser_request(tavla_id: str) -> dict[str, Any]:
    return _key(ORGANISER_REQUESTS, tavla_id)


def club(club_id: str) -> dict[str, Any]:
    return _key(CLUBS, club_id)
