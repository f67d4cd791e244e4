# ruff: noqa: RUF001  (Greek letters are the point: the catalogue speaks Greek)
"""What a notice says, in the player's language: one message catalogue per language (el, en,
it), never an English sentence sent to a Greek player.

A notice is a kind and its fields; `render` picks the player's language (their profile's
`language`, else the tournament's federation's: hbf -> el, cnb -> it, anything else el), and
shows a moment (a deadline) as the venue's clock reads it, 24-hour, never as a UTC stamp.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

Language = Literal["el", "en", "it"]
LANGUAGES: tuple[Language, ...] = ("el", "en", "it")
DEFAULT: Language = "el"
FEDERATION_LANGUAGE: Mapping[str, Language] = {"hbf": "el", "cnb": "it"}
# where a notice without a venue of its own (a season's invitation) tells the time
FEDERATION_ZONE: Mapping[str, str] = {"hbf": "Europe/Athens", "cnb": "Europe/Rome"}
DEFAULT_ZONE = "Europe/Athens"
MOMENTS = frozenset({"deadline", "reply_by"})  # fields that hold an ISO instant

TABLE_CALL = "table_call"
PROMOTED = "promoted"
APPEAL_DECIDED = "appeal_decided"
NOSHOW = "noshow"
NOSHOW_NOBODY = "noshow_nobody"
ADJOURNMENT_OVERDUE = "adjournment_overdue"  # an adjourned match not resumed by its deadline
PAYMENT_DUE = "payment_due"
INVITED = "super_final"
INVITED_BY = "super_final_by"  # an invitation with its reply deadline
LAPSED = "super_final_lapsed"
ORGANISER_REQUEST = "organiser_request"
ORGANISER_DECISION = "organiser_decision"
ORGANISER_APPROVED = "organiser_approved"  # the decision's wording when approved
CANCELLED = "tournament_cancelled"
POSTPONED = "tournament_postponed"

CATALOGUE: Mapping[str, Mapping[Language, str]] = {
    TABLE_CALL: {
        "el": "{tournament}: τραπέζι {table}. Ο αγώνας σας {match} με αντίπαλο {opponent} αρχίζει "
        "τώρα: παρακαλούμε πηγαίνετε στο τραπέζι {table}.",
        "en": "{tournament}: table {table}. Your match {match} against {opponent} starts now: "
        "please go to table {table}.",
        "it": "{tournament}: tavolo {table}. La tua partita {match} contro {opponent} inizia ora: "
        "vai al tavolo {table}.",
    },
    PROMOTED: {
        "el": "Άνοιξε θέση στο {tournament}: περάσατε από τη λίστα αναμονής στην κύρια λίστα.",
        "en": "A place opened in {tournament}: you have moved from the waiting list to the main list.",
        "it": "Si è liberato un posto in {tournament}: sei passato dalla lista d'attesa alla lista "
        "principale.",
    },
    APPEAL_DECIDED: {
        "el": "Η ένσταση για τον αγώνα {match}: {outcome}. Αιτιολογία: {reasoning}",
        "en": "The appeal on match {match}: {outcome}. Reasoning: {reasoning}",
        "it": "Il ricorso sulla partita {match}: {outcome}. Motivazione: {reasoning}",
    },
    NOSHOW: {
        "el": "{tournament}: ο/η {absent} δεν ήρθε στο τραπέζι {table} και έχασε τον αγώνα {match} "
        "άνευ αγώνος.",
        "en": "{tournament}: {absent} did not come to table {table} and lost match {match} by forfeit.",
        "it": "{tournament}: {absent} non si è presentato al tavolo {table} e perde la partita "
        "{match} a tavolino.",
    },
    NOSHOW_NOBODY: {
        "el": "{tournament}: κανείς δεν ήρθε στο τραπέζι {table} για τον αγώνα {match}: "
        "παρακαλούμε αποφασίστε.",
        "en": "{tournament}: nobody has come to table {table} for match {match}: please decide.",
        "it": "{tournament}: nessuno si è presentato al tavolo {table} per la partita {match}: decidete voi.",
    },
    ADJOURNMENT_OVERDUE: {
        "el": "{tournament}: ο διακοπτόμενος αγώνας {match} δεν συνεχίστηκε έγκαιρα: παρακαλούμε αποφασίστε.",
        "en": "{tournament}: the adjourned match {match} was not resumed in time: please decide.",
        "it": "{tournament}: la partita sospesa {match} non è ripresa in tempo: decidete voi.",
    },
    PAYMENT_DUE: {
        "el": "{tournament}: πληρώστε τη συμμετοχή σας έως {deadline}, αλλιώς η θέση σας θα δοθεί σε άλλους.",
        "en": "{tournament}: pay your entry fee by {deadline}, or your place goes to others.",
        "it": "{tournament}: paga la quota d'iscrizione entro {deadline}, altrimenti il tuo posto "
        "passa ad altri.",
    },
    INVITED: {
        "el": "Προσκαλείστε στον Super Final της σεζόν {season}: θέση {place} στη σεζόν, ξεκινάτε "
        "με {lives} ζωές.",
        "en": "You are invited to the Super Final of season {season}: season place {place}, you "
        "start the final with {lives} lives.",
        "it": "Sei invitato alla Super Final della stagione {season}: posizione {place} in "
        "stagione, inizi la finale con {lives} vite.",
    },
    INVITED_BY: {
        "el": "Προσκαλείστε στον Super Final της σεζόν {season}: θέση {place} στη σεζόν, ξεκινάτε "
        "με {lives} ζωές. Απαντήστε (αποδοχή ή άρνηση) έως {reply_by}.",
        "en": "You are invited to the Super Final of season {season}: season place {place}, you "
        "start the final with {lives} lives. Accept or decline by {reply_by}.",
        "it": "Sei invitato alla Super Final della stagione {season}: posizione {place} in "
        "stagione, inizi la finale con {lives} vite. Accetta o rifiuta entro {reply_by}.",
    },
    LAPSED: {
        "el": "Η πρόσκλησή σας στον Super Final της σεζόν {season} έληξε χωρίς απάντηση: η θέση "
        "πέρασε στον επόμενο της λίστας.",
        "en": "Your invitation to the Super Final of season {season} lapsed unanswered: the seat "
        "has passed to the next player on the list.",
        "it": "Il tuo invito alla Super Final della stagione {season} è scaduto senza risposta: il "
        "posto passa al giocatore successivo della lista.",
    },
    ORGANISER_REQUEST: {
        "el": "Ο/Η {who} ζητά να γίνει διοργανωτής ({club}): εγκρίνετε ή απορρίψτε το στη λίστα "
        "των διαχειριστών.",
        "en": "{who} asks to become an organiser ({club}): approve or refuse it in the admin list.",
        "it": "{who} chiede di diventare organizzatore ({club}): approva o rifiuta nella lista "
        "degli amministratori.",
    },
    ORGANISER_APPROVED: {
        "el": "Το αίτημά σας να γίνετε διοργανωτής εγκρίθηκε: συνδεθείτε ξανά για να δημιουργήσετε τουρνουά.",
        "en": "Your request to become an organiser was approved: sign in again to create tournaments.",
        "it": "La tua richiesta di diventare organizzatore è stata approvata: accedi di nuovo per "
        "creare tornei.",
    },
    ORGANISER_DECISION: {
        "el": "Το αίτημά σας να γίνετε διοργανωτής απορρίφθηκε.",
        "en": "Your request to become an organiser was refused.",
        "it": "La tua richiesta di diventare organizzatore è stata respinta.",
    },
    CANCELLED: {
        "el": "Το {tournament} ακυρώθηκε ({reason}). Ό,τι πληρώσατε για τη συμμετοχή σας "
        "επιστρέφεται ολόκληρο.",
        "en": "{tournament} has been cancelled ({reason}). Whatever you paid for your entry is "
        "refunded in full.",
        "it": "{tournament} è stato annullato ({reason}). Quanto hai pagato per l'iscrizione ti "
        "viene rimborsato per intero.",
    },
    POSTPONED: {
        "el": "Το {tournament} μετατέθηκε: αρχίζει {starts}. Η θέση σας κρατιέται· αν δεν "
        "μπορείτε, αποσυρθείτε έως {closes} με πλήρη επιστροφή χρημάτων.",
        "en": "{tournament} has been postponed: it now starts {starts}. Your place is kept; if "
        "you cannot come, withdraw by {closes} for a full refund.",
        "it": "{tournament} è stato rinviato: ora inizia {starts}. Il tuo posto resta; se non "
        "puoi venire, ritirati entro {closes} con rimborso completo.",
    },
}

OUTCOMES: Mapping[str, Mapping[Language, str]] = {
    "upheld": {"el": "έγινε δεκτή", "en": "upheld", "it": "accolto"},
    "dismissed": {"el": "απορρίφθηκε", "en": "dismissed", "it": "respinto"},
}


def federation_language(rule_profile: str | None) -> Language:
    return FEDERATION_LANGUAGE.get(rule_profile or "", DEFAULT)


def language_of(chosen: str | None, rule_profile: str | None = None) -> Language:
    """The player's own choice, else the tournament's federation's language."""
    return next((lang for lang in LANGUAGES if lang == chosen), federation_language(rule_profile))


def local_time(instant: str, zone: str) -> str:
    """An ISO instant as the venue's clock shows it ("03/12/2026 00:01"); text that is not an
    instant is left as it is."""
    from zoneinfo import ZoneInfo  # loaded by the notices that carry a moment

    try:
        moment = datetime.fromisoformat(instant)
    except ValueError:
        return instant
    if moment.tzinfo is not None:
        moment = moment.astimezone(ZoneInfo(zone))
    return moment.strftime("%d/%m/%Y %H:%M")


def render(
    kind: str,
    language: Language,
    fields: Mapping[str, Any],
    zone: str | None = None,
    rule_profile: str | None = None,
) -> str:
    """The notice's text in `language`; an outcome word is translated too, and a moment is
    shown in `zone` (the venue's), else the federation's zone."""
    values = dict(fields)
    where = zone or FEDERATION_ZONE.get(rule_profile or "", DEFAULT_ZONE)
    for name in MOMENTS & values.keys():
        values[name] = local_time(str(values[name]), where)
    if "outcome" in values:
        values["outcome"] = OUTCOMES.get(str(values["outcome"]), {}).get(language, values["outcome"])
    return CATALOGUE[kind][language].format(**values)
