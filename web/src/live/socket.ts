// The venue's live channel: AppSync Events' WebSocket protocol (the local stack speaks the same,
// local/live.py). A message is a change hint, never data: the screen refetches what it shows
// (If-None-Match makes an unchanged answer a bodiless 304). Public channels are joined with the
// stage's API key from /config.json (a public key, like the site's address); a staff channel
// with the signed-in person's token, which the stage's authorizer checks (docs/live.md).
import { currentConfig } from "../cloud";

export interface LiveHint {
  channel: string;
  type: string;
  version?: number | string;
}

const PROTOCOL = "aws-appsync-event-ws";
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

function hintOf(event: unknown): LiveHint | null {
  try {
    const value = (typeof event === "string" ? JSON.parse(event) : event) as Partial<LiveHint> | null;
    if (!value || typeof value.channel !== "string" || typeof value.type !== "string") return null;
    return { channel: value.channel, type: value.type, version: value.version };
  } catch {
    return null;
  }
}

/** Subscribe to channels; calls onHint per message and onState on open/close; reconnects with backoff; returns a function that closes it. */
export function openSocket(
  url: string,
  channels: string[],
  onHint: (hint: LiveHint) => void,
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
    ws.onopen = () => ws.send(JSON.stringify({ type: "connection_init" }));
    ws.onmessage = (message: MessageEvent) => {
      let body: { type?: string; event?: unknown };
      try {
        body = JSON.parse(String(message.data)) as { type?: string; event?: unknown };
      } catch {
        return;
      }
      if (body.type === "connection_ack") {
        retry = FIRST_RETRY_MS;
        subscribe(ws);
        setOpen(true);
      } else if (body.type === "data") {
        const hint = hintOf(body.event);
        if (hint) onHint(hint);
      }
    };
    ws.onclose = () => {
      if (socket === ws) socket = null;
      setOpen(false);
      if (stopped) return;
      const wait = retry / 2 + Math.random() * (retry / 2); // jitter: a venue's phones do not return at once
      retry = Math.min(retry * 2, LAST_RETRY_MS);
      timer = setTimeout(connect, wait);
    };
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
