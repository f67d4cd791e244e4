// One act on the API from a screen: busy while it runs (its button disabled), then what it
// answered, a message when it worked and the refusal in the screen's language when it did not.
import { useCallback, useState } from "preact/hooks";
import { problem } from "../api/client";
import { t } from "../i18n";

export interface Action {
  busy: boolean;
  error: string;
  message: string;
  /** Run `call`; on success show `ok` (a text, or made from the answer) and return the answer. */
  run: <T>(call: () => Promise<{ data?: T; error?: unknown }>, ok?: string | ((data: T) => string)) => Promise<T | undefined>;
  say: (message: string) => void;
  fail: (error: string) => void;
}

export function useAction(after?: () => void): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  const run = useCallback(
    async <T,>(call: () => Promise<{ data?: T; error?: unknown }>, ok?: string | ((data: T) => string)) => {
      setError("");
      setMessage("");
      setBusy(true);
      try {
        const answer = await call();
        if (answer.error !== undefined) {
          setError(problem(answer.error) || t("failed"));
          return undefined;
        }
        const data = answer.data as T;
        if (ok !== undefined) setMessage(typeof ok === "string" ? ok : ok(data));
        return data;
      } catch {
        setError(t("offline"));
        return undefined;
      } finally {
        setBusy(false);
        after?.();
      }
    },
    [after],
  );
  const say = useCallback((m: string) => {
    setError("");
    setMessage(m);
  }, []);
  const fail = useCallback((e: string) => {
    setMessage("");
    setError(e);
  }, []);
  return { busy, error, message, run, say, fail };
}
