// #/t/<id>/cancel (organiser, or an admin): cancel the tournament (everyone's money back in
// full, everyone told) or move its dates; each asked twice before anything is sent.
import { useState } from "preact/hooks";
import { api, problem } from "../../api/client";
import { Alert, ConfirmButton, NeedSignIn, Note, Status } from "../../ui/widgets";
import { getToken } from "../../auth";
import { t } from "../../i18n";
import { useLoad } from "../../load";
import { isoToVenueInput, money, venueInputToIso } from "../../format";

export function CancelOrPostpone({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const [reason, setReason] = useState("");
  const [starts, setStarts] = useState("");
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const x = tour.data;
  async function cancel() {
    setError("");
    setMessage("");
    const answer = await api.POST("/tournaments/{tournament_id}/cancel", { ...path, body: { reason: reason.trim() || null } });
    if (answer.error) setError(problem(answer.error) || t("failed"));
    else setMessage(t("cancel_done", { amount: money(answer.data.refunds_due.amount) }));
    tour.reload();
  }
  async function postpone() {
    setError("");
    setMessage("");
    const chosen = starts || (x ? isoToVenueInput(new Date(x.starts_at)) : "");
    const answer = await api.POST("/tournaments/{tournament_id}/postpone", {
      ...path,
      body: { starts_at: venueInputToIso(chosen) },
    });
    if (answer.error) setError(problem(answer.error) || t("failed"));
    else setMessage(t("postpone_done"));
    tour.reload();
  }
  return (
    <section>
      <h1>{t("cancel_title")}</h1>
      <Status loading={tour.loading && !tour.data} error={tour.error} />
      {x?.status === "cancelled" && (
        <p class="notice" role="status" data-testid="cancelled">
          {t("tournament_cancelled_banner")}
        </p>
      )}
      {x && x.status === "open" && (
        <div class="card">
          <label>
            {t("postpone_to")}
            <input
              name="postpone-to"
              type="datetime-local"
              value={starts || isoToVenueInput(new Date(x.starts_at))}
              onInput={(e) => setStarts(e.currentTarget.value)}
            />
          </label>
          <ConfirmButton
            label={t("postpone_tournament")}
            question={t("postpone_question")}
            onConfirm={() => void postpone()}
            testid="confirm-postpone"
          />
        </div>
      )}
      {x && (x.status === "open" || x.status === "running") && (
        <div class="danger">
          <label>
            {t("cancel_reason")}
            <input name="cancel-reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          </label>
          <ConfirmButton
            class="warn"
            label={t("cancel_tournament")}
            question={t("cancel_question")}
            onConfirm={() => void cancel()}
            testid="confirm-cancel"
          />
        </div>
      )}
      <Note text={message} testid="cancel-message" />
      <Alert text={error} />
      <a class="button secondary" href={`#/t/${id}/organise`}>
        {t("organise")}
      </a>
    </section>
  );
}
