// The venue board. Big-screen mode (#/t/<id>/tv) is for a TV: large type, and it refreshes
// itself every few seconds with If-None-Match, so an unchanged board costs a bodiless 304.
import { useEffect, useRef, useState } from "preact/hooks";
import { api, type Board, type MatchView } from "../api/client";
import { Status } from "../ui/widgets";
import { time } from "../format";
import { t, type Key } from "../i18n";
import { useSignal } from "../signal";
import { freshness, useLoad } from "../load";
import { divisionName, several, type Division } from "../divisions";

type Part = { division?: string | null };

/** The division a match, bracket, standings or draw belongs to (R3.7): null is the only one. */
export const divisionOf = (x: Part, divisions: readonly Division[]): string =>
  x.division ?? divisions[0]?.id ?? "main";

export const POLL_MS = 5000;

export function BoardScreen({ id, big = false }: { id: string; big?: boolean }) {
  const [board, setBoard] = useState<Board>();
  const [error, setError] = useState<string>();
  const [checked, setChecked] = useState<string>();
  const etag = useRef<string | null>(null);
  const fresh = useSignal(freshness);
  // the divisions' names (R3.7); a board of one division shows none of them
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", { params: { path: { tournament_id: id } } }), [id]);
  const divisions = several(tour.data) ? (tour.data?.divisions ?? []) : [];
  const tag = (m: MatchView) => (divisions.length ? divisionName(tour.data, divisionOf(m, divisions)) : undefined);
  useEffect(() => {
    let live = true;
    let timer: number | undefined;
    async function poll() {
      try {
        const headers: Record<string, string> = etag.current ? { "If-None-Match": etag.current } : {};
        const response = await fetch(`/tournaments/${encodeURIComponent(id)}/board`, { headers, cache: "no-store" });
        if (!live) return;
        if (response.status === 200) {
          etag.current = response.headers.get("etag");
          setBoard((await response.json()) as Board);
          setError(undefined);
        } else if (response.status !== 304) {
          setError(t("failed"));
        }
        setChecked(new Date().toISOString());
      } catch {
        if (live) setError(t("offline"));
      }
      if (live && big) timer = window.setTimeout(poll, POLL_MS);
    }
    void poll();
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [id, big, fresh]);

  const content = (
    <>
      <Status loading={!board && !error} error={board ? undefined : error} />
      {board && (
        <>
          <h1>{board.name}</h1>
          <p class="small" role="status">
            {t("board_status", { status: t(`tstatus_${board.status}` as Key) })}
            {checked && ` · ${t("updated_at", { time: time(checked) })}`}
            {board && error && ` · ${error}`}
          </p>
          <h2>{t("tables")}</h2>
          {board.tables.length === 0 && <p data-testid="no-draw">{t("no_draw_yet")}</p>}
          <ul class="tables" data-testid="tables">
            {board.tables.map((table) => (
              <li key={table.table} class="table">
                <span class="num">{table.table}</span>
                {table.match ? <MatchLine match={table.match} division={tag(table.match)} /> : <span class="free">{t("free")}</span>}
              </li>
            ))}
          </ul>
          {board.queue.length > 0 && (
            <>
              <h2>{t("queue")}</h2>
              <ul class="tables">
                {board.queue.map((m) => (
                  <li key={m.id} class="table">
                    <MatchLine match={m} division={tag(m)} />
                  </li>
                ))}
              </ul>
            </>
          )}
          {divisions.length === 0 && <Results board={board} level={2} />}
          {divisions.map((d) => (
            <section key={d.id} data-testid={`division-${d.id}`} aria-labelledby={`division-${d.id}`}>
              <h2 id={`division-${d.id}`} class="division-heading">
                {d.name}
              </h2>
              <Results board={board} level={3} only={(x) => divisionOf(x, divisions) === d.id} />
            </section>
          ))}
        </>
      )}
      {!big && (
        <a class="button secondary" href={`#/t/${id}/tv`}>
          {t("big_screen")}
        </a>
      )}
    </>
  );
  if (big)
    return (
      <main id="main" class="tv">
        {content}
      </main>
    );
  return <section>{content}</section>;
}

/** The latest results and the top of the standings on the board (earlier rounds and the whole
 * table are behind the round and standings routes), or of one division's part of it (`only`). */
function Results({ board, level, only = () => true }: { board: Board; level: 2 | 3; only?: (x: Part) => boolean }) {
  const H = level === 2 ? "h2" : "h3";
  return (
    <>
      <H>{t("results")}</H>
      <ul class="tables" data-testid="results">
        {board.brackets.filter(only).flatMap((b) =>
          b.rounds.flatMap((r) =>
            r.matches
              .filter((m) => m.state === "official")
              .map((m) => (
                <li key={m.id} class="table">
                  <span class="num">{m.label}</span>
                  <MatchLine match={m} />
                </li>
              )),
          ),
        )}
      </ul>
      {board.standings.filter(only).map((s) => (
        <div key={s.event}>
          <H>{t("standings")}</H>
          <ol class="entries">
            {s.rows.map((row) => (
              <li key={row.player.tavla_id}>
                <span>
                  {row.label}. {row.player.name ?? row.player.tavla_id}
                </span>
                {row.points !== null && row.points !== undefined && <span>{row.points}</span>}
              </li>
            ))}
          </ol>
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

export function MatchLine({ match, division }: { match: MatchView; division?: string }) {
  const name = (side: "home" | "away") => match[side]?.name ?? match[side]?.tavla_id ?? match[`${side}_from`] ?? "—";
  const [h, a] = match.score ?? [0, 0];
  const result = match.result;
  return (
    <span class="match" data-state={match.state}>
      <span>
        {division && <span class="tag division">{division}</span>} {name("home")} – {name("away")}
      </span>
      <span class="score">
        {result ? `${result.home_points}–${result.away_points}` : `${h ?? 0}–${a ?? 0}`} / {match.length}
      </span>
      <span class="state">{t(`mstate_${match.state}` as Key)}</span>
    </span>
  );
}

/** #/t/<id>/tv: the venue's big screen. */
export const TvScreen = ({ id }: { id: string }) => <BoardScreen id={id} big />;
