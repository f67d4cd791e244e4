// #/t/<id>/tables: the organiser's table plan. Each table's attributes (step-free, streamed,
// reserved for an event or a division, out of service), shown and saved as soon as one is
// changed (the day is seated again at once), and whether the Main's board 1 is streamed. A
// table in use says so. It follows the day by itself (other staff, the seating).
import { api, type Schemas } from "../api/client";
import { several, type Division } from "../divisions";
import { t, type Key } from "../i18n";
import { useLoad } from "../load";
import { channelsOf, useLive } from "../live/use-live";
import { useAction } from "../ui/action";
import { Alert, NeedSignIn, Note, Stale, Status } from "../ui/widgets";
import { getToken } from "../auth";

type Hall = Schemas["HallView"];
type Table = Schemas["HallTable"];
type Attributes = Schemas["TableAttributesBody"];

const EVENTS = ["main", "consolation", "last_chance"] as const;
const FLAGS = ["accessible", "streamed", "out_of_service"] as const;

/** What a table may be reserved for: the events, and the divisions when there are several. */
function reservations(tournament: { divisions?: readonly Division[] | null } | undefined): { id: string; name: string }[] {
  const divisions = several(tournament) ? (tournament?.divisions ?? []) : [];
  return [...EVENTS.map((e) => ({ id: e, name: t(`event_${e}` as Key) })), ...divisions.map((d) => ({ id: d.id, name: d.name }))];
}

export function TablePlan({ id }: { id: string }) {
  const path = { params: { path: { tournament_id: id } } };
  const tour = useLoad(() => api.GET("/tournaments/{tournament_id}", path), [id]);
  const hall = useLoad(() => api.GET("/tournaments/{tournament_id}/hall", path), [id]);
  const live = useLive([channelsOf.staff(id), channelsOf.tournament(id)], hall.reload);
  const save = useAction();
  if (!getToken()) return <NeedSignIn />;
  const data: Hall | undefined = hall.data;
  const choices = reservations(tour.data);
  async function setTable(table: Table, change: Partial<Attributes>) {
    if (!data) return;
    // the box shows the tap at once; the answer (or a refusal's reload) puts in what is stored
    hall.show({ ...data, tables: data.tables.map((x) => (x.table === table.table ? { ...x, ...change } : x)) });
    const body: Attributes = {
      accessible: table.accessible,
      streamed: table.streamed,
      reserved_for: table.reserved_for ?? null,
      out_of_service: table.out_of_service,
      ...change,
    };
    const answer = await save.run(
      () => api.PUT("/tournaments/{tournament_id}/tables/{table}", { params: { path: { tournament_id: id, table: table.table } }, body }),
      t("table_saved", { n: table.table }),
    );
    if (answer) hall.show(answer);
    else hall.reload();
  }
  async function setTopBoard(value: boolean) {
    if (!data) return;
    hall.show({ ...data, top_board: value });
    const answer = await save.run(
      () => api.PUT("/tournaments/{tournament_id}/hall", { ...path, body: { streamed: data.streamed, beside: data.beside, top_board: value } }),
      t("hall_saved"),
    );
    if (answer) hall.show(answer);
    else hall.reload();
  }
  return (
    <section>
      <h1>{tour.data ? t("tables_title_of", { name: tour.data.name }) : t("tables_title")}</h1>
      <Status loading={hall.loading && !data} error={data ? undefined : hall.error} />
      <Stale since={live.staleSince} />
      <p class="small">{t("tables_intro")}</p>
      <Note text={save.message} testid="tables-message" />
      <Alert text={save.error} />
      {data && data.tables.length === 0 && <p>{t("tables_none")}</p>}
      {data && (
        <label class="check">
          <input type="checkbox" name="top-board" checked={data.top_board} disabled={save.busy} onChange={(e) => void setTopBoard(e.currentTarget.checked)} />
          {t("tables_top_board")}
        </label>
      )}
      <div data-testid="table-plan">
        {data?.tables.map((table) => (
          <section key={table.table} class="card" data-testid={`table-${table.table}`} aria-labelledby={`table-${table.table}`}>
            <h2 id={`table-${table.table}`}>{t("table_n", { n: table.table })}</h2>
            <p class="small">{table.match ? t("table_in_use") : t("free")}</p>
            <div role="group" aria-labelledby={`table-${table.table}`}>
              {FLAGS.map((flag) => (
                <label key={flag} class="check">
                  <input
                    type="checkbox"
                    name={flag}
                    checked={table[flag]}
                    disabled={save.busy}
                    onChange={(e) => void setTable(table, { [flag]: e.currentTarget.checked })}
                  />
                  {t(`table_${flag}` as Key)}
                </label>
              ))}
              <label>
                {t("table_reserved_for")}
                <select
                  name="reserved_for"
                  value={table.reserved_for ?? ""}
                  disabled={save.busy}
                  onChange={(e) => void setTable(table, { reserved_for: e.currentTarget.value || null })}
                >
                  <option value="">{t("table_for_anyone")}</option>
                  {choices.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </select>
              </label>
            </div>
          </section>
        ))}
      </div>
      <a class="button secondary" href={`#/t/${id}/organise`}>
        {t("organise")}
      </a>
    </section>
  );
}
