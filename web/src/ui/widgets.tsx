// The widgets every screen shares: messages, the loading state, a sign-in prompt, a choice
// list, a confirmation before an irreversible act and the "stale since" marker. They import no
// screen, so no screen imports the app back.
import { useState } from "preact/hooks";
import { t, type Key } from "../i18n";
import { clock } from "../format";
import { signInHref } from "../router";

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
      <a class="button" href={signInHref()}>
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

/** A button whose act cannot be undone: the first tap asks, saying what it does; only
 * "yes" acts, "no" sends nothing. */
export function ConfirmButton(props: {
  label: string;
  question: string;
  onConfirm: () => void;
  class?: string;
  disabled?: boolean;
  testid?: string;
}) {
  const [asking, setAsking] = useState(false);
  if (!asking)
    return (
      <button type="button" class={props.class} disabled={props.disabled} onClick={() => setAsking(true)}>
        {props.label}
      </button>
    );
  return (
    <div class="confirm" role="alertdialog" aria-label={props.label} data-testid={props.testid}>
      <p>{props.question}</p>
      <div class="two">
        <button
          type="button"
          class="warn"
          onClick={() => {
            setAsking(false);
            props.onConfirm();
          }}
        >
          {t("yes_do_it", { what: props.label })}
        </button>
        <button type="button" class="secondary" onClick={() => setAsking(false)} autoFocus>
          {t("cancel")}
        </button>
      </div>
    </div>
  );
}

/** Data that could not be refreshed: when it was last known (venue time). */
export function Stale({ since }: { since: number | null | undefined }) {
  return since ? (
    <p class="stale" role="status" data-testid="stale">
      {t("stale_since", { time: clock(new Date(since).toISOString()) })}
    </p>
  ) : null;
}

/** A player's Tavla ID, typed (seven letters or digits; capitals on a phone's keyboard). */
export function TavlaIdInput({ name, value, onInput }: { name: string; value: string; onInput: (value: string) => void }) {
  return (
    <label>
      {t("staff_tavla_id")}
      <input
        name={name}
        required
        pattern="[A-Za-z0-9]{7}"
        autocapitalize="characters"
        autocomplete="off"
        value={value}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    </label>
  );
}
