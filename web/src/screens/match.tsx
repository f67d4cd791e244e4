// My match now: the table, the opponent, the round ("Γύρος 2 από 5"), the table-call
// countdown; the live score game by game; what each player declared as the final score (agree
// or dispute the opponent's); the result with its winner; the Appeal button while its window
// is open. It follows the match by itself (live/use-live.ts).
import { useEffect, useState } from "preact/hooks";
import { api, errorCode, type Board, type MatchDetail, type MatchView } from "../api/client";
import { Alert, NeedSignIn, Stale, Status } from "../ui/widgets";
import { useAction } from "../ui/action";
import { PositionPhoto } from "../ui/position-photo";
import { channelsOf, useLive } from "../live/use-live";
import { boardQuery, useBoardDeltas } from "../live/use-board";
import { roundOfRounds, roundsOf } from "../rounds";
import { getToken } from "../auth";
import { countdown, time } from "../format";
import { t, type Key } from "../i18n";
import { nothing, useLoad } from "../load";
import { platformNow } from "../platform-clock";

const LIVE = ["called", "playing", "finished", "disputed", "queued", "waiting", "adjourned"];

export function myMatch(board: Board | undefined, me: string): MatchView | undefined {
  if (!board) return undefined;
  const mine = board.brackets
    .flatMap((b) => b.rounds.flatMap((r) => r.matches))
    .filter((m) => m.home?.tavla_id === me || m.away?.tavla_id === me);
  return (
    mine.find((m) => LIVE.includes(m.state)) ??
    mine.filter((m) => m.official_at).sort((a, b) => (b.official_at ?? "").localeCompare(a.official_at ?? ""))[0]
  );
}

function useNow(): number {
  const [now, setNow] = useState(platformNow());
  useEffect(() => {
    const timer = setInterval(() => setNow(platformNow()), 1000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

export function MyMatch({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const me = useLoad(() => api.GET("/me"), []);
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const board = useLoad(() => api.GET("/tournaments/{tournament_id}/board", { params: { path: { tournament_id: id }, query: boardQuery(id) } }), [id]);
  const found = me.data && myMatch(board.data, me.data.tavla_id);
  const detail = useLoad(
    () =>
      found
        ? api.GET("/matches/{match_id}", { params: { path: { match_id: found.id } } })
        : nothing<MatchDetail>(),
    // by id only: the live reload refreshes it with the board, and a second read on each change
    // of the board would drop the answer already on its way
    [found?.id],
  );
  const reload = () => {
    board.reload();
    detail.reload();
  };
  // the board by the tournament's deltas; this player's match by its own channel's hints
  const deltas = useBoardDeltas(id, board, reload);
  const live = useLive([channelsOf.tournament(id), found ? channelsOf.match(found.id) : ""], deltas.reload, deltas.onDelta);
  const now = useNow();
  if (!getToken()) return <NeedSignIn />;
  const m = detail.data;
  return (
    <section>
      <h1>{t("my_match")}</h1>
      <Status loading={board.loading && !board.data} error={board.error ?? me.error} />
      <Stale since={live.staleSince} />
      {board.data && me.data && !found && <p>{t("no_match")}</p>}
      {m && me.data && tour.data && (
        <Match
          m={m}
          me={me.data.tavla_id}
          callMinutes={tour.data.rules.table_call_minutes}
          appealMinutes={tour.data.rules.appeal_window_minutes}
          rounds={found && roundsOf(found, board.data, tour.data)}
          now={now}
          onChange={reload}
        />
      )}
      <button type="button" class="secondary" onClick={reload}>
        {t("refresh")}
      </button>
    </section>
  );
}

function Match(props: {
  m: MatchDetail;
  me: string;
  callMinutes: number;
  appealMinutes: number;
  now: number;
  rounds: number | undefined;
  onChange: () => void;
}) {
  const { m, me, now } = props;
  const side = m.home?.tavla_id === me ? "home" : "away";
  const other = side === "home" ? m.away : m.home;
  // What a final score declares: the live score, the winner's capped at the match length; a
  // series (cnb 2.2.2): the matches each has won.
  const series = (m.best_of ?? 1) > 1;
  const cap = (n: number | undefined) => Math.min(n ?? 0, m.length);
  const declarable = (x: { score?: number[]; legs?: number[][] }): [number, number] =>
    series ? legsWon(x.legs) : [cap(x.score?.[0]), cap(x.score?.[1])];
  const [score, setScore] = useState<[number, number]>(declarable(m));
  const [result, setResult] = useState<"single" | "gammon" | "backgammon">("single");
  const [cube, setCube] = useState(1);
  const [appealing, setAppealing] = useState(false);
  const [disputing, setDisputing] = useState(false);
  const [typing, setTyping] = useState(false);
  const [statement, setStatement] = useState("");
  // The version the next score entry is made against: the latest answer's, not the last load's,
  // so two games recorded quickly one after the other are not refused as stale.
  const [version, setVersion] = useState(m.version ?? 0);
  useEffect(() => {
    setScore(declarable(m));
    setVersion((v) => Math.max(v, m.version ?? 0));
  }, [m.version]);
  const match_id = m.id;
  const action = useAction(props.onChange);
  async function act(call: () => Promise<{ error?: unknown; data?: unknown }>, ok: string) {
    const after = (await action.run(call, ok)) as { version?: number; score?: number[]; legs?: number[][] } | undefined;
    if (after?.version !== undefined) setVersion(after.version);
    if (after?.score) setScore(declarable(after));
  }
  // a series whose games were not entered: each match's score typed as "7-3, 5-7, 7-6"
  const [legsTyped, setLegsTyped] = useState("");
  const report = (home_points: number, away_points: number) =>
    act(
      () =>
        api.POST("/matches/{match_id}/report", {
          params: { path: { match_id } },
          body: { home_points, away_points, ...(series && legsTyped.trim() ? { legs: parseLegs(legsTyped) } : {}) },
        }),
      t("score_reported"),
    ).then(() => setDisputing(false));
  // Both windows are at most their length: the platform's clock may run ahead of the phone's
  // (the local stack's /dev/clock), never a window longer than the rules give.
  const callMs = props.callMinutes * 60000;
  const appealMs = props.appealMinutes * 60000;
  /** One game won by `winner`. If the match changed meanwhile without a new game (a presence
   * marked by the referee, say), the entry is made again on the new version; if a game was
   * recorded meanwhile, the refusal stands and the screen reloads. */
  async function recordGame(winner: string) {
    const put = (at: number) =>
      api.PUT("/matches/{match_id}/score", {
        params: { path: { match_id } },
        body: { version: at, game: { winner, result, cube, passed: false } },
      });
    const answer = await put(version);
    if (errorCode(answer.error) !== "stale_version") return answer;
    const fresh = await api.GET("/matches/{match_id}", { params: { path: { match_id } } });
    if (!fresh.data || (fresh.data.games ?? 0) !== (m.games ?? 0)) return answer;
    return put(fresh.data.version ?? 0);
  }
  const deadline = m.called_at ? Math.min(Date.parse(m.called_at) + callMs, now + callMs) : 0;
  const callLeft = m.state === "called" ? countdown(deadline, now) : null;
  const appealLeft =
    m.state === "official" && m.official_at && !m.appeal_open && m.result?.how !== "bye"
      ? countdown(Math.min(Date.parse(m.official_at) + appealMs, now + appealMs), now)
      : null;
  const present = m.present?.includes(side);
  const reported = m.reported?.includes(side);
  const playing = ["called", "playing"].includes(m.state) && !reported;
  const name = (s: "home" | "away") => m[s]?.name ?? m[s]?.tavla_id ?? "—";
  const declared = m.declared ?? [];
  const mine = declared.find((d) => d.side === side);
  const theirs = declared.find((d) => d.side !== side);
  const otherSide = side === "home" ? "away" : "home";
  const winner = m.result ? (m.result.winner === m.home?.tavla_id ? "home" : m.result.winner === m.away?.tavla_id ? "away" : undefined) : undefined;
  // the final-score form: once the games reach the match's length, or when the player chooses
  // to type it (no games entered), or to dispute the opponent's declaration
  const open = ["called", "playing", "finished", "disputed"].includes(m.state) && !reported;
  const showForm = open && (disputing || (!theirs && (m.state === "finished" || m.state === "disputed" || typing)));
  return (
    <div class="match-now">
      {m.table && (
        <p class="table-big">
          {t("table")} <strong data-testid="table">{m.table}</strong>
        </p>
      )}
      <p>
        {t("opponent")}: <strong data-testid="opponent">{other?.name ?? other?.tavla_id ?? "—"}</strong>
        {other?.club ? ` · ${other.club}` : ""}
      </p>
      <p class="round" data-testid="round">
        {roundOfRounds(m, props.rounds)}
      </p>
      <p role="status" data-testid="match-state">
        {reported && m.state !== "official" ? t("mstate_declared") : t(`mstate_${m.state}` as Key)} ·{" "}
        {series ? t("series_best_of", { n: m.length }) : t("points", { n: m.length })}
        {m.crawford ? " · Crawford" : ""}
      </p>
      {mine && (
        <p class="declared" data-testid="my-declaration">
          {t("you_declared", { home: mine.home_points, away: mine.away_points })}
        </p>
      )}
      {theirs && (
        <div class="declared card" data-testid="their-declaration">
          <p>{t("they_declared", { name: name(otherSide), home: theirs.home_points, away: theirs.away_points })}</p>
          {!reported && open && !disputing && (
            <div class="two">
              <button type="button" disabled={action.busy} onClick={() => void report(theirs.home_points, theirs.away_points)}>
                {t("agree")}
              </button>
              <button type="button" class="secondary" onClick={() => setDisputing(true)}>
                {t("dispute")}
              </button>
            </div>
          )}
        </div>
      )}
      {callLeft && !present && (
        <p class="countdown" role="timer" aria-live="off">
          {t("be_at_table", { left: callLeft })}
        </p>
      )}
      {m.state === "called" && !present && (
        <button type="button" onClick={() => act(() => api.POST("/matches/{match_id}/presence", { params: { path: { match_id } }, body: { present: true } }), t("marked_present"))}>
          {t("i_am_here")}
        </button>
      )}
      {series && <Legs m={m} />}
      <Breaks m={m} side={side} busy={action.busy} act={act} />
      {m.state === "adjourned" && m.adjournment && (
        <p class="notice" data-testid="adjourned">
          {t("adjourned_notice", { score: m.adjournment.score.join("–"), until: time(m.adjournment.resume_by) })}
        </p>
      )}
      {m.state === "adjourned" && m.adjournment?.photo && <PositionPhoto matchId={m.id} />}
      {!mine && !m.result && (
        <p class="live" data-testid="live-score">
          {/* a series: the score of the match in play (the form above declares matches won) */}
          {m.home?.name} {series ? (m.score?.[0] ?? 0) : score[0]} – {series ? (m.score?.[1] ?? 0) : score[1]} {m.away?.name}
        </p>
      )}
      {playing && (
        <fieldset>
          <legend>{t("record_game")}</legend>
          <div class="choice">
            <label class="check">
              <input type="radio" name="res" checked={result === "single"} onChange={() => setResult("single")} />
              {t("single")}
            </label>
            <label class="check">
              <input type="radio" name="res" checked={result === "gammon"} onChange={() => setResult("gammon")} />
              {t("gammon")}
            </label>
            <label class="check">
              <input
                type="radio"
                name="res"
                checked={result === "backgammon"}
                onChange={() => setResult("backgammon")}
              />
              {t("backgammon")}
            </label>
          </div>
          <label>
            {t("cube")}
            <select value={cube} onChange={(e) => setCube(Number(e.currentTarget.value))}>
              {[1, 2, 4, 8, 16, 32, 64].map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
          <div class="two">
            {(["home", "away"] as const).map((s) => (
              <button
                type="button"
                key={s}
                disabled={action.busy}
                onClick={() => act(() => recordGame(m[s]!.tavla_id), t("game_recorded"))}
              >
                {t("game_won_by", { name: m[s]?.name ?? "" })}
              </button>
            ))}
          </div>
        </fieldset>
      )}
      {open && !showForm && !theirs && m.state !== "finished" && m.state !== "disputed" && (
        <button type="button" class="secondary" onClick={() => setTyping(true)}>
          {t("type_final_score")}
        </button>
      )}
      {showForm && (
        <fieldset>
          <legend>{t("final_score")}</legend>
          <div class="two">
            {([0, 1] as const).map((i) => (
              <label key={i}>
                {(i === 0 ? m.home : m.away)?.name}
                <input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={99}
                  value={score[i]}
                  onInput={(e) => {
                    const next: [number, number] = [score[0], score[1]];
                    next[i] = Number(e.currentTarget.value);
                    setScore(next);
                  }}
                />
              </label>
            ))}
          </div>
          {series && !(m.legs ?? []).length && (
            <label>
              {t("series_legs_field")}
              <input name="legs" inputMode="numeric" value={legsTyped} onInput={(e) => setLegsTyped(e.currentTarget.value)} />
            </label>
          )}
          <button type="button" disabled={action.busy} onClick={() => void report(score[0], score[1])}>
            {t("confirm_score")}
          </button>
        </fieldset>
      )}
      {reported && m.state !== "official" && <p role="status">{t("waiting_confirmation")}</p>}
      {m.result && (
        <p data-testid="result">
          {t("result")}: {m.result.home_points}–{m.result.away_points}
          {m.result.forfeit && ` (${t("by_forfeit")})`}
        </p>
      )}
      {winner && (
        <p class={winner === side ? "winner mine" : "winner"} data-testid="winner">
          {winner === side ? t("you_won") : t("winner_is", { name: name(winner) })}
        </p>
      )}
      {m.appeal_open && <p class="notice">{t("appeal_pending")}</p>}
      {appealLeft && !appealing && (
        <button type="button" class="warn" onClick={() => setAppealing(true)}>
          {t("appeal_button", { left: appealLeft })}
        </button>
      )}
      {appealLeft && appealing && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void act(
              () =>
                api.POST("/matches/{match_id}/appeals", {
                  params: { path: { match_id } },
                  body: { kind: "score", statement },
                }),
              t("appeal_lodged"),
            ).then(() => setAppealing(false));
          }}
        >
          <label>
            {t("appeal_statement")}
            <textarea required maxLength={2000} value={statement} onInput={(e) => setStatement(e.currentTarget.value)} />
          </label>
          <button type="submit" class="warn">
            {t("appeal_send")}
          </button>
        </form>
      )}
      {action.message && <p role="status">{action.message}</p>}
      <Alert text={action.error} />
    </div>
  );
}


/** The matches each player of a series has won, home first. */
export function legsWon(legs: number[][] | undefined): [number, number] {
  const won: [number, number] = [0, 0];
  for (const [h = 0, a = 0] of legs ?? []) won[h > a ? 0 : 1] += 1;
  return won;
}

/** "7-3, 5-7, 7-6" as the matches' scores, home first (the API checks they make the result). */
export function parseLegs(typed: string): { home_points: number; away_points: number }[] {
  return typed
    .split(/[,;]/)
    .map((part) => part.split(/[-–:]/).map((n) => Number(n.trim())))
    .filter((pair) => pair.length === 2 && pair.every((n) => Number.isInteger(n) && n >= 0))
    .map(([home_points = 0, away_points = 0]) => ({ home_points, away_points }));
}

/** A series (cnb 2.2.2): the matches won and each finished match's score. */
function Legs({ m }: { m: MatchDetail }) {
  const [h, a] = legsWon(m.legs);
  return (
    <section data-testid="legs">
      <p>
        <strong>{t("series_matches", { home: m.home?.name ?? "", h, a, away: m.away?.name ?? "" })}</strong>
      </p>
      {(m.legs ?? []).map(([x = 0, y = 0], i) => (
        <p key={i}>{t("series_leg", { n: i + 1, h: x, a: y })}</p>
      ))}
    </section>
  );
}

/** R7.7: the breaks both players have left, the one running and its end, the overrun points;
 * a player takes a break between games (a series: only between its matches) and says when they
 * are back. The button is there only when the platform says a break may start now. */
function Breaks(props: {
  m: MatchDetail;
  side: "home" | "away";
  busy: boolean;
  act: (call: () => Promise<{ error?: unknown; data?: unknown }>, ok: string) => Promise<void>;
}) {
  const { m, side, busy, act } = props;
  const b = m.breaks;
  if (!b || !["called", "playing"].includes(m.state)) return null;
  const match_id = m.id;
  const running = b.running ?? [];
  const left = { home: b.left.home ?? 0, away: b.left.away ?? 0 };
  const away = running.includes(side);
  const names = running.map((s) => m[s]?.name ?? "").join(", ");
  const points = (b.overrun_points?.home ?? 0) + (b.overrun_points?.away ?? 0);
  return (
    <section aria-label={t("take_break")} data-testid="breaks">
      <p>{t("breaks_left", { home: m.home?.name ?? "", h: left.home, away: m.away?.name ?? "", a: left.away })}</p>
      {running.length > 0 && <p role="status">{t("on_break_until", { names, end: time(b.ends_at) })}</p>}
      {points > 0 && <p>{t("overrun_points", { points })}</p>}
      {(m.best_of ?? 1) > 1 && !b.allowed_now && running.length === 0 && <p>{t("series_breaks_between")}</p>}
      {away ? (
        <button type="button" disabled={busy} onClick={() => act(() => api.POST("/matches/{match_id}/breaks/back", { params: { path: { match_id } }, body: {} }), t("back_marked"))}>
          {t("back_from_break")}
        </button>
      ) : (
        b.allowed_now &&
        left[side] > 0 && (
          <button type="button" class="secondary" disabled={busy} onClick={() => act(() => api.POST("/matches/{match_id}/breaks", { params: { path: { match_id } }, body: {} }), t("break_started"))}>
            {t("take_break")}
          </button>
        )
      )}
    </section>
  );
}
