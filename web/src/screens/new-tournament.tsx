// #/new (organiser): a new tournament.
import { useState } from "preact/hooks";
import { api, problem } from "../api/client";
import { Alert, Choice, NeedSignIn } from "../ui/widgets";
import { getToken } from "../auth";
import { cents, isoToVenueInput, venueInputToIso, VENUE_TIME_ZONE } from "../format";
import { t } from "../i18n";
import { EventFields } from "../ui/event-fields";
import { go } from "../router";
import { defaultRows, divisionsOf, DivisionsEditor, sameDivisions } from "./divisions";
import { FORMATS, PROFILES } from "../profiles";
import { platformNow } from "../platform-clock";

export function NewTournament() {
  const week = new Date(platformNow() + 7 * 86400000);
  const [form, setForm] = useState({
    name: "",
    venue: "",
    city: "",
    starts: isoToVenueInput(week).slice(0, 11) + "10:00",
    closes: isoToVenueInput(new Date(week.getTime() - 86400000)).slice(0, 11) + "20:00",
    capacity: "32",
    fee: "30",
    format: "single_elimination" as (typeof FORMATS)[number],
    profile: "platform" as (typeof PROFILES)[number],
    tables: "",
  });
  const [first] = useState(defaultRows);
  const [divisions, setDivisions] = useState(first);
  const [error, setError] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const set = (name: keyof typeof form) => (e: Event) =>
    setForm({ ...form, [name]: (e.currentTarget as HTMLInputElement).value });
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    const fee = cents(form.fee);
    const chosen = divisionsOf(divisions);
    if (fee === null || chosen === null) {
      setError(t("bad_amount"));
      return;
    }
    // the API's default (one division) unless the organiser changed the list (R3.7)
    const own = sameDivisions(chosen, divisionsOf(first)) ? {} : { divisions: chosen };
    const answer = await api.POST("/tournaments", {
      params: { header: { "idempotency-key": crypto.randomUUID() } },
      body: {
        name: form.name.trim(),
        venue: form.venue.trim(),
        city: form.city.trim() || null,
        starts_at: venueInputToIso(form.starts),
        registration_closes_at: venueInputToIso(form.closes),
        capacity: Number(form.capacity),
        entry_fee: { amount: fee, currency: "EUR" },
        format: form.format,
        rule_profile: form.profile,
        tables: form.tables ? Number(form.tables) : null,
        time_zone: VENUE_TIME_ZONE,
        ...own,
      },
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    go(`#/t/${answer.data.id}/organise`);
  }
  return (
    <section>
      <h1>{t("new_tournament")}</h1>
      <form onSubmit={submit}>
        <EventFields values={form} set={set} />
        <label>
          {t("field_capacity")}
          <input name="capacity" type="number" inputMode="numeric" min={2} required value={form.capacity} onInput={set("capacity")} />
        </label>
        <label>
          {t("field_fee")}
          <input name="fee" inputMode="decimal" required value={form.fee} onInput={set("fee")} />
        </label>
        <Choice
          label={t("format")}
          name="format"
          value={form.format}
          values={FORMATS}
          prefix="format_"
          onChange={(format) => setForm({ ...form, format })}
        />
        <Choice
          label={t("rule_profile")}
          name="profile"
          value={form.profile}
          values={PROFILES}
          prefix="profile_"
          onChange={(profile) => setForm({ ...form, profile })}
        />
        <label>
          {t("field_tables")}
          <input name="tables" type="number" inputMode="numeric" min={1} value={form.tables} onInput={set("tables")} />
        </label>
        <fieldset>
          <legend>{t("divisions_title")}</legend>
          <DivisionsEditor rows={divisions} onChange={setDivisions} />
        </fieldset>
        <button type="submit">{t("create")}</button>
        <Alert text={error} />
      </form>
    </section>
  );
}

