// The frame around every screen (header, language, sign-in, the bottom menu) and the screen
// the address names (routes.tsx).
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { claims, getToken, onAuthChange } from "./auth";
import { api } from "./api/client";
import { signInRefused, signOutEverywhere } from "./cloud";
import { applyProfileLanguage, language, LANGUAGES, setLang, t, type Lang } from "./i18n";
import { refresh } from "./load";
import { route, signInHref } from "./router";
import { useSignal } from "./signal";
import { match, type Screen } from "./routes";
import { Alert } from "./ui/widgets";

export function App() {
  const lang = useSignal(language);
  const r = useSignal(route);
  useEffect(() => {
    const signedIn = () => {
      if (getToken()) void api.GET("/me").then((me) => applyProfileLanguage(me.data));
    };
    signedIn();
    return onAuthChange(() => {
      signedIn();
      refresh();
    });
  }, []);
  const found = match(r.path);
  const key = r.path.join("/");
  const screen = !found ? (
    <p>{t("not_found")}</p>
  ) : found.route.later ? (
    <Later key={key} load={found.route.later} id={found.id} />
  ) : (
    (() => {
      const Show = found.route.screen!;
      return <Show key={key} id={found.id} />;
    })()
  );
  if (found?.route.bare) return <div key={lang}>{screen}</div>;
  return <Shell key={lang}>{screen}</Shell>;
}

/** A screen few people open, loaded on demand. */
function Later({ load, id }: { load: () => Promise<Screen>; id: string }) {
  const [screen, setScreen] = useState<{ show: Screen }>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    load().then(
      (show) => setScreen({ show }),
      () => setFailed(true),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  if (failed) return <Alert text={t("failed")} />;
  if (!screen) return <p aria-busy="true">{t("loading")}</p>;
  const Show = screen.show;
  return <Show id={id} />;
}

function Shell({ children }: { children: ComponentChildren }) {
  const lang = useSignal(language);
  const refused = useSignal(signInRefused);
  const who = claims();
  return (
    <>
      <header class="top">
        <a class="brand" href="#/">
          Tavla
        </a>
        {LANGUAGES.filter((l) => l !== lang).map((l) => {
          const short = l === "el" ? "ΕΛ" : l.toUpperCase();
          // the spoken name starts with what the button shows, so voice control finds it by "ΕΛ"
          return (
            <button type="button" class="lang" key={l} lang={l} onClick={() => setLang(l)} aria-label={`${short}: ${SWITCH[l]}`}>
              {short}
            </button>
          );
        })}
        {who ? (
          <button type="button" class="link" onClick={() => signOutEverywhere()}>
            {t("sign_out")}
          </button>
        ) : (
          <a class="link" href={signInHref()}>
            {t("sign_in")}
          </a>
        )}
      </header>
      <main id="main">
        <Alert text={refused && !who ? t("sign_in_failed") : undefined} />
        {children}
      </main>
      <nav class="bottom" aria-label={t("menu")}>
        <a href="#/">{t("nav_calendar")}</a>
        <a href="#/pass">{t("nav_pass")}</a>
        <a href="#/notifications">{t("nav_notifications")}</a>
        <a href="#/profile">{t("nav_profile")}</a>
      </nav>
    </>
  );
}

/** Each language's switch, said in that language (read out in it: the button's `lang`). */
const SWITCH: Record<Lang, string> = { el: "Αλλαγή σε ελληνικά", en: "Switch to English", it: "Passa all'italiano" };
