// Reads that cost little when nothing changed: the last ETag of each GET is sent back as
// If-None-Match, and a 304 (no body) is answered with the body kept from before. Every answer
// also says whether the network is reachable (`network`), for the "stale since" marker.
import { signal } from "../signal";

interface Kept {
  etag: string;
  body: string;
  headers: Headers;
}

const kept = new Map<string, Kept>();
const LIMIT = 64;

/** When the API last answered, and since when it has not (null: it answers). */
export const network = signal<{ okAt: number | null; failingSince: number | null }>({ okAt: null, failingSince: null });

function healthy(ok: boolean, now = Date.now()): void {
  const was = network.value;
  if (ok) {
    if (was.failingSince !== null || was.okAt === null || now - was.okAt > 1000) network.set({ okAt: now, failingSince: null });
  } else if (was.failingSince === null) network.set({ okAt: was.okAt, failingSince: now });
}

export async function conditionalFetch(request: Request, send: typeof fetch = fetch): Promise<Response> {
  if (request.method !== "GET") return send(request).then(noteHealth, failed);
  const key = `${request.headers.get("authorization") ?? ""} ${request.url}`;
  const before = kept.get(key);
  if (before) request.headers.set("If-None-Match", before.etag);
  const response = await send(request).then(noteHealth, failed);
  if (response.status === 304 && before) return new Response(before.body, { status: 200, headers: before.headers });
  const etag = response.headers.get("etag");
  if (response.status === 200 && etag) {
    const body = await response.clone().text();
    if (kept.size >= LIMIT) kept.delete(kept.keys().next().value!);
    kept.set(key, { etag, body, headers: new Headers(response.headers) });
  }
  return response;
}

/** The device says its network is gone: what the screen shows is stale from now, whatever a
 * read answers meanwhile (the service worker's own fetches may not see the device offline). */
export function wentOffline(): void {
  healthy(false);
}

/** The service worker answers from its copy when the network is gone (its header says so). */
function noteHealth(response: Response): Response {
  const deviceOnline = typeof navigator === "undefined" || navigator.onLine !== false;
  healthy(deviceOnline && !response.headers.has("x-tavla-offline") && response.status < 500);
  return response;
}

function failed(error: unknown): never {
  healthy(false);
  throw error;
}
