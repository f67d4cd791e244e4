"""A match as a sequence of games: cube, Crawford, dead cube, forfeits (R7.2, R7.3, R7.8, R8.1, R8.2).

The state is a frozen value; `apply_action(state, action)` returns the next state or refuses the
action with a `MatchRuleViolation` a referee can read out. Start a match with `start_match`.

Rulebook decisions taken here:

- Gammon counts 2 and backgammon 3 with or without a double: no Jacoby rule (platform 7,
  hbf 5.3).
- Crawford (platform 7, hbf 5.5, cnb 4.4.4): the first game that starts while a player needs
  exactly one point is the Crawford game; no one may double in it; the games after it are
  post-Crawford and the cube is live again. In a 1-point match the only game is the Crawford game.
- A cube turned by mistake in the Crawford game is void (cnb 4.4.4): a game reported with a
  cube above 1 scores as if the cube had not been used. A passed double in the Crawford game
  counts as the concession of a single game: the passer loses 1 point, never the cube value.
  (In the live flow `Double` is simply refused in the Crawford game.)
- Dead cube (hbf 5.6): when the cube is so high that the match ends with this game whoever
  wins it (cube >= the points both players still need), the game is played out at that level:
  any further double is refused. The same refusal is applied under every profile: a double
  that cannot change who wins the match changes nothing in the confirmed result.
- The match ends when a player reaches the match length (hbf 4.9). The official result
  records the winner at exactly the match length: points won beyond it count for nothing
  (the rulebooks define the winner as the first to reach the length and record a forfeit as
  length-0, i.e. a whole match). The raw running score stays in `MatchState.score`.
- Forfeit, withdrawal, disqualification: recorded as length-0 whatever the score (R8.1,
  R8.2). Loss on time (R7.4): the winner is credited with the match length, the loser keeps
  the points already won.
- Penalty points (late arrival, breaks, slow play) are scored between games only; they can
  make a player reach match point (the next game is then the Crawford game) or win the match.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache
from typing import Annotated, Literal

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError, model_validator

from tavla.rules.entrants import MatchRecord
from tavla.rules.errors import RuleViolation
from tavla.rules.value import RuleModel

GameResultKind = Literal["single", "gammon", "backgammon"]
ForfeitReason = Literal[
    "no_show", "late_arrival", "did_not_continue", "withdrawal", "disqualification", "penalty"
]
ResultHow = Literal["played", "penalty", "forfeit", "time"]

MULTIPLIER: dict[str, int] = {"single": 1, "gammon": 2, "backgammon": 3}
MAX_MATCH_LENGTH = 99


# --------------------------------------------------------------------------- errors


class MatchRuleViolation(RuleViolation):
    """An action the rules of the match do not allow at this point."""


class MatchOver(MatchRuleViolation):
    """The match has a result: nothing more can be played or scored."""


class UnknownPlayer(MatchRuleViolation):
    """The action names someone who is not playing this match."""


class CubeNotInUse(MatchRuleViolation):
    """The tournament plays this match without the doubling cube."""


class CrawfordNoDouble(MatchRuleViolation):
    """Nobody may double in the Crawford game."""


class CubeAccessDenied(MatchRuleViolation):
    """Only the cube owner (or either player while the cube is centred) may double."""


class DeadCube(MatchRuleViolation):
    """The cube is dead: this game ends the match whoever wins it, so it is played out at this level."""


class DoublePending(MatchRuleViolation):
    """A double is on the table: it must be taken or passed first."""


class NoDoublePending(MatchRuleViolation):
    """There is no double to take or pass."""


class WrongPlayer(MatchRuleViolation):
    """The right action by the wrong player (e.g. taking one's own double)."""


class GameInProgress(MatchRuleViolation):
    """The action needs a game boundary, but this game's cube is already in play."""


class InvalidGameRecord(MatchRuleViolation):
    """A reported game that cannot have happened (impossible cube value, a gammon on a pass)."""


class ImpossibleScore(MatchRuleViolation):
    """A declared final score that no match of this length can end with."""


# --------------------------------------------------------------------------- actions


class _Action(RuleModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Double(_Action):
    """`player` turns the cube, before rolling."""

    type: Literal["double"] = "double"
    player: str


class Take(_Action):
    """`player` accepts the double on the table and now owns the cube."""

    type: Literal["take"] = "take"
    player: str


class Pass(_Action):
    """`player` refuses the double and loses the game at the cube value before the double."""

    type: Literal["pass"] = "pass"
    player: str


class WinGame(_Action):
    """`player` wins the game in play: single, gammon or backgammon times the cube value.

    A resignation (hbf 4.9, cnb 4.5) is recorded the same way, as a win of the opponent.
    """

    type: Literal["win"] = "win"
    player: str
    result: GameResultKind = "single"


class RecordGame(_Action):
    """A whole game as reported on the scoreboard after it ended (R7.5).

    `cube` is the cube value the game was decided at; with `passed=True`, `cube` is the value
    the passer lost (the value before the refused double) and `result` must be single.
    """

    type: Literal["record"] = "record"
    winner: str
    result: GameResultKind = "single"
    cube: int = Field(default=1, ge=1)
    passed: bool = False


class AwardPenalty(_Action):
    """Penalty points scored for `player` (the opponent of the offender), between games."""

    type: Literal["penalty"] = "penalty"
    player: str
    points: int = Field(ge=1)
    reason: str = "penalty"


class Forfeit(_Action):
    """`player` loses the match by forfeit: recorded as match length-0 (R8.1, R8.2)."""

    type: Literal["forfeit"] = "forfeit"
    player: str
    reason: ForfeitReason = "did_not_continue"


class LoseOnTime(_Action):
    """`player`'s clock ran out: they lose the match (R7.4)."""

    type: Literal["time"] = "time"
    player: str


MatchAction = Annotated[
    Double | Take | Pass | WinGame | RecordGame | AwardPenalty | Forfeit | LoseOnTime,
    Field(discriminator="type"),
]


_ACTION_ADAPTER: TypeAdapter[MatchAction] = TypeAdapter(MatchAction)


def parse_action(data: Mapping[str, object]) -> MatchAction:
    """An action from its JSON form, e.g. {"type": "double", "player": "A"}; refuses anything else."""
    try:
        return _ACTION_ADAPTER.validate_python(dict(data))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"])
        raise MatchRuleViolation(f"Not a match action ({where}: {first['msg']})") from None


# --------------------------------------------------------------------------- values


class CubeState(RuleModel):
    """The cube of the game in play: its value, who owns it (None: centred), a double on offer."""

    model_config = ConfigDict(frozen=True)

    value: int = Field(default=1, ge=1)
    owner: str | None = None
    offered_by: str | None = None

    @property
    def is_fresh(self) -> bool:
        """True while nobody has touched the cube in this game."""
        return self.value == 1 and self.owner is None and self.offered_by is None


class GameRecord(RuleModel):
    """A finished game: who won, how, at which cube, and the points it scored."""

    model_config = ConfigDict(frozen=True)

    number: int = Field(ge=1)
    winner: str
    result: GameResultKind
    cube: int = Field(ge=1)
    points: int = Field(ge=1)
    passed: bool = False
    crawford: bool = False
    cube_voided: bool = False


class PenaltyRecord(RuleModel):
    """Penalty points scored for `player`, before game `before_game`."""

    model_config = ConfigDict(frozen=True)

    before_game: int = Field(ge=1)
    player: str
    points: int = Field(ge=1)
    reason: str


class MatchResult(RuleModel):
    """The official result: winner at the match length (or length-0 on a forfeit)."""

    model_config = ConfigDict(frozen=True)

    winner: str
    loser: str
    winner_points: int = Field(ge=0)
    loser_points: int = Field(ge=0)
    how: ResultHow
    forfeit_reason: ForfeitReason | None = None

    @property
    def forfeit(self) -> bool:
        return self.how == "forfeit"

    @property
    def score_text(self) -> str:
        """The score as a referee writes it, winner first: "5-3"."""
        return f"{self.winner_points}-{self.loser_points}"


class MatchState(RuleModel):
    """A match of `match_length` points between `players` (ids or names, used in messages)."""

    model_config = ConfigDict(frozen=True)

    match_length: int = Field(ge=1, le=MAX_MATCH_LENGTH)
    players: tuple[str, str] = ("A", "B")
    cube_used: bool = True
    crawford_rule: bool = True
    score: tuple[int, int] = (0, 0)
    games: tuple[GameRecord, ...] = ()
    penalties: tuple[PenaltyRecord, ...] = ()
    cube: CubeState = CubeState()
    result: MatchResult | None = None

    @model_validator(mode="after")
    def _players_differ(self) -> MatchState:
        if self.players[0] == self.players[1] or not all(self.players):
            raise UnknownPlayer("A match needs two different, named players")
        return self

    # ---- reading the state

    @property
    def is_over(self) -> bool:
        return self.result is not None

    @property
    def game_number(self) -> int:
        """The number of the game in play (or the next one to start)."""
        return len(self.games) + 1

    def index(self, player: str) -> int:
        """0 or 1 for a player of this match; refuses anyone else."""
        if player == self.players[0]:
            return 0
        if player == self.players[1]:
            return 1
        raise UnknownPlayer(f"{player} is not playing this match ({self.players[0]} v {self.players[1]})")

    def opponent(self, player: str) -> str:
        return self.players[1 - self.index(player)]

    def points_of(self, player: str) -> int:
        return self.score[self.index(player)]

    def needs(self, player: str) -> int:
        """Points `player` still needs to win the match (0 once reached)."""
        return max(0, self.match_length - self.points_of(player))

    @property
    def leader(self) -> str | None:
        """Who leads on points (None when level)."""
        a, b = self.score
        if a == b:
            return None
        return self.players[0] if a > b else self.players[1]

    @property
    def crawford_played(self) -> bool:
        return any(g.crawford for g in self.games)

    @property
    def is_crawford_game(self) -> bool:
        """True when the game in play is the Crawford game (no doubling)."""
        if self.is_over or not self.cube_used or not self.crawford_rule or self.crawford_played:
            return False
        return self.match_length - 1 in self.score

    @property
    def is_post_crawford(self) -> bool:
        return not self.is_over and self.crawford_played

    @property
    def cube_is_dead(self) -> bool:
        """True when this game ends the match whoever wins it (hbf 5.6): no more doubles."""
        if self.is_over or not self.cube_used:
            return False
        return self.cube.value >= max(self.needs(p) for p in self.players)

    @property
    def score_text(self) -> str:
        """The running score in player order: "3-2"."""
        return f"{self.score[0]}-{self.score[1]}"

    def may_double(self, player: str) -> bool:
        """True when `player` may turn the cube now."""
        try:
            _check_double(self, player)
        except MatchRuleViolation:
            return False
        return True


# --------------------------------------------------------------------------- entry points


def start_match(
    match_length: int,
    players: tuple[str, str] = ("A", "B"),
    *,
    cube_used: bool = True,
    crawford_rule: bool = True,
) -> MatchState:
    """A new match at 0-0 with the cube centred.

    Whether the cube is used at all is a tournament setting; the Crawford rule applies in every
    profile (the flag exists for the odd event that says otherwise).
    """
    if not 1 <= match_length <= MAX_MATCH_LENGTH:
        raise MatchRuleViolation(f"A match is 1 to {MAX_MATCH_LENGTH} points long, not {match_length}")
    if players[0] == players[1] or not all(players):
        raise UnknownPlayer("A match needs two different, named players")
    return MatchState(
        match_length=match_length, players=players, cube_used=cube_used, crawford_rule=crawford_rule
    )


def apply_action(state: MatchState, action: MatchAction) -> MatchState:
    """The state after `action`; raises a `MatchRuleViolation` saying why when it is not allowed.

    Guarantees: scores never decrease; the match has a result exactly when a player has reached
    the match length or lost by forfeit or on time; no double is ever accepted in the Crawford
    game, on a dead cube, or by a player without access to the cube.
    """
    if state.result is not None:
        raise MatchOver(f"Match is over: {state.result.winner} won {state.result.score_text}")
    if isinstance(action, Double):
        return _double(state, action.player)
    if isinstance(action, Take):
        return _take(state, action.player)
    if isinstance(action, Pass):
        return _pass(state, action.player)
    if isinstance(action, WinGame):
        return _win(state, action)
    if isinstance(action, RecordGame):
        return _record(state, action)
    if isinstance(action, AwardPenalty):
        return _penalty(state, action)
    if isinstance(action, Forfeit):
        return _forfeit(state, action.player, action.reason)
    return _lose_on_time(state, action.player)


def replay(state: MatchState, actions: list[MatchAction] | tuple[MatchAction, ...]) -> MatchState:
    """Apply `actions` in order (raising at the first one that is not allowed)."""
    for action in actions:
        state = apply_action(state, action)
    return state


def withdraw(state: MatchState, player: str) -> MatchState:
    """`player` withdraws mid-match: a forfeit, length-0 (R8.2)."""
    return apply_action(state, Forfeit(player=player, reason="withdrawal"))


def to_match_record(state: MatchState, round_number: int) -> MatchRecord:
    """The finished match as the draw and standings see it (home = first player)."""
    if state.result is None:
        raise MatchRuleViolation(f"The match is not over yet ({state.score_text})")
    res = state.result
    home, away = state.players
    home_points = res.winner_points if res.winner == home else res.loser_points
    away_points = res.winner_points if res.winner == away else res.loser_points
    return MatchRecord(
        round=round_number,
        home=home,
        away=away,
        home_points=home_points,
        away_points=away_points,
        winner=res.winner,
        forfeit=res.forfeit,
    )


# --------------------------------------------------------------------------- cube actions


def _check_double(state: MatchState, player: str) -> None:
    state.index(player)
    if state.result is not None:
        raise MatchOver(f"Match is over: {state.result.winner} won {state.result.score_text}")
    if not state.cube_used:
        raise CubeNotInUse("This match is played without the doubling cube")
    if state.is_crawford_game:
        raise CrawfordNoDouble("No doubling in the Crawford game")
    cube = state.cube
    if cube.offered_by is not None:
        other = state.opponent(cube.offered_by)
        raise DoublePending(f"{cube.offered_by} has doubled: {other} must take or pass first")
    if cube.owner is not None and cube.owner != player:
        raise CubeAccessDenied(f"Player {player} cannot double: {cube.owner} owns the cube")
    if state.cube_is_dead:
        raise DeadCube(
            f"The cube is dead at {cube.value}: this game ends the match whoever wins it, "
            "so it is played out at this level"
        )


def _double(state: MatchState, player: str) -> MatchState:
    _check_double(state, player)
    return state.model_copy(update={"cube": state.cube.model_copy(update={"offered_by": player})})


def _answering(state: MatchState, player: str, verb: str) -> str:
    """Check that `player` may answer a double; return the doubler."""
    state.index(player)
    doubler = state.cube.offered_by
    if doubler is None:
        raise NoDoublePending(f"There is no double to {verb}")
    if doubler == player:
        raise WrongPlayer(f"{player} cannot {verb} their own double: {state.opponent(player)} answers it")
    return doubler


def _take(state: MatchState, player: str) -> MatchState:
    _answering(state, player, "take")
    cube = CubeState(value=state.cube.value * 2, owner=player)
    return state.model_copy(update={"cube": cube})


def _pass(state: MatchState, player: str) -> MatchState:
    doubler = _answering(state, player, "pass")
    game = GameRecord(
        number=state.game_number,
        winner=doubler,
        result="single",
        cube=state.cube.value,
        points=state.cube.value,
        passed=True,
    )
    return _end_game(state, game)


def _win(state: MatchState, action: WinGame) -> MatchState:
    state.index(action.player)
    if state.cube.offered_by is not None:
        other = state.opponent(state.cube.offered_by)
        raise DoublePending(f"{other} must take or pass the double before the game can end")
    game = GameRecord(
        number=state.game_number,
        winner=action.player,
        result=action.result,
        cube=state.cube.value,
        points=MULTIPLIER[action.result] * state.cube.value,
        crawford=state.is_crawford_game,
    )
    return _end_game(state, game)


# --------------------------------------------------------------------------- reported games


def _is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def max_cube(needs: int) -> int:
    """The highest cube a game can reach when the player who needs more still needs `needs`.

    A double from c is allowed while c < needs (a higher cube is dead, hbf 5.6), so the cube
    stops at the first power of two >= needs.
    """
    cube = 1
    while cube < needs:
        cube *= 2
    return cube


def _record(state: MatchState, action: RecordGame) -> MatchState:
    state.index(action.winner)
    if not state.cube.is_fresh:
        raise GameInProgress("This game's cube is in play: finish it with a win or a pass")
    cube = action.cube
    if action.passed and action.result != "single":
        raise InvalidGameRecord("A passed double scores a single game at the cube value, never a gammon")
    if not _is_power_of_two(cube):
        raise InvalidGameRecord(f"A cube shows a power of two: {cube} is not a cube value")
    if cube > 1 and not state.cube_used:
        raise CubeNotInUse("This match is played without the doubling cube")
    crawford = state.is_crawford_game
    if action.passed and not state.cube_used:
        raise CubeNotInUse("This match is played without the doubling cube: there is no double to pass")
    if crawford:
        # cnb 4.4.4: a double in the Crawford game is void; the game scores as if the cube
        # was not used. A pass concedes a single game.
        voided = cube > 1 or action.passed
        points = 1 if action.passed else MULTIPLIER[action.result]
        game = GameRecord(
            number=state.game_number,
            winner=action.winner,
            result=action.result,
            cube=1,
            points=points,
            passed=action.passed,
            crawford=True,
            cube_voided=voided,
        )
        return _end_game(state, game)
    top = max_cube(max(state.needs(p) for p in state.players))
    highest = cube * 2 if action.passed else cube
    if highest > top:
        what = f"a double to {highest}" if action.passed else f"a cube at {cube}"
        raise InvalidGameRecord(
            f"Impossible at {state.score_text}: the cube is dead at {top}, so {what} cannot happen"
        )
    game = GameRecord(
        number=state.game_number,
        winner=action.winner,
        result=action.result,
        cube=cube,
        points=MULTIPLIER[action.result] * cube,
        passed=action.passed,
    )
    return _end_game(state, game)


# --------------------------------------------------------------------------- scoring


def _add_points(score: tuple[int, int], i: int, points: int) -> tuple[int, int]:
    return (score[0] + points, score[1]) if i == 0 else (score[0], score[1] + points)


def _finish_if_reached(state: MatchState, how: ResultHow) -> MatchState:
    n = state.match_length
    for i, player in enumerate(state.players):
        if state.score[i] >= n:
            loser = state.players[1 - i]
            result = MatchResult(
                winner=player,
                loser=loser,
                winner_points=n,
                loser_points=state.score[1 - i],
                how=how,
            )
            return state.model_copy(update={"result": result})
    return state


def _end_game(state: MatchState, game: GameRecord) -> MatchState:
    score = _add_points(state.score, state.index(game.winner), game.points)
    after = state.model_copy(update={"score": score, "games": (*state.games, game), "cube": CubeState()})
    return _finish_if_reached(after, "played")


def _penalty(state: MatchState, action: AwardPenalty) -> MatchState:
    i = state.index(action.player)
    if not state.cube.is_fresh:
        raise GameInProgress("Penalty points are scored between games: finish this game first")
    record = PenaltyRecord(
        before_game=state.game_number, player=action.player, points=action.points, reason=action.reason
    )
    after = state.model_copy(
        update={
            "score": _add_points(state.score, i, action.points),
            "penalties": (*state.penalties, record),
        }
    )
    return _finish_if_reached(after, "penalty")


def _forfeit(state: MatchState, player: str, reason: ForfeitReason) -> MatchState:
    winner = state.opponent(player)
    result = MatchResult(
        winner=winner,
        loser=player,
        winner_points=state.match_length,
        loser_points=0,
        how="forfeit",
        forfeit_reason=reason,
    )
    return state.model_copy(update={"result": result, "cube": CubeState()})


def _lose_on_time(state: MatchState, player: str) -> MatchState:
    winner = state.opponent(player)
    result = MatchResult(
        winner=winner,
        loser=player,
        winner_points=state.match_length,
        loser_points=state.points_of(player),
        how="time",
    )
    return state.model_copy(update={"result": result, "cube": CubeState()})


# --------------------------------------------------------------------------- declared scores

_SCORE_RE = re.compile(r"^\s*(\d{1,3})\s*[-:/]\s*(\d{1,3})\s*$")


def parse_score(text: str) -> tuple[int, int]:
    """ "5-3" (also "5:3", "5 - 3") as a pair of ints; refuses anything else."""
    m = _SCORE_RE.match(text)
    if m is None:
        raise ImpossibleScore(f"{text!r} is not a score: write it as 5-3")
    return int(m.group(1)), int(m.group(2))


def check_final_score(
    match_length: int,
    score_a: int,
    score_b: int,
    *,
    cube_used: bool = True,
    crawford_rule: bool = True,
    capped: bool = True,
) -> None:
    """Refuse a declared final score that no match of `match_length` can end with.

    `capped=True` (the official form, see the module notes): exactly one player has the match
    length and the other less. `capped=False` accepts the raw points the winner reached when
    legal games can reach them (e.g. 7-2 in a 5-point match: a gammon on a 2-cube at 3-2);
    penalty points are not considered there.
    """
    n = match_length
    if not 1 <= n <= MAX_MATCH_LENGTH:
        raise ImpossibleScore(f"A match is 1 to {MAX_MATCH_LENGTH} points long, not {n}")
    text = f"{score_a}-{score_b}"
    if score_a < 0 or score_b < 0:
        raise ImpossibleScore(f"{text}: scores are never negative")
    if score_a >= n and score_b >= n:
        raise ImpossibleScore(f"{text} is not a final score: only one player can reach {n}")
    if score_a < n and score_b < n:
        raise ImpossibleScore(
            f"{text} is not a final score: a {n}-point match ends when a player reaches {n}"
        )
    winner, loser = max(score_a, score_b), min(score_a, score_b)
    if capped:
        if winner != n:
            raise ImpossibleScore(f"{text}: the winner of a {n}-point match is recorded with {n} points")
        return
    if (winner, loser) not in _raw_final_scores(n, cube_used, crawford_rule):
        raise ImpossibleScore(f"{text} cannot be reached in a {n}-point match")


def is_possible_final_score(
    match_length: int,
    score_a: int,
    score_b: int,
    *,
    cube_used: bool = True,
    crawford_rule: bool = True,
    capped: bool = True,
) -> bool:
    """True when `check_final_score` accepts the score."""
    try:
        check_final_score(
            match_length, score_a, score_b, cube_used=cube_used, crawford_rule=crawford_rule, capped=capped
        )
    except ImpossibleScore:
        return False
    return True


@lru_cache(maxsize=64)
def _raw_final_scores(n: int, cube_used: bool, crawford_rule: bool) -> frozenset[tuple[int, int]]:
    """Every (winner raw points, loser points) that legal games can end a match with."""
    finals: set[tuple[int, int]] = set()
    seen: set[tuple[int, int, bool]] = set()
    todo = [(0, 0, False)]
    while todo:
        node = todo.pop()
        if node in seen:
            continue
        seen.add(node)
        a, b, done = node
        crawford = cube_used and crawford_rule and not done and n - 1 in (a, b)
        if cube_used and not crawford:
            top = max_cube(max(n - a, n - b))
            cubes = [c for c in (1 << k for k in range(top.bit_length())) if c <= top]
        else:
            cubes = [1]
        values = {m * c for m in (1, 2, 3) for c in cubes}
        for v in values:
            for mine, theirs, first in ((a, b, True), (b, a, False)):
                won = mine + v
                if won >= n:
                    finals.add((won, theirs))
                else:
                    nxt = (won, theirs) if first else (theirs, won)
                    todo.append((nxt[0], nxt[1], done or crawford))
    return frozenset(finals)
