import { Fragment } from "preact";
import { useState } from "preact/hooks";
import { api, problem, type Board, type Entry, type MyProfile, type Schemas } from "../api/client";
import { Alert, Stale, Status } from "../ui/widgets";
import { getToken } from "../auth";
import { useStaffRole } from "../ui/staff-role";
import { channelsOf, useLive } from "../live/use-live";
import { boardQuery, useBoardDeltas } from "../live/use-board";
import { askForPush } from "../push";
import { dateTime, money } from "../format";
import { CalledOff } from "../ui/called-off";
import { lang, t, type Key } from "../i18n";
import { nothing, useLoad } from "../load";
import { MyLedger } from "./money/ledger";
import { divisionName, feeOf, several, type Division, type Fees } from "../divisions";

type Rounds = Schemas["Rounds"];

export function TournamentPage({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const entries = useLoad(() => api.GET("/tournaments/{tournament_id}/entries", path), [id]);
  const me = useLoad(() => (getToken() ? api.GET("/me") : nothing<MyProfile>(401)), []);
  const running = tour.data?.status === "running";
  const board = useLoad(() => (running ? api.GET("/tournaments/{tournament_id}/board", { params: { path: { tournament_id: id }, query: boardQuery(id) } }) : nothing<Board>()), [id, running]);
  const role = useStaffRole(id);
  const deltas = useBoardDeltas(id, board, () => {
    tour.reload();
    entries.reload();
    if (running) board.reload();
  });
  const live = useLive([channelsOf.tournament(id)], deltas.reload, deltas.onDelta);
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
    // the moment a phone's notice helps: being called to a table, a promotion from the list
    void askForPush();
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
      <Stale since={live.staleSince} />
      {x && (
        <>
          <h1>{x.name}</h1>
          <CalledOff x={x} />
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
            {role && (
              <a class="button secondary" href={`#/t/${id}/desk`}>
                {t("referee_desk")}
              </a>
            )}
            {role === "organiser" && (
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
          {board.data && <FindYourTable board={board.data} />}
          {mine && <MyLedger id={id} />}
          <h2>{t("rules")}</h2>
          <dl class="facts">
            <dt>{t("rule_profile")}</dt>
            <dd>{t(`profile_${x.rules.profile}` as Key)}</dd>
            <dt>{t("match_length")}</dt>
            <dd>
              {x.rules.series ? (
                t("series_best_of", { n: x.rules.match_length })
              ) : (
                <>
                  {t("points", { n: x.rules.match_length })} · {t("semi_final")} {x.rules.semi_final_length} ·{" "}
                  {t("final")} {x.rules.final_length}
                </>
              )}
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
          {x.draw_commitment && <FairDrawFacts id={id} hash={x.draw_commitment.hash} drawn={x.status !== "open"} />}
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

/** The current round's pairings by player, alphabetically: a player finds their table by name. */
function FindYourTable({ board }: { board: Board }) {
  const rows = board.tables
    .flatMap((table) =>
      table.match
        ? (["home", "away"] as const).flatMap((side) => {
            const p = table.match![side];
            const other = table.match![side === "home" ? "away" : "home"];
            return p ? [{ name: p.name ?? p.tavla_id, table: table.table, other: other?.name ?? other?.tavla_id ?? "—" }] : [];
          })
        : [],
    )
    .sort((a, b) => a.name.localeCompare(b.name, lang()));
  if (rows.length === 0) return null;
  return (
    <>
      <h2>{t("find_your_table")}</h2>
      <ol class="entries pairings" data-testid="find-your-table">
        {rows.map((r) => (
          <li key={`${r.name}-${r.table}`}>
            <span>
              <strong>{r.name}</strong> · {t("against", { name: r.other })}
            </span>
            <span class="tag">
              {t("table")} {r.table}
            </span>
          </li>
        ))}
      </ol>
    </>
  );
}

/** The seed's commitment (R5.1), and each redrawn round with its reason: public, as the draw is. */
function FairDrawFacts({ id, hash, drawn }: { id: string; hash: string; drawn: boolean }) {
  const rounds = useLoad(
    () => (drawn ? api.GET("/tournaments/{tournament_id}/rounds", { params: { path: { tournament_id: id } } }) : nothing<Rounds>()),
    [id, drawn],
  );
  const redrawn = (rounds.data?.rounds ?? []).filter((r) => (r.redraws ?? []).length > 0);
  return (
    <dl class="facts" data-testid="fair-draw-facts">
      <dt>{t("seed_commitment")}</dt>
      <dd class="small">{hash}</dd>
      {redrawn.map((r) => (
        <Fragment key={r.number}>
          <dt>{t("round_n", { n: r.round })}</dt>
          <dd data-testid="redrawn">{(r.redraws ?? []).map((x) => t("redrawn_reason", { reason: x.reason })).join(" · ")}</dd>
        </Fragment>
      ))}
    </dl>
  );
}
