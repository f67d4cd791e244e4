// #/t/<id>/approvals (organiser): pending entries approved or refused, players placed (R3.7).
import { useState } from "preact/hooks";
import { api, problem, type Schemas } from "../../api/client";
import { Alert, NeedSignIn, Note, Status } from "../../ui/widgets";
import { getToken } from "../../auth";
import { t } from "../../i18n";
import { useLoad } from "../../load";
import { divisionName, several } from "../../divisions";
import { TavlaIdInput } from "../../ui/widgets";

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

