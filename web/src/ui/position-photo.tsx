// The photo of an adjourned match's position: taken with the phone's camera at the desk and
// posted straight to the private store with the form the API signs (never through the API),
// then shown to staff and the two players by a link that lasts a few minutes.
import { useState } from "preact/hooks";
import { api, problem } from "../api/client";
import { t } from "../i18n";
import { Alert, Note } from "./widgets";

const TYPES = ["image/jpeg", "image/png", "image/webp"] as const;
type PhotoType = (typeof TYPES)[number];

/** The camera (or a file) to the store; `onKey` gets the key the adjournment names. */
export function PhotoUpload({ matchId, onKey }: { matchId: string; onKey: (key: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState(false);
  const [failed, setFailed] = useState("");
  async function upload(file: File | undefined) {
    if (!file) return;
    setBusy(true);
    setDone(false);
    setFailed("");
    const type: PhotoType = TYPES.find((known) => known === file.type) ?? "image/jpeg";
    const signed = await api.POST("/matches/{match_id}/adjournment-photo", {
      params: { path: { match_id: matchId } },
      body: { content_type: type },
    });
    if (!signed.data) {
      setBusy(false);
      setFailed(problem(signed.error) || t("photo_failed"));
      return;
    }
    const form = new FormData();
    for (const [name, value] of Object.entries(signed.data.fields)) form.append(name, value);
    form.append("file", file); // last: the store reads the fields before the file
    const sent = await fetch(signed.data.url, { method: "POST", body: form }).catch(() => null);
    setBusy(false);
    if (!sent?.ok) {
      setFailed(t(file.size > signed.data.max_bytes ? "photo_too_large" : "photo_failed"));
      return;
    }
    onKey(signed.data.key);
    setDone(true);
  }
  return (
    <div class="photo-upload">
      <label>
        {t("position_photo")}
        <input
          type="file"
          accept="image/*"
          capture="environment"
          disabled={busy}
          onChange={(e) => void upload(e.currentTarget.files?.[0])}
        />
      </label>
      {busy && <p aria-busy="true">{t("photo_uploading")}</p>}
      <Note text={done ? t("photo_uploaded") : ""} testid="photo-uploaded" />
      <Alert text={failed} />
    </div>
  );
}

/** The position's photo, fetched when asked for (the link expires in minutes). */
export function PositionPhoto({ matchId }: { matchId: string }) {
  const [url, setUrl] = useState("");
  const [failed, setFailed] = useState("");
  async function show() {
    setFailed("");
    const link = await api.GET("/matches/{match_id}/adjournment-photo", { params: { path: { match_id: matchId } } });
    if (link.data) setUrl(link.data.url);
    else setFailed(problem(link.error) || t("failed"));
  }
  return (
    <div class="position-photo">
      {url ? (
        <img src={url} alt={t("position_photo")} />
      ) : (
        <button type="button" class="small secondary" onClick={() => void show()}>
          {t("photo_show")}
        </button>
      )}
      <Alert text={failed} />
    </div>
  );
}
