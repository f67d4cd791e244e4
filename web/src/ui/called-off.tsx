// A tournament cancelled or postponed, as its public page says it: cancelled (with the
// organiser's reason, and whether its results count for the ratings), or postponed with the
// new start and registration close in the venue's time, and the start first announced.
import { dateTime } from "../format";
import { t } from "../i18n";

interface Dates {
  status?: string;
  cancel_reason?: string | null;
  unrated_at?: string | null;
  postponed_at?: string | null;
  postponed_from?: string | null;
  starts_at: string;
  registration_closes_at: string;
  time_zone?: string;
}

export function CalledOff({ x }: { x: Dates }) {
  if (x.status === "cancelled")
    return (
      <div class="notice" role="status" data-testid="called-off">
        <p>
          <strong>{t("tournament_cancelled_banner")}</strong>
          {x.cancel_reason ? ` ${t("cancelled_reason", { reason: x.cancel_reason })}` : ""}
        </p>
        <p>{t("cancelled_refunds")}</p>
        {x.unrated_at && <p>{t("cancel_unrated_banner")}</p>}
      </div>
    );
  if (x.postponed_at && x.postponed_from)
    return (
      <div class="notice" role="status" data-testid="called-off">
        <p>
          <strong>
            {t("postponed_banner", {
              starts: dateTime(x.starts_at, x.time_zone),
              was: dateTime(x.postponed_from, x.time_zone),
            })}
          </strong>
        </p>
        <p>{t("postponed_withdraw", { closes: dateTime(x.registration_closes_at, x.time_zone) })}</p>
      </div>
    );
  return null;
}
