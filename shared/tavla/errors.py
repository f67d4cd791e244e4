"""One error type per domain failure; the HTTP layer maps each to the API's error body."""

from __future__ import annotations


class DomainError(Exception):
    """A request the platform refuses; `status` and `code` become the API's error body."""

    status = 409
    code = "conflict"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    @property
    def headers(self) -> dict[str, str]:
        """Response headers that go with this refusal (none but for temporary ones)."""
        return {}


class BadRequest(DomainError):
    status = 400
    code = "bad_request"


class Unauthorized(DomainError):
    status = 401
    code = "unauthorized"


class Forbidden(DomainError):
    status = 403
    code = "forbidden"


class NotFound(DomainError):
    status = 404
    code = "not_found"


class Conflict(DomainError):
    status = 409
    code = "conflict"


class Invalid(DomainError):
    status = 422
    code = "validation_error"


class PlayerNotFound(NotFound):
    code = "player_not_found"


class ProfileMissing(NotFound):
    code = "profile_missing"


class ProfileExists(Conflict):
    code = "profile_exists"


class TournamentNotFound(NotFound):
    code = "tournament_not_found"


class NotStaff(Forbidden):
    code = "not_staff"


class NotOrganiser(Forbidden):
    code = "not_organiser"


class AlreadyRegistered(Conflict):
    code = "already_registered"


class RegistrationClosed(Conflict):
    code = "registration_closed"


class NotRegistered(Conflict):
    code = "not_registered"


class CheckinClosed(Conflict):
    code = "checkin_closed"


class ForgedPass(BadRequest):
    code = "invalid_pass"


class UnsupportedMediaType(DomainError):
    """A body that is not JSON: the API reads nothing else."""

    status = 415
    code = "unsupported_media_type"


class Unavailable(DomainError):
    """A temporary condition: the same request may succeed after `Retry-After` seconds."""

    status = 503
    code = "unavailable"
    retry_after_seconds = 1

    @property
    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_seconds)}


class Busy(Unavailable):
    """Too many simultaneous changes to the same tournament; the client may retry."""

    code = "busy"


class RuleBroken(Conflict):
    """A rule of backgammon or of the tournament refuses the change (tavla.rules' RuleViolation)."""

    code = "rule_violation"


class RequestInProgress(Conflict):
    """The same request (same Idempotency-Key) is still being processed."""

    code = "request_in_progress"


class PhoneTaken(Conflict):
    """One account per phone number: the number is another account's."""

    code = "phone_taken"


class InvalidCursor(Invalid):
    """A pagination cursor this query did not hand out (stale, from another query, or forged)."""

    code = "invalid_cursor"


class IdempotencyKeyReused(Invalid):
    """The Idempotency-Key was already used for a different request."""

    code = "idempotency_key_reused"


class NotPending(Conflict):
    """The entry to approve or refuse is not waiting for approval (R3.7)."""

    code = "not_pending"


class DivisionBarred(Conflict):
    """The organiser placed the player in a higher division than the one asked for (R3.7)."""

    code = "division_barred"


class DrawInProgress(Conflict):
    """Another draw of the tournament is being made, or this one was just published (R5)."""

    code = "draw_in_progress"


class RoundInProgress(Conflict):
    """The next draw needs results that are not official yet (R5.5)."""

    code = "round_in_progress"


class NothingToDraw(Conflict):
    """Every draw of the tournament has been made."""

    code = "nothing_to_draw"


class DivisionHasEntries(Conflict):
    """A division cannot be removed while players are entered in it (R3.7)."""

    code = "division_has_entries"


class NotEnoughPlayers(Conflict):
    """Fewer than two players checked in: there is nobody to pair (R4.2)."""

    code = "not_enough_players"


class AppealOpen(Conflict):
    """An open appeal freezes the result and what depends on it (R9.2)."""

    code = "appeal_open"


class RoundNotFound(NotFound):
    code = "round_not_found"


class MatchNotFound(NotFound):
    code = "match_not_found"


class TournamentOver(Conflict):
    """The tournament is finished: its final standings are the record, results are final."""

    code = "tournament_finished"


class StaleMatch(Conflict):
    """The match changed since it was read (another write landed first): reload and retry."""

    code = "stale_version"


class ResultLocked(Conflict):
    """A match that depends on this result has started: it no longer changes (R9.4)."""

    code = "result_locked"


# --- live score and result


class NotYourMatch(Forbidden):
    """Only the match's two players (or its tournament's staff) act on it."""

    code = "not_your_match"


class MatchNotInPlay(Conflict):
    """The match is not at a stage where this can happen (not called yet, or already decided)."""

    code = "match_not_in_play"


class NotInMatch(Invalid):
    """The request names a player who is not playing this match."""

    code = "not_in_match"


class ImpossibleFinalScore(Invalid):
    """A final score no match of this length ends with (R7.3): the winner has exactly the length."""

    code = "impossible_score"


class DecisionNeeded(Conflict):
    """The players' reports differ and no record prevails by the profile's rule (R7.5): give the score."""

    code = "decision_needed"


class ResultMissing(Conflict):
    """Nothing to confirm: the live score is not complete and the players have not agreed on one."""

    code = "result_missing"


# table call and no-show (R6)
class NoFreeTable(Conflict):
    """Every table is taken: the queued match is called as soon as one frees up (R6)."""

    code = "no_free_table"


class TooLateToArrive(Conflict):
    """The no-show deadline has passed: only the referee can still mark the player present (R6.1)."""

    code = "too_late"


# adjourned matches and breaks (R7.7)
class PhotoNotOfMatch(Invalid):
    """The position's photo named is not one uploaded for this match."""

    code = "photo_not_of_match"


class ResumeByPast(Invalid):
    """An adjournment's deadline to resume that is not later than now by the platform's clock."""

    code = "resume_by_past"


class BreakRefused(Conflict):
    """A break cannot start now: during a game, none left, or one is running (R7.7)."""

    code = "break_refused"


class BreakNotBetweenLegs(BreakRefused):
    """A series allows breaks only between one of its matches and the next (cnb 2.2.2)."""

    code = "break_not_between_legs"


class SeriesNotInProfile(Invalid):
    """Only a rule profile whose rulebook has best-of-three series lets a page set one."""

    code = "series_not_in_profile"


class NoBreakRunning(Conflict):
    """No break of this player is running: there is nothing to end."""

    code = "no_break_running"


# -- board, standings, finish --


class NotFinished(Conflict):
    """A match is still to be decided or a draw is still due: the tournament cannot finish yet."""

    code = "not_finished"


# --- appeals and conduct -------------------------------------


class AppealWindowClosed(Conflict):
    """Too late to appeal: the profile's window after the match has closed (R9.1)."""

    code = "appeal_window_closed"


class AppealNotFound(NotFound):
    code = "appeal_not_found"


class AppealDecided(Conflict):
    """The appeal has been decided already: the decision is final (R9.3, R9.5)."""

    code = "appeal_decided"


class AppealExhausted(Conflict):
    """This side's appeal against this result was decided: that ends the grievance (R9.3, R9.5)."""

    code = "appeal_exhausted"


class InvalidCommittee(Invalid):
    """The committee's size or votes do not fit the rule profile (R9.5)."""

    code = "invalid_committee"


class CommitteeNotImpartial(Invalid):
    """A committee member is party to the match or runs the tournament (R9.5)."""

    code = "committee_not_impartial"


class InvalidDecision(Invalid):
    """The decision does not say what the rules need (outcome, or a result that can stand)."""

    code = "invalid_decision"


class NotInField(Conflict):
    """The player is not in the tournament's drawn field (R4.2)."""

    code = "not_in_field"


class NotDrawn(Conflict):
    """Nothing is drawn yet: before the draw a player withdraws their registration (R3.5)."""

    code = "not_drawn"


class AlreadyOut(Conflict):
    """The player has already withdrawn or been disqualified (R8.2, R8.3)."""

    code = "already_out"


class NotHeld(Conflict):
    """Only a queued match held for a player still playing elsewhere can be released."""

    code = "not_held"


class NoMatchToPenalise(Conflict):
    """A game or match penalty needs a match the player is playing (R8.4)."""

    code = "no_match_to_penalise"


# --- money (R3.3-R3.6)
class NothingToPay(Conflict):
    """The ledger owes nothing: no checkout is started for 0."""

    code = "nothing_to_pay"


class ForgedWebhook(BadRequest):
    """A webhook whose signature does not verify (forged, altered or stale): nothing recorded."""

    code = "invalid_signature"


class MalformedWebhook(BadRequest):
    """A correctly signed webhook whose event is not a well-formed payment (an amount that is
    not a positive whole number of cents, no event id ...): nothing recorded. 400, not 2xx:
    the body will never become valid, and the provider's dashboard shows the failure."""

    code = "invalid_webhook"


class ProviderUnavailable(Unavailable):
    """The payment provider did not answer; the client may retry."""

    code = "provider_unavailable"
    retry_after_seconds = 5


class NoPayment(NotFound):
    """No such ledger entry in this tournament."""

    code = "payment_not_found"


class StatementNotFound(NotFound):
    """No such statement import in this tournament."""

    code = "statement_not_found"


class NoPrize(Conflict):
    """The player won no money prize: there is nothing to pay out (R11.5)."""

    code = "no_prize"


class OverPrize(Conflict):
    """A payout larger than what is left of the winner's prize (R11.5): nothing recorded."""

    code = "over_prize"


# --- ratings and the season


class SeasonNotFound(NotFound):
    """No such season (R10.4)."""

    code = "season_not_found"


class SeasonNotClosed(Conflict):
    """The Super Final's list is frozen only when the season closes at its end date (R10.4)."""

    code = "season_not_closed"


class InvitationNotFound(NotFound):
    """The caller holds no invitation to this season's Super Final (R10.4)."""

    code = "invitation_not_found"


class InvitationAnswered(Conflict):
    """The invitation was answered the other way already (R10.4)."""

    code = "invitation_answered"


class InvitationClosed(Conflict):
    """The invitation's deadline passed: the seat went down the list (R10.4)."""

    code = "invitation_closed"


class InvitationsPending(Conflict):
    """The Super Final is created once every invited player has answered (or let it lapse)."""

    code = "invitations_pending"


class SuperFinalFull(Conflict):
    """Every seat of the Super Final is accepted already (R10.4)."""

    code = "super_final_full"


class SeasonClosed(Conflict):
    """The season closed at its end date: its dates and numbers no longer change (R10.4)."""

    code = "season_closed"


# --- the federation's office


class LastAdmin(Conflict):
    """Revoking this admin would leave the federation without one."""

    code = "last_admin"


class RequestNotFound(NotFound):
    """No request to organise from that player."""

    code = "request_not_found"


class ClubNotFound(Invalid):
    """A profile names a club the federation does not keep (422: the body is wrong)."""

    code = "club_not_found"


class TournamentCancelled(Conflict):
    """The tournament was cancelled: nothing of it changes any more (its refunds go on)."""

    code = "tournament_cancelled"


class NotPostponable(Conflict):
    """Only a tournament not drawn yet moves to new dates: a day under way is cancelled instead."""

    code = "not_postponable"


class NoSuchClub(NotFound):
    """No club record with that id (the path names it)."""

    code = "no_such_club"


class ErasureNotConfirmed(Invalid):
    """An erasure without the player's own Tavla ID typed back."""

    code = "erasure_not_confirmed"


class EntriesOpen(Conflict):
    """An erasure while the player is still entered in a tournament that is not over: the
    withdrawal (and its refund) comes first."""

    code = "entries_open"


class RolesHeld(Conflict):
    """An erasure of a user who still holds a platform role: an admin revokes it first, so the
    federation is never left without an admin by a deletion."""

    code = "roles_held"


class NotCommitted(Conflict):
    """The draw's seed is not committed yet: nothing can be previewed from it (R5.1)."""

    code = "not_committed"


class DrawnWithoutCommitment(Conflict):
    """The tournament was drawn before seeds were committed: there is nothing left to commit (R5.1)."""

    code = "drawn_without_commitment"


class RoundPlayed(Conflict):
    """A round cannot be redrawn once a result of it is entered or a later draw depends on it (R5.1)."""

    code = "round_played"


class LateEntryClosed(Conflict):
    """Late entry is not open for this tournament (R5.5, R5.7)."""

    code = "late_entry_closed"


class LateEntryRefused(Conflict):
    """This event takes no late entry (format, first round not drawn, or already in the field)."""

    code = "late_entry_refused"
