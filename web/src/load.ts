// Loading data for a screen: state, error and a reload; everything re-loads when the service
// worker takes over the page (so its caches hold what the first visit showed) and on sign-in.
import { useCallback, useEffect, useState } from "preact/hooks";
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
  const [state, setState] = useState<Omit<Loaded<T>, "reload" | "show">>({
    data: undefined,
    error: undefined,
    status: undefined,
    loading: true,
  });
  const [again, setAgain] = useState(0);
  const reload = useCallback(() => setAgain((n) => n + 1), []);
  const show = useCallback((data: T) => setState({ data, error: undefined, status: 200, loading: false }), []);
  useEffect(() => {
    let live = true;
    setState((s) => ({ ...s, loading: true }));
    fetcher().then(
      (answer) => {
        if (!live) return;
        const status = answer.response.status;
        if (answer.data !== undefined) setState({ data: answer.data, error: undefined, status, loading: false });
        else setState({ data: undefined, error: messageOf(answer.error), status, loading: false });
      },
      (failure: unknown) => {
        if (live) setState({ data: undefined, error: String(failure), status: 0, loading: false });
      },
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [...deps, again, fresh]);
  return { ...state, reload, show };
}

function messageOf(error: unknown): string {
  return problem(error) || "error";
}

/** No request to make (e.g. not signed in): an answer with no data and this status. */
export function nothing<T>(status = 404): Promise<Answer<T>> {
  return Promise.resolve({ response: new Response(null, { status }) });
}
