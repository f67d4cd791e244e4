// #/t/<id>/cancel (organiser, or an admin): cancel the tournament (everyone's money back in
// full, everyone told) or move its dates; each asked twice before anything is sent.
import { useState } from "preact/hooks";
import { api, problem } from "../../api/client";
import { Alert, ConfirmButton, NeedSignIn, Note, Status } from "../../ui/widgets";
import { getToken, isAdmin } from "../../auth";
import { t } from "../../i18n";
import { useLoad } from "../../load";
import { isoToVenueInput, money, venueInputToIso } from "../../format";

export function CancelOrPostpone({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const [reason, setReason] = useState("");
  const [unrate, setUnrate] = useState(false);
  const [starts, setStarts] = useState("");
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const x = tour.data;
  async function cancel(unrated = unrate) {
    setError("");
    setMessage("");
    const answer = await api.POST("/tournaments/{tournament_id}/cancel", {
      ...path,
      body: { reason: reason.trim() || null, ...(unrated ? { unrate: true } : {}) },
    });
    if (answer.error) setError(problem(answer.error) || t("failed"));
    else setMessage(t("cancel_done", { amount: money(answer.data.refunds_due.amount) }));
    tour.reload();
  }
  // after the draw the results played stay rated unless an admin says otherwise
  const mayUnrate = isAdmin() && x !== undefined && (x.draws ?? 0) > 0 && !x.unrated_at;
  async function postpone() {
    setError("");
    setMessage("");
    const chosen = starts || (x ? isoToVenueInput(new Date(x.starts_at), x.time_zone) : "");
    const answer = await api.POST("/tournaments/{tournament_id}/postpone", {
      ...path,
      body: { starts_at: venueInputToIso(chosen, x?.time_zone) },
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
      {x?.unrated_at && (
        <p class="notice" data-testid="unrated">
          {t("cancel_unrated_banner")}
        </p>
      )}
      {x?.status === "cancelled" && mayUnrate && (
        <ConfirmButton
          class="warn"
          label={t("unrate_results")}
          question={t("unrate_question")}
          onConfirm={() => void cancel(true)}
          testid="confirm-unrate"
        />
      )}
      {x && x.status === "open" && (
        <div class="card">
          <label>
            {t("postpone_to")}
            <input
              name="postpone-to"
              type="datetime-local"
              value={starts || isoToVenueInput(new Date(x.starts_at), x.time_zone)}
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
          {mayUnrate && (
            <label class="check">
              <input type="checkbox" name="unrate" checked={unrate} onChange={(e) => setUnrate(e.currentTarget.checked)} />
              {t("cancel_unrate")}
            </label>
          )}
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
      {x?.status === "cancelled" && (
        <a class="button secondary" href={`#/t/${id}/refunds`} data-testid="refunds-link">
          {t("cancel_refunds_link")}
        </a>
      )}
      <a class="button secondary" href={`#/t/${id}/organise`}>
        {t("organise")}
      </a>
    </section>
  );
}
