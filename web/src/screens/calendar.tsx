import { useState } from "preact/hooks";
import { api } from "../api/client";
import { Status } from "../ui/widgets";
import { dateTime } from "../format";
import { t } from "../i18n";
import { useLoad } from "../load";
import { SeasonLinks } from "./season";

export function Calendar() {
  const [upcoming, setUpcoming] = useState(true);
  const [filter, setFilter] = useState("");
  const loaded = useLoad(() => api.GET("/tournaments", { params: { query: { upcoming, limit: 100 } } }), [upcoming]);
  const words = filter.trim().toLowerCase();
  const shown = (loaded.data?.tournaments ?? []).filter(
    (x) => !words || `${x.name} ${x.city ?? ""} ${x.venue}`.toLowerCase().includes(words),
  );
  return (
    <section>
      <h1>{t("calendar_title")}</h1>
      <div class="filters">
        <label>
          {t("calendar_filter")}
          <input type="search" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
        </label>
        <label class="check">
          <input type="checkbox" checked={upcoming} onChange={(e) => setUpcoming(e.currentTarget.checked)} />
          {t("calendar_upcoming")}
        </label>
      </div>
      <Status loading={loaded.loading && !loaded.data} error={loaded.error} />
      {loaded.data && shown.length === 0 && <p>{t("calendar_empty")}</p>}
      <ul class="cards">
        {shown.map((x) => (
          <li key={x.id}>
            <a class="card" href={`#/t/${x.id}`}>
              <strong>{x.name}</strong>
              <span>{dateTime(x.starts_at)}</span>
              <span>
                {x.venue}
                {x.city ? `, ${x.city}` : ""}
              </span>
              <span>{t("places", { registered: x.registered, capacity: x.capacity, waiting: x.waiting })}</span>
            </a>
          </li>
        ))}
      </ul>
      <p>
        <a href="#/new">{t("new_tournament")}</a> · <a href="#/money">{t("nav_money")}</a> ·{" "}
        <a href="#/season">{t("nav_season")}</a> · <a href="#/invitations">{t("nav_invitations")}</a>
      </p>
      <SeasonLinks />
    </section>
  );
}
