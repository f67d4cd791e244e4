// The check-in pass, full screen: the QR (drawn by the API as SVG) and the Tavla ID in large
// type for the referee to type when no camera is at hand. Cached by the service worker, so it
// shows without signal in a basement venue.
import { api } from "../api/client";
import { NeedSignIn, Status } from "../ui/widgets";
import { getToken } from "../auth";
import { dateTime } from "../format";
import { t } from "../i18n";
import { useLoad } from "../load";

export function Pass() {
  const pass = useLoad(() => api.GET("/me/checkin-pass"), []);
  if (!getToken())
    return (
      <main id="main" class="pass">
        <NeedSignIn />
      </main>
    );
  return (
    <main id="main" class="pass">
      <h1 class="visually-hidden">{t("nav_pass")}</h1>
      <Status loading={pass.loading && !pass.data} error={pass.error} />
      {pass.data && (
        <>
          <div
            class="qr"
            role="img"
            aria-label={t("pass_qr")}
            // The SVG comes from our own API (segno), not from user input.
            dangerouslySetInnerHTML={{ __html: pass.data.qr_svg }}
          />
          <p class="code" data-testid="pass-code" aria-label={t("tavla_id")}>
            {pass.data.tavla_id}
          </p>
          <p class="small">{t("pass_valid_until", { when: dateTime(pass.data.expires_at) })}</p>
        </>
      )}
      <a class="button secondary" href="#/">
        {t("back")}
      </a>
    </main>
  );
}
