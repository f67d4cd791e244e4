// The organiser's console: the state of the day first (round n of m, results in, tables free),
// then the one thing to do next (draw the next round, or finish once every result is in),
// its answer shown where it was tapped; finishing is asked twice; Swiss and lives take late
// entries here. The other screens are a list of links below, and the referee's quick naming
// at the end. It follows the day by itself.
import { useState } from "preact/hooks";
import { api, type Board, type Schemas } from "../api/client";
import { Alert, ConfirmButton, NeedSignIn, Note, Stale, Status } from "../ui/widgets";
import { useAction, type Action } from "../ui/action";
import { getToken } from "../auth";
import { t, type Key } from "../i18n";
import { useLoad } from "../load";
import { getStaff, withMember } from "../staff";
import { several } from "../divisions";
import { channelsOf, useLive } from "../live/use-live";
import { roundName } from "../rounds";
import { divisionOf } from "./board";
import { FairDraw } from "../ui/fair-draw";
import { LateEntry } from "../ui/late-entry";

type Drawn = { number?: number; round?: number; pairings?: unknown[] };

/** The day as the organiser reads it: the current round, how many of its results are in, the
 * tables free, and whether anything is still to be played. */
export function dayOf(board: Board | undefined) {
  const matches = board?.brackets.flatMap((b) => b.rounds.flatMap((r) => r.matches)) ?? [];
  const current = board?.current ?? [];
  const inCurrent = matches.filter((m) => current.some((c) => c.number === m.draw));
  const decided = (m: { state: string }) => ["official", "bye", "void", "not_needed"].includes(m.state);
  const played = matches.filter((m) => m.home && m.away);
  return {
    round: inCurrent[0] ?? matches.filter((m) => m.home && m.away).at(-1),
    resultsIn: inCurrent.filter(decided).length,
    results: inCurrent.length,
    tablesFree: board?.tables.filter((x) => !x.match).length ?? 0,
    tables: board?.tables.length ?? 0,
    allDecided: played.length > 0 && played.every(decided) && matches.every((m) => decided(m) || !(m.home && m.away)),
  };
}

export function Organise({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const rounds = useLoad(() => api.GET("/tournaments/{tournament_id}/rounds", path), [id]);
  const board = useLoad(() => api.GET("/tournaments/{tournament_id}/board", path), [id]);
  const reload = () => {
    tour.reload();
    rounds.reload();
    board.reload();
  };
  const live = useLive([channelsOf.tournament(id), channelsOf.staff(id)], reload);
  const main = useAction(reload);
  const [where, setWhere] = useState("main");
  if (!getToken()) return <NeedSignIn />;
  const x = tour.data;
  const divisions = several(x) ? (x?.divisions ?? []) : [];
  const day = dayOf(board.data);
  const finished = x?.status === "finished";
  const drawnRounds = rounds.data?.rounds.length ?? 0;
  // more rounds to draw once these are in: Swiss until its rounds are played; a knockout's
  // later rounds follow by themselves; other formats until the API says there is nothing left
  const lastRound = Math.max(0, ...(rounds.data?.rounds ?? []).map((r) => r.round));
  const more =
    drawnRounds === 0 ||
    (x?.format === "swiss"
      ? lastRound < (x.swiss_rounds ?? 0)
      : x?.format !== "single_elimination" && x?.format !== "double_elimination");
  const nothingLeft = main.code === "nothing_to_draw" || (day.allDecided && !more);
  /** The next round: of one division when there are several (R3.7), else of the tournament. */
  async function drawNext(division?: { id: string; name: string }) {
    setWhere(division?.id ?? "main");
    await main.run<Drawn>(
      () =>
        api.POST("/tournaments/{tournament_id}/rounds", {
          params: { path: { tournament_id: id }, query: division ? { division: division.id } : {} },
        }),
      (d) =>
        division
          ? `${division.name}: ${t("drawn", { n: d.round ?? "", m: d.pairings?.length ?? 0 })}` // its own rounds
          : t("drawn", { n: d.number ?? "", m: d.pairings?.length ?? 0 }),
    );
  }
  const finishButton = (
    <ConfirmButton
      label={t("finish")}
      question={t("finish_question")}
      class={nothingLeft ? undefined : "secondary"}
      onConfirm={() => {
        setWhere("main");
        void main.run(() => api.POST("/tournaments/{tournament_id}/finish", path), t("finished"));
      }}
    />
  );
  const answer = (here: string) =>
    where === here ? (
      <>
        <Note text={main.message} testid="organise-message" />
        <Alert text={main.error} />
      </>
    ) : null;
  return (
    <section>
      <Status loading={tour.loading && !x} error={tour.error} />
      <h1>{x ? t("organise_title", { name: x.name }) : t("organise")}</h1>
      <Stale since={live.staleSince} />
      {x && (
        <dl class="facts day" data-testid="day">
          <dt>{t("day_status")}</dt>
          <dd>{t(`tstatus_${x.status ?? "open"}` as Key)}</dd>
          <dt>{t("day_round")}</dt>
          <dd data-testid="day-round">{day.round ? roundName(day.round) : t("no_draw_yet")}</dd>
          {day.results > 0 && (
            <>
              <dt>{t("day_results")}</dt>
              <dd data-testid="day-results">{t("results_in", { n: day.resultsIn, of: day.results })}</dd>
            </>
          )}
          {day.tables > 0 && (
            <>
              <dt>{t("day_tables")}</dt>
              <dd>{t("tables_free", { n: day.tablesFree, of: day.tables })}</dd>
            </>
          )}
        </dl>
      )}
      {x && !finished && divisions.length === 0 && (
        <div class="main-action card" data-testid="main-action">
          {nothingLeft ? (
            <>
              <p>{t("next_finish")}</p>
              {finishButton}
            </>
          ) : day.results > day.resultsIn ? (
            <>
              <p>{t("next_wait_results", { n: day.results - day.resultsIn })}</p>
              <a class="button secondary" href={`#/t/${id}/desk`}>
                {t("referee_desk")}
              </a>
            </>
          ) : (
            <button type="button" disabled={main.busy} onClick={() => void drawNext()}>
              {t("draw_next")}
            </button>
          )}
          {answer("main")}
        </div>
      )}
      {!finished &&
        divisions.map((d) => {
          const drawn = (rounds.data?.rounds ?? []).filter((r) => divisionOf(r, divisions) === d.id);
          return (
            <section key={d.id} class="card" data-testid={`draw-${d.id}`} aria-labelledby={`draw-${d.id}`}>
              <h2 id={`draw-${d.id}`}>{d.name}</h2>
              {drawn.length === 0 && <p class="small">{t("no_draw_yet")}</p>}
              <ul class="plain small">
                {drawn.map((r) => (
                  <li key={r.number}>{t("drawn_round", { n: r.round, m: r.matches, event: t(`event_${r.event}` as Key) })}</li>
                ))}
              </ul>
              <button type="button" disabled={main.busy} onClick={() => void drawNext(d)}>
                {t("draw_next_in", { name: d.name })}
              </button>
              {answer(d.id)}
            </section>
          );
        })}
      {finished && answer("main")}
      {x && !finished && divisions.length === 0 && (
        <FairDraw
          id={id}
          commitment={x.draw_commitment}
          latest={(rounds.data?.rounds ?? []).at(-1)}
          onChange={reload}
        />
      )}
      {x && !finished && (x.format === "swiss" || x.format === "lives") && <LateEntry tournament={x} onChange={reload} />}
      <Report id={id} />
      <h2>{t("other_screens")}</h2>
      <ul class="links" data-testid="organise-links">
        {(
          [
            ["edit", "edit_settings"],
            ["approvals", "approvals_title"],
            ["staff", "staff_title"],
            ["desk", "referee_desk"],
            ["tables", "tables_title"],
            ["money", "money_title"],
            ["board", "board"],
            ["cancel", "cancel_title"],
            ["", "tournament_page"],
          ] as const
        ).map(([sub, key]) => (
          <li key={sub}>
            <a href={`#/t/${id}${sub ? `/${sub}` : ""}`}>{t(key)}</a>
          </li>
        ))}
      </ul>
      {!finished && divisions.length > 0 && <div class="danger">{finishButton}</div>}
      {!finished && divisions.length === 0 && !nothingLeft && <div class="danger">{finishButton}</div>}
      <NameReferee id={id} />
    </section>
  );
}

/** The federation's report (CSV), fetched with the token and handed over as a download. */
function Report({ id }: { id: string }) {
  const action = useAction();
  const [report, setReport] = useState<string>();
  return (
    <div class="actions">
      <button
        type="button"
        class="secondary"
        disabled={action.busy}
        onClick={() =>
          void action
            .run(() =>
              api.GET("/tournaments/{tournament_id}/report", {
                params: { path: { tournament_id: id }, query: { format: "csv" } },
                parseAs: "blob",
              }),
            )
            .then((blob) => blob && setReport(URL.createObjectURL(blob as Blob)))
        }
      >
        {t("report")}
      </button>
      {report && (
        <a class="button secondary" href={report} download={`tavla-${id}-report.csv`}>
          {t("report_download")}
        </a>
      )}
      <Alert text={action.error} />
    </div>
  );
}

/** Name the referee quickly: added to the staff as it is, not instead of it. */
function NameReferee({ id }: { id: string }) {
  const [referee, setReferee] = useState("");
  const action: Action = useAction();
  return (
    <form
      class="card"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(async () => {
          const now = await getStaff(id);
          if (now.error) return { error: now.error };
          const member: Schemas["StaffMember"] = { tavla_id: referee.trim().toUpperCase(), role: "referee" };
          return api.PUT("/tournaments/{tournament_id}/staff", {
            params: { path: { tournament_id: id } },
            body: { staff: withMember(now.data.staff, member) },
          });
        }, t("staff_saved"));
      }}
    >
      <label>
        {t("referee_tavla_id")}
        <input name="referee" required pattern="[A-Za-z0-9]{7}" value={referee} onInput={(e) => setReferee(e.currentTarget.value)} />
      </label>
      <button type="submit" class="secondary" disabled={action.busy}>
        {t("save_staff")}
      </button>
      <Note text={action.message} testid="referee-message" />
      <Alert text={action.error} />
    </form>
  );
}
