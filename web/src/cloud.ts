// Where this build runs: /config.json, written by the deployment, names the API,
// Cognito's hosted UI and the web client, so one build serves every stage. No file (the local
// stack) or `"mode": "local"`: the local /dev/token sign-in screen.
//
// Cloud sign-in is the authorization code flow with PKCE (RFC 7636, S256 with Web Crypto):
// the verifier and the state wait in sessionStorage while the browser is at the hosted UI;
// the code that comes back to the site's origin is exchanged at the token endpoint, and the
// ID token is kept like the local one (auth.ts: memory + sessionStorage).
import { setToken, signOut } from "./auth";
import { signal } from "./signal";
import { heardFrom } from "./platform-clock";

export interface CloudConfig {
  mode: "cognito";
  api: string;
  sign_in: string; // https://<prefix>.auth.<region>.amazoncognito.com
  client_id: string;
  live?: string; // the live channel (live/socket.ts): its WebSocket URL, host and public key
  live_host?: string;
  live_key?: string;
}
export type Config = CloudConfig | { mode: "local"; live?: string; push_key?: string };

const PENDING = "tavla.pkce";
let config: Config = { mode: "local" };

export async function loadConfig(): Promise<Config> {
  try {
    const response = await fetch("/config.json", { cache: "no-cache" });
    heardFrom(response); // before the first screen proposes a date
    const body = response.ok ? ((await response.json()) as Partial<CloudConfig>) : {};
    if (body.mode === "cognito" && body.sign_in && body.client_id && body.api) config = body as CloudConfig;
    else if (typeof body.live === "string") {
      // the local stack: its live channel, and the push key it signs notices with
      const local = body as { live: string; push_key?: unknown };
      config = { mode: "local", live: local.live, ...(typeof local.push_key === "string" && { push_key: local.push_key }) };
    }
  } catch {
    // offline or not deployed: the local sign-in
  }
  return config;
}

export function currentConfig(): Config {
  return config;
}

export function base64url(bytes: Uint8Array): string {
  let text = "";
  bytes.forEach((b) => (text += String.fromCharCode(b)));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 32 random bytes: a 43-character verifier (RFC 7636 asks for 43 to 128). */
export function randomVerifier(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

export async function challengeOf(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier));
  return base64url(new Uint8Array(digest));
}

function redirectUri(): string {
  return `${location.origin}/`;
}

export function authorizeUrl(cloud: CloudConfig, challenge: string, state: string): string {
  const query = new URLSearchParams({
    response_type: "code",
    client_id: cloud.client_id,
    redirect_uri: redirectUri(),
    scope: "openid email profile",
    code_challenge_method: "S256",
    code_challenge: challenge,
    state,
  });
  return `${cloud.sign_in}/oauth2/authorize?${query}`;
}

/** To the hosted UI; back at the site's origin with `?code=...&state=...`. */
export async function startSignIn(cloud: CloudConfig, after = "#/profile"): Promise<void> {
  const verifier = randomVerifier();
  const state = randomVerifier();
  sessionStorage.setItem(PENDING, JSON.stringify({ verifier, state, after }));
  location.assign(authorizeUrl(cloud, await challengeOf(verifier), state));
}

/** True once a return from the hosted UI was refused (wrong state, an error, no token): the
 * person is told, not silently left signed out. */
export const signInRefused = signal(false);

/** On load: a code from the hosted UI becomes the token. False when there was none or it failed. */
export async function finishSignIn(cloud: CloudConfig): Promise<boolean> {
  const params = new URLSearchParams(location.search);
  if (!params.get("code") && !params.get("error")) return false;
  const done = await exchange(cloud, params).catch(() => false);
  signInRefused.set(!done);
  return done;
}

async function exchange(cloud: CloudConfig, params: URLSearchParams): Promise<boolean> {
  const code = params.get("code");
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? "null") as {
    verifier: string;
    state: string;
    after: string;
  } | null;
  sessionStorage.removeItem(PENDING);
  history.replaceState(null, "", `/${pending?.after ?? location.hash}`);
  if (!code || !pending || params.get("state") !== pending.state) return false;
  const response = await fetch(`${cloud.sign_in}/oauth2/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      client_id: cloud.client_id,
      code,
      redirect_uri: redirectUri(),
      code_verifier: pending.verifier,
    }),
  });
  if (!response.ok) return false;
  const tokens = (await response.json()) as { id_token?: string };
  if (!tokens.id_token) return false;
  setToken(tokens.id_token);
  return true;
}

/** Forget the token here and end the hosted UI's session too. */
export function signOutEverywhere(): void {
  signOut();
  if (config.mode !== "cognito") return;
  const query = new URLSearchParams({ client_id: config.client_id, logout_uri: redirectUri() });
  location.assign(`${config.sign_in}/logout?${query}`);
}
