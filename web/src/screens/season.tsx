// The season: the national rating list, a player's rating history (an inline SVG
// chart, no chart library), the season's standings and the Super Final invitations.
import { useEffect, useState } from "preact/hooks";
import { api, type Schemas } from "../api/client";
import { Status } from "../ui/widgets";
import { dateTime } from "../format";
import { lang, t } from "../i18n";
import { useLoad } from "../load";
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

/** #/player/<id>: the player's rating and its history, as a chart and as a list. */
export function PlayerScreen({ id }: { id: string }) {
  const player = useLoad(() => api.GET("/players/{tavla_id}", { params: { path: { tavla_id: id } } }), [id]);
  const p = player.data;
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
        </>
      )}
    </section>
  );
}

/** The rating after each match as a line: an inline SVG, its numbers in the accessible name. */
export function HistoryChart({ history }: { history: Schemas["RatingLine"][] }) {
  const values = [history[0]?.before ?? 0, ...history.map((h) => h.after)];
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

/** #/season/<id>: the season's standings and who is invited to the Super Final. */
export function SeasonScreen({ id }: { id: string }) {
  const p = { params: { path: { season_id: id } } };
  const season = useLoad(() => api.GET("/seasons/{season_id}", p), [id]);
  const table = useLoad(
    () => api.GET("/seasons/{season_id}/standings", { params: { path: { season_id: id }, query: { limit: 100 } } }),
    [id],
  );
  const final = useLoad(() => api.GET("/seasons/{season_id}/super-final", p), [id]);
  return (
    <section>
      <h1>{season.data ? season.data.name : t("season_title", { id })}</h1>
      {season.data && (
        <p>
          {season.data.starts_on} – {season.data.ends_on}
        </p>
      )}
      <h2>{t("season_standings")}</h2>
      <Status loading={table.loading && !table.data} error={table.error} />
      {table.data && table.data.rows.length === 0 && <p>{t("standings_none")}</p>}
      {table.data && table.data.rows.length > 0 && <StandingsTable rows={table.data.rows} testid="season-standings" />}
      <h2>{t("super_final")}</h2>
      <Status loading={final.loading && !final.data} error={final.error} />
      {final.data && final.data.invited.length === 0 && <p>{t("invited_none")}</p>}
      {final.data && final.data.invited.length > 0 && (
        <ol class="entries" data-testid="invited">
          {final.data.invited.map((r) => (
            <li key={r.tavla_id}>
              <a href={`#/player/${r.tavla_id}`}>{r.name ?? r.tavla_id}</a>
              <span>
                {t("season_points", { n: r.points })}
                {final.data?.lives[r.tavla_id] !== undefined ? ` · ${t("lives", { n: final.data.lives[r.tavla_id] ?? 0 })}` : ""}
              </span>
            </li>
          ))}
        </ol>
      )}
      {final.data?.tied_at_cut && final.data.tied_at_cut.length > 0 && <p class="hint">{t("tied_at_cut", { n: final.data.tied_at_cut.length })}</p>}
    </section>
  );
}

function StandingsTable({ rows, testid }: { rows: Standing[]; testid: string }) {
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label={t("season_standings")}>
    <table class="grid" data-testid={testid}>
      <thead>
        <tr>
          <th scope="col">{t("place")}</th>
          <th scope="col">{t("player")}</th>
          <th scope="col">{t("points_col")}</th>
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
            <td>{r.tournaments}</td>
          </tr>
        ))}
      </tbody>
    </table>
    </div>
  );
}
