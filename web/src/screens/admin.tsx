// #/admin (the federation's admins): platform roles, requests to organise, clubs and the
// one-time mapping of clubs typed as text (near-duplicates merged into one club).
import { useState } from "preact/hooks";
import { api, problem, type Schemas } from "../api/client";
import { Alert, Choice, ConfirmButton, NeedSignIn, Note, Status, TavlaIdInput } from "../ui/widgets";
import { getToken } from "../auth";
import { t } from "../i18n";
import { useLoad } from "../load";

const ROLES = ["organisers", "admins"] as const;
type Role = (typeof ROLES)[number];
type Group = Schemas["NearDuplicateClubs"];

/** #/admin: who holds which role, the requests waiting, the federation's clubs. */
export function AdminConsole() {
  const [role, setRole] = useState<Role>("organisers");
  const holders = useLoad(() => api.GET("/admin/roles/{role}", { params: { path: { role } } }), [role]);
  const requests = useLoad(() => api.GET("/admin/organiser-requests", {}), []);
  const clubs = useLoad(() => api.GET("/admin/clubs", {}), []);
  const groups = useLoad(() => api.GET("/admin/clubs/near-duplicates", {}), []);
  const [typed, setTyped] = useState("");
  const [club, setClub] = useState({ name: "", city: "", short_name: "", contact: "" });
  const [targets, setTargets] = useState<Record<number, string>>({});
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  if (!getToken()) return <NeedSignIn />;
  function answered(answer: { error?: unknown }, ok: string) {
    setMessage("");
    setError("");
    if (answer.error) setError(problem(answer.error as never) || t("failed"));
    else setMessage(ok);
  }
  async function grant(e: Event) {
    e.preventDefault();
    const tavla_id = typed.trim().toUpperCase();
    const path = { params: { path: { tavla_id, role } } };
    answered(await api.PUT("/admin/roles/{tavla_id}/{role}", path), t("admin_granted", { id: tavla_id }));
    holders.reload();
  }
  async function revoke(tavla_id: string) {
    const path = { params: { path: { tavla_id, role } } };
    answered(await api.DELETE("/admin/roles/{tavla_id}/{role}", path), t("admin_revoked", { id: tavla_id }));
    holders.reload();
  }
  async function decide(tavla_id: string, approve: boolean) {
    const params = { params: { path: { tavla_id } }, body: {} };
    const answer = approve
      ? await api.POST("/admin/organiser-requests/{tavla_id}/approve", params)
      : await api.POST("/admin/organiser-requests/{tavla_id}/refuse", params);
    answered(answer, t(approve ? "admin_request_approved" : "admin_request_refused", { id: tavla_id }));
    requests.reload();
  }
  async function addClub(e: Event) {
    e.preventDefault();
    const body = {
      name: club.name.trim(),
      city: club.city.trim(),
      short_name: club.short_name.trim(),
      contact: club.contact.trim() || null,
    };
    answered(await api.POST("/admin/clubs", { body }), t("admin_club_added", { name: body.name }));
    setClub({ name: "", city: "", short_name: "", contact: "" });
    clubs.reload();
    groups.reload();
  }
  async function merge(group: Group, index: number) {
    const club_id = targets[index] ?? group.club_id ?? "";
    if (!club_id) return setError(t("admin_merge_choose"));
    const body = { spellings: group.spellings.map((s) => s.name) };
    const answer = await api.POST("/admin/clubs/{club_id}/merge", { params: { path: { club_id } }, body });
    answered(answer, answer.data ? t("admin_merged", { n: answer.data.moved, name: answer.data.club.name }) : "");
    groups.reload();
  }
  const clubInput = (name: keyof typeof club, label: string) => (
    <label>
      {label}
      <input
        name={`club-${name}`}
        value={club[name]}
        required={name !== "contact"}
        onInput={(e) => setClub({ ...club, [name]: e.currentTarget.value })}
      />
    </label>
  );
  return (
    <section>
      <h1>{t("admin_title")}</h1>
      <Note text={message} testid="admin-message" />
      <Alert text={error} />

      <h2>{t("admin_roles")}</h2>
      <Choice label={t("admin_role")} name="role" value={role} values={ROLES} prefix="admin_role_" onChange={setRole} />
      <Status loading={holders.loading && !holders.data} error={holders.error} />
      <ul class="entries" data-testid="role-holders">
        {(holders.data ?? []).map((h) => (
          <li key={h.tavla_id}>
            <span>{h.tavla_id}</span>
            {h.tavla_id && (
              <ConfirmButton
                class="small secondary"
                label={t("admin_revoke", { id: h.tavla_id })}
                question={t("admin_revoke_question", { id: h.tavla_id })}
                onConfirm={() => void revoke(h.tavla_id ?? "")}
              />
            )}
          </li>
        ))}
      </ul>
      <form onSubmit={grant}>
        <TavlaIdInput name="grant-id" value={typed} onInput={setTyped} />
        <button type="submit">{t("admin_grant")}</button>
      </form>

      <h2>{t("admin_requests")}</h2>
      <ul class="entries" data-testid="organiser-requests">
        {(requests.data ?? []).map((r) => (
          <li key={r.tavla_id}>
            <span>
              {r.tavla_id} · {r.club} · {r.reason}
            </span>
            <button type="button" class="small" onClick={() => void decide(r.tavla_id, true)}>
              {t("admin_approve")}
            </button>
            <button type="button" class="small secondary" onClick={() => void decide(r.tavla_id, false)}>
              {t("admin_refuse")}
            </button>
          </li>
        ))}
      </ul>
      {requests.data && requests.data.length === 0 && <p>{t("admin_no_requests")}</p>}

      <h2>{t("admin_clubs")}</h2>
      <ul class="entries" data-testid="clubs">
        {(clubs.data ?? []).map((c) => (
          <li key={c.id}>
            <span>
              {c.name} ({c.short_name}) · {c.city}
              {c.contact ? ` · ${c.contact}` : ""}
            </span>
          </li>
        ))}
      </ul>
      <form onSubmit={addClub}>
        {clubInput("name", t("admin_club_name"))}
        {clubInput("city", t("field_city"))}
        {clubInput("short_name", t("admin_club_short"))}
        {clubInput("contact", t("admin_club_contact"))}
        <button type="submit">{t("admin_club_add")}</button>
      </form>

      <h2>{t("admin_near_duplicates")}</h2>
      <p class="hint">{t("admin_near_duplicates_hint")}</p>
      <div data-testid="near-duplicates">
        {(groups.data ?? []).map((g, i) => (
          <div class="card" key={g.spellings.map((s) => s.name).join("|")}>
            <p>{g.spellings.map((s) => `“${s.name}” (${s.players})`).join(", ")}</p>
            <label>
              {t("admin_merge_into")}
              <select
                name={`merge-into-${i}`}
                value={targets[i] ?? g.club_id ?? ""}
                onChange={(e) => setTargets({ ...targets, [i]: e.currentTarget.value })}
              >
                <option value="">—</option>
                {(clubs.data ?? []).map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name} · {c.city}
                  </option>
                ))}
              </select>
            </label>
            <ConfirmButton
              class="small"
              label={t("admin_merge")}
              question={t("admin_merge_question", { n: g.players })}
              onConfirm={() => void merge(g, i)}
            />
          </div>
        ))}
      </div>
      {groups.data && groups.data.length === 0 && <p>{t("admin_no_duplicates")}</p>}
    </section>
  );
}
