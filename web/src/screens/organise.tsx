// The organiser: create a tournament, name its referee, draw the next round, finish, report.
import { useState } from "preact/hooks";
import { api, problem } from "../api/client";
import { Alert, NeedSignIn, Note, Status } from "../ui/widgets";
import { getToken } from "../auth";
import { t, type Key } from "../i18n";
import { useLoad } from "../load";
import { getStaff, withMember } from "../staff";
import { several } from "../divisions";
import { divisionOf } from "./board";

export function Organise({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const rounds = useLoad(() => api.GET("/tournaments/{tournament_id}/rounds", path), [id]);
  const [referee, setReferee] = useState("");
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const [report, setReport] = useState<string>();
  if (!getToken()) return <NeedSignIn />;
  async function act(call: () => Promise<{ error?: unknown; data?: unknown }>, ok: (data: never) => string) {
    setError("");
    setMessage("");
    const answer = await call();
    if (answer.error) setError(problem(answer.error) || t("failed"));
    else setMessage(ok(answer.data as never));
    tour.reload();
    rounds.reload();
  }
  const divisions = several(tour.data) ? (tour.data?.divisions ?? []) : [];
  type Drawn = { number?: number; round?: number; pairings?: unknown[] };
  /** The next round: of one division when there are several (R3.7), else of the tournament. */
  const drawNext = (division?: { id: string; name: string }) =>
    act(
      () =>
        api.POST("/tournaments/{tournament_id}/rounds", {
          params: { path: { tournament_id: id }, query: division ? { division: division.id } : {} },
        }),
      (d: Drawn) =>
        division
          ? `${division.name}: ${t("drawn", { n: d.round ?? "", m: d.pairings?.length ?? 0 })}` // its own rounds
          : t("drawn", { n: d.number ?? "", m: d.pairings?.length ?? 0 }),
    );
  async function downloadReport() {
    setError("");
    const answer = await api.GET("/tournaments/{tournament_id}/report", {
      params: { path: { tournament_id: id }, query: { format: "csv" } },
      parseAs: "blob",
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    setReport(URL.createObjectURL(answer.data as Blob));
  }
  return (
    <section>
      <Status loading={tour.loading && !tour.data} error={tour.error} />
      <h1>{tour.data ? t("organise_title", { name: tour.data.name }) : t("organise")}</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void act(
            async () => {
              // added to the staff as it is, not instead of it (the staff screen shows the list)
              const now = await getStaff(id);
              if (now.error) return { error: now.error };
              const member = { tavla_id: referee.trim().toUpperCase(), role: "referee" as const };
              return api.PUT("/tournaments/{tournament_id}/staff", {
                ...path,
                body: { staff: withMember(now.data.staff, member) },
              });
            },
            () => t("staff_saved"),
          );
        }}
      >
        <label>
          {t("referee_tavla_id")}
          <input name="referee" required pattern="[A-Za-z0-9]{7}" value={referee} onInput={(e) => setReferee(e.currentTarget.value)} />
        </label>
        <button type="submit" class="secondary">
          {t("save_staff")}
        </button>
      </form>
      {divisions.map((d) => {
        const drawn = (rounds.data?.rounds ?? []).filter((r) => divisionOf(r, divisions) === d.id);
        return (
          <section key={d.id} data-testid={`draw-${d.id}`} aria-labelledby={`draw-${d.id}`}>
            <h2 id={`draw-${d.id}`}>{d.name}</h2>
            {drawn.length === 0 && <p class="small">{t("no_draw_yet")}</p>}
            <ul class="plain small">
              {drawn.map((r) => (
                <li key={r.number}>{t("drawn_round", { n: r.round, m: r.matches, event: t(`event_${r.event}` as Key) })}</li>
              ))}
            </ul>
            <button type="button" onClick={() => void drawNext(d)}>
              {t("draw_next_in", { name: d.name })}
            </button>
          </section>
        );
      })}
      <div class="actions">
        {divisions.length === 0 && (
          <button type="button" onClick={() => void drawNext()}>
            {t("draw_next")}
          </button>
        )}
        <button
          type="button"
          class="secondary"
          onClick={() => act(() => api.POST("/tournaments/{tournament_id}/finish", path), () => t("finished"))}
        >
          {t("finish")}
        </button>
        <button type="button" class="secondary" onClick={() => void downloadReport()}>
          {t("report")}
        </button>
        {report && (
          <a class="button secondary" href={report} download={`tavla-${id}-report.csv`}>
            {t("report_download")}
          </a>
        )}
        <a class="button secondary" href={`#/t/${id}/edit`}>
          {t("edit_settings")}
        </a>
        <a class="button secondary" href={`#/t/${id}/approvals`}>
          {t("approvals_title")}
        </a>
        <a class="button secondary" href={`#/t/${id}/staff`}>
          {t("staff_title")}
        </a>
        <a class="button secondary" href={`#/t/${id}`}>
          {t("tournament_page")}
        </a>
        <a class="button secondary" href={`#/t/${id}/desk`}>
          {t("referee_desk")}
        </a>
        <a class="button secondary" href={`#/t/${id}/board`}>
          {t("board")}
        </a>
        <a class="button secondary" href={`#/t/${id}/money`}>
          {t("money_title")}
        </a>
      </div>
      <Note text={message} testid="organise-message" />
      <Alert text={error} />
    </section>
  );
}
