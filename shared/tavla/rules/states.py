"""A match's life as a closed set of states, and the groups the day's rules reason in.

The values are the stored strings themselves (a `StrEnum`), so a state compares equal to what
is in the table and needs no migration; the groups are defined here once, so no use case
keeps its own copy that could drift.
"""

from __future__ import annotations

from enum import StrEnum


class State(StrEnum):
    """waiting (players not known yet), queued (no table yet), called, playing, adjourned (left
    its table mid-match, resumed later from the same state), finished (the score is complete,
    staff confirm), disputed (the players' reports differ), official; or bye / void /
    not_needed for slots never played."""

    WAITING = "waiting"
    QUEUED = "queued"
    CALLED = "called"
    PLAYING = "playing"
    ADJOURNED = "adjourned"
    FINISHED = "finished"
    DISPUTED = "disputed"
    OFFICIAL = "official"
    BYE = "bye"
    VOID = "void"
    NOT_NEEDED = "not_needed"


# slots that are never played
UNPLAYED = frozenset({State.BYE, State.VOID, State.NOT_NEEDED})
# at a table: called to it, or being played there
AT_TABLE = frozenset({State.CALLED, State.PLAYING})
# on a table or over without being official yet
IN_PLAY = frozenset({*AT_TABLE, State.FINISHED, State.DISPUTED})
# its players have started it: what depends on it may not change any more (R9.4)
STARTED = frozenset({State.PLAYING, State.ADJOURNED, State.FINISHED, State.DISPUTED, State.OFFICIAL})
# no longer needs its table (an adjourned match gives it up until it resumes)
OFF_TABLE = frozenset({State.ADJOURNED, State.FINISHED, State.DISPUTED, State.OFFICIAL, *UNPLAYED})
# players known, result not official yet
UNDECIDED = frozenset({State.QUEUED, State.ADJOURNED, *IN_PLAY})
# the live score takes entries
SCORING = AT_TABLE
# players may declare the final score
REPORTING = IN_PLAY
# staff may make (or change) the result official
CONFIRMING = frozenset({*IN_PLAY, State.OFFICIAL})
# a player may appeal: played, or being played
APPEALABLE = CONFIRMING
# a slot whose players are known and that still wants a table (or has one)
PLAYABLE = frozenset({State.QUEUED, *IN_PLAY})
