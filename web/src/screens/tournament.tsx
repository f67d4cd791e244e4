import { useState } from "preact/hooks";
import { api, problem, type Entry, type MyProfile } from "../api/client";
import { Alert, Status } from "../ui/widgets";
import { getToken, isOrganiser } from "../auth";
import { dateTime, money } from "../format";
import { t, type Key } from "../i18n";
import { nothing, useLoad } from "../load";
import { MyLedger } from "./money/ledger";
import { divisionName, feeOf, several, type Division, type Fees } from "../divisions";

export function TournamentPage({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const entries = useLoad(() => api.GET("/tournaments/{tournament_id}/entries", path), [id]);
  const me = useLoad(() => (getToken() ? api.GET("/me") : nothing<MyProfile>(401)), []);
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const [chosen, setChosen] = useState<string>();
  const x = tour.data;
  const mine = me.data && findEntry(entries.data, me.data.tavla_id);
  const divisions = several(x) ? (x?.divisions ?? []) : [];

  async function register(e: Event) {
    e.preventDefault();
    setError("");
    // one division: its id (the player chooses nothing); several: the one chosen (R3.7)
    const division = divisions.length ? chosen : x?.divisions?.[0]?.id;
    const answer = await api.POST("/tournaments/{tournament_id}/registrations", {
      params: { path: { tournament_id: id }, header: { "idempotency-key": crypto.randomUUID() } },
      body: division ? { division } : undefined,
    });
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    const r = answer.data;
    setMessage(
      r.status === "waitlisted"
        ? t("registered_waiting", { position: r.position ?? "" })
        : t(`status_${r.status}` as Key),
    );
    entries.reload();
    tour.reload();
  }
  async function withdraw() {
    setError("");
    const answer = await api.DELETE("/tournaments/{tournament_id}/registrations/me", path);
    if (answer.error) {
      setError(problem(answer.error) || t("failed"));
      return;
    }
    setMessage(t("withdrawn"));
    entries.reload();
    tour.reload();
  }

  return (
    <section>
      <Status loading={tour.loading && !x} error={tour.error} />
      {x && (
        <>
          <h1>{x.name}</h1>
          <p>
            {dateTime(x.starts_at, x.time_zone)}
            <br />
            {x.venue}
            {x.city ? `, ${x.city}` : ""}
          </p>
          <dl class="facts">
            <dt>{t("fee")}</dt>
            <dd data-testid="fee">{money(x.entry_fee?.amount ?? 0)}</dd>
            {x.early_bird_fee && (
              <>
                <dt>{t("early_bird")}</dt>
                <dd>
                  {money(x.early_bird_fee.amount)} ({dateTime(x.early_bird_deadline, x.time_zone)})
                </dd>
              </>
            )}
            <dt>{t("registration_closes")}</dt>
            <dd>{dateTime(x.registration_closes_at, x.time_zone)}</dd>
            <dt>{t("entries")}</dt>
            <dd>{t("places", { registered: x.registered ?? 0, capacity: x.capacity, waiting: x.waiting ?? 0 })}</dd>
            <dt>{t("format")}</dt>
            <dd>{t(`format_${x.format ?? "single_elimination"}` as Key)}</dd>
          </dl>
          {divisions.length > 0 && (
            <>
              <h2>{t("divisions_title")}</h2>
              <ul class="entries" data-testid="divisions">
                {divisions.map((d) => (
                  <li key={d.id}>
                    <span>{d.name}</span>
                    <span>{feeText(x, d)}</span>
                  </li>
                ))}
              </ul>
            </>
          )}
          <div class="actions">
            {getToken() && !mine && x.status === "open" && (
              <form onSubmit={register} data-testid="register-form">
                {divisions.length > 0 && (
                  <fieldset class="choices">
                    <legend>{t("choose_division")}</legend>
                    {divisions.map((d) => (
                      <label key={d.id} class="check">
                        <input
                          type="radio"
                          name="division"
                          value={d.id}
                          required
                          checked={chosen === d.id}
                          onChange={() => setChosen(d.id)}
                        />
                        <span>
                          {d.name}
                          <span class="small">{feeText(x, d)}</span>
                        </span>
                      </label>
                    ))}
                  </fieldset>
                )}
                <button type="submit">{t("register")}</button>
              </form>
            )}
            {mine && (
              <p class="notice" role="status" data-testid="my-entry">
                {mine.status === "waitlisted"
                  ? t("waiting_position", { position: mine.position })
                  : t(`status_${mine.status}` as Key)}
                {divisions.length > 0 && ` · ${divisionName(x, mine.division)}`}
              </p>
            )}
            {message && <p role="status">{message}</p>}
            <Alert text={error} />
            {!getToken() && (
              <a class="button" href="#/signin">
                {t("sign_in_to_register")}
              </a>
            )}
            {mine && <a class="button" href="#/pass">{t("nav_pass")}</a>}
            {mine && x.status !== "open" && <a class="button" href={`#/t/${id}/match`}>{t("my_match")}</a>}
            <a class="button secondary" href={`#/t/${id}/board`}>
              {t("board")}
            </a>
            {getToken() && (
              <a class="button secondary" href={`#/t/${id}/desk`}>
                {t("referee_desk")}
              </a>
            )}
            {isOrganiser() && (
              <a class="button secondary" href={`#/t/${id}/organise`}>
                {t("organise")}
              </a>
            )}
            {mine && mine.status !== "refused" && x.status === "open" && (
              <button type="button" class="secondary" onClick={withdraw}>
                {t("withdraw")}
              </button>
            )}
          </div>
          {mine && <MyLedger id={id} />}
          <h2>{t("rules")}</h2>
          <dl class="facts">
            <dt>{t("rule_profile")}</dt>
            <dd>{x.rules.profile}</dd>
            <dt>{t("match_length")}</dt>
            <dd>
              {t("points", { n: x.rules.match_length })} · {t("semi_final")} {x.rules.semi_final_length} ·{" "}
              {t("final")} {x.rules.final_length}
            </dd>
            <dt>{t("cube")}</dt>
            <dd>
              {x.rules.cube_used ? t("yes") : t("no")} · Crawford {x.rules.crawford ? t("yes") : t("no")}
            </dd>
            <dt>{t("table_call")}</dt>
            <dd>{t("minutes", { n: x.rules.table_call_minutes })}</dd>
            <dt>{t("appeal_window")}</dt>
            <dd>{t("minutes", { n: x.rules.appeal_window_minutes })}</dd>
          </dl>
          {x.description && <p>{x.description}</p>}
        </>
      )}
      {entries.data && (
        <>
          <h2>{t("entries")}</h2>
          <EntryList entries={entries.data.main} division={several(x) ? (e) => divisionName(x, e.division) : undefined} />
          {entries.data.waiting.length > 0 && (
            <>
              <h2>{t("waiting_list")}</h2>
              <EntryList entries={entries.data.waiting} division={several(x) ? (e) => divisionName(x, e.division) : undefined} />
            </>
          )}
        </>
      )}
    </section>
  );
}

export function findEntry(
  lists: { main: Entry[]; waiting: Entry[]; pending?: Entry[] } | undefined,
  tavlaId: string,
): Entry | undefined {
  if (!lists) return undefined;
  return [...lists.main, ...lists.waiting, ...(lists.pending ?? [])].find((e) => e.tavla_id === tavlaId);
}

/** A division's fee as the player reads it: "30,00 €", with the early-bird one when there is. */
function feeText(x: Fees, d: Division): string {
  const { fee, early } = feeOf(x, d);
  return early === null || early === fee ? money(fee) : t("fee_with_early", { fee: money(fee), early: money(early) });
}

/** The entries; with several divisions (R3.7), each one's division. */
function EntryList({ entries, division }: { entries: Entry[]; division?: (e: Entry) => string }) {
  return (
    <ol class="entries">
      {entries.map((e) => (
        <li key={e.tavla_id}>
          <span>
            {e.name}
            {e.club ? ` · ${e.club}` : ""}
          </span>
          {division && <span class="tag division">{division(e)}</span>}
          {e.checked_in && <span class="tag">{t("checked_in")}</span>}
        </li>
      ))}
    </ol>
  );
}
