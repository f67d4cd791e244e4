// #/t/<id>/conduct, from the referee desk (R8): a penalty by the ladder (warning, a
// game, the match), a withdrawal during the day, or a disqualification (asked twice: it cannot
// be undone here). Below, what has been recorded, from the audit trail.
import { useState } from "preact/hooks";
import { api, problem, type Schemas } from "../api/client";
import { Alert, NeedSignIn, Note, Status } from "../ui/widgets";
import { getToken } from "../auth";
import { time } from "../format";
import { t, type Key } from "../i18n";
import { useLoad } from "../load";

const ACTIONS = ["warning", "game", "match", "withdrawal", "disqualification"] as const;
type Action = (typeof ACTIONS)[number];
const RECORDED = new Set(["penalty", "withdrawal", "disqualification"]);

export function Conduct({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const entries = useLoad(() => api.GET("/tournaments/{tournament_id}/entries", path), [id]);
  const audit = useLoad(
    () => api.GET("/tournaments/{tournament_id}/audit", { params: { path: { tournament_id: id }, query: { limit: 200 } } }),
    [id],
  );
  const [player, setPlayer] = useState("");
  const [action, setAction] = useState<Action>("warning");
  const [reason, setReason] = useState("");
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const field = (entries.data?.main ?? []).filter((e) => e.checked_in);
  const names = new Map((entries.data?.main ?? []).map((e) => [e.tavla_id, e.name]));
  const chosen = player || field[0]?.tavla_id || "";
  const name = names.get(chosen) ?? chosen;
  async function send() {
    setError("");
    setMessage("");
    setConfirming(false);
    const why = reason.trim();
    let answer: { error?: unknown; data?: { score?: number[] | null } | object };
    if (action === "withdrawal" || action === "disqualification") {
      const body = { tavla_id: chosen, reason: why || null };
      answer =
        action === "withdrawal"
          ? await api.POST("/tournaments/{tournament_id}/withdrawals", { ...path, body })
          : await api.POST("/tournaments/{tournament_id}/disqualifications", { ...path, body });
    } else {
      answer = await api.POST("/tournaments/{tournament_id}/penalties", {
        ...path,
        body: { tavla_id: chosen, kind: action, reason: why },
      });
    }
    if (answer.error) setError(problem(answer.error) || t("failed"));
    else {
      const score = answer.data && "score" in answer.data ? answer.data.score : null;
      setMessage(
        score ? t("penalty_score", { name, home: score[0] ?? 0, away: score[1] ?? 0 }) : t(`conduct_done_${action}` as Key, { name }),
      );
      setReason("");
    }
    audit.reload();
    entries.reload();
  }
  const recorded = (audit.data?.records ?? []).filter((r) => RECORDED.has(r.action));
  return (
    <section>
      <h1>{t("conduct_title")}</h1>
      <Status loading={entries.loading && !entries.data} error={entries.error} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (action === "disqualification") setConfirming(true);
          else void send();
        }}
      >
        <label>
          {t("conduct_player")}
          <select name="player" value={chosen} onChange={(e) => setPlayer(e.currentTarget.value)}>
            {field.map((e) => (
              <option key={e.tavla_id} value={e.tavla_id}>
                {e.name} · {e.tavla_id}
              </option>
            ))}
          </select>
        </label>
        <fieldset>
          <legend>{t("conduct_action")}</legend>
          {ACTIONS.map((a) => (
            <label class="check" key={a}>
              <input
                type="radio"
                name="action"
                value={a}
                checked={action === a}
                onChange={() => {
                  setAction(a);
                  setConfirming(false);
                }}
              />
              {t(`conduct_${a}` as Key)}
            </label>
          ))}
        </fieldset>
        <label>
          {t(action === "withdrawal" || action === "disqualification" ? "conduct_reason_optional" : "conduct_reason")}
          <textarea
            name="reason"
            maxLength={200}
            required={action !== "withdrawal" && action !== "disqualification"}
            value={reason}
            onInput={(e) => setReason(e.currentTarget.value)}
          />
        </label>
        {!confirming && (
          <button type="submit" class={action === "disqualification" ? "warn" : ""} disabled={!chosen}>
            {t(`conduct_submit_${action}` as Key)}
          </button>
        )}
      </form>
      {confirming && (
        <div class="card" role="alertdialog" aria-labelledby="dq-q" aria-describedby="dq-what" data-testid="confirm-dq">
          <p id="dq-q">
            <strong>{t("dq_question", { name })}</strong>
          </p>
          <p id="dq-what">{t("dq_consequences")}</p>
          <button type="button" class="warn" onClick={() => void send()}>
            {t("dq_yes", { name })}
          </button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            {t("cancel")}
          </button>
        </div>
      )}
      <Note text={message} testid="conduct-message" />
      <Alert text={error} />
      <h2>{t("conduct_recorded", { n: recorded.length })}</h2>
      <ul class="plain" data-testid="conduct-list">
        {recorded.map((r) => (
          <Line key={`${r.at}-${r.action}`} record={r} names={names} />
        ))}
      </ul>
      <a class="button secondary" href={`#/t/${id}/desk`}>
        {t("referee_desk")}
      </a>
    </section>
  );
}

function Line({ record, names }: { record: Schemas["AuditEntry"]; names: Map<string, string> }) {
  const d = (record.details ?? {}) as { tavla_id?: string; kind?: string; reason?: string | null; score?: number[] | null };
  const who = names.get(d.tavla_id ?? "") ?? d.tavla_id ?? "";
  const what = record.action === "penalty" ? `conduct_${d.kind ?? "warning"}` : `conduct_${record.action}`;
  return (
    <li data-action={record.action} data-kind={d.kind ?? ""}>
      <strong>{t(what as Key)}</strong> · {who} · {time(record.at)}
      {d.reason && ` · ${d.reason}`}
      {d.score && ` · ${t("score_after", { home: d.score[0] ?? 0, away: d.score[1] ?? 0 })}`}
    </li>
  );
}
