// The organiser: create a tournament, name its referee, draw the next round, finish, report.
import { useState } from "preact/hooks";
import { api, problem } from "../api/client";
import { Alert, Choice, NeedSignIn, Note, Status } from "../app";
import { getToken } from "../auth";
import { cents, isoToVenueInput, venueInputToIso, VENUE_TIME_ZONE } from "../format";
import { t, type Key } from "../i18n";
import { useLoad } from "../load";
import { go } from "../router";
import { getStaff, withMember } from "../staff";
import { defaultRows, divisionsOf, DivisionsEditor, sameDivisions } from "./divisions";
import { several } from "../divisions";
import { divisionOf } from "./board";

export const FORMATS = ["single_elimination", "double_elimination", "swiss", "round_robin", "lives"] as const;
export const PROFILES = ["platform", "hbf", "cnb"] as const;

export function NewTournament() {
  const week = new Date(Date.now() + 7 * 86400000);
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
        <label>
          {t("field_tournament_name")}
          <input name="name" required value={form.name} onInput={set("name")} />
        </label>
        <label>
          {t("field_venue")}
          <input name="venue" required value={form.venue} onInput={set("venue")} />
        </label>
        <label>
          {t("field_city")}
          <input name="city" value={form.city} onInput={set("city")} />
        </label>
        <label>
          {t("field_starts")}
          <input name="starts" type="datetime-local" required value={form.starts} onInput={set("starts")} />
        </label>
        <label>
          {t("registration_closes")}
          <input name="closes" type="datetime-local" required value={form.closes} onInput={set("closes")} />
        </label>
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
