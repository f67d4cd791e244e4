// #/t/<id>/categories, from the organiser's money page (R11.4): who competes for the
// category prizes (women, youth, veteran). Each entry starts from the player's private profile;
// the organiser sets or corrects it, or hands it back to the profile. Personal data (R12): the
// API answers this to the tournament's organisers only, and only the award is ever public.
import { useState } from "preact/hooks";
import { api, problem, type Schemas } from "../api/client";
import { Alert, NeedSignIn, Note, Status } from "../ui/widgets";
import { getToken } from "../auth";
import { t, type Key } from "../i18n";
import { useLoad } from "../load";

type Category = Schemas["CategoryEligibility"]["categories"][number];
const CATEGORIES: readonly Category[] = ["women", "youth", "veteran"];

export function Categories({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const listed = useLoad(() => api.GET("/tournaments/{tournament_id}/prizes/eligibility", path), [id]);
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  if (!getToken()) return <NeedSignIn />;
  async function save(entry: Schemas["CategoryEligibility"], categories: Category[] | null) {
    setError("");
    setMessage("");
    const answer = await api.PUT("/tournaments/{tournament_id}/prizes/eligibility/{tavla_id}", {
      params: { path: { tournament_id: id, tavla_id: entry.tavla_id } },
      body: { categories },
    });
    if (answer.error) setError(problem(answer.error) || t("failed"));
    else setMessage(t(categories === null ? "categories_from_profile_again" : "categories_saved", { name: entry.name ?? entry.tavla_id }));
    listed.reload();
  }
  function toggled(entry: Schemas["CategoryEligibility"], category: Category): Category[] {
    const now = new Set(entry.categories);
    if (now.has(category)) now.delete(category);
    else now.add(category);
    return CATEGORIES.filter((c) => now.has(c));
  }
  return (
    <section>
      <h1>{t("categories_title")}</h1>
      <p class="hint">{t("categories_hint")}</p>
      <Status loading={listed.loading && !listed.data} error={listed.error} />
      <Note text={message} testid="categories-message" />
      <Alert text={error} />
      {listed.data && listed.data.entries.length === 0 && <p>{t("categories_none")}</p>}
      <ul class="cards" data-testid="categories">
        {(listed.data?.entries ?? []).map((entry) => (
          <li key={entry.tavla_id} class="card" data-tavla-id={entry.tavla_id}>
            <strong>{entry.name ?? entry.tavla_id}</strong>
            <p class="small">
              {entry.tavla_id} · {t(entry.set_by === "organiser" ? "categories_set_by_organiser" : "categories_set_by_profile")}
            </p>
            <fieldset>
              <legend>{t("categories_of", { name: entry.name ?? entry.tavla_id })}</legend>
              {CATEGORIES.map((category) => (
                <label key={category} class="check">
                  <input
                    type="checkbox"
                    name={`category-${category}`}
                    checked={entry.categories.includes(category)}
                    onChange={() => void save(entry, toggled(entry, category))}
                  />
                  {t(`category_${category}` as Key)}
                </label>
              ))}
            </fieldset>
            {entry.set_by === "organiser" && (
              <button type="button" class="secondary" onClick={() => void save(entry, null)}>
                {t("categories_back_to_profile")}
              </button>
            )}
          </li>
        ))}
      </ul>
      <a class="button secondary" href={`#/t/${id}/money`}>
        {t("money_title")}
      </a>
    </section>
  );
}
