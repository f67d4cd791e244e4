// Notices by Web Push: the browser asks the person, subscribes with the stage's VAPID public key
// (GET /push/key) and gives the subscription to the API (POST /me/push-subscriptions), which
// sends each notice there in the person's language; SMS only for those who chose it and have no
// working push subscription. The service worker (web/sw.js) shows the notice and opens its page.
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
    const keyReply = await fetch(apiUrl("/push/key"));
    if (!keyReply.ok) return "unsupported";
    const { public_key } = (await keyReply.json()) as { public_key: string };
    const registration = await navigator.serviceWorker.ready;
    const subscription =
      (await registration.pushManager.getSubscription()) ??
      (await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(public_key) }));
    const saved = await fetch(apiUrl("/me/push-subscriptions"), {
      method: "POST",
      headers: { "content-type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(subscription.toJSON()),
    });
    return saved.ok ? "granted" : "unsupported";
  } catch {
    return "unsupported";
  }
}
