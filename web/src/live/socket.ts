// The push channel's client: hints that something on a channel changed ("match/<id>" ...).
// This is the stand-in used until the server's channel exists: it names no channel (liveUrl()
// is null), so every screen polls (live/use-live.ts). The real one keeps this interface.
export interface LiveHint {
  channel: string;
  type: string;
  version?: number | string;
}

/** The channel's address for this stage, or null when there is none (then screens poll). */
export function liveUrl(): string | null {
  return null;
}

/** Listen to `channels` at `url`; `onHint` for each hint, `onState` as the link opens and
 * closes. Returns the function that closes it. */
export function openSocket(
  url: string,
  channels: string[],
  onHint: (hint: LiveHint) => void,
  onState: (state: "open" | "closed") => void,
  token?: string,
): () => void {
  void [url, channels, onHint, token];
  onState("closed");
  return () => undefined;
}
