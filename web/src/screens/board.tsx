// The venue board. On a phone (#/t/<id>/board): tables, queue, results, standings. On the
// venue's TV (#/t/<id>/tv, 1920 x 1080, read from across a hall): the current round's tables,
// the latest results and the top of the standings side by side, each column paging by itself
// when it holds more than fits; winners marked, the standings' tie-break figures shown, and a
// clear banner while the board cannot be refreshed. A player entered late is marked "late" on
// the pairings and the standings. Both follow the day by themselves.
import { useEffect, useState } from "preact/hooks";
import { api, type Board, type MatchView } from "../api/client";
import { Stale, Status } from "../ui/widgets";
import { time, clock } from "../format";
import { t, type Key } from "../i18n";
import { useLoad } from "../load";
import { channelsOf, useLive } from "../live/use-live";
import { boardQuery, useBoardDeltas } from "../live/use-board";
import { roundName } from "../rounds";
import { divisionName, several, type Division } from "../divisions";

type Part = { division?: string | null };
type Row = Board["standings"][number]["rows"][number];

/** The division a match, bracket, standings or draw belongs to (R3.7): null is the only one. */
export const divisionOf = (x: Part, divisions: readonly Division[]): string =>
  x.division ?? divisions[0]?.id ?? "main";

/** How long the TV shows one page of a column that holds more than fits. */
export const PAGE_MS = 8000;

/** The page `index` (wrapping) of `items`, `size` to a page, and how many pages there are. */
export function page<T>(items: readonly T[], size: number, index: number): { items: T[]; pages: number; at: number } {
  const pages = Math.max(1, Math.ceil(items.length / size));
  const at = ((index % pages) + pages) % pages;
  return { items: items.slice(at * size, at * size + size), pages, at };
}

/** The latest official results first. */
export function latestResults(board: Board, only: (x: Part) => boolean = () => true): MatchView[] {
  return board.brackets
    .filter(only)
    .flatMap((b) => b.rounds.flatMap((r) => r.matches))
    .filter((m) => m.state === "official")
    .sort((a, b) => (b.official_at ?? "").localeCompare(a.official_at ?? ""));
}

function useBoard(id: string) {
  const path = { params: { path: { tournament_id: id } } };
  const board = useLoad(() => api.GET("/tournaments/{tournament_id}/board", { params: { path: { tournament_id: id }, query: boardQuery(id) } }), [id]);
  // the divisions' names (R3.7); a board of one division shows none of them
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const deltas = useBoardDeltas(id, board, board.reload);
  const live = useLive([channelsOf.tournament(id)], deltas.reload, deltas.onDelta);
  const [checked, setChecked] = useState<string>();
  useEffect(() => setChecked(new Date().toISOString()), [board.data]);
  const divisions = several(tour.data) ? (tour.data?.divisions ?? []) : [];
  const tag = (m: MatchView) => (divisions.length ? divisionName(tour.data, divisionOf(m, divisions)) : undefined);
  const late = new Set(board.data?.late ?? []);
  return { board, live, checked, divisions, tag, late };
}

export function BoardScreen({ id }: { id: string }) {
  const { board: loaded, live, checked, divisions, tag, late } = useBoard(id);
  const board = loaded.data;
  return (
    <section>
      <Status loading={!board && loaded.loading} error={board ? undefined : loaded.error} />
      <Stale since={live.staleSince} />
      {board && (
        <>
          <h1>{board.name}</h1>
          <p class="small" role="status">
            {t("board_status", { status: t(`tstatus_${board.status}` as Key) })}
            {checked && ` · ${t("updated_at", { time: time(checked) })}`}
          </p>
          <h2>{t("tables")}</h2>
          {board.tables.length === 0 && <p data-testid="no-draw">{t("no_draw_yet")}</p>}
          <ul class="tables" data-testid="tables">
            {board.tables.map((table) => (
              <li key={table.table} class="table">
                <span class="num">{table.table}</span>
                {table.match ? <MatchLine match={table.match} division={tag(table.match)} late={late} /> : <span class="free">{t("free")}</span>}
              </li>
            ))}
          </ul>
          {board.queue.length > 0 && (
            <>
              <h2>{t("queue")}</h2>
              <ul class="tables">
                {board.queue.map((m) => (
                  <li key={m.id} class="table">
                    <MatchLine match={m} division={tag(m)} late={late} />
                  </li>
                ))}
              </ul>
            </>
          )}
          {divisions.length === 0 && <Results board={board} level={2} late={late} />}
          {divisions.map((d) => (
            <section key={d.id} data-testid={`division-${d.id}`} aria-labelledby={`division-${d.id}`}>
              <h2 id={`division-${d.id}`} class="division-heading">
                {d.name}
              </h2>
              <Results board={board} level={3} late={late} only={(x) => divisionOf(x, divisions) === d.id} />
            </section>
          ))}
        </>
      )}
      <a class="button secondary" href={`#/t/${id}/tv`}>
        {t("big_screen")}
      </a>
    </section>
  );
}

/** The rows that fit one TV column at 1080 px in the TV's type size. */
const TV_ROWS = { tables: 8, results: 8, standings: 12 };

/** #/t/<id>/tv: the venue's big screen. */
export function TvScreen({ id }: { id: string }) {
  const { board: loaded, live, checked, tag } = useBoard(id);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = window.setInterval(() => setTick((n) => n + 1), PAGE_MS);
    return () => window.clearInterval(timer);
  }, []);
  const board = loaded.data;
  const busy = board?.tables.filter((x) => x.match) ?? [];
  const free = board?.tables.filter((x) => !x.match).map((x) => x.table) ?? [];
  const tables = page(busy, TV_ROWS.tables, tick);
  const results = page(board ? latestResults(board) : [], TV_ROWS.results, tick);
  const standings = board?.standings.find((s) => s.event === "main") ?? board?.standings[0];
  const rows = page(standings?.rows ?? [], TV_ROWS.standings, tick);
  const figures = standings ? tieBreaks(standings.rows) : [];
  const current = board?.tables.find((x) => x.match)?.match;
  return (
    <main id="main" class="tv">
      {live.staleSince && (
        <p class="tv-stale" role="status" data-testid="stale">
          {t("stale_since", { time: clock(new Date(live.staleSince).toISOString()) })}
        </p>
      )}
      <Status loading={!board && loaded.loading} error={board ? undefined : loaded.error} />
      {board && (
        <>
          <header class="tv-head">
            <h1>{board.name}</h1>
            <p role="status">
              {current && `${roundName(current)} · `}
              {t("board_status", { status: t(`tstatus_${board.status}` as Key) })}
              {checked && ` · ${t("updated_at", { time: clock(checked) })}`}
            </p>
          </header>
          <div class="tv-columns">
            <section aria-labelledby="tv-tables">
              <h2 id="tv-tables">
                {t("tables")} <PageOf p={tables} />
              </h2>
              {board.tables.length === 0 && <p data-testid="no-draw">{t("no_draw_yet")}</p>}
              <ul class="tv-rows" data-testid="tables">
                {tables.items.map((table) => (
                  <li key={table.table}>
                    <span class="num">{table.table}</span>
                    <TvMatch match={table.match!} division={tag(table.match!)} />
                  </li>
                ))}
              </ul>
              {free.length > 0 && board.tables.length > 0 && (
                <p class="tv-free" data-testid="free-tables">
                  {t("free_tables", { list: free.join(", ") })}
                </p>
              )}
            </section>
            <section aria-labelledby="tv-results">
              <h2 id="tv-results">
                {t("results")} <PageOf p={results} />
              </h2>
              <ul class="tv-rows" data-testid="results">
                {results.items.map((m) => (
                  <li key={m.id}>
                    <TvMatch match={m} division={tag(m)} />
                  </li>
                ))}
              </ul>
            </section>
            <section aria-labelledby="tv-standings">
              <h2 id="tv-standings">
                {t("standings")} <PageOf p={rows} />
              </h2>
              {standings && <StandingsTable rows={rows.items} figures={figures} />}
            </section>
          </div>
        </>
      )}
    </main>
  );
}

/** A match on the TV: the two players on two lines (the winner marked), the score beside. */
function TvMatch({ match, division }: { match: MatchView; division?: string }) {
  const result = match.result;
  const [h, a] = result ? [result.home_points, result.away_points] : (match.score ?? [0, 0]);
  const line = (side: "home" | "away", points: number | undefined) => {
    const won = Boolean(result && match[side] && result.winner === match[side]!.tavla_id);
    return (
      <span class={won ? "tv-player winner" : "tv-player"}>
        <span class="tv-name">
          {won && <span aria-hidden="true">✓ </span>}
          {match[side]?.name ?? match[side]?.tavla_id ?? "—"}
          {won && <span class="visually-hidden"> ({t("won")})</span>}
        </span>
        <span class="tv-points">{points ?? 0}</span>
      </span>
    );
  };
  return (
    <span class="tv-match" data-state={match.state}>
      {division && <span class="tag division">{division}</span>}
      {line("home", h)}
      {line("away", a)}
    </span>
  );
}

function PageOf({ p }: { p: { pages: number; at: number } }) {
  return p.pages > 1 ? <span class="page-of">{t("page_of", { n: p.at + 1, of: p.pages })}</span> : null;
}

type Figure = "points" | "buchholz" | "point_difference" | "head_to_head";
const FIGURES: readonly Figure[] = ["points", "buchholz", "point_difference", "head_to_head"];

/** The tie-break figures the standings carry (a knockout's carry none). */
export function tieBreaks(rows: readonly Row[]): Figure[] {
  return FIGURES.filter((f) => rows.some((r) => r[f] !== null && r[f] !== undefined));
}

function StandingsTable({ rows, figures }: { rows: readonly Row[]; figures: readonly Figure[] }) {
  return (
    <table class="grid standings" data-testid="standings">
      <thead>
        <tr>
          <th scope="col">{t("place")}</th>
          <th scope="col">{t("player")}</th>
          {figures.map((f) => (
            <th scope="col" key={f}>
              <abbr title={t(`figure_${f}` as Key)}>{t(`figure_${f}_short` as Key)}</abbr>
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.player.tavla_id}>
            <td>{row.label}</td>
            <td>
              {row.player.name ?? row.player.tavla_id}
              {row.late_from_round != null && (
                <>
                  {" "}
                  <LateTag round={row.late_from_round} />
                </>
              )}
            </td>
            {figures.map((f) => (
              <td key={f}>{row[f] ?? "—"}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The latest results and the top of the standings on the board (earlier rounds and the whole
 * table are behind the round and standings routes), or of one division's part of it (`only`). */
function Results({
  board,
  level,
  late,
  only = () => true,
}: {
  board: Board;
  level: 2 | 3;
  late: ReadonlySet<string>;
  only?: (x: Part) => boolean;
}) {
  const H = level === 2 ? "h2" : "h3";
  return (
    <>
      <H>{t("results")}</H>
      <ul class="tables" data-testid="results">
        {latestResults(board, only).map((m) => (
          <li key={m.id} class="table">
            <MatchLine match={m} late={late} />
          </li>
        ))}
      </ul>
      {board.standings.filter(only).map((s) => (
        <div key={s.event}>
          <H>{t("standings")}</H>
          {/* a table wider than the phone scrolls: focusable, so a keyboard can scroll it too */}
          <div class="scroll" tabIndex={0} role="region" aria-label={t("standings")}>
            <StandingsTable rows={s.rows} figures={tieBreaks(s.rows)} />
          </div>
          {s.total > s.rows.length && (
            <p class="small" data-testid="standings-top">
              {t("standings_top", { shown: s.rows.length, total: s.total })}
            </p>
          )}
        </div>
      ))}
    </>
  );
}

/** "late": a player entered late (Swiss, lives), with the round they joined when known. */
function LateTag({ round }: { round?: number }) {
  return (
    <span class="tag late" data-testid="late" title={round ? t("late_from_round", { n: round }) : undefined}>
      {t("late_tag")}
    </span>
  );
}

/** A match on a board: its round, both players (the winner marked, a late entrant marked), the
 * score and its state. */
export function MatchLine({ match, division, late }: { match: MatchView; division?: string; late?: ReadonlySet<string> }) {
  const plain = (side: "home" | "away") => match[side]?.name ?? match[side]?.tavla_id ?? match[`${side}_from`] ?? "—";
  const name = (side: "home" | "away") => (
    <>
      {plain(side)}
      {late?.has(match[side]?.tavla_id ?? "") && (
        <>
          {" "}
          <LateTag />
        </>
      )}
    </>
  );
  const [h, a] = match.score ?? [0, 0];
  const result = match.result;
  const won = (side: "home" | "away") => Boolean(result && match[side] && result.winner === match[side]!.tavla_id);
  const player = (side: "home" | "away") =>
    won(side) ? (
      <strong class="winner">
        <span aria-hidden="true">✓ </span>
        {name(side)}
        <span class="visually-hidden"> ({t("won")})</span>
      </strong>
    ) : (
      <span>{name(side)}</span>
    );
  return (
    <span class="match" data-state={match.state}>
      <span class="round-name">{roundName(match)}</span>
      <span>
        {division && <span class="tag division">{division}</span>} {player("home")} – {player("away")}
      </span>
      <span class="score">
        {result ? `${result.home_points}–${result.away_points}` : `${h ?? 0}–${a ?? 0}`} / {match.length}
      </span>
      <span class="state">{t(`mstate_${match.state}` as Key)}</span>
    </span>
  );
}
