import type { ComponentChildren, FunctionComponent } from "preact";
import { useEffect, useState } from "preact/hooks";
import { claims, onAuthChange } from "./auth";
import { signInRefused, signOutEverywhere } from "./cloud";
import { language, setLang, t, type Key } from "./i18n";
import { refresh } from "./load";
import { route } from "./router";
import { useSignal } from "./signal";
import { Calendar } from "./screens/calendar";
import { SignIn } from "./screens/signin";
import { Profile } from "./screens/profile";
import { TournamentPage } from "./screens/tournament";
import { Pass } from "./screens/pass";
import { MyMatch } from "./screens/match";
import { Desk } from "./screens/desk";
import { NewTournament, Organise } from "./screens/organise";
import { BoardScreen } from "./screens/board";
import { Notifications } from "./screens/notifications";
import { MyMoney, TournamentMoney } from "./screens/money";
import { PlayerScreen, Ratings, SeasonScreen } from "./screens/season";
import { PaymentDeadline, RefundList, Till } from "./screens/treasury";

export function App() {
  const lang = useSignal(language);
  const r = useSignal(route);
  useEffect(() => onAuthChange(refresh), []);
  const [first, id, sub] = r.path;
  if (first === "t" && id && sub === "tv") return <BoardScreen id={id} big />;
  if (first === "pass") return <Pass />;
  return (
    <Shell key={lang}>
      {first === undefined && <Calendar />}
      {first === "signin" && <SignIn />}
      {first === "profile" && <Profile />}
      {first === "notifications" && <Notifications />}
      {first === "new" && <NewTournament />}
      {first === "money" && <MyMoney />}
      {first === "season" && !id && <Ratings />}
      {first === "season" && id && <SeasonScreen id={id} />}
      {first === "player" && id && <PlayerScreen id={id} />}
      {first === "t" && id && sub === undefined && <TournamentPage id={id} />}
      {first === "t" && id && sub === "match" && <MyMatch id={id} />}
      {first === "t" && id && sub === "desk" && <Desk id={id} />}
      {first === "t" && id && sub === "organise" && <Organise id={id} />}
      {first === "t" && id && sub === "money" && <TournamentMoney id={id} />}
      {first === "t" && id && sub === "till" && <Till id={id} />}
      {first === "t" && id && sub === "refunds" && <RefundList id={id} />}
      {first === "t" && id && sub === "deadline" && <PaymentDeadline id={id} />}
      {first === "t" && id && sub === "board" && <BoardScreen id={id} big={false} />}
      {first === "t" && id && sub === "edit" && <Later key={r.path.join("/")} load={() => import("./screens/manage").then((m) => m.EditTournament)} id={id} />}
      {first === "t" && id && sub === "approvals" && <Later key={r.path.join("/")} load={() => import("./screens/manage").then((m) => m.Approvals)} id={id} />}
      {first === "t" && id && sub === "staff" && <Later key={r.path.join("/")} load={() => import("./screens/manage").then((m) => m.StaffList)} id={id} />}
      {first === "t" && id && sub === "conduct" && <Later key={r.path.join("/")} load={() => import("./screens/conduct").then((m) => m.Conduct)} id={id} />}
      {first === "t" && id && sub === "categories" && <Later key={r.path.join("/")} load={() => import("./screens/categories").then((m) => m.Categories)} id={id} />}
    </Shell>
  );
}

type Screen = FunctionComponent<{ id: string }>;

/** A screen few people open (the organiser's and the referee's extra ones), loaded on demand so
 * the player's first screen stays small (at most 100 KB of JavaScript gzipped). */
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
        <button
          type="button"
          class="lang"
          onClick={() => setLang(lang === "el" ? "en" : "el")}
          aria-label={t("switch_language")}
        >
          {lang === "el" ? "EN" : "ΕΛ"}
        </button>
        {who ? (
          <button type="button" class="link" onClick={() => signOutEverywhere()}>
            {t("sign_out")}
          </button>
        ) : (
          <a class="link" href="#/signin">
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

/** A failure the person must see (read out at once by screen readers). */
export function Alert({ text }: { text: string | undefined }) {
  return text ? (
    <p class="error" role="alert">
      {text}
    </p>
  ) : null;
}

/** What just happened (a polite status message). */
export function Note({ text, testid }: { text: string | undefined; testid?: string }) {
  return text ? (
    <p role="status" class="notice" data-testid={testid}>
      {text}
    </p>
  ) : null;
}

/** What a screen shows while loading or after a failure. */
export function Status({ loading, error }: { loading?: boolean; error?: string | undefined }) {
  if (error) return <Alert text={error} />;
  if (loading) return <p aria-busy="true">{t("loading")}</p>;
  return null;
}

export function NeedSignIn() {
  return (
    <section>
      <p>{t("need_sign_in")}</p>
      <a class="button" href="#/signin">
        {t("sign_in")}
      </a>
    </section>
  );
}

/** A labelled choice among `values`, each shown as the catalogue's text `<prefix><value>`. */
export function Choice<V extends string>(props: {
  label: string;
  name: string;
  value: V;
  values: readonly V[];
  prefix: string;
  onChange: (value: V) => void;
}) {
  return (
    <label>
      {props.label}
      <select name={props.name} value={props.value} onChange={(e) => props.onChange(e.currentTarget.value as V)}>
        {props.values.map((v) => (
          <option key={v} value={v}>
            {t(`${props.prefix}${v}` as Key)}
          </option>
        ))}
      </select>
    </label>
  );
}
