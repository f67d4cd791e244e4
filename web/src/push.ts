// Notices by Web Push: the browser asks the person, subscribes with the stage's VAPID public key
// (the local stack's /config.json names it; a cloud stage answers GET /push/key) and gives the
// subscription to the API (PUT /me/push-subscriptions, the same one again changes nothing),
// which sends each notice there in the person's language; SMS only for those who chose it and
// whom no browser of theirs reached. The service worker (web/sw.js) shows the notice and opens its page.
import { getToken } from "./auth";
import { currentConfig } from "./cloud";

function apiUrl(path: string): string {
  const config = currentConfig();
  return config.mode === "cognito" ? `${config.api}${path}` : path;
}

/** The VAPID key as the Push API wants it (base64url text -> bytes). */
function keyBytes(key: string): Uint8Array<ArrayBuffer> {
  const padded = (key + "=".repeat((4 - (key.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  const text = atob(padded);
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The key browsers subscribe with: the local stack's config, else the API's. */
async function pushKey(): Promise<string | undefined> {
  const config = currentConfig();
  if (config.mode === "local" && config.push_key) return config.push_key;
  const reply = await fetch(apiUrl("/push/key"));
  return reply.ok ? ((await reply.json()) as { public_key: string }).public_key : undefined;
}

/** Ask for notices by push; "unsupported" where the browser has no Push API (or no sign-in). */
export async function askForPush(): Promise<"granted" | "denied" | "unsupported"> {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return "unsupported";
  }
  const token = getToken();
  if (!token) return "unsupported";
  const permission = await Notification.requestPermission();
  if (permission !== "granted") return "denied";
  try {
    const public_key = await pushKey();
    if (!public_key) return "unsupported";
    const registration = await navigator.serviceWorker.ready;
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
    const saved = await fetch(apiUrl("/me/push-subscriptions"), {
      method: "PUT",
      headers: { "content-type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(subscription.toJSON()),
    });
    return saved.ok ? "granted" : "unsupported";
  } catch {
    return "unsupported";
  }
}
