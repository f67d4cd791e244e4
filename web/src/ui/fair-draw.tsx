// The console's part of a draw nobody can shop (R5.1): the seed's commitment (its hash, or the
// button that commits), the next round's preview from the committed seed (what the draw will
// publish), and the redraw of the latest round, which asks for a reason and a confirmation.
import { useState } from "preact/hooks";
import { api, type Schemas } from "../api/client";
import { Alert, ConfirmButton, Note } from "./widgets";
import { useAction } from "./action";
import { t } from "../i18n";

type Preview = Schemas["DrawPreview"];
type Side = Schemas["PreviewPairing"]["home"];

const side = (player: Side, from?: string | null) => player?.name ?? player?.tavla_id ?? from ?? t("mstate_bye");

export function FairDraw(props: {
  id: string;
  commitment?: Schemas["DrawCommitment"] | null;
  latest?: { number: number; round: number };
  onChange: () => void;
}) {
  const { id, latest, onChange } = props;
  const path = { params: { path: { tournament_id: id } } };
  const commit = useAction(onChange);
  const look = useAction();
  const redraw = useAction(onChange);
  const [preview, setPreview] = useState<Preview>();
  const [reason, setReason] = useState("");
  return (
    <section class="card" data-testid="fair-draw" aria-labelledby="fair-draw">
      <h2 id="fair-draw">{t("fair_draw")}</h2>
      {props.commitment ? (
        <p class="small" data-testid="commitment">
          {t("seed_committed", { hash: props.commitment.hash.slice(0, 16) })}
        </p>
      ) : (
        <button
          type="button"
          class="secondary"
          disabled={commit.busy}
          onClick={() => void commit.run(() => api.POST("/tournaments/{tournament_id}/draw-commitment", path), t("seed_commit_done"))}
        >
          {t("seed_commit")}
        </button>
      )}
      <Note text={commit.message} />
      <Alert text={commit.error} />
      <button
        type="button"
        class="secondary"
        disabled={look.busy}
        onClick={() =>
          void look.run(() => api.GET("/tournaments/{tournament_id}/draw-preview", path)).then((p) => setPreview(p ?? undefined))
        }
      >
        {t("preview_next")}
      </button>
      <Alert text={look.error} />
      {preview && (
        <ol class="plain small" data-testid="preview">
          {preview.pairings.map((p) => (
            <li key={p.code}>
              {p.label}.{p.board}: {side(p.home, p.home_from)} – {side(p.away, p.away_from)}
            </li>
          ))}
        </ol>
      )}
      {latest && (
        <div class="redraw">
          <label>
            {t("redraw_reason", { n: latest.round })}
            <input name="reason" minLength={3} maxLength={300} value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
          </label>
          <ConfirmButton
            label={t("redraw")}
            question={t("redraw_question", { n: latest.round })}
            class="secondary"
            disabled={redraw.busy || reason.trim().length < 3}
            onConfirm={() =>
              void redraw.run(
                () =>
                  api.POST("/tournaments/{tournament_id}/rounds/{number}/redraw", {
                    params: { path: { tournament_id: id, number: latest.number } },
                    body: { reason: reason.trim() },
                  }),
                t("redrawn_done"),
              )
            }
          />
          <Note text={redraw.message} testid="redraw-message" />
          <Alert text={redraw.error} />
        </div>
      )}
    </section>
  );
}
