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

export function useSignal<T>(s: Signal<T>): T {
  const [, force] = useState(0);
  useEffect(() => s.subscribe(() => force((n) => n + 1)), [s]);
  return s.value;
}
