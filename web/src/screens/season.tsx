// The season: the national rating list, a player's rating history (an inline SVG
// chart, no chart library), the season's standings and the Super Final invitations.
import { useEffect, useState } from "preact/hooks";
import { api, type Schemas } from "../api/client";
import { Alert, ConfirmButton, NeedSignIn, Note, Stale, Status } from "../ui/widgets";
import { useAction } from "../ui/action";
import { getToken, isAdmin } from "../auth";
import { channelsOf, useLive } from "../live/use-live";
import { dateTime, day } from "../format";
import { lang, t, type Key } from "../i18n";
import { nothing, useLoad } from "../load";
import { go } from "../router";

type RatingRow = Schemas["RatingRow"];
type Standing = Schemas["SeasonStandingRow"];

const rating = (value: number | null | undefined) =>
  value === null || value === undefined
    ? "–"
    : new Intl.NumberFormat(lang() === "el" ? "el-GR" : "en-GB", { maximumFractionDigits: 0 }).format(value);

/** #/season: the rating list (national, or a club's or a city's), page by page with the cursor. */
export function Ratings() {
  const [filter, setFilter] = useState({ by: "national" as "national" | "club" | "city", value: "" });
  const [typed, setTyped] = useState(filter);
  const [rows, setRows] = useState<RatingRow[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const [error, setError] = useState("");
  const [loading, setLoading] = useState(true);
  const [season, setSeason] = useState("");

  async function load(after: string | null, filterNow = filter) {
    setLoading(true);
    setError("");
    const query: { limit: number; after?: string; club?: string; city?: string } = { limit: 25 };
    if (after) query.after = after;
    if (filterNow.by !== "national" && filterNow.value.trim()) query[filterNow.by] = filterNow.value.trim();
    const answer = await api.GET("/ratings", { params: { query } });
    setLoading(false);
    if (answer.error || !answer.data) {
      setError(t("failed"));
      return;
    }
    const page = answer.data;
    setRows((old) => (after ? [...old, ...page.players] : page.players));
    setNext(page.next ?? null);
  }
  useEffect(() => {
    void load(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <section>
      <h1>{t("ratings_title")}</h1>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          if (season.trim()) go(`#/season/${encodeURIComponent(season.trim())}`);
        }}
      >
        <label>
          {t("season_id")}
          <input name="season" value={season} onInput={(e) => setSeason(e.currentTarget.value)} />
        </label>
        <button type="submit" class="secondary">
          {t("season_standings")}
        </button>
      </form>
      <form
        class="inline"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter(typed);
          void load(null, typed);
        }}
      >
        <label>
          {t("ratings_filter")}
          <select
            name="by"
            value={typed.by}
            onChange={(e) => setTyped({ ...typed, by: e.currentTarget.value as typeof typed.by })}
          >
            <option value="national">{t("ratings_national")}</option>
            <option value="club">{t("field_club")}</option>
            <option value="city">{t("field_city")}</option>
          </select>
        </label>
        {typed.by !== "national" && (
          <label>
            {typed.by === "club" ? t("field_club") : t("field_city")}
            <input name="filter" value={typed.value} onInput={(e) => setTyped({ ...typed, value: e.currentTarget.value })} />
          </label>
        )}
        <button type="submit" class="secondary">
          {t("ratings_show")}
        </button>
      </form>
      <Status loading={loading && rows.length === 0} error={error} />
      {!loading && rows.length === 0 && !error && <p>{t("ratings_none")}</p>}
      {rows.length > 0 && (
        <ol class="entries" data-testid="rating-list">
          {rows.map((r) => (
            <li key={r.tavla_id}>
              <a href={`#/player/${r.tavla_id}`}>{r.name}</a>
              <span>
                {r.club ? `${r.club} · ` : ""}
                <strong>{rating(r.rating)}</strong>
              </span>
              {r.provisional && (
                <span class="tag provisional" title={t("provisional_hint")}>
                  {t("provisional")}
                </span>
              )}
            </li>
          ))}
        </ol>
      )}
      {next && (
        <button type="button" class="secondary" disabled={loading} onClick={() => void load(next)}>
          {t("more")}
        </button>
      )}
    </section>
  );
}

/** #/player/<id>: the player's rating and its history, as a chart and as a list (newest
 * first, older pages on request with the API's cursor). */
export function PlayerScreen({ id }: { id: string }) {
  const player = useLoad(() => api.GET("/players/{tavla_id}", { params: { path: { tavla_id: id } } }), [id]);
  const [older, setOlder] = useState<{ lines: Schemas["RatingLine"][]; next?: string | null }>({ lines: [] });
  useEffect(() => setOlder({ lines: [] }), [id]);
  const loaded = player.data;
  const p = loaded && { ...loaded, history: [...loaded.history, ...older.lines] };
  const cursor = older.next === undefined ? loaded?.history_next : older.next;
  async function more() {
    if (!cursor) return;
    const answer = await api.GET("/players/{tavla_id}", { params: { path: { tavla_id: id }, query: { before: cursor } } });
    if (answer.data) setOlder((o) => ({ lines: [...o.lines, ...answer.data.history], next: answer.data.history_next ?? null }));
  }
  return (
    <section>
      <Status loading={player.loading && !p} error={player.error} />
      {p && (
        <>
          <h1>{p.name}</h1>
          <dl class="facts">
            <dt>{t("tavla_id")}</dt>
            <dd>{p.tavla_id}</dd>
            {p.club && (
              <>
                <dt>{t("field_club")}</dt>
                <dd>{p.club}</dd>
              </>
            )}
            <dt>{t("rating")}</dt>
            <dd data-testid="player-rating">
              {rating(p.rating)}
              {p.provisional ? ` (${t("provisional")})` : ""} · {t("rated_matches", { n: p.rated_matches ?? 0 })}
            </dd>
          </dl>
          <h2>{t("rating_history")}</h2>
          {p.history.length === 0 ? <p>{t("history_none")}</p> : <HistoryChart history={p.history} />}
          {p.history.length > 0 && (
            <ol class="plain history">
              {p.history.map((h) => (
                <li key={h.match_id}>
                  {dateTime(h.official_at)} · {h.won ? t("won") : t("lost")} {h.points_for}–{h.points_against} ·{" "}
                  {rating(h.before)} → {rating(h.after)}
                </li>
              ))}
            </ol>
          )}
          {cursor && (
            <button type="button" class="secondary" onClick={() => void more()}>
              {t("more")}
            </button>
          )}
        </>
      )}
    </section>
  );
}

/** The rating after each match as a line: an inline SVG, its numbers in the accessible name. */
export function HistoryChart({ history }: { history: Schemas["RatingLine"][] }) {
  const inOrder = [...history].reverse(); // the API lists the newest first; the line runs in time
  const values = [inOrder[0]?.before ?? 0, ...inOrder.map((h) => h.after)];
  const W = 320;
  const H = 140;
  const pad = 24;
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const span = hi - lo || 1;
  const left = 48; // room for the axis labels
  const x = (i: number) => left + (i * (W - left - pad)) / Math.max(values.length - 1, 1);
  const y = (v: number) => H - pad - ((v - lo) * (H - 2 * pad)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const label = t("chart_label", { from: rating(values[0]), to: rating(values[values.length - 1]), n: history.length });
  return (
    <svg
      class="chart"
      data-testid="rating-chart"
      viewBox={`0 0 ${W} ${H}`}
      width="100%"
      role="img"
      aria-label={label}
    >
      <line x1={left} y1={H - pad} x2={W - pad} y2={H - pad} stroke="#888" />
      <text x={2} y={y(hi) + 4} font-size="10" fill="#333">
        {rating(hi)}
      </text>
      <text x={2} y={y(lo) + 4} font-size="10" fill="#333">
        {rating(lo)}
      </text>
      <polyline points={points} fill="none" stroke="#0b5d3b" stroke-width="2" />
      {values.map((v, i) => (
        <circle key={i} cx={x(i)} cy={y(v)} r="3" fill="#0b5d3b" />
      ))}
    </svg>
  );
}

/** The latest seasons, on the home page: each a link to its page. */
export function SeasonLinks() {
  const seasons = useLoad(() => api.GET("/seasons", { params: { query: { limit: 5 } } }), []);
  const list = seasons.data?.seasons ?? [];
  if (list.length === 0) return null;
  return (
    <nav aria-labelledby="seasons-title" data-testid="season-links">
      <h2 id="seasons-title">{t("seasons_title")}</h2>
      <ul class="plain">
        {list.map((x) => (
          <li key={x.id}>
            <a href={`#/season/${encodeURIComponent(x.id)}`}>{x.name}</a> · {t(`season_status_${x.status}` as Key)}
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** #/season/<id>: the season's calendar, its standings with the points of each tournament, and
 * the Super Final: who would be invited while it runs, who accepted once it closed, the champion. */
export function SeasonScreen({ id }: { id: string }) {
  const p = { params: { path: { season_id: id } } };
  const season = useLoad(() => api.GET("/seasons/{season_id}", p), [id]);
  const calendar = useLoad(() => api.GET("/seasons/{season_id}/tournaments", p), [id]);
  const table = useLoad(
    () => api.GET("/seasons/{season_id}/standings", { params: { path: { season_id: id }, query: { limit: 100 } } }),
    [id],
  );
  const final = useLoad(() => api.GET("/seasons/{season_id}/super-final", p), [id]);
  const attendance = useLoad(() => api.GET("/seasons/{season_id}/invitations", p), [id]);
  const signed = Boolean(getToken());
  const me = useLoad(() => (signed ? api.GET("/me") : nothing<Schemas["MyProfile"]>(401)), [signed]);
  // a changed season, standings ranked again, an invitation sent, accepted or passed on
  const live = useLive([channelsOf.season(id)], () =>
    [season, calendar, table, final, attendance].forEach((x) => x.reload()),
  );
  const s = season.data;
  const staff = isAdmin() || (Boolean(s?.organiser) && s?.organiser === me.data?.tavla_id);
  const tournaments = calendar.data?.tournaments ?? [];
  const counted = tournaments.map((x, i) => ({ ...x, n: i + 1 })).filter((x) => x.counted);
  return (
    <section>
      <h1>{s ? s.name : t("season_title", { id })}</h1>
      <Status loading={season.loading && !s} error={season.error} />
      {s && (
        <p data-testid="season-life">
          {day(s.starts_on)} – {day(s.ends_on)} · {t(`season_status_${s.status}` as Key)}
        </p>
      )}
      <Stale since={live.staleSince} />
      <h2>{t("season_calendar")}</h2>
      <Status loading={calendar.loading && !calendar.data} error={calendar.error} />
      {calendar.data && tournaments.length === 0 && <p>{t("season_calendar_none")}</p>}
      {tournaments.length > 0 && (
        <ol class="entries" data-testid="season-calendar">
          {tournaments.map((x) => (
            <li key={x.id}>
              <a href={`#/t/${x.id}`}>{x.name}</a>
              <span>
                {dateTime(x.starts_at)} · {t(`level_${x.level}` as Key)} · {t(`tstatus_${x.status}` as Key)}
                {x.counted ? ` · ${t("season_counted")}` : ""}
              </span>
            </li>
          ))}
        </ol>
      )}
      <h2>{t("season_standings")}</h2>
      <Status loading={table.loading && !table.data} error={table.error} />
      {table.data && table.data.rows.length === 0 && <p>{t("standings_none")}</p>}
      {table.data && table.data.rows.length > 0 && (
        <StandingsTable rows={table.data.rows} tournaments={counted} testid="season-standings" />
      )}
      <h2>{t("super_final")}</h2>
      <Finalists attendance={attendance.data} provisional={final.data} />
      {staff && attendance.data?.frozen && (
        <p>
          <a href={`#/season/${encodeURIComponent(id)}/replies`} data-testid="replies-link">
            {t("replies_title")}
          </a>
        </p>
      )}
    </section>
  );
}

/** Before the close, who would be invited; after it, who accepted (with their starting lives),
 * the final's tournament and its champion. */
function Finalists({ attendance, provisional }: { attendance?: Schemas["SuperFinalAttendance"]; provisional?: Schemas["SuperFinal"] }) {
  if (!attendance) return null;
  if (!attendance.frozen) {
    if (!provisional || provisional.invited.length === 0) return <p>{t("invited_none")}</p>;
    return (
      <>
        <p>{t("finalists_provisional")}</p>
        <ol class="entries" data-testid="invited">
          {provisional.invited.map((r) => (
            <li key={r.tavla_id}>
              <a href={`#/player/${r.tavla_id}`}>{r.name ?? r.tavla_id}</a>
              <span>
                {t("season_points", { n: r.points })} · {t("lives", { n: provisional.lives[r.tavla_id] ?? 0 })}
              </span>
            </li>
          ))}
        </ol>
        {provisional.tied_at_cut && provisional.tied_at_cut.length > 0 && <p class="hint">{t("tied_at_cut", { n: provisional.tied_at_cut.length })}</p>}
      </>
    );
  }
  return (
    <div data-testid="finalists">
      {attendance.champion && (
        <p data-testid="champion">
          <strong>{t("season_champion", { name: attendance.champion.name ?? attendance.champion.tavla_id })}</strong>
        </p>
      )}
      <p>{t("finalists_accepted", { n: attendance.accepted.length, seats: attendance.seats })}</p>
      {attendance.accepted.length === 0 && <p>{t("finalists_none")}</p>}
      {attendance.accepted.length > 0 && (
        <ol class="entries" data-testid="accepted">
          {attendance.accepted.map((r) => (
            <li key={r.tavla_id}>
              <a href={`#/player/${r.tavla_id}`}>{r.name ?? r.tavla_id}</a>
              <span>
                {t("place")} {r.place} · {t("lives", { n: r.lives })}
              </span>
            </li>
          ))}
        </ol>
      )}
      {attendance.tournament_id && (
        <p>
          <a href={`#/t/${attendance.tournament_id}`}>{t("super_final_tournament")}</a>
        </p>
      )}
    </div>
  );
}

function StandingsTable({
  rows,
  tournaments,
  testid,
}: {
  rows: Standing[];
  tournaments: { id: string; name: string; n: number }[];
  testid: string;
}) {
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label={t("season_standings")}>
      <table class="grid" data-testid={testid}>
        <thead>
          <tr>
            <th scope="col">{t("place")}</th>
            <th scope="col">{t("player")}</th>
            <th scope="col">{t("points_col")}</th>
            {tournaments.map((x) => (
              <th scope="col" key={x.id}>
                <abbr title={t("season_tournament_n", { n: x.n, name: x.name })}>#{x.n}</abbr>
              </th>
            ))}
            <th scope="col">{t("tournaments_col")}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.tavla_id}>
              <td>{r.place_to > r.place ? `${r.place}–${r.place_to}` : r.place}</td>
              <td>
                <a href={`#/player/${r.tavla_id}`}>{r.name ?? r.tavla_id}</a>
              </td>
              <td>{r.points}</td>
              {tournaments.map((x) => (
                <td key={x.id}>{r.by_tournament?.[x.id] ?? "–"}</td>
              ))}
              <td>{r.tournaments}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** #/invitations: my Super Final invitations; a pending one answered here, each answer asked
 * twice (it cannot be taken back), the deadline in Greek time. */
export function MyInvitations() {
  const loaded = useLoad(() => api.GET("/me/invitations"), []);
  const action = useAction(loaded.reload);
  const list = loaded.data?.invitations ?? [];
  // each invitation's season: a seat passed on, a deadline lapsed (no season yet: polled)
  const live = useLive(
    list.map((i) => channelsOf.season(i.season_id)),
    loaded.reload,
  );
  if (!getToken()) return <NeedSignIn />;
  const answer = (season_id: string, what: "accept" | "decline") =>
    void action.run(
      () =>
        what === "accept"
          ? api.POST("/seasons/{season_id}/invitations/me/accept", { params: { path: { season_id } } })
          : api.POST("/seasons/{season_id}/invitations/me/decline", { params: { path: { season_id } } }),
      t(what === "accept" ? "invitation_done_accept" : "invitation_done_decline"),
    );
  return (
    <section>
      <h1>{t("nav_invitations")}</h1>
      <Stale since={live.staleSince} />
      <Status loading={loaded.loading && !loaded.data} error={loaded.error} />
      <Note text={action.message} testid="invitation-message" />
      <Alert text={action.error} />
      {loaded.data && list.length === 0 && <p>{t("invitations_none")}</p>}
      <ul class="cards" data-testid="invitations">
        {list.map((i) => (
          <li key={i.season_id} class="card" data-status={i.status}>
            <strong>
              <a href={`#/season/${encodeURIComponent(i.season_id)}`}>{t("invitation_title", { season: i.season_name ?? i.season_id })}</a>
            </strong>
            <span>{t("invitation_place", { place: i.place, lives: i.lives })}</span>
            {i.reserve && (
              <span class="tag" data-testid="invitation-reserve">
                {t("replies_reserve")}
              </span>
            )}
            <span data-testid="invitation-status">{t(`invitation_status_${i.status}` as Key)}</span>
            {i.status === "pending" && (
              <>
                <span data-testid="reply-by">{t("invitation_reply_by", { time: dateTime(i.reply_by) })}</span>
                <div class="two">
                  <ConfirmButton
                    label={t("invitation_accept")}
                    question={t("invitation_accept_question")}
                    disabled={action.busy}
                    testid="confirm-accept"
                    onConfirm={() => answer(i.season_id, "accept")}
                  />
                  <ConfirmButton
                    label={t("invitation_decline")}
                    question={t("invitation_decline_question")}
                    class="secondary"
                    disabled={action.busy}
                    testid="confirm-decline"
                    onConfirm={() => answer(i.season_id, "decline")}
                  />
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
