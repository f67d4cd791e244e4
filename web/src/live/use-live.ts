// A screen that follows the day by itself: `reload` runs when a hint arrives on one of its
// channels (the push channel, live/socket.ts); a tournament channel's delta goes to `onDelta`
// when the screen applies them (live/use-board.ts), else it reloads too. Without the channel
// the screen polls every second (each read an If-None-Match: an unchanged answer is a bodiless
// 304, live/conditional.ts). While the API cannot be reached, or the channel went silent and no
// poll has answered since, the screen keeps what it showed, marked "stale since hh:mm".
import { useEffect, useRef, useState } from "preact/hooks";
import { getToken } from "../auth";
import { useSignal } from "../signal";
import type { Delta } from "./board-delta";
import { isDelta } from "./board-delta";
import { network, wentOffline } from "./conditional";
import { liveUrl, openSocket } from "./socket";

/** Without the push channel: often enough that a result shows on the other phones within 2 s. */
export const POLL_MS = 1000;
/** With it, on screens told by hints: a safety net for a hint lost on the way. */
export const POLL_WITH_HINTS_MS = 10_000;
/** With it, on screens kept by deltas: none. A gap shows at the next delta, a silent socket at
 * the watchdog, and a phone that wakes reads again; a hundred phones reading every few minutes
 * would cost a third of the day's budget (bench/bench_cost.py). */
export const POLL_WITH_DELTAS_MS: number | null = null;

export const channelsOf = {
  tournament: (tid: string) => `tournament/${tid}`,
  match: (mid: string) => `match/${mid}`,
  staff: (tid: string) => `staff/${tid}`,
  /** As the server names it (tavla.live.season_channel): AppSync segments take no "_", 50 at most. */
  season: (sid: string) => `season/${sid.replace(/_/g, "-").slice(0, 50)}`,
};

export interface Live {
  /** When the shown data was last known good, while the API cannot be reached; else null. */
  staleSince: number | null;
  /** True while the push channel is open. */
  pushed: boolean;
}

export function useLive(channels: readonly string[], reload: () => void, onDelta?: (delta: Delta) => void): Live {
  const again = useRef(reload);
  again.current = reload;
  const apply = useRef(onDelta);
  apply.current = onDelta;
  const [pushed, setPushed] = useState(false);
  // when an open channel was lost: stale until a read answers after it, or the channel is back
  const [lostAt, setLostAt] = useState<number | null>(null);
  const health = useSignal(network);
  const key = channels.filter(Boolean).join(" ");
  useEffect(() => {
    const url = liveUrl();
    if (!url || !key) return;
    let wasOpen = false;
    return openSocket(
      url,
      key.split(" "),
      (message) => (isDelta(message) && apply.current ? apply.current(message) : again.current()),
      (state) => {
        setPushed(state === "open");
        setLostAt(state === "open" || !wasOpen ? null : Date.now());
        wasOpen = state === "open";
        again.current(); // open: what changed while it was closed; lost: poll at once
      },
      getToken() ?? undefined,
    );
  }, [key]);
  const unheard = lostAt !== null && (health.okAt ?? 0) < lostAt ? (health.okAt ?? lostAt) : null;
  const staleSince = health.failingSince !== null ? (health.okAt ?? health.failingSince) : unheard;
  // while stale the screen polls, channel or not, until a read answers
  const stale = staleSince !== null;
  useEffect(() => {
    const every = pushed && !stale ? (apply.current ? POLL_WITH_DELTAS_MS : POLL_WITH_HINTS_MS) : POLL_MS;
    const timer =
      every === null
        ? undefined
        : window.setInterval(() => {
            if (!document.hidden) again.current();
          }, every);
    const back = () => {
      if (!document.hidden) again.current();
    };
    // the device says its network is gone: a socket may stay open, silent, until the watchdog,
    // and a read may still be answered by the service worker: stale at once, and one read now
    const gone = () => {
      wentOffline();
      again.current();
    };
    document.addEventListener("visibilitychange", back);
    window.addEventListener("online", back);
    window.addEventListener("offline", gone);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", back);
      window.removeEventListener("online", back);
      window.removeEventListener("offline", gone);
    };
  }, [pushed, key, stale]);
  return { staleSince, pushed };
}
