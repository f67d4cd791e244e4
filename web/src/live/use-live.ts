// A screen that follows the day by itself: `reload` runs when a hint arrives on one of its
// channels (the push channel, live/socket.ts) and, without one, every few seconds (each read
// an If-None-Match: an unchanged answer is a bodiless 304, live/conditional.ts). While the API
// cannot be reached the screen keeps what it showed, marked "stale since hh:mm".
import { useEffect, useRef, useState } from "preact/hooks";
import { getToken } from "../auth";
import { useSignal } from "../signal";
import { network } from "./conditional";
import { liveUrl, openSocket } from "./socket";

/** Without the push channel: often enough that a result shows on the other phones within 2 s. */
export const POLL_MS = 1000;
/** With it: a safety net for a hint lost on the way. */
export const POLL_WITH_HINTS_MS = 10_000;

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

export function useLive(channels: readonly string[], reload: () => void): Live {
  const again = useRef(reload);
  again.current = reload;
  const [pushed, setPushed] = useState(false);
  const health = useSignal(network);
  const key = channels.filter(Boolean).join(" ");
  useEffect(() => {
    const url = liveUrl();
    if (!url || !key) return;
    return openSocket(
      url,
      key.split(" "),
      () => again.current(),
      (state) => {
        setPushed(state === "open");
        if (state === "open") again.current(); // what changed while it was closed
      },
      getToken() ?? undefined,
    );
  }, [key]);
  useEffect(() => {
    const every = pushed ? POLL_WITH_HINTS_MS : POLL_MS;
    const timer = window.setInterval(() => {
      if (!document.hidden) again.current();
    }, every);
    const back = () => {
      if (!document.hidden) again.current();
    };
    document.addEventListener("visibilitychange", back);
    window.addEventListener("online", back);
    return () => {
      window.clearInterval(timer);
      document.removeEventListener("visibilitychange", back);
      window.removeEventListener("online", back);
    };
  }, [pushed, key]);
  return { staleSince: health.failingSince !== null ? (health.okAt ?? health.failingSince) : null, pushed };
}
