// The organiser's other screens, loaded only when an organiser opens one: edit the
// tournament's settings (PATCH, until the draw), approve or refuse pending entries (R3.7), and
// the whole staff list (PUT .../staff: referees and organisers by Tavla ID, R1.3).
import { useState } from "preact/hooks";
import { api, problem, type Schemas, type Tournament } from "../api/client";
import { Alert, Choice, NeedSignIn, Note, Status } from "../app";
import { getToken } from "../auth";
import { cents, isoToVenueInput, venueInputToIso } from "../format";
import { t } from "../i18n";
import { useLoad } from "../load";
import { FORMATS, PROFILES } from "./organise";
import { getStaff, withMember, type Member } from "../staff";
import { divisionsOf, DivisionsEditor, rowsOf, sameDivisions, type DivisionRow } from "./divisions";
import { divisionName, several } from "../divisions";

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
  | "tables"
  | "requires_approval"
  | "divisions"
>;

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
    tables: x.tables ? String(x.tables) : "",
    approval: Boolean(x.requires_approval),
    divisions: rowsOf(x.divisions),
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
          <label>
            {t("field_tournament_name")}
            <input name="name" required value={f.name} onInput={set("name")} />
          </label>
          <label>
            {t("field_venue")}
            <input name="venue" required value={f.venue} onInput={set("venue")} />
          </label>
          <label>
            {t("field_city")}
            <input name="city" value={f.city} onInput={set("city")} />
          </label>
          <label>
            {t("field_starts")}
            <input name="starts" type="datetime-local" required value={f.starts} onInput={set("starts")} />
          </label>
          <label>
            {t("registration_closes")}
            <input name="closes" type="datetime-local" required value={f.closes} onInput={set("closes")} />
          </label>
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
            onChange={(profile) => setForm({ ...f, profile })}
          />
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

type Pending = Schemas["EntryWithContacts"];

/** #/t/<id>/approvals: entries waiting for the organiser's yes or no (R3.7). A refusal needs no
 * reason and shows nowhere public: the player's own page says only that it was refused. With
 * several divisions, each entry's division, and the organiser places players (hbf 1.4, cnb
 * 1.4.2): barred from the divisions below the one chosen, invited up to it. */
export function Approvals({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const lists = useLoad(() => api.GET("/tournaments/{tournament_id}/entries/contacts", path), [id]);
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const placed = useLoad(() => api.GET("/tournaments/{tournament_id}/placements", path), [id]);
  const [placeId, setPlaceId] = useState("");
  const [placeIn, setPlaceIn] = useState<string>();
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const many = several(tour.data);
  const divisions = tour.data?.divisions ?? [];
  const division = (e: Pending) => many && <span class="tag division">{divisionName(tour.data, e.division)}</span>;
  async function decide(entry: Pending, how: "approve" | "refuse") {
    setError("");
    setMessage("");
    const params = { params: { path: { tournament_id: id, tavla_id: entry.tavla_id } } };
    const answer =
      how === "approve"
        ? await api.POST("/tournaments/{tournament_id}/registrations/{tavla_id}/approve", params)
        : await api.POST("/tournaments/{tournament_id}/registrations/{tavla_id}/refuse", params);
    if (answer.error) setError(problem(answer.error) || t("failed"));
    else if (how === "refuse") setMessage(t("entry_refused", { name: entry.name }));
    else
      setMessage(
        t(answer.data.status === "waitlisted" ? "entry_approved_waiting" : "entry_approved", {
          name: entry.name,
          n: answer.data.position ?? "",
        }),
      );
    lists.reload();
  }
  async function place(e: Event) {
    e.preventDefault();
    await setPlacement(placeId.trim().toUpperCase(), placeIn ?? divisions[0]?.id ?? "");
  }
  async function setPlacement(tavla_id: string, chosen: string) {
    setError("");
    setMessage("");
    const answer = await api.PUT("/tournaments/{tournament_id}/placements/{tavla_id}", {
      params: { path: { tournament_id: id, tavla_id } },
      body: { division: chosen || null },
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    const known = [...(lists.data?.main ?? []), ...(lists.data?.waiting ?? []), ...pending, ...(placed.data?.placements ?? [])].find(
      (p) => p.tavla_id === tavla_id && p.name,
    );
    const who = known ? `${known.name} (${tavla_id})` : tavla_id;
    setMessage(chosen ? t("placed", { who, division: divisionName(tour.data, chosen) }) : t("placement_lifted", { who }));
    placed.reload();
  }
  function placeThis(entry: Pending) {
    setPlaceId(entry.tavla_id);
    const form = document.getElementById("placement");
    form?.scrollIntoView({ block: "start" });
    form?.querySelector("select")?.focus();
  }
  const pending = lists.data?.pending ?? [];
  return (
    <section>
      <h1>{t("approvals_title")}</h1>
      <Status loading={lists.loading && !lists.data} error={lists.error} />
      <Note text={message} testid="approvals-message" />
      <Alert text={error} />
      <h2>{t("pending_count", { n: pending.length })}</h2>
      {lists.data && pending.length === 0 && <p>{t("pending_none")}</p>}
      <ul class="cards" data-testid="pending">
        {pending.map((e) => (
          <li key={e.tavla_id} class="card">
            <strong>{e.name}</strong>
            <p class="small">
              {e.tavla_id}
              {e.club && ` · ${e.club}`}
              {e.city && ` · ${e.city}`}
              {e.phone && ` · ${e.phone}`} {division(e)}
            </p>
            <div class="two">
              <button type="button" onClick={() => void decide(e, "approve")}>
                {t("approve_entry", { name: e.name })}
              </button>
              <button type="button" class="secondary" onClick={() => void decide(e, "refuse")}>
                {t("refuse_entry", { name: e.name })}
              </button>
            </div>
          </li>
        ))}
      </ul>
      {many && (
        <>
          <form id="placement" onSubmit={place} data-testid="placement-form">
            <h2>{t("placement_title")}</h2>
            <p class="hint">{t("placement_hint")}</p>
            <TavlaIdInput name="place-id" value={placeId} onInput={setPlaceId} />
            <label>
              {t("placement_division")}
              <select name="place-division" value={placeIn ?? divisions[0]?.id} onChange={(e) => setPlaceIn(e.currentTarget.value)}>
                {divisions.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
                <option value="">{t("placement_none")}</option>
              </select>
            </label>
            <button type="submit">{t("placement_save")}</button>
          </form>
          <h3>{t("placements_now", { n: placed.data?.placements.length ?? 0 })}</h3>
          <ul class="entries" data-testid="placements">
            {(placed.data?.placements ?? []).map((p) => (
              <li key={p.tavla_id}>
                <span>
                  {p.name ?? p.tavla_id} · {p.tavla_id} <span class="tag division">{divisionName(tour.data, p.division ?? "")}</span>
                </span>
                <button type="button" class="small secondary" onClick={() => void setPlacement(p.tavla_id, "")}>
                  {t("placement_lift", { name: p.name ?? p.tavla_id })}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
      <h2>{t("entries_main", { n: lists.data?.main.length ?? 0 })}</h2>
      <ol class="entries" data-testid="approved">
        {(lists.data?.main ?? []).map((e) => (
          <li key={e.tavla_id}>
            <span>
              {e.name} · {e.tavla_id} {division(e)}
            </span>
            {many && (
              <button type="button" class="small secondary" onClick={() => placeThis(e)}>
                {t("placement_of", { name: e.name })}
              </button>
            )}
          </li>
        ))}
      </ol>
      <a class="button secondary" href={`#/t/${id}/organise`}>
        {t("organise")}
      </a>
    </section>
  );
}

/** A player's Tavla ID, typed (seven letters or digits; capitals on a phone's keyboard). */
function TavlaIdInput({ name, value, onInput }: { name: string; value: string; onInput: (value: string) => void }) {
  return (
    <label>
      {t("staff_tavla_id")}
      <input
        name={name}
        required
        pattern="[A-Za-z0-9]{7}"
        autocapitalize="characters"
        autocomplete="off"
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </label>
  );
}

const ROLES = ["referee", "organiser"] as const;

/** #/t/<id>/staff: the whole list of referees and organisers (you among them when you have a
 * profile); each change saves the list. */
export function StaffList({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const list = useLoad(() => getStaff(id), [id]);
  const [typed, setTyped] = useState("");
  const [role, setRole] = useState<Member["role"]>("referee");
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  if (!getToken()) return <NeedSignIn />;
  const staff = list.data?.staff ?? [];
  async function put(next: Member[], ok: string) {
    setError("");
    setMessage("");
    const answer = await api.PUT("/tournaments/{tournament_id}/staff", { ...path, body: { staff: next } });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return false;
    }
    setMessage(ok);
    list.show(answer.data); // the list as saved: the next add starts from it, not from a stale read
    return true;
  }
  async function add(e: Event) {
    e.preventDefault();
    const tavla_id = typed.trim().toUpperCase();
    const next = withMember(staff, { tavla_id, role });
    if (await put(next, t("staff_added", { id: tavla_id }))) setTyped("");
  }
  return (
    <section>
      <h1>{t("staff_title")}</h1>
      <Status loading={list.loading && !list.data} error={list.error} />
      <p class="hint">{t("staff_hint")}</p>
      <ul class="entries" data-testid="staff">
        {staff.map((m) => (
          <li key={m.tavla_id} data-role={m.role}>
            <span>
              {m.tavla_id} · {t(`role_${m.role}`)}
            </span>
            <button
              type="button"
              class="small secondary"
              onClick={() =>
                void put(
                  staff.filter((s) => s.tavla_id !== m.tavla_id),
                  t("staff_removed", { id: m.tavla_id }),
                )
              }
            >
              {t("staff_remove", { id: m.tavla_id })}
            </button>
          </li>
        ))}
      </ul>
      {list.data && staff.length === 0 && <p>{t("staff_none")}</p>}
      <form onSubmit={add}>
        <TavlaIdInput name="staff-id" value={typed} onInput={setTyped} />
        <Choice label={t("staff_role")} name="role" value={role} values={ROLES} prefix="role_" onChange={setRole} />
        <button type="submit">{t("staff_add")}</button>
      </form>
      <Note text={message} testid="staff-message" />
      <Alert text={error} />
      <a class="button secondary" href={`#/t/${id}/organise`}>
        {t("organise")}
      </a>
    </section>
  );
}
