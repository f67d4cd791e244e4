// Sign-in. In the cloud (/config.json says "cognito"): Cognito's hosted UI, authorization
// code + PKCE (cloud.ts). On the local stack: POST /dev/token mints a token for a user name.
import { useState } from "preact/hooks";
import { setToken } from "../auth";
import { Alert } from "../ui/widgets";
import { t } from "../i18n";
import { afterSignIn, go } from "../router";
import { currentConfig, startSignIn } from "../cloud";

export function SignIn() {
  const config = currentConfig();
  if (config.mode === "cognito") {
    return (
      <section>
        <h1>{t("sign_in")}</h1>
        <p>{t("sign_in_cloud")}</p>
        <button type="button" onClick={() => void startSignIn(config, afterSignIn())}>
          {t("sign_in")}
        </button>
      </section>
    );
  }
  return <LocalSignIn />;
}

function LocalSignIn() {
  const [user, setUser] = useState("");
  const [organiser, setOrganiser] = useState(false);
  const [error, setError] = useState("");
  async function submit(e: Event) {
    e.preventDefault();
    setError("");
    const response = await fetch("/dev/token", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user: user.trim(), groups: organiser ? ["organisers"] : [] }),
    });
    if (!response.ok) {
      setError(t("sign_in_failed"));
      return;
    }
    const body = (await response.json()) as { token: string };
    setToken(body.token);
    go(afterSignIn());
  }
  return (
    <section>
      <h1>{t("sign_in")}</h1>
      <p>{t("sign_in_local")}</p>
      <form onSubmit={submit}>
        <label>
          {t("user_name")}
          <input
            name="user"
            required
            autocomplete="username"
            value={user}
            onInput={(e) => setUser(e.currentTarget.value)}
          />
        </label>
        <label class="check">
          <input type="checkbox" checked={organiser} onChange={(e) => setOrganiser(e.currentTarget.checked)} />
          {t("as_organiser")}
        </label>
        <button type="submit">{t("sign_in")}</button>
        <Alert text={error} />
      </form>
    </section>
  );
}
