// A tiny observable value; `useSignal` re-renders a component when it changes.
import { useEffect, useState } from "preact/hooks";

export interface Signal<T> {
  value: T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
}

export function signal<T>(initial: T): Signal<T> {
  const listeners = new Set<() => void>();
  const s: Signal<T> = {
    value: initial,
    set(value) {
      s.value = value;
      listeners.forEach((l) => l());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  return s;
}

/** The signal's value, re-rendering on each change. The subscription starts after the first
 * paint, so a change made in between (an address changed while the first screen draws) is
 * caught by comparing with what that render saw; otherwise the screen would keep the old value
 * until the next change. */
export function useSignal<T>(s: Signal<T>): T {
  const [, force] = useState(0);
  const rendered = s.value;
  useEffect(() => {
    const update = () => force((n) => n + 1);
    const unsubscribe = s.subscribe(update);
    if (s.value !== rendered) update();
    return unsubscribe;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `rendered` is the first render's value on purpose
  }, [s]);
  return s.value;
}
