// Loading data for a screen: state, error and a reload; everything re-loads when the service
// worker takes over the page (so its caches hold what the first visit showed) and on sign-in.
// A reload that brings the same answer draws nothing; one that fails keeps what was shown.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { t } from "./i18n";
import { signal, useSignal } from "./signal";
import { problem } from "./api/client";

export const freshness = signal(0);
export const refresh = () => freshness.set(freshness.value + 1);

export interface Loaded<T> {
  data: T | undefined;
  error: string | undefined;
  status: number | undefined;
  loading: boolean;
  reload: () => void;
  /** Show what a write answered, without another read (and without racing one). */
  show: (data: T) => void;
}

export interface Answer<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

export function useLoad<T>(fetcher: () => Promise<Answer<T>>, deps: unknown[]): Loaded<T> {
  const fresh = useSignal(freshness);
  const [current, setState] = useState<Omit<Loaded<T>, "reload" | "show">>({
    data: undefined,
    error: undefined,
    status: undefined,
    loading: true,
  });
  const [again, setAgain] = useState(0);
  const last = useRef<string>();
  const state = useRef(current);
  const reload = useCallback(() => setAgain((n) => n + 1), []);
  const show = useCallback((data: T) => setState({ data, error: undefined, status: 200, loading: false }), []);
  useEffect(() => {
    let live = true;
    setState((s) => (s.data === undefined && !s.loading ? { ...s, loading: true } : s));
    fetcher().then(
      (answer) => {
        if (!live) return;
        const status = answer.response.status;
        if (answer.data !== undefined) {
          const text = JSON.stringify(answer.data);
          // the same answer again (a poll, a 304): nothing to draw
          if (text === last.current && state.current.status === status && !state.current.error) return;
          last.current = text;
          setState({ data: answer.data, error: undefined, status, loading: false });
        } else {
          last.current = undefined;
          setState({ data: undefined, error: messageOf(answer.error), status, loading: false });
        }
      },
      () => {
        // no network: what was shown stays (live/use-live.ts marks it stale)
        if (live) setState((s) => (s.data === undefined ? { data: undefined, error: t("offline"), status: 0, loading: false } : s));
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, again, fresh]);
  state.current = current;
  return { ...current, reload, show };
}

function messageOf(error: unknown): string {
  return problem(error) || "error";
}

/** No request to make (e.g. not signed in): an answer with no data and this status. */
export function nothing<T>(status = 404): Promise<Answer<T>> {
  return Promise.resolve({ response: new Response(null, { status }) });
}
