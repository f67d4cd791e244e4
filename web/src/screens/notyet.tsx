import { t } from "../i18n";

/** Payments and the season are built in parallel (issues of their own): until their routes
 * exist the screens say so plainly instead of failing. */
export function NotYet({ what }: { what: "money" | "season" }) {
  return (
    <section>
      <h1>{what === "money" ? t("nav_money") : t("nav_season")}</h1>
      <p class="notice" role="status">
        {t("not_yet")}
      </p>
      <a class="button secondary" href="#/">
        {t("nav_calendar")}
      </a>
    </section>
  );
}
