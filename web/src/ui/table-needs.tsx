// The profile's needs at the tables (private: only the player and the tournament's staff read
// them): for each tournament the player is entered in that is not over, whether they need an
// accessible (step-free, wide) table; a tap saves it at once and the seating honours it.
import { api, type Schemas } from "../api/client";
import { day } from "../format";
import { t } from "../i18n";
import { useLoad } from "../load";
import { useAction } from "./action";
import { Alert, Note } from "./widgets";

type Need = Schemas["MyTableNeed"];

export function TableNeeds({ tavlaId }: { tavlaId: string }) {
  const needs = useLoad(() => api.GET("/me/table-needs"), [tavlaId]);
  const save = useAction(needs.reload);
  const list = needs.data?.needs ?? [];
  if (list.length === 0) return null;
  const choose = (need: Need, accessible: boolean) => {
    // the box shows the tap at once; the read after the answer puts in what is stored
    needs.show({ needs: list.map((n) => (n.tournament_id === need.tournament_id ? { ...n, accessible } : n)) });
    void save.run(
      () =>
        api.PUT("/tournaments/{tournament_id}/needs/{tavla_id}", {
          params: { path: { tournament_id: need.tournament_id, tavla_id: tavlaId } },
          body: { accessible },
        }),
      t("need_saved"),
    );
  };
  return (
    <fieldset data-testid="table-needs">
      <legend>{t("needs_title")}</legend>
      <p class="small">{t("needs_intro")}</p>
      {list.map((need) => (
        <label class="check" key={need.tournament_id}>
          <input
            type="checkbox"
            name={`need-${need.tournament_id}`}
            checked={need.accessible}
            disabled={save.busy}
            onChange={(e) => choose(need, e.currentTarget.checked)}
          />
          {t("need_accessible_at", { name: need.name, date: day(need.starts_at) })}
        </label>
      ))}
      <Note text={save.message} testid="need-message" />
      <Alert text={save.error} />
    </fieldset>
  );
}
