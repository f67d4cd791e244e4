// The venue board. Big-screen mode (#/t/<id>/tv) is for a TV: large type, and it refreshes
// itself every few seconds with If-None-Match, so an unchanged board costs a bodiless 304.
import { useEffect, useRef, useState } from "preact/hooks";
import type { Board, MatchView } from "../api/client";
import { Status } from "../app";
import { time } from "../format";
import { t, type Key } from "../i18n";
import { useSignal } from "../signal";
import { freshness } from "../load";

export const POLL_MS = 5000;

export function BoardScreen({ id, big }: { id: string; big: boolean }) {
  const [board, setBoard] = useState<Board>();
  const [error, setError] = useState<string>();
  const [checked, setChecked] = useState<string>();
  const etag = useRef<string | null>(null);
  const fresh = useSignal(freshness);
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
                {table.match ? <MatchLine match={table.match} /> : <span class="free">{t("free")}</span>}
              </li>
            ))}
          </ul>
          {board.queue.length > 0 && (
            <>
              <h2>{t("queue")}</h2>
              <ul class="tables">
                {board.queue.map((m) => (
                  <li key={m.id} class="table">
                    <MatchLine match={m} />
                  </li>
                ))}
              </ul>
            </>
          )}
          <h2>{t("results")}</h2>
          <ul class="tables" data-testid="results">
            {board.brackets.flatMap((b) =>
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
          {board.standings.map((s) => (
            <div key={s.event}>
              <h2>{t("standings")}</h2>
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
            </div>
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

export function MatchLine({ match }: { match: MatchView }) {
  const name = (side: "home" | "away") => match[side]?.name ?? match[side]?.tavla_id ?? match[`${side}_from`] ?? "—";
  const [h, a] = match.score ?? [0, 0];
  const result = match.result;
  return (
    <span class="match" data-state={match.state}>
      <span>
        {name("home")} – {name("away")}
      </span>
      <span class="score">
        {result ? `${result.home_points}–${result.away_points}` : `${h ?? 0}–${a ?? 0}`} / {match.length}
      </span>
      <span class="state">{t(`mstate_${match.state}` as Key)}</span>
    </span>
  );
}
