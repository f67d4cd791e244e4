// #/t/<id>/edit (organiser): the settings (PATCH, until the draw); only what changed is sent.
import { useState } from "preact/hooks";
import { api, problem, type Schemas, type Tournament } from "../../api/client";
import { Alert, Choice, NeedSignIn, Note, Status } from "../../ui/widgets";
import { getToken } from "../../auth";
import { cents, isoToVenueInput, venueInputToIso } from "../../format";
import { t } from "../../i18n";
import { EventFields } from "../../ui/event-fields";
import { useLoad } from "../../load";
import { FORMATS, PROFILES } from "../../profiles";
import { divisionsOf, DivisionsEditor, rowsOf, sameDivisions, type DivisionRow } from "../divisions";
import type { Division } from "../../divisions";

type Format = (typeof FORMATS)[number];
type Profile = (typeof PROFILES)[number];
type Update = Schemas["TournamentUpdate"];

const euros = (amount: number | undefined) => (amount === undefined ? "" : (amount / 100).toFixed(2).replace(".", ","));
const venueTime = (iso: string | null | undefined) => (iso ? isoToVenueInput(new Date(iso)) : "");

interface Form {
  name: string;
  venue: string;
  city: string;
  starts: string;
  closes: string;
  capacity: string;
  fee: string;
  earlyFee: string;
  earlyDeadline: string;
  format: Format;
  lives: string;
  swissRounds: string;
  pointsWin: string;
  pointsLoss: string;
  pointsForfeit: string;
  profile: Profile;
  series: boolean;
  tables: string;
  approval: boolean;
  divisions: DivisionRow[];
}

type Settings = Pick<
  Tournament,
  | "name"
  | "venue"
  | "city"
  | "starts_at"
  | "registration_closes_at"
  | "capacity"
  | "entry_fee"
  | "early_bird_fee"
  | "early_bird_deadline"
  | "format"
  | "lives"
  | "swiss_rounds"
  | "match_points"
  | "rule_profile"
  | "series"
  | "tables"
  | "requires_approval"
> & { divisions?: readonly Division[] | null };

function formOf(x: Settings): Form {
  return {
    name: x.name,
    venue: x.venue,
    city: x.city ?? "",
    starts: venueTime(x.starts_at),
    closes: venueTime(x.registration_closes_at),
    capacity: String(x.capacity),
    fee: euros(x.entry_fee?.amount ?? 0),
    earlyFee: x.early_bird_fee ? euros(x.early_bird_fee.amount) : "",
    earlyDeadline: venueTime(x.early_bird_deadline),
    format: (x.format ?? "single_elimination") as Format,
    lives: x.lives ? String(x.lives) : "",
    swissRounds: x.swiss_rounds ? String(x.swiss_rounds) : "",
    pointsWin: x.match_points ? String(x.match_points.win) : "",
    pointsLoss: x.match_points ? String(x.match_points.loss) : "",
    pointsForfeit: x.match_points ? String(x.match_points.forfeit) : "",
    profile: (x.rule_profile ?? "platform") as Profile,
    series: Boolean(x.series),
    tables: x.tables ? String(x.tables) : "",
    approval: Boolean(x.requires_approval),
    divisions: rowsOf(x.divisions ?? undefined),
  };
}

/** Only what the organiser changed, in the API's terms; a typed amount that is not one: null. */
function changes(before: Form, after: Form): Update | null {
  const body: Update = {};
  const number = (typed: string) => (typed.trim() ? Number(typed) : null);
  if (after.name !== before.name) body.name = after.name.trim();
  if (after.venue !== before.venue) body.venue = after.venue.trim();
  if (after.city !== before.city) body.city = after.city.trim() || null;
  if (after.starts !== before.starts) body.starts_at = venueInputToIso(after.starts);
  if (after.closes !== before.closes) body.registration_closes_at = venueInputToIso(after.closes);
  if (after.capacity !== before.capacity) body.capacity = Number(after.capacity);
  if (after.fee !== before.fee) {
    const fee = cents(after.fee);
    if (fee === null) return null;
    body.entry_fee = { amount: fee, currency: "EUR" };
  }
  if (after.earlyFee !== before.earlyFee || after.earlyDeadline !== before.earlyDeadline) {
    const fee = after.earlyFee.trim() ? cents(after.earlyFee) : undefined;
    if (fee === null) return null;
    body.early_bird_fee = fee === undefined ? null : { amount: fee, currency: "EUR" };
    body.early_bird_deadline = after.earlyDeadline ? venueInputToIso(after.earlyDeadline) : null;
  }
  if (after.format !== before.format) body.format = after.format;
  if (after.lives !== before.lives) body.lives = number(after.lives);
  if (after.swissRounds !== before.swissRounds) body.swiss_rounds = number(after.swissRounds);
  const points = [after.pointsWin, after.pointsLoss, after.pointsForfeit];
  if (points.join() !== [before.pointsWin, before.pointsLoss, before.pointsForfeit].join()) {
    // all three or none (none: the format's defaults, R5.6); the API checks the values
    if (points.every((typed) => !typed.trim())) body.match_points = null;
    else if (points.some((typed) => !typed.trim())) return null;
    else body.match_points = { win: Number(points[0]), loss: Number(points[1]), forfeit: Number(points[2]) };
  }
  if (after.profile !== before.profile) body.rule_profile = after.profile;
  if (after.series !== before.series) body.series = after.series;
  if (after.tables !== before.tables) body.tables = number(after.tables);
  if (after.approval !== before.approval) body.requires_approval = after.approval;
  const divisions = divisionsOf(after.divisions);
  if (divisions === null) return null;
  if (!sameDivisions(divisions, divisionsOf(before.divisions))) body.divisions = divisions; // the whole list (R3.7)
  return body;
}

/** #/t/<id>/edit: the settings form, filled from the tournament; sends only what changed. */
export function EditTournament({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const [form, setForm] = useState<Form>();
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const x = tour.data;
  if (!x) return <Status loading={tour.loading} error={tour.error} />;
  const before = formOf(x);
  const f = form ?? before;
  const open = x.status === "open";
  const set = (name: keyof Form) => (e: Event) => {
    const input = e.currentTarget as HTMLInputElement;
    setForm({ ...f, [name]: input.type === "checkbox" ? input.checked : input.value });
  };
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    setMessage("");
    const body = changes(before, f);
    if (body === null) {
      setError(t("bad_amount"));
      return;
    }
    if (Object.keys(body).length === 0) {
      setMessage(t("nothing_changed"));
      return;
    }
    const answer = await api.PATCH("/tournaments/{tournament_id}", { ...path, body });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    setForm(undefined);
    setMessage(t("settings_saved"));
    tour.reload();
  }
  return (
    <section>
      <h1>{t("edit_title", { name: x.name })}</h1>
      {!open && <p class="notice">{t("settings_locked")}</p>}
      <form onSubmit={submit} data-testid="edit-form">
        <fieldset disabled={!open}>
          <legend>{t("edit_event")}</legend>
          <EventFields values={f} set={set} />
        </fieldset>
        <fieldset disabled={!open}>
          <legend>{t("edit_places")}</legend>
          <label>
            {t("field_capacity")}
            <input name="capacity" type="number" inputMode="numeric" min={2} required value={f.capacity} onInput={set("capacity")} />
          </label>
          <p class="hint">{t("capacity_hint", { registered: x.registered ?? 0, waiting: x.waiting ?? 0 })}</p>
          <label>
            {t("field_tables")}
            <input name="tables" type="number" inputMode="numeric" min={1} value={f.tables} onInput={set("tables")} />
          </label>
          <label class="check">
            <input name="approval" type="checkbox" checked={f.approval} onChange={set("approval")} />
            {t("field_requires_approval")}
          </label>
        </fieldset>
        <fieldset disabled={!open}>
          <legend>{t("edit_fees")}</legend>
          <label>
            {t("field_fee")}
            <input name="fee" inputMode="decimal" required value={f.fee} onInput={set("fee")} />
          </label>
          <label>
            {t("field_early_fee")}
            <input name="early_fee" inputMode="decimal" value={f.earlyFee} onInput={set("earlyFee")} />
          </label>
          <label>
            {t("field_early_deadline")}
            <input name="early_deadline" type="datetime-local" value={f.earlyDeadline} onInput={set("earlyDeadline")} />
          </label>
        </fieldset>
        <fieldset disabled={!open}>
          <legend>{t("edit_play")}</legend>
          <Choice
            label={t("format")}
            name="format"
            value={f.format}
            values={FORMATS}
            prefix="format_"
            onChange={(format) => setForm({ ...f, format })}
          />
          {f.format === "lives" && (
            <label>
              {t("field_lives")}
              <input name="lives" type="number" inputMode="numeric" min={1} max={10} value={f.lives} onInput={set("lives")} />
            </label>
          )}
          {f.format === "swiss" && (
            <label>
              {t("field_swiss_rounds")}
              <input name="swiss_rounds" type="number" inputMode="numeric" min={1} max={20} value={f.swissRounds} onInput={set("swissRounds")} />
            </label>
          )}
          {(f.format === "swiss" || f.format === "round_robin") && (
            <>
              <label>
                {t("field_points_win")}
                <input name="points_win" type="number" inputMode="numeric" min={1} max={10} value={f.pointsWin} onInput={set("pointsWin")} />
              </label>
              <label>
                {t("field_points_loss")}
                <input name="points_loss" type="number" inputMode="numeric" min={0} max={10} value={f.pointsLoss} onInput={set("pointsLoss")} />
              </label>
              <label>
                {t("field_points_forfeit")}
                <input name="points_forfeit" type="number" inputMode="numeric" min={0} max={10} value={f.pointsForfeit} onInput={set("pointsForfeit")} />
              </label>
              <p class="hint">{t("points_hint")}</p>
            </>
          )}
          <Choice
            label={t("rule_profile")}
            name="profile"
            value={f.profile}
            values={PROFILES}
            prefix="profile_"
            onChange={(profile) => setForm({ ...f, profile, series: profile === "cnb" && f.series })}
          />
          {f.profile === "cnb" && (
            // only the cnb rulebook has series, and its breaks between the series' matches (2.2.2)
            <label class="check">
              <input name="series" type="checkbox" checked={f.series} onChange={set("series")} />
              {t("field_series")}
            </label>
          )}
        </fieldset>
        <fieldset disabled={!open}>
          <legend>{t("divisions_title")}</legend>
          <DivisionsEditor rows={f.divisions} onChange={(divisions) => setForm({ ...f, divisions })} />
        </fieldset>
        {open && <button type="submit">{t("save")}</button>}
        <Note text={message} testid="edit-message" />
        <Alert text={error} />
      </form>
      <a class="button secondary" href={`#/t/${id}/organise`}>
        {t("organise")}
      </a>
    </section>
  );
}
