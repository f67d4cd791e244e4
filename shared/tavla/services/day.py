"""The tournament day between the store and the rules: stored matches and rounds as the rules'
draws and results, and stored matches as the public sees them.

Every use case of the day (draw, result, appeal, conduct, board) reads the day through here,
so the rules see one consistent picture whichever function asks.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from tavla.models.day import Declaration, MatchView, PlayerRef, Redraw, ResultView, RoundSummary
from tavla.rules.entrants import Entrant, MatchRecord
from tavla.rules.late_entries import LateEntry
from tavla.rules.model import MATCH_ID_SEPARATOR as MATCH_ID_SEPARATOR
from tavla.rules.model import bracket_of
from tavla.rules.model import match_id as match_id
from tavla.rules.points import MatchPoints, table_points
from tavla.rules.states import State
from tavla.store.records import FieldRecord, FixtureRecord, RoundRecord, TournamentRecord

if TYPE_CHECKING:
    from tavla.rules.day import DaySettings, Draw, Fixture
    from tavla.rules.double_elimination import Source

# The draw algorithms (`rules.day` and the formats it draws) are imported by the functions here
# that read draws, not at the top: a score, a presence or an appeal's first request need not
# pay for them in the function's init (cold start, docs/decisions/0033).


def split_match_id(value: str) -> tuple[str, str] | None:
    tournament_id, _, code = value.partition(MATCH_ID_SEPARATOR)
    return (tournament_id, code) if tournament_id and code else None


def settings_of(tournament: TournamentRecord) -> DaySettings:
    """What the draws need of the tournament's page and its effective rules (R2.1, R2.2)."""
    from tavla.rules.day import DaySettings

    s = tournament.play
    knockout = s.format == "single_elimination"
    return DaySettings(
        format=s.format,
        seeding=s.seeding,
        club_protection=s.club_protection,
        lives=s.lives,
        lives_by_player=dict(s.lives_by_player) if s.lives_by_player and s.format == "lives" else None,
        swiss_rounds=s.swiss_rounds,
        consolation="consolation" in s.side_events and knockout,
        last_chance="last_chance" in s.side_events and knockout,
        lives_pairing="equal_lives_first" if s.format == "lives" else None,
    )


def match_points_of(tournament: TournamentRecord) -> MatchPoints:
    """What a win, a loss and a forfeit are worth in its Swiss or league table (R5.6)."""
    return table_points(tournament.play.format == "swiss", tournament.play.match_points)


def table_count(tournament: TournamentRecord, players: int) -> int:
    """The venue's tables: the page's number, else one for every two players of the field."""
    return tournament.play.table_count(players)


def match_length(tournament: TournamentRecord, stage: str) -> int:
    """Points to win at this stage (R7.3): semi-finals and final may be longer."""
    return tournament.play.match_length(stage)


def entrants(field: FieldRecord, division: str | None = None) -> list[Entrant]:
    """The field as the rules see it; of one division when the tournament has several (R3.7)."""
    return [
        Entrant(
            player_id=e["player_id"],
            rating=float(e.get("rating", 1500.0)),
            club=e.get("club_id") or e.get("club"),  # the club record's id; free text until mapped
        )
        for e in field.entrants
        if e.get("division") == division
    ]


def late_entries(field: FieldRecord, division: str | None = None) -> list[LateEntry]:
    """The division's late entrants with their start (Swiss and lives, R5.5, R5.7)."""
    return [
        LateEntry(player_id=e["player_id"], **e["late"])
        for e in field.entrants
        if e.get("late") and e.get("division") == division
    ]


def divisions(tournament: TournamentRecord) -> list[str | None]:
    """The keys the day is played under: one per division (R3.7), or just None when the
    tournament has a single division (its draws and codes then carry none)."""
    ids: list[str | None] = list(tournament.play.divisions)
    return ids if len(ids) > 1 else [None]


def division_of(draw: RoundRecord | Draw) -> str | None:
    """The division a published draw belongs to (None: the tournament has only one)."""
    inputs = draw.inputs
    return inputs.get("division") if isinstance(inputs, Mapping) else inputs.division


def out_of_play(field: FieldRecord | None) -> set[str]:
    """Players no longer paired: withdrawn or disqualified (R8.2, R8.3)."""
    return field.out_of_play if field is not None else set()


def _source(data: Mapping[str, Any]) -> Source:
    from tavla.rules.double_elimination import Source

    return Source(**{k: v for k, v in data.items() if k in ("kind", "player", "match")})


def fixture_of(record: FixtureRecord) -> Fixture:
    from tavla.rules.day import Fixture

    return Fixture(
        code=record.code,
        event=record.event,
        round=record.round,
        label=record.label,
        board=record.board,
        stage=record.stage,
        home=_source(record.home_source),
        away=_source(record.away_source),
        unless_home_wins=record.unless_home_wins,
    )


def draws_of(rounds: Sequence[RoundRecord], records: Iterable[FixtureRecord]) -> list[Draw]:
    """The published draws as the rules know them, from the stored rounds and matches."""
    from tavla.rules.day import Draw, DrawInputs

    by_draw: dict[int, list[FixtureRecord]] = {}
    for r in records:
        by_draw.setdefault(r.draw, []).append(r)
    draws = []
    for rnd in sorted(rounds, key=lambda r: r.number):
        stored = sorted(by_draw.get(rnd.number, []), key=lambda r: r.position)
        draws.append(
            Draw(
                inputs=DrawInputs.model_validate(rnd.inputs),
                seed=rnd.seed,
                fixtures=tuple(fixture_of(r) for r in stored),
            )
        )
    return draws


def results_of(records: Iterable[FixtureRecord]) -> tuple[dict[str, str], dict[str, MatchRecord]]:
    """The official results: winners by match code (for `flow`) and the rules' match records."""
    winners: dict[str, str] = {}
    scores: dict[str, MatchRecord] = {}
    for r in records:
        if r.state != State.OFFICIAL or r.result is None or r.home is None or r.away is None:
            continue
        winners[r.code] = r.result.winner
        scores[r.code] = MatchRecord(
            round=r.round,
            home=r.home,
            away=r.away,
            home_points=r.result.home_points,
            away_points=r.result.away_points,
            winner=r.result.winner,
            forfeit=r.result.forfeit,
        )
    return winners, scores


def names(field: FieldRecord | None) -> dict[str, PlayerRef]:
    return people(field.entrants) if field is not None else {}


def people(entrants: Iterable[Mapping[str, Any]]) -> dict[str, PlayerRef]:
    """The public face of a field's entries (name and club, R12.1) by Tavla ID."""
    return {
        e["player_id"]: PlayerRef(tavla_id=e["player_id"], name=e.get("name"), club=e.get("club"))
        for e in entrants
    }


def _from(source: Mapping[str, Any]) -> str | None:
    if source.get("kind") in ("winner", "loser") and source.get("match"):
        return f"{source['kind']} of {source['match']}"
    return None


def match_view(tournament_id: str, record: FixtureRecord, people: Mapping[str, PlayerRef]) -> MatchView:
    """A match as the public sees it: names and clubs, never a phone or an e-mail (R12.1)."""

    def ref(player: str | None) -> PlayerRef | None:
        return None if player is None else people.get(player, PlayerRef(tavla_id=player))

    result = record.result
    bracket, bracket_round = bracket_of(record.event, record.label)
    return MatchView(
        id=match_id(tournament_id, record.code),
        code=record.code,
        draw=record.draw,
        division=record.division,
        event=record.event,
        round=record.round,
        label=record.label,
        board=record.board,
        bracket=bracket,
        bracket_round=bracket_round,
        slot=record.board,
        stage=record.stage,
        length=record.length,
        best_of=record.best_of,
        legs=[list(leg) for leg in record.legs],
        state=record.state,
        home=ref(record.home),
        away=ref(record.away),
        home_from=_from(record.home_source) if record.home is None else None,
        away_from=_from(record.away_source) if record.away is None else None,
        table=record.table,
        called_at=datetime.fromisoformat(record.called_at) if record.called_at else None,
        present=[side for side in ("home", "away") if side in record.present],
        excused=[side for side in ("home", "away") if side in record.excused],
        late_points=dict(record.late_points),
        score=live_score(record),
        games=len(record.games),
        result=ResultView(
            winner=result.winner,
            home_points=result.home_points,
            away_points=result.away_points,
            forfeit=result.forfeit,
            how=result.how,
        )
        if result
        else None,
        official_at=datetime.fromisoformat(record.official_at) if record.official_at else None,
        appeal_open=record.appeal is not None,
        declared=[
            Declaration(
                side=side,
                home_points=int(declared["home_points"]),
                away_points=int(declared["away_points"]),
                at=datetime.fromisoformat(declared["at"]) if declared.get("at") else None,
            )
            for side in ("home", "away")
            if (declared := record.reports.get(side)) is not None
        ],
        version=record.version,
    )


def live_score(record: FixtureRecord) -> list[int]:
    """[home, away] as the board shows it: the score after the last game recorded (late-arrival
    points included), or before the first game the late-arrival points alone (R7.6: a late
    player's points go to the opponent)."""
    if record.games:
        return list(record.score)
    late = record.late_points
    return [int(late.get("away", 0)), int(late.get("home", 0))]


def round_summary(record: RoundRecord) -> RoundSummary:
    return RoundSummary(
        number=record.number,
        division=division_of(record),
        event=record.event,
        round=record.round,
        seed=record.seed,
        digest=record.digest,
        published_at=datetime.fromisoformat(record.published_at),
        matches=len(record.codes),
        revealed_seed=record.secret,
        attempt=record.attempt,
        redraws=[
            Redraw(
                attempt=e["attempt"], reason=e["reason"], redrawn_at=datetime.fromisoformat(e["redrawn_at"])
            )
            for e in record.earlier
        ],
    )
