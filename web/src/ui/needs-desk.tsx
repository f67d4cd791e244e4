// The desk's part of a player's need at the tables (private: the player and the tournament's
// staff): who needs an accessible table now, each one cleared with a tap, and a player of the
// field marked as needing one. The seating honours it at once, as it does the player's own.
import { api, problem, type Schemas } from "../api/client";
import { t } from "../i18n";
import { Alert, Note } from "./widgets";
import { useState } from "preact/hooks";

type Entrant = Schemas["Entry"];

export function NeedsDesk({
  id,
  needs,
  entrants,
  onSaved,
}: {
  id: string;
  needs: string[];
  entrants: Entrant[];
  onSaved: () => void;
}) {
  const [chosen, setChosen] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  const names = new Map(entrants.map((e) => [e.tavla_id, e.name]));
  const nameOf = (tavlaId: string) => names.get(tavlaId) ?? tavlaId;
  const others = entrants.filter((e) => !needs.includes(e.tavla_id)).sort((a, b) => a.name.localeCompare(b.name));
  async function save(tavlaId: string, accessible: boolean) {
    setBusy(true);
    setError("");
    setMessage("");
    const answer = await api.PUT("/tournaments/{tournament_id}/needs/{tavla_id}", {
      params: { path: { tournament_id: id, tavla_id: tavlaId } },
      body: { accessible },
    });
    setBusy(false);
    if (answer.error) setError(problem(answer.error) || t("failed"));
    else {
      setMessage(t(accessible ? "desk_need_set" : "desk_need_cleared", { name: nameOf(tavlaId) }));
      setChosen("");
    }
    onSaved();
  }
  return (
    <fieldset data-testid="desk-needs">
      <legend>{t("needs_title")}</legend>
      <p class="small">{t("desk_needs_intro")}</p>
      <ul class="plain" data-testid="desk-needs-list">
        {needs.length === 0 && <li>{t("desk_needs_none")}</li>}
        {needs.map((tavlaId) => (
          <li key={tavlaId} data-testid="desk-need">
            <span>{t("desk_need_accessible", { name: nameOf(tavlaId) })}</span>{" "}
            <button
              type="button"
              class="small secondary"
              disabled={busy}
              onClick={() => void save(tavlaId, false)}
              aria-label={t("desk_need_clear_of", { name: nameOf(tavlaId) })}
            >
              {t("desk_need_clear")}
            </button>
          </li>
        ))}
      </ul>
      {others.length > 0 && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (chosen) void save(chosen, true);
          }}
        >
          <label>
            {t("desk_need_player")}
            <select name="need-player" value={chosen} disabled={busy} onChange={(e) => setChosen(e.currentTarget.value)}>
              <option value="">—</option>
              {others.map((e) => (
                <option key={e.tavla_id} value={e.tavla_id}>
                  {e.name} ({e.tavla_id})
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={busy || !chosen} data-testid="desk-need-set">
            {t("desk_need_mark")}
          </button>
        </form>
      )}
      <Note text={message} testid="desk-need-message" />
      <Alert text={error} />
    </fieldset>
  );
}
