// The profile's personal-data controls (R12, GDPR): consent to SMS and e-mail, each given or
// withdrawn with one tap and saved at once with its time; and the account's erasure, asked
// twice (what goes and what stays, then the Tavla ID typed back).
import { useState } from "preact/hooks";
import { api, problem, type MyProfile, type Schemas } from "../api/client";
import { signOut } from "../auth";
import { dateTime, day } from "../format";
import { t } from "../i18n";
import { Alert, ConfirmButton, Note } from "./widgets";

type Channel = "sms_opt_in" | "notify_by_email";
const CHANNELS: { field: Channel; at: "sms_opt_in_at" | "notify_by_email_at"; label: "consent_sms" | "field_notify_email" }[] = [
  { field: "sms_opt_in", at: "sms_opt_in_at", label: "consent_sms" },
  { field: "notify_by_email", at: "notify_by_email_at", label: "field_notify_email" },
];

/** One checkbox per channel: a tap saves the choice (and its time) at once. */
export function Consents({ me, saved }: { me: MyProfile; saved: () => void }) {
  const [error, setError] = useState("");
  const [note, setNote] = useState("");
  // the box shows the tap at once; a refused save puts it back
  const [given, setGiven] = useState<Record<Channel, boolean>>({
    sms_opt_in: me.sms_opt_in ?? false,
    notify_by_email: me.notify_by_email ?? false,
  });
  async function choose(field: Channel, chosen: boolean) {
    setError("");
    setNote("");
    setGiven({ ...given, [field]: chosen });
    const answer = await api.PATCH("/me", { body: { [field]: chosen } });
    if (answer.error) {
      setGiven({ ...given, [field]: !chosen });
      setError(problem(answer.error) || t("failed"));
      return;
    }
    setNote(t("consent_saved"));
    saved();
  }
  return (
    <fieldset data-testid="consents">
      <legend>{t("consents_title")}</legend>
      {CHANNELS.map(({ field, at, label }) => (
        <label class="check" key={field}>
          <input
            type="checkbox"
            name={field}
            checked={given[field]}
            onChange={(e) => void choose(field, e.currentTarget.checked)}
          />
          {t(label)}
          {me[at] && <small> · {t("consent_since", { time: dateTime(me[at]) })}</small>}
        </label>
      ))}
      <Note text={note} />
      <Alert text={error} />
    </fieldset>
  );
}

/** Delete my account: the first tap says what goes and what stays, the second needs my Tavla ID;
 * then what was kept, and signing out. */
export function Erasure({ tavlaId }: { tavlaId: string }) {
  const [asked, setAsked] = useState(false);
  const [typed, setTyped] = useState("");
  const [error, setError] = useState("");
  const [done, setDone] = useState<Schemas["Erasure"] | null>(null);
  async function erase(e: Event) {
    e.preventDefault();
    setError("");
    const answer = await api.POST("/me/erasure", { body: { confirm: typed.trim() } });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    setDone(answer.data); // read first; signing out would leave this screen
  }
  if (done)
    return (
      <section data-testid="erased">
        <p role="status">{t("erase_done", { pseudonym: done.pseudonym })}</p>
        <ul>
          {done.kept
            .filter((k) => k.kind === "money_records" && k.until)
            .map((k) => (
              <li key={k.kind}>{t("erase_kept", { n: k.count ?? 0, until: day(k.until) })}</li>
            ))}
        </ul>
        <button type="button" onClick={() => signOut()}>
          {t("sign_out")}
        </button>
      </section>
    );
  return (
    <section data-testid="erasure">
      <h2>{t("erase_title")}</h2>
      {!asked ? (
        <ConfirmButton
          class="warn"
          label={t("erase_button")}
          question={t("erase_question")}
          onConfirm={() => setAsked(true)}
        />
      ) : (
        <form onSubmit={erase}>
          <label>
            {t("erase_type_id", { id: tavlaId })}
            <input
              name="confirm"
              required
              autocomplete="off"
              autocapitalize="characters"
              value={typed}
              onInput={(e) => setTyped(e.currentTarget.value)}
            />
          </label>
          <div class="two">
            <button type="submit" class="warn">
              {t("erase_final")}
            </button>
            <button type="button" class="secondary" onClick={() => setAsked(false)}>
              {t("cancel")}
            </button>
          </div>
          <Alert text={error} />
        </form>
      )}
    </section>
  );
}
