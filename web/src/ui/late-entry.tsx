// The console's late entries (Swiss and lives, R5.5, R5.7): whether late entry is open, opening
// it with what a late player starts with (Swiss: nothing, or a half point per missed round;
// lives: the event's starting lives), closing it (asked twice), and entering a player who
// arrives by Tavla ID; the answer says from which round they are paired.
import { useState } from "preact/hooks";
import { api } from "../api/client";
import { several, type Division } from "../divisions";
import { t } from "../i18n";
import { useAction } from "./action";
import { Alert, Choice, ConfirmButton, Note, TavlaIdInput } from "./widgets";

const POINTS = ["none", "half_per_missed_round"] as const;
type Points = (typeof POINTS)[number];
/** What the control reads of the tournament. */
type Event = { id: string; format?: string; late_entry_open?: boolean; divisions?: readonly Division[] | null };

export function LateEntry({ tournament, onChange }: { tournament: Event; onChange: () => void }) {
  const id = tournament.id;
  const path = { params: { path: { tournament_id: id } } };
  const policy = useAction(onChange);
  const enter = useAction(onChange);
  const [points, setPoints] = useState<Points>("none");
  const [player, setPlayer] = useState("");
  const divisions = several(tournament) ? (tournament.divisions ?? []) : [];
  const [division, setDivision] = useState("");
  const open = Boolean(tournament.late_entry_open);
  const setOpen = (value: boolean) =>
    void policy.run(
      () => api.PUT("/tournaments/{tournament_id}/late-entry", { ...path, body: { open: value, points } }),
      t(value ? "late_opened" : "late_closed"),
    );
  return (
    <section class="card" data-testid="late-entry" aria-labelledby="late-entry">
      <h2 id="late-entry">{t("late_entries")}</h2>
      <p data-testid="late-state">{t(open ? "late_state_open" : "late_state_closed")}</p>
      {open ? (
        <ConfirmButton class="secondary" label={t("late_close")} question={t("late_close_question")} onConfirm={() => setOpen(false)} />
      ) : (
        <>
          {tournament.format === "swiss" && (
            <Choice label={t("late_points")} name="late-points" value={points} values={POINTS} prefix="late_points_" onChange={setPoints} />
          )}
          <button type="button" class="secondary" disabled={policy.busy} onClick={() => setOpen(true)}>
            {t("late_open")}
          </button>
        </>
      )}
      <Note text={policy.message} testid="late-policy-message" />
      <Alert text={policy.error} />
      {open && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void enter.run(
              () =>
                api.POST("/tournaments/{tournament_id}/late-entries", {
                  ...path,
                  body: { tavla_id: player.trim().toUpperCase(), ...(division ? { division } : {}) },
                }),
              (entry) => t("late_entered", { id: entry.tavla_id, n: entry.round }),
            );
          }}
        >
          <TavlaIdInput name="late-player" value={player} onInput={setPlayer} />
          {divisions.length > 0 && (
            <label>
              {t("late_division")}
              <select name="late-division" required value={division} onChange={(e) => setDivision(e.currentTarget.value)}>
                <option value="">—</option>
                {divisions.map((d) => (
                  <option key={d.id} value={d.id}>
                    {d.name}
                  </option>
                ))}
              </select>
            </label>
          )}
          <button type="submit" disabled={enter.busy}>
            {t("late_enter")}
          </button>
          <Note text={enter.message} testid="late-message" />
          <Alert text={enter.error} />
        </form>
      )}
    </section>
  );
}
