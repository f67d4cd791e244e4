// #/privacy: how long each kind of personal data is kept and what happens then (R12, GDPR
// Art. 13), worded in the screen's language; the periods are the API's (`GET /privacy`), so
// a deployment that changes one is stated as it is.
import { api, type Schemas } from "../api/client";
import { t, type Key } from "../i18n";
import { useLoad } from "../load";
import { Status } from "../ui/widgets";

type Period = Schemas["RetentionPeriod"];

/** A period in words: years when it is whole years, days otherwise; 0 days: at once. */
export function howLong(p: Pick<Period, "days" | "years">): string {
  if (p.years != null) return t("privacy_years", { n: p.years });
  if (p.days == null) return t("privacy_no_end");
  if (p.days === 0) return t("privacy_at_once");
  if (p.days % 365 === 0) return t("privacy_years", { n: p.days / 365 });
  return t("privacy_days", { n: p.days });
}

const FEDERATIONS: Record<string, Key> = { hbf: "privacy_federation_hbf", cnb: "privacy_federation_cnb" };

function what(p: Period): string {
  if (p.kind === "money_records")
    return t("privacy_data_money_records", { federation: t(FEDERATIONS[p.federation ?? ""] ?? "privacy_federation_other") });
  return t(`privacy_data_${p.kind}` as Key);
}

function source(p: Period): string {
  if (p.kind === "money_records") return t(p.federation === "hbf" ? "privacy_law_hbf" : "privacy_law_cnb");
  if (p.kind === "erased_account") return t("privacy_law_erased");
  return t("privacy_law_default");
}

export function Privacy() {
  const notice = useLoad(() => api.GET("/privacy"), []);
  const periods = notice.data?.retention ?? [];
  return (
    <section>
      <h1>{t("privacy_title")}</h1>
      <p>{t("privacy_intro")}</p>
      <Status loading={notice.loading && !notice.data} error={notice.error} />
      <ul class="plain" data-testid="retention">
        {periods.map((p) => (
          <li key={`${p.kind}.${p.federation ?? ""}`} class="card" data-kind={p.kind}>
            <h2>{what(p)}</h2>
            <p>
              <strong data-testid="retention-period">{howLong(p)}</strong> · {t(`privacy_after_${p.kind}` as Key)}
            </p>
            <p>{t(`privacy_then_${p.kind}` as Key)}</p>
            <p class="hint">{source(p)}</p>
          </li>
        ))}
      </ul>
      <p>{t("privacy_rights")}</p>
      <a class="button secondary" href="#/profile">
        {t("nav_profile")}
      </a>
    </section>
  );
}
