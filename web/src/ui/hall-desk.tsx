// The desk's part of the hall: the queued matches and why each waits (its turn, a busy or
// missing accessible or streamed table, a hold), who holds whom, and the release of a hold
// (asked twice: the match is called though its player is still playing elsewhere); and the
// players' needs at the tables, set and cleared by staff.
import { api, problem, type Entry, type MatchView, type Schemas } from "../api/client";
import { roundName } from "../rounds";
import { t } from "../i18n";
import { useLoad } from "../load";
import { Alert, ConfirmButton } from "./widgets";
import { NeedsDesk } from "./needs-desk";
import { useState } from "preact/hooks";

type Hall = Schemas["HallView"];

export function HallDesk({
  id,
  matches,
  entrants,
  tick,
}: {
  id: string;
  matches: MatchView[];
  entrants: Entry[];
  tick: unknown;
}) {
  const path = { params: { path: { tournament_id: id } } };
  const hall = useLoad(() => api.GET("/tournaments/{tournament_id}/hall", path), [id, tick]);
  const [error, setError] = useState("");
  const byCode = new Map(matches.map((m) => [m.code, m]));
  const describe = (code: string) => {
    const m = byCode.get(code);
    if (!m) return t("hall_other_match");
    return `${roundName(m)}: ${m.home?.name ?? "—"} – ${m.away?.name ?? "—"}`;
  };
  async function release(code: string) {
    setError("");
    const answer = await api.POST("/tournaments/{tournament_id}/holds/{code}/release", {
      params: { path: { tournament_id: id, code } },
    });
    if (answer.error) setError(problem(answer.error) || t("failed"));
    hall.reload();
  }
  const data: Hall | undefined = hall.data;
  if (!data) return null;
  const needs = <NeedsDesk id={id} needs={data.needs} entrants={entrants} onSaved={hall.reload} />;
  if (data.queue.length === 0 && data.holds.length === 0) return needs;
  const holdOf = new Map(data.holds.map((h) => [h.match, h]));
  return (
    <div data-testid="hall">
      <h2>{t("hall_waiting", { n: data.queue.length })}</h2>
      <Alert text={error} />
      <ul class="tables" data-testid="hall-queue">
        {data.queue.map((w) => {
          const hold = holdOf.get(w.match);
          const where = hold
            ? hold.by_tournament
              ? t("hall_held_beside", { name: hold.name ?? hold.tavla_id })
              : t("hall_held_here", { name: hold.name ?? hold.tavla_id, match: describe(hold.by_match) })
            : t(`hall_reason_${w.reason}` as "hall_reason_tables_busy");
          return (
            <li key={w.match} class="table" data-testid={hold ? "hall-hold" : "hall-wait"}>
              <span class="match">
                <span>{describe(w.match)}</span>
                <span class="state" data-testid="hall-reason">
                  {where}
                </span>
              </span>
              {hold && (
                <ConfirmButton
                  class="small secondary"
                  label={t("hall_release")}
                  question={t("hall_release_question", { name: hold.name ?? hold.tavla_id })}
                  onConfirm={() => void release(w.match)}
                  testid="hall-release"
                />
              )}
            </li>
          );
        })}
      </ul>
      {needs}
    </div>
  );
}
