"""Rule profiles (R2.2, R9.5): `platform` (seed 002), `hbf` (seed 000), `cnb` (seed 001) as data.

`resolve(name, overrides)` gives a tournament's effective rules: the profile's defaults with the
tournament page's own settings on top (the page wins, R2.2), validated. `decide_committee_appeal`
decides an appeal above the referee by the profile's route.

Defaults the seeds do not give, chosen here: match lengths 7 (rounds), 9 (semi-finals),
11 (final); 2 lives; cube in use. When a page sets only `match_length`, every stage is played
to it unless the page also sets the semi-final or final length.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Literal

from pydantic import ConfigDict, Field, ValidationError, field_validator

from tavla.rules.breaks import CNB_BREAKS, HBF_BREAKS, NO_BREAKS, BreakPolicy
from tavla.rules.clock import ClockPolicy, ClockSettings
from tavla.rules.errors import RuleViolation
from tavla.rules.lateness import CNB_LATENESS, HBF_LATENESS, PLATFORM_LATENESS, LatenessPolicy
from tavla.rules.match import MatchState, start_match
from tavla.rules.value import RuleModel

ProfileName = Literal["platform", "hbf", "cnb"]
Stage = Literal["default", "semi_final", "final"]

MIN_MATCH_LENGTH = 1
MAX_MATCH_LENGTH = 25


class ProfileError(RuleViolation):
    """A rule profile question the rules cannot answer."""


class UnknownProfile(ProfileError):
    """No rule profile by that name."""


class InvalidSetting(ProfileError):
    """A tournament setting outside what the rules allow (e.g. an even match length)."""


class SeriesNotAvailable(InvalidSetting):
    """A best-of-three series under a profile whose rulebook has none."""


class AppealNotAvailable(ProfileError):
    """The profile has no appeal above the referee."""


class InvalidCommittee(ProfileError):
    """A committee of the wrong size for the profile."""


def check_match_length(value: int) -> int:
    """Refuse a match length that is not an odd number of points from 1 to 25."""
    if not (MIN_MATCH_LENGTH <= value <= MAX_MATCH_LENGTH) or value % 2 == 0:
        raise InvalidSetting(
            f"Match length must be an odd number of points from {MIN_MATCH_LENGTH} to "
            f"{MAX_MATCH_LENGTH} (got {value})"
        )
    return value


class MatchLengths(RuleModel):
    """Match length per stage (R2.1, R7.3): semi-finals and final may be longer."""

    model_config = ConfigDict(frozen=True)

    default: int
    semi_final: int | None = None
    final: int | None = None

    @field_validator("default", "semi_final", "final")
    @classmethod
    def _odd(cls, value: int | None) -> int | None:
        return None if value is None else check_match_length(value)

    def for_stage(self, stage: Stage) -> int:
        """The length of a match of `stage` (the default where the stage has none of its own)."""
        if stage == "final" and self.final is not None:
            return self.final
        if stage == "semi_final" and self.semi_final is not None:
            return self.semi_final
        return self.default


class AppealRoute(RuleModel):
    """Who hears an appeal against a referee's decision (R9.5)."""

    model_config = ConfigDict(frozen=True)

    above_referee: Literal["none", "committee"]
    committee_sizes: tuple[int, ...] = ()
    overturn_rule: Literal["unanimous", "simple_majority"] | None = None
    committee_members: str = ""
    source: str


class RuleProfile(RuleModel):
    """A tournament's effective match-day rules."""

    model_config = ConfigDict(frozen=True)

    name: ProfileName
    source: str
    match_lengths: MatchLengths
    cube_used: bool = True
    crawford: bool = True
    jacoby: bool = False
    clock: ClockPolicy
    lives: int = Field(ge=1)
    lateness: LatenessPolicy
    breaks: BreakPolicy
    appeal: AppealRoute
    table_call_deadline: timedelta = timedelta(minutes=10)
    appeal_window: timedelta = timedelta(minutes=15)
    # a best-of-three series of 7-point matches: only a rulebook that has them (cnb 2.2.2) lets a
    # page set one, since only it says when their breaks are taken (decision 0048)
    series_allowed: bool = False
    series: bool = False

    def match_length(self, stage: Stage = "default") -> int:
        return self.match_lengths.for_stage(stage)

    def clock_settings(self, stage: Stage = "default") -> ClockSettings | None:
        """The clock a match of `stage` starts with, or None when clocks are off by default."""
        if self.clock.use == "off":
            return None
        return self.clock.settings_for(self.match_length(stage))


_DEFAULT_LENGTHS = MatchLengths(default=7, semi_final=9, final=11)

PROFILES: dict[str, RuleProfile] = {
    "platform": RuleProfile(
        name="platform",
        source="seed 002 (platform rules)",
        match_lengths=_DEFAULT_LENGTHS,
        clock=ClockPolicy(use="off"),
        lives=2,
        lateness=PLATFORM_LATENESS,
        breaks=NO_BREAKS,
        appeal=AppealRoute(above_referee="none", source="seed 002, 10: the referee's decision is final"),
    ),
    "hbf": RuleProfile(
        name="hbf",
        source="seed 000 (Hellenic Backgammon Federation rules)",
        match_lengths=_DEFAULT_LENGTHS,
        clock=ClockPolicy(use="off"),
        lives=2,
        lateness=HBF_LATENESS,
        breaks=HBF_BREAKS,
        appeal=AppealRoute(
            above_referee="committee",
            committee_sizes=(3,),
            overturn_rule="unanimous",
            committee_members="three knowledgeable, impartial players convened by the referee",
            source="seed 000, 6.3: three impartial players, overturn only unanimously; exhausts the appeal",
        ),
    ),
    "cnb": RuleProfile(
        name="cnb",
        source="seed 001 (CNB tournament regulations)",
        match_lengths=_DEFAULT_LENGTHS,
        clock=ClockPolicy(use="optional"),
        lives=2,
        lateness=CNB_LATENESS,
        breaks=CNB_BREAKS,
        series_allowed=True,
        appeal=AppealRoute(
            above_referee="committee",
            committee_sizes=(3, 5),
            overturn_rule="simple_majority",
            committee_members=(
                "three or five impartial, competent players; no director running the tournament; "
                "a member who is party to the dispute is replaced"
            ),
            source="seed 001, 1.3.2 and 5.2: three or five players, simple majority, final",
        ),
    ),
}


class RuleOverrides(RuleModel):
    """What a tournament page may set over its profile (R2.1, R2.2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    match_length: int | None = None
    semi_final_length: int | None = None
    final_length: int | None = None
    clock: ClockPolicy | None = None
    lives: int | None = None
    cube_used: bool | None = None
    series: bool | None = None

    @field_validator("match_length", "semi_final_length", "final_length")
    @classmethod
    def _odd(cls, value: int | None) -> int | None:
        return None if value is None else check_match_length(value)

    @field_validator("lives")
    @classmethod
    def _lives(cls, value: int | None) -> int | None:
        if value is not None and value < 1:
            raise InvalidSetting(f"Every player starts with at least 1 life (got {value})")
        return value


def _readable(error: ValidationError) -> str:
    messages = []
    for item in error.errors():
        field = ".".join(str(part) for part in item["loc"]) or "settings"
        if item["type"] == "extra_forbidden":
            allowed = ", ".join(RuleOverrides.model_fields)
            messages.append(f"'{field}' is not a rule a tournament page can set here (it can set: {allowed})")
            continue
        msg = str(item["msg"]).removeprefix("Value error, ")
        messages.append(f"{field}: {msg}")
    return "; ".join(messages)


def get_profile(name: str) -> RuleProfile:
    """The profile's own defaults; refuses an unknown name."""
    try:
        return PROFILES[name]
    except KeyError:
        known = ", ".join(PROFILES)
        raise UnknownProfile(f"There is no rule profile '{name}' (known: {known})") from None


def resolve(profile_name: str, overrides: RuleOverrides | Mapping[str, object] | None = None) -> RuleProfile:
    """The effective rules: the profile's defaults, the tournament page's settings on top (R2.2).

    Guarantees: every match length is odd and 1..25, lives >= 1, clock settings are coherent;
    anything else is refused with `InvalidSetting` saying what is wrong.
    """
    base = get_profile(profile_name)
    if overrides is None:
        return base
    if not isinstance(overrides, RuleOverrides):
        try:
            overrides = RuleOverrides.model_validate(dict(overrides))
        except ValidationError as error:
            raise InvalidSetting(_readable(error)) from None
    lengths = base.match_lengths
    if overrides.match_length is not None:
        lengths = MatchLengths(default=overrides.match_length)
    if overrides.semi_final_length is not None or overrides.final_length is not None:
        lengths = lengths.model_copy(
            update={
                "semi_final": overrides.semi_final_length or lengths.semi_final,
                "final": overrides.final_length or lengths.final,
            }
        )
    update: dict[str, object] = {"match_lengths": lengths}
    if overrides.clock is not None:
        update["clock"] = overrides.clock
    if overrides.lives is not None:
        update["lives"] = overrides.lives
    if overrides.cube_used is not None:
        update["cube_used"] = overrides.cube_used
    if overrides.series:
        update["match_lengths"] = _series_lengths(base, overrides)
        update["series"] = True
    return base.model_copy(update=update)


def _series_lengths(base: RuleProfile, overrides: RuleOverrides) -> MatchLengths:
    """A series is of 7-point matches at every stage (cnb 2.2.2): refused under a profile
    without series, or with a page's other length."""
    from tavla.rules.series import SERIES_LEG_LENGTH

    if not base.series_allowed:
        raise SeriesNotAvailable(
            f"The {base.name} rules have no best-of-three series; only the cnb rules do (seed 001, 2.2.2)"
        )
    lengths = (overrides.match_length, overrides.semi_final_length, overrides.final_length)
    asked = {n for n in lengths if n is not None}
    if asked - {SERIES_LEG_LENGTH}:
        raise InvalidSetting(
            f"A series is the best of three {SERIES_LEG_LENGTH}-point matches: "
            f"its matches cannot be {sorted(asked - {SERIES_LEG_LENGTH})} points long"
        )
    return MatchLengths(default=SERIES_LEG_LENGTH, semi_final=SERIES_LEG_LENGTH, final=SERIES_LEG_LENGTH)


def start_match_under(rules: RuleProfile, players: tuple[str, str], stage: Stage = "default") -> MatchState:
    """A new match of `stage` between `players` under the effective `rules` (length, cube, Crawford)."""
    return start_match(
        rules.match_length(stage), players, cube_used=rules.cube_used, crawford_rule=rules.crawford
    )


class AppealOutcome(RuleModel):
    """A committee's decision on an appeal against the referee."""

    model_config = ConfigDict(frozen=True)

    overturned: bool
    final: bool
    votes_to_overturn: int
    committee_size: int
    reason: str


def decide_committee_appeal(route: AppealRoute | str, votes: Sequence[bool]) -> AppealOutcome:
    """The outcome of an appeal above the referee from the members' votes (True: overturn) (R9.5).

    `hbf`: three members, the referee is overturned only unanimously. `cnb`: three or five
    members, a simple majority changes the decision. Either way the committee's word is final.
    `platform`: refused - the referee's decision is final. `route` may be a profile name.
    """
    if isinstance(route, str):
        route = get_profile(route).appeal
    if route.above_referee == "none":
        raise AppealNotAvailable("Under these rules the referee's decision is final: there is no appeal")
    size = len(votes)
    if size not in route.committee_sizes:
        sizes = " or ".join(str(n) for n in route.committee_sizes)
        raise InvalidCommittee(f"The appeal committee has {sizes} members, not {size}")
    yes = sum(1 for vote in votes if vote)
    if route.overturn_rule == "unanimous":
        overturned = yes == size
        rule = "unanimous vote needed"
    else:
        overturned = 2 * yes > size
        rule = "simple majority needed"
    verdict = "overturned" if overturned else "upheld"
    return AppealOutcome(
        overturned=overturned,
        final=True,
        votes_to_overturn=yes,
        committee_size=size,
        reason=(
            f"Referee's decision {verdict}: {yes} of {size} voted to overturn ({rule}); the decision is final"
        ),
    )
