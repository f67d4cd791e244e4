// One act on the API from a screen: busy while it runs (its button disabled), then what it
// answered, a message when it worked and the refusal in the screen's language when it did not.
// The answer replaces the last message when it comes, not at the tap: a message cleared at the
// tap and shown again at the answer moves everything below it twice while it is being tapped.
import { useCallback, useState } from "preact/hooks";
import { errorCode, problem } from "../api/client";
import { t } from "../i18n";

export interface Action {
  busy: boolean;
  error: string;
  message: string;
  /** The API's error code of the last refusal ("nothing_to_draw"), for a screen that acts on it. */
  code: string | undefined;
  /** How many answers came: a screen keys its message by it, so the same message again is shown (and announced) anew. */
  said: number;
  /** Run `call`; on success show `ok` (a text, or made from the answer) and return the answer. */
  run: <T>(call: () => Promise<{ data?: T; error?: unknown }>, ok?: string | ((data: T) => string)) => Promise<T | undefined>;
  say: (message: string) => void;
  fail: (error: string) => void;
}

export function useAction(after?: () => void): Action {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState("");
  const [message, setMessage] = useState("");
  const [code, setCode] = useState<string>();
  const [said, setSaid] = useState(0);
  const run = useCallback(
    async <T,>(call: () => Promise<{ data?: T; error?: unknown }>, ok?: string | ((data: T) => string)) => {
      setBusy(true);
      let shown = "";
      let failed = "";
      try {
        const answer = await call();
        setCode(errorCode(answer.error));
        if (answer.error !== undefined) {
          failed = problem(answer.error) || t("failed");
          return undefined;
        }
        const data = answer.data as T;
        if (ok !== undefined) shown = typeof ok === "string" ? ok : ok(data);
        return data;
      } catch {
        failed = t("offline");
        return undefined;
      } finally {
        setMessage(shown);
        setError(failed);
        setSaid((n) => n + 1);
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
  return { busy, error, message, code, said, run, say, fail };
}
