"""The tournament day as the rules see it: what each draw holds, and how results flow on.

Every format becomes the same thing, a list of **fixtures**: a match slot with a stable code
(`main.R2.3`, `main.L4.1`, `main.S3.12`), whose two sides come from the draw (an entry, or
a BYE) or from another fixture (its winner or its loser). Then one function, `flow`, plays
any format forward from its official results: which matches wait for players, which can be
played, which are BYEs, who is out. A service stores fixtures under their codes and never
needs to know a format's shape.

The draws (R5), one published **draw** at a time, numbered 1.. across the tournament:
- single elimination: the whole bracket at once (R5.3); with side events, the Consolation
  and Last Chance brackets are later draws, due once their feeding rounds are decided (R5.8);
- double elimination: the whole linked bracket, the reset final always on (R5.4);
- round robin: the whole schedule (R5.6);
- Swiss and lives: one round per draw, due when every result of the previous one is official
  (R5.5, R5.7).

A tournament of several divisions (R3.7: Open, Intermediate, Novice ...) plays a day per
division: each draw belongs to one (`DrawInputs.division`), and its codes carry the
division's id in front (`open.main.R2.3`), so the divisions' fixtures never meet, share one
`flow`, and every other rule here reads one division's draws as if it were the whole day.

A draw is verifiable (R5.1): `DrawInputs` hold everything it is computed from (the field
with ratings and clubs, the earlier results, the settings), `digest` fingerprints them, and
`compute_draw(inputs, seed)` gives the same fixtures to anyone who recomputes it.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable, Mapping, Sequence, Set
from typing import Any, Literal

from pydantic import ConfigDict, Field

from tavla.rules.double_elimination import Source, draw_double_elimination
from tavla.rules.entrants import Entrant, MatchRecord, Pairing
from tavla.rules.errors import RuleViolation
from tavla.rules.late_entries import LateEntry, start_half_points, start_lives
from tavla.rules.points import LEAGUE_POINTS, SWISS_POINTS, MatchPoints
from tavla.rules.round_robin import draw_round_robin
from tavla.rules.seeding import SeedingMode
from tavla.rules.side_brackets import SideBracketPlan, draw_side_bracket, last_chance_field
from tavla.rules.single_elimination import SingleEliminationDraw, bye_holders, draw_single_elimination
from tavla.rules.standings import Standing, knockout_standings, table_standings
from tavla.rules.value import RuleModel

__all__ = [
    "DayFormat",
    "DaySettings",
    "Draw",
    "DrawInputs",
    "EventName",
    "Fixture",
    "NothingToDraw",
    "RoundInProgress",
    "SlotState",
    "compute_draw",
    "digest",
    "event_finished",
    "event_standings",
    "flow",
    "plan_next_draw",
    "records_of",
]

DayFormat = Literal["single_elimination", "double_elimination", "swiss", "round_robin", "lives"]
EventName = Literal["main", "consolation", "last_chance"]
Stage = Literal["default", "semi_final", "final"]
SlotStatus = Literal["waiting", "ready", "walkover", "void", "played", "not_needed"]
DECIDED: frozenset[str] = frozenset({"walkover", "void", "played"})


class RoundInProgress(RuleViolation):
    """The next draw needs results that are not official yet."""


class NothingToDraw(RuleViolation):
    """Every draw of the tournament has been made (or its event is over)."""


class DaySettings(RuleModel):
    """What of the tournament page the draws need (R2.1)."""

    model_config = ConfigDict(frozen=True)

    format: DayFormat
    seeding: SeedingMode = "rating"
    club_protection: bool = False
    lives: int = Field(default=2, ge=1)
    swiss_rounds: int | None = Field(default=None, ge=1)
    consolation: bool = False  # side events fed from the Main (R5.8), single elimination only
    last_chance: bool = False
    side_plan: SideBracketPlan = SideBracketPlan()
    # lives: the pairing order of R5.7 (equal lives, then no rematch); unset in draws published
    # before it was recorded, which paired rematch-free first and recompute so (R5.1)
    lives_pairing: Literal["equal_lives_first"] | None = None
    # a lives event's starting lives per player (a season final by season place, R5.7); a
    # player not listed starts with `lives`. Unset in every other draw (and left out of digests)
    lives_by_player: dict[str, int] | None = None

    def starting_lives(self, players: Iterable[str]) -> int | dict[str, int]:
        """Each player's starting lives (R5.7): `lives`, or per player where the page sets them."""
        if not self.lives_by_player:
            return self.lives
        return {p: self.lives_by_player.get(p, self.lives) for p in players}

    def rounds_of_swiss(self, players: int) -> int:
        """The page's number of Swiss rounds (else ceil(log2(players)), enough for one winner).

        At most half the field: up to there a pairing without a rematch always exists (each
        player still has at least half the field left to meet, so by Dirac's theorem the
        unmet pairs hold a perfect matching); a longer Swiss could stall mid-day.
        """
        wanted = self.swiss_rounds or math.ceil(math.log2(max(players, 2)))
        return max(1, min(wanted, players // 2))


class DrawInputs(RuleModel):
    """Everything a draw is computed from, all of it public: recompute it to check it (R5.1)."""

    model_config = ConfigDict(frozen=True)

    number: int = Field(ge=1)
    event: EventName = "main"
    round: int = Field(default=1, ge=1)  # the Swiss or lives round this draw pairs
    settings: DaySettings
    field: tuple[Entrant, ...]
    history: tuple[MatchRecord, ...] = ()  # earlier official results the pairing depends on
    withdrawn: tuple[str, ...] = ()  # players of the field no longer paired (R8.2, R8.3)
    had_bye: tuple[str, ...] = ()  # side brackets: who had a BYE in an earlier bracket (R5.8)
    division: str | None = None  # of a tournament of several divisions (R3.7): its codes' prefix
    late: tuple[LateEntry, ...] = ()  # Swiss and lives: who entered late, with their start


class Fixture(RuleModel):
    """A match slot of a draw: where each side comes from, and which round it belongs to.

    `round` is the round number the standings use (for double elimination the bracket stage,
    so players out at the same time share a place); `label` is what a board shows (R2, W3,
    L4, GF1, S3). `unless_home_wins` marks the reset final: not played when that fixture's
    home player (the winners' bracket winner) wins it (R5.4).
    """

    model_config = ConfigDict(frozen=True)

    code: str
    event: EventName
    round: int = Field(ge=1)
    label: str
    board: int = Field(ge=1)
    stage: Stage = "default"
    home: Source
    away: Source
    unless_home_wins: str | None = None


class Draw(RuleModel):
    """A computed draw: its fixtures in an order safe to evaluate, and what it came from."""

    model_config = ConfigDict(frozen=True)

    inputs: DrawInputs
    seed: int
    fixtures: tuple[Fixture, ...]
    seed_list: tuple[str, ...] = ()

    @property
    def number(self) -> int:
        return self.inputs.number


class SlotState(RuleModel):
    """A fixture as the results leave it: players once known, status, winner and loser once decided."""

    model_config = ConfigDict(frozen=True)

    code: str
    status: SlotStatus
    home: str | None = None
    away: str | None = None
    winner: str | None = None
    loser: str | None = None


# -- verifying ----------------------------------------------------------------------------


def digest(inputs: DrawInputs) -> str:
    """A SHA-256 fingerprint of a draw's inputs (canonical JSON), shown on the published round."""
    # a draw of a single-division tournament leaves `division` out: digests published before
    # divisions existed stay what they were
    # nor do settings added later, while unset (`lives_pairing`)
    unset: dict[str, Any] = {"division": True} if inputs.division is None else {}
    if not inputs.late:
        unset["late"] = True
    left_out = {k for k in ("lives_pairing", "lives_by_player") if getattr(inputs.settings, k) is None}
    if left_out:
        unset["settings"] = left_out
    canonical = json.dumps(
        inputs.model_dump(mode="json", exclude=unset or None), sort_keys=True, separators=(",", ":")
    )
    return hashlib.sha256(canonical.encode()).hexdigest()


# -- drawing ------------------------------------------------------------------------------


def _entry(player: str | None) -> Source:
    return Source(kind="entry", player=player)


def _bracket_fixtures(event: EventName, draw: SingleEliminationDraw) -> list[Fixture]:
    """A single elimination bracket as fixtures: round 1 from the lines, later rounds from winners."""
    rounds = draw.rounds
    fixtures: list[Fixture] = []

    def stage(r: int) -> Stage:
        if r == rounds:
            return "final"
        return "semi_final" if r == rounds - 1 else "default"

    for i in range(draw.size // 2):
        fixtures.append(
            Fixture(
                code=f"{event}.R1.{i + 1}",
                event=event,
                round=1,
                label="R1",
                board=i + 1,
                stage=stage(1),
                home=_entry(draw.lines[2 * i]),
                away=_entry(draw.lines[2 * i + 1]),
            )
        )
    for r in range(2, rounds + 1):
        for i in range(draw.size >> r):
            fixtures.append(
                Fixture(
                    code=f"{event}.R{r}.{i + 1}",
                    event=event,
                    round=r,
                    label=f"R{r}",
                    board=i + 1,
                    stage=stage(r),
                    home=Source(kind="winner", match=f"{event}.R{r - 1}.{2 * i + 1}"),
                    away=Source(kind="winner", match=f"{event}.R{r - 1}.{2 * i + 2}"),
                )
            )
    return fixtures


def _pairing_fixtures(prefix: str, round_number: int, pairings: Iterable[Pairing]) -> list[Fixture]:
    return [
        Fixture(
            code=f"main.{prefix}{round_number}.{p.table}",
            event="main",
            round=round_number,
            label=f"{prefix}{round_number}",
            board=p.table,
            home=_entry(p.home),
            away=_entry(p.away),
        )
        for p in pairings
    ]


def _double_fixtures(inputs: DrawInputs, seed: int) -> tuple[list[Fixture], tuple[str, ...]]:
    s = inputs.settings
    bracket = draw_double_elimination(
        inputs.field, seed=seed, mode=s.seeding, club_protection=s.club_protection, bracket_reset=True
    )

    def source(src: Source) -> Source:
        return src if src.match is None else Source(kind=src.kind, match=f"main.{src.match}")

    fixtures = []
    per_round: dict[str, int] = {}
    for m in bracket.matches:
        label = m.id.split("-")[0]
        per_round[label] = per_round.get(label, 0) + 1
        fixtures.append(
            Fixture(
                code=f"main.{m.id.replace('-', '.')}" if "-" in m.id else f"main.{m.id}",
                event="main",
                round=m.stage,
                label=label,
                board=per_round[label],
                stage="final" if m.bracket == "final" else "default",
                home=source(m.home),
                away=source(m.away),
                unless_home_wins="main.GF1" if m.id == "GF2" else None,
            )
        )
    # the rules name matches W1-3; the fixtures' codes use dots throughout (main.W1.3)
    renamed = {f"main.{m.id}": f.code for m, f in zip(bracket.matches, fixtures, strict=True)}
    fixtures = [
        f.model_copy(
            update={
                "home": _renamed(f.home, renamed),
                "away": _renamed(f.away, renamed),
            }
        )
        for f in fixtures
    ]
    return fixtures, bracket.seed_list


def _renamed(src: Source, renamed: Mapping[str, str]) -> Source:
    if src.match is None:
        return src
    return Source(kind=src.kind, match=renamed.get(src.match, src.match))


def _in_division(division: str, fixtures: Sequence[Fixture]) -> list[Fixture]:
    """A division's fixtures: every code, and every match a side comes from, behind its id (R3.7)."""
    renamed = {f.code: f"{division}.{f.code}" for f in fixtures}
    return [
        f.model_copy(
            update={
                "code": renamed[f.code],
                "home": _renamed(f.home, renamed),
                "away": _renamed(f.away, renamed),
                "unless_home_wins": renamed.get(f.unless_home_wins or "", f.unless_home_wins),
            }
        )
        for f in fixtures
    ]


def _starting_lives(
    settings: DaySettings, field: Sequence[Entrant], late: Sequence[LateEntry]
) -> int | dict[str, int]:
    """Each player's starting lives: the page's (R5.7), a late entrant's their own."""
    given = settings.starting_lives(e.player_id for e in field)
    if not late:
        return given
    lives = given if isinstance(given, dict) else {e.player_id: given for e in field}
    return {**lives, **start_lives(late)}


def compute_draw(inputs: DrawInputs, seed: int) -> Draw:
    """The draw these inputs and this seed give: the same for everybody who recomputes it (R5.1)."""
    s = inputs.settings
    field = list(inputs.field)
    seed_list: tuple[str, ...] = ()
    if inputs.event != "main":
        side = draw_side_bracket(
            field, seed=seed, had_bye=set(inputs.had_bye), mode=s.seeding, club_protection=False
        )
        fixtures = _bracket_fixtures(inputs.event, side)
        seed_list = side.seed_list
    elif s.format == "single_elimination":
        bracket = draw_single_elimination(field, seed=seed, mode=s.seeding, club_protection=s.club_protection)
        fixtures = _bracket_fixtures("main", bracket)
        seed_list = bracket.seed_list
    elif s.format == "double_elimination":
        fixtures, seed_list = _double_fixtures(inputs, seed)
    elif s.format == "round_robin":
        schedule = draw_round_robin(field, seed=seed, mode=s.seeding)
        fixtures = [
            f for r, boards in enumerate(schedule.rounds, 1) for f in _pairing_fixtures("RR", r, boards)
        ]
        seed_list = schedule.numbers
    elif s.format == "swiss":
        from tavla.rules.swiss import pair_swiss_round  # networkx: paid by Swiss draws only

        still = [e for e in field if e.player_id not in set(inputs.withdrawn)]
        swiss = pair_swiss_round(still, inputs.history, inputs.round, seed, start_half_points(inputs.late))
        fixtures = _pairing_fixtures("S", inputs.round, swiss.pairings)
    else:
        from tavla.rules.lives import pair_lives_round  # networkx: paid by lives draws only

        lives = pair_lives_round(
            field,
            inputs.history,
            inputs.round,
            seed,
            _starting_lives(s, field, inputs.late),
            set(inputs.withdrawn),
            equal_lives_first=s.lives_pairing == "equal_lives_first",
        )
        fixtures = _pairing_fixtures("V", inputs.round, lives.pairings)
    if inputs.division is not None:
        fixtures = _in_division(inputs.division, fixtures)
    return Draw(inputs=inputs, seed=seed, fixtures=tuple(fixtures), seed_list=seed_list)


# -- playing forward ------------------------------------------------------------------------


def flow(
    fixtures: Sequence[Fixture], winners: Mapping[str, str], known: Mapping[str, SlotState] | None = None
) -> dict[str, SlotState]:
    """Every fixture's state after the official results (`winners`: code -> winning player).

    Fixtures must come in an order safe to evaluate (as `compute_draw` gives them, draws in
    order). A side with a BYE is walked over at once; a fixture fed by another waits until
    that one is decided; the reset final is not needed when the winners' bracket winner wins
    the first. Refuses a result naming someone who is not a player of that match.
    `known` are the states of feeders left out of `fixtures` (a part of the day played forward
    from its neighbours as they stand); they are returned with the rest.
    """
    states: dict[str, SlotState] = dict(known or {})

    def side(src: Source) -> tuple[bool, str | None]:
        if src.kind == "entry":
            return True, src.player
        assert src.match is not None
        feeder = states.get(src.match)
        if feeder is None or feeder.status not in DECIDED:
            return False, None
        return True, feeder.winner if src.kind == "winner" else feeder.loser

    for f in fixtures:
        if f.unless_home_wins is not None:
            first = states.get(f.unless_home_wins)
            if first is not None and first.status == "played" and first.winner == first.home:
                states[f.code] = SlotState(code=f.code, status="not_needed")
                continue
        (home_known, home), (away_known, away) = side(f.home), side(f.away)
        if not (home_known and away_known):
            states[f.code] = SlotState(code=f.code, status="waiting", home=home, away=away)
        elif home is None or away is None:
            status: SlotStatus = "void" if home is None and away is None else "walkover"
            states[f.code] = SlotState(code=f.code, status=status, home=home, away=away, winner=home or away)
        elif f.code in winners:
            winner = winners[f.code]
            if winner not in (home, away):
                raise RuleViolation(f"{winner} is not a player of match {f.code} ({home} - {away})")
            loser = away if winner == home else home
            states[f.code] = SlotState(
                code=f.code, status="played", home=home, away=away, winner=winner, loser=loser
            )
        else:
            states[f.code] = SlotState(code=f.code, status="ready", home=home, away=away)
    return states


def records_of(
    fixtures: Iterable[Fixture], states: Mapping[str, SlotState], scores: Mapping[str, MatchRecord]
) -> list[MatchRecord]:
    """The decided matches as the rules' records: played ones as scored, BYEs as BYEs.

    `scores` holds the official record of each played fixture (points, forfeit); a walkover
    is a BYE for the player who went through. Void slots and waiting ones give nothing.
    """
    out: list[MatchRecord] = []
    for f in fixtures:
        state = states[f.code]
        if state.status == "played":
            out.append(scores[f.code])
        elif state.status == "walkover" and f.home.kind == "entry" and f.away.kind == "entry":
            assert state.winner is not None
            out.append(MatchRecord(round=f.round, home=state.winner, winner=state.winner))
    return out


# -- what comes next ------------------------------------------------------------------------


def _decided(fixtures: Iterable[Fixture], states: Mapping[str, SlotState]) -> bool:
    return all(states[f.code].status in (*DECIDED, "not_needed") for f in fixtures)


def _knocked_out_in(fixtures: Sequence[Fixture], states: Mapping[str, SlotState]) -> dict[str, int]:
    return {
        s.loser: f.round for f in fixtures if (s := states[f.code]).status == "played" and s.loser is not None
    }


def plan_next_draw(
    settings: DaySettings,
    field: Sequence[Entrant],
    draws: Sequence[Draw],
    winners: Mapping[str, str],
    scores: Mapping[str, MatchRecord],
    withdrawn: Set[str] = frozenset(),
    late: Sequence[LateEntry] = (),
) -> DrawInputs:
    """The inputs of the next draw, or why there is none now.

    Raises `RoundInProgress` while results it depends on are not official (a Swiss or lives
    round, the Main rounds that feed a side bracket), `NothingToDraw` once every draw is made.
    Players who withdrew or were disqualified (`withdrawn`) are not paired again (R8.2, R8.3).
    `late`: Swiss and lives players who entered after the first draw, with their start.
    """
    number = len(draws) + 1
    if not draws:
        return DrawInputs(number=1, settings=settings, field=tuple(field))
    fixtures = [f for d in draws for f in d.fixtures]
    states = flow(fixtures, winners)
    last = draws[-1]
    if settings.format in ("swiss", "lives"):
        if not _decided(last.fixtures, states):
            raise RoundInProgress(f"Round {last.inputs.round} still has results that are not official.")
        from tavla.rules.lives import players_still_in

        history = tuple(records_of(fixtures, states, scores))
        playing = {e.player_id for e in field}
        if settings.format == "swiss":
            total = settings.rounds_of_swiss(len(field))
            if last.inputs.round >= total:
                raise NothingToDraw(f"All {total} Swiss rounds have been drawn.")
        elif (
            len(set(players_still_in(field, history, _starting_lives(settings, field, late))) - withdrawn) < 2
        ):
            raise NothingToDraw("The lives event is over: fewer than two players are left.")
        return DrawInputs(
            number=number,
            round=last.inputs.round + 1,
            settings=settings,
            field=tuple(field),
            history=history,
            withdrawn=tuple(sorted(withdrawn & {e.player_id for e in field})),
            late=tuple(sorted((e for e in late if e.player_id in playing), key=_by_player)),
        )
    if settings.format == "single_elimination":
        side = _next_side_bracket(settings, field, draws, states)
        if side is not None:
            return side.model_copy(update={"number": number})
    raise NothingToDraw("The whole draw of this tournament has been made.")


def _by_player(entry: LateEntry) -> str:
    return entry.player_id


def _next_side_bracket(
    settings: DaySettings, field: Sequence[Entrant], draws: Sequence[Draw], states: Mapping[str, SlotState]
) -> DrawInputs | None:
    """The Consolation, then the Last Chance, once the rounds that feed it are decided (R5.8)."""
    events = [d.inputs.event for d in draws]
    plan = settings.side_plan
    by_id = {e.player_id: e for e in field}
    main = next(d for d in draws if d.inputs.event == "main")
    main_fixtures = list(main.fixtures)
    main_out = _knocked_out_in(main_fixtures, states)
    main_byes = bye_holders(_lines(main))
    if settings.consolation and "consolation" not in events:
        feeding = [f for f in main_fixtures if f.round in plan.consolation_from_main]
        if not _decided(feeding, states):
            raise RoundInProgress(
                f"The Consolation is drawn once Main round(s) {_rounds(plan.consolation_from_main)} "
                "are decided."
            )
        order = [p for p in _lines(main) if p is not None]
        players = _losers(feeding, states, order)
        if len(players) >= 2:
            return DrawInputs(
                number=1,
                event="consolation",
                settings=settings,
                field=tuple(by_id[p] for p in players),
                had_bye=tuple(sorted(main_byes)),
            )
    if settings.last_chance and "last_chance" not in events:
        consolation = next((d for d in draws if d.inputs.event == "consolation"), None)
        feeding = [f for f in main_fixtures if f.round in plan.last_chance_from_main]
        side_out: dict[str, int] = {}
        byes = set(main_byes)
        if consolation is not None:
            feeding += [f for f in consolation.fixtures if f.round in plan.last_chance_from_consolation]
            side_out = _knocked_out_in(list(consolation.fixtures), states)
            byes |= bye_holders(_lines(consolation))
        if not _decided(feeding, states):
            raise RoundInProgress("The Last Chance is drawn once the rounds that feed it are decided.")
        order = [p for p in _lines(main) if p is not None]
        players = last_chance_field(main_out, side_out, plan, order)
        if len(players) >= 2:
            return DrawInputs(
                number=1,
                event="last_chance",
                settings=settings,
                field=tuple(by_id[p] for p in players),
                had_bye=tuple(sorted(byes)),
            )
    return None


def _rounds(rounds: Iterable[int]) -> str:
    return ", ".join(str(r) for r in rounds)


def _lines(draw: Draw) -> list[str | None]:
    """Round one's bracket lines of an elimination draw, in bracket order."""
    return [
        p for f in draw.fixtures if f.round == 1 and f.label == "R1" for p in (f.home.player, f.away.player)
    ]


def _losers(fixtures: Iterable[Fixture], states: Mapping[str, SlotState], order: Sequence[str]) -> list[str]:
    position = {p: i for i, p in enumerate(order)}
    found = [(f.round, s.loser) for f in fixtures if (s := states[f.code]).status == "played" and s.loser]
    return [p for _, p in sorted(found, key=lambda x: (x[0], position.get(x[1], 0)))]


# -- finishing --------------------------------------------------------------------------------


def event_finished(
    settings: DaySettings,
    draws: Sequence[Draw],
    winners: Mapping[str, str],
    scores: Mapping[str, MatchRecord],
    withdrawn: Set[str] = frozenset(),
) -> bool:
    """Every draw that will be made is made and every match of it decided (the day can finish)."""
    if not draws:
        return False
    fixtures = [f for d in draws for f in d.fixtures]
    states = flow(fixtures, winners)
    if not _decided(fixtures, states):
        return False
    # a Swiss or lives field grows with late entries: the latest round's field is the whole one
    latest = draws[-1].inputs if settings.format in ("swiss", "lives") else draws[0].inputs
    try:
        plan_next_draw(settings, latest.field, draws, winners, scores, withdrawn, latest.late)
    except NothingToDraw:
        return True
    return False


def event_standings(
    settings: DaySettings,
    event: EventName,
    players: Sequence[str],
    records: Sequence[MatchRecord],
    disqualified: Set[str] = frozenset(),
    points: MatchPoints | None = None,
    late: Sequence[LateEntry] = (),
) -> list[Standing]:
    """An event's standings by its format (R10.1, R10.2): knockout places or the table chain,
    counted with the page's `points` (R5.6), else the format's defaults; late entrants with
    the start they were given."""
    if event != "main" or settings.format == "single_elimination":
        return knockout_standings(players, records, disqualified, lives=1)
    if settings.format == "double_elimination":
        return knockout_standings(players, records, disqualified, lives=2)
    if settings.format == "lives":
        lives = _starting_lives(settings, [Entrant(player_id=p) for p in players], late)
        return knockout_standings(players, records, disqualified, lives=lives)
    if points is None:
        points = SWISS_POINTS if settings.format == "swiss" else LEAGUE_POINTS
    return list(table_standings(players, records, points, disqualified, start_half_points(late)))
