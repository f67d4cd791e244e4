// #/t/<id>/staff (organiser): the whole staff list, saved with PUT .../staff (R1.3).
import { useState } from "preact/hooks";
import { api, problem } from "../../api/client";
import { Alert, Choice, NeedSignIn, Note, Status } from "../../ui/widgets";
import { getToken } from "../../auth";
import { t } from "../../i18n";
import { useLoad } from "../../load";
import { getStaff, withMember, type Member } from "../../staff";
import { TavlaIdInput } from "../../ui/widgets";

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

