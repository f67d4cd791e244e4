import { api } from "../api/client";
import { NeedSignIn, Status } from "../ui/widgets";
import { getToken } from "../auth";
import { dateTime } from "../format";
import { t } from "../i18n";
import { useLoad } from "../load";

export function Notifications() {
  const loaded = useLoad(() => api.GET("/me/notifications"), []);
  if (!getToken()) return <NeedSignIn />;
  return (
    <section>
      <h1>{t("nav_notifications")}</h1>
      <Status loading={loaded.loading && !loaded.data} error={loaded.error} />
      {loaded.data && loaded.data.length === 0 && <p>{t("no_notifications")}</p>}
      <ul class="cards">
        {loaded.data?.map((n) => (
          <li key={n.id} class="card">
            <strong>{t(kindKey(n.kind))}</strong>
            <span>{n.message}</span>
            {n.kind.startsWith("super_final") && <a href="#/invitations">{t("nav_invitations")}</a>}
            <small>{dateTime(n.created_at)}</small>
          </li>
        ))}
      </ul>
    </section>
  );
}

function kindKey(kind: string) {
  if (kind === "promoted") return "notice_promoted" as const;
  if (kind === "table_call") return "notice_table_call" as const;
  return "notice_other" as const;
}
