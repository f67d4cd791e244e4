import { useEffect, useState } from "preact/hooks";
import { api, problem } from "../api/client";
import { Alert, NeedSignIn, Status } from "../ui/widgets";
import { getToken, isAdmin } from "../auth";
import { language, LANGUAGES, setLang, t, type Lang } from "../i18n";
import { useSignal } from "../signal";
import { useLoad } from "../load";
import { Consents, Erasure } from "../ui/privacy";
import { TableNeeds } from "../ui/table-needs";

interface Form {
  name: string;
  club_id: string;
  city: string;
  phone: string;
  email: string;
}
// each language named in itself, as a person looking for theirs reads it
const NAMES: Record<Lang, string> = { el: "Ελληνικά", en: "English", it: "Italiano" };
const EMPTY: Form = { name: "", club_id: "", city: "", phone: "", email: "" };

export function Profile() {
  const me = useLoad(() => api.GET("/me"), []);
  const clubs = useLoad(() => api.GET("/clubs"), []);
  const [form, setForm] = useState<Form>(EMPTY);
  const [saved, setSaved] = useState("");
  const [error, setError] = useState("");
  const current = useSignal(language);
  useEffect(() => {
    if (me.data)
      setForm({
        name: me.data.name,
        club_id: me.data.club_id ?? "",
        city: me.data.city ?? "",
        phone: me.data.phone ?? "",
        email: me.data.email ?? "",
      });
  }, [me.data]);
  if (!getToken()) return <NeedSignIn />;
  /** The profile's language (its notices too) and this device's screens follow the choice. */
  async function chooseLanguage(chosen: Lang) {
    setError("");
    setSaved("");
    setLang(chosen);
    if (creating) return; // sent with the new profile
    const answer = await api.PATCH("/me", { body: { language: chosen } });
    if (answer.error) setError(problem(answer.error) || t("failed"));
    else {
      setSaved(t("language_saved"));
      me.reload();
    }
  }
  const creating = me.status === 404;
  const field = (name: keyof Omit<Form, "club_id">, label: string, type = "text", auto = "off") => (
    <label>
      {label}
      <input
        name={name}
        type={type}
        autocomplete={auto}
        required={name === "name"}
        value={form[name]}
        onInput={(e) => setForm({ ...form, [name]: e.currentTarget.value })}
      />
    </label>
  );
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    setSaved("");
    // the club is sent only when chosen anew: a club typed before the list stays until then
    const chosen = form.club_id !== (me.data?.club_id ?? "") ? { club_id: form.club_id || null } : {};
    const body = {
      name: form.name.trim(),
      ...chosen,
      city: form.city.trim() || null,
      phone: form.phone.trim() || null,
      email: form.email.trim() || null,
    };
    // a new profile takes the screens' language; later the picker alone changes it
    const answer = creating
      ? await api.POST("/players", { body: { ...body, language: current } })
      : await api.PATCH("/me", { body });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    setSaved(t("profile_saved", { id: answer.data.tavla_id }));
    me.reload();
  }
  return (
    <section>
      <h1>{creating ? t("profile_create") : t("nav_profile")}</h1>
      <Status loading={me.loading && !me.data && !creating} error={creating ? undefined : me.error} />
      {me.data && (
        <p class="big-id">
          {t("tavla_id")}: <strong data-testid="my-tavla-id">{me.data.tavla_id}</strong>
        </p>
      )}
      {me.data && (
        <p data-testid="my-rating">
          {t("rating")}: <strong>{Math.round(me.data.rating ?? 1500)}</strong> ·{" "}
          {t("rated_matches", { n: me.data.rated_matches ?? 0 })}
        </p>
      )}
      {isAdmin() && (
        <a class="button secondary" href="#/admin">
          {t("admin_title")}
        </a>
      )}
      {(me.data || creating) && (
        <label>
          {t("field_language")}
          <select
            name="language"
            data-testid="language"
            value={current}
            onChange={(e) => void chooseLanguage(e.currentTarget.value as Lang)}
          >
            {LANGUAGES.map((l) => (
              <option key={l} value={l} lang={l}>
                {NAMES[l]}
              </option>
            ))}
          </select>
        </label>
      )}
      {(me.data || creating) && (
        <form onSubmit={submit}>
          {field("name", t("field_name"), "text", "name")}
          <label>
            {t("field_club")}
            <select name="club_id" value={form.club_id} onChange={(e) => setForm({ ...form, club_id: e.currentTarget.value })}>
              <option value="">{t("field_club_choose")}</option>
              {(clubs.data ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name} · {c.city}
                </option>
              ))}
            </select>
          </label>
          {me.data?.club && !me.data.club_id && (
            <p class="hint" data-testid="typed-club">
              {t("field_club_typed", { club: me.data.club })}
            </p>
          )}
          {field("city", t("field_city"), "text", "address-level2")}
          {field("phone", t("field_phone"), "tel", "tel")}
          {field("email", t("field_email"), "email", "email")}
          <button type="submit">{creating ? t("profile_create") : t("save")}</button>
          {saved && <p role="status">{saved}</p>}
          <Alert text={error} />
        </form>
      )}
      {me.data && <Consents me={me.data} saved={me.reload} />}
      {me.data && <TableNeeds tavlaId={me.data.tavla_id} />}
      <p>
        <a href="#/privacy" data-testid="privacy-link">
          {t("privacy_link")}
        </a>
      </p>
      {me.data && <Erasure tavlaId={me.data.tavla_id} />}
    </section>
  );
}
