// The venue's live channel: AppSync Events' WebSocket protocol (the local stack speaks the same,
// local/live.py). On a match, staff or season channel a message is a change hint: the screen
// refetches what it shows (If-None-Match makes an unchanged answer a bodiless 304); on a
// tournament's channel it is a numbered delta of the board (live/board-delta.ts). The service
// sends "ka" keep-alives: with nothing heard for the connection_ack's connectionTimeoutMs the
// socket counts as lost (a venue's Wi-Fi can leave a socket open that carries nothing), is
// closed and opened again, and the screen polls meanwhile. Public channels are joined with the
// stage's API key from /config.json (a public key, like the site's address); a staff channel
// with the signed-in person's token, which the stage's authorizer checks (docs/live.md).
import { currentConfig } from "../cloud";
import { isDelta, type Delta } from "./board-delta";

export interface LiveHint {
  channel: string;
  type: string;
  version?: number | string;
}

const PROTOCOL = "aws-appsync-event-ws";
/** AppSync Events' default, used when the connection_ack names none. */
export const CONNECTION_TIMEOUT_MS = 300_000;
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30000;

interface LiveConfig {
  live?: string;
  live_host?: string;
  live_key?: string;
}

function liveConfig(): LiveConfig {
  return currentConfig() as LiveConfig;
}

/** The socket's URL for this deployment (from the runtime config the web already loads, see web/src/cloud.ts), or null when there is none. */
export function liveUrl(): string | null {
  return liveConfig().live ?? null;
}

/** `match/T1.main.R1.3` travels as `/match/T1/main/R1/3`: AppSync channel segments have no dots. */
export function channelPath(channel: string): string {
  return `/${channel.replace(/\./g, "/")}`;
}

function base64url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  bytes.forEach((b) => (binary += String.fromCharCode(b)));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function publicAuthorization(): Record<string, string> {
  const { live_host, live_key } = liveConfig();
  return { ...(live_host ? { host: live_host } : {}), "x-api-key": live_key ?? "local" };
}

/** Calls `expire` when `heard` has not been called for `timeoutMs`; `stop` ends it. */
export function watchdog(timeoutMs: number, expire: () => void): { heard: () => void; stop: () => void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const heard = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(expire, timeoutMs);
  };
  heard();
  return { heard, stop: () => clearTimeout(timer) };
}

function messageOf(event: unknown): LiveHint | Delta | null {
  try {
    const value = (typeof event === "string" ? JSON.parse(event) : event) as Partial<LiveHint> | null;
    if (isDelta(value)) return value;
    if (!value || typeof value.channel !== "string" || typeof value.type !== "string") return null;
    return { channel: value.channel, type: value.type, version: value.version };
  } catch {
    return null;
  }
}

/** Subscribe to channels; calls onMessage per hint or delta and onState on open/close (a socket
 * silent past its timeout is closed); reconnects with backoff; returns a function that closes it. */
export function openSocket(
  url: string,
  channels: string[],
  onMessage: (message: LiveHint | Delta) => void,
  onState: (state: "open" | "closed") => void,
  token?: string,
): () => void {
  let socket: WebSocket | null = null;
  let stopped = false;
  let retry = FIRST_RETRY_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let open = false;

  const setOpen = (now: boolean): void => {
    if (now !== open) {
      open = now;
      onState(now ? "open" : "closed");
    }
  };

  const subscribe = (ws: WebSocket): void => {
    channels.forEach((channel, i) => {
      const staff = channel.startsWith("staff/");
      const authorization = staff && token ? { ...publicAuthorization(), Authorization: token } : publicAuthorization();
      ws.send(JSON.stringify({ type: "subscribe", id: `s${i}`, channel: channelPath(channel), authorization }));
    });
  };

  const connect = (): void => {
    if (stopped) return;
    const header = `header-${base64url(JSON.stringify(publicAuthorization()))}`;
    const ws = new WebSocket(url, [PROTOCOL, header]);
    socket = ws;
    let silence: ReturnType<typeof watchdog> | undefined;
    ws.onopen = () => ws.send(JSON.stringify({ type: "connection_init" }));
    ws.onmessage = (message: MessageEvent) => {
      silence?.heard();
      let body: { type?: string; event?: unknown; connectionTimeoutMs?: number };
      try {
        body = JSON.parse(String(message.data)) as typeof body;
      } catch {
        return;
      }
      if (body.type === "connection_ack") {
        retry = FIRST_RETRY_MS;
        // a silent socket may take long to report its close: it counts as closed at once
        silence = watchdog(body.connectionTimeoutMs || CONNECTION_TIMEOUT_MS, () => {
          ws.onclose = null;
          ws.onmessage = null;
          ws.close();
          closed();
        });
        subscribe(ws);
        setOpen(true);
      } else if (body.type === "data") {
        const received = messageOf(body.event);
        if (received) onMessage(received);
      }
    };
    const closed = (): void => {
      silence?.stop();
      if (socket === ws) socket = null;
      setOpen(false);
      if (stopped) return;
      const wait = retry / 2 + Math.random() * (retry / 2); // jitter: a venue's phones do not return at once
      retry = Math.min(retry * 2, LAST_RETRY_MS);
      timer = setTimeout(connect, wait);
    };
    ws.onclose = closed;
    ws.onerror = () => ws.close();
  };

  connect();
  return () => {
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    socket?.close();
    socket = null;
    setOpen(false);
  };
}
