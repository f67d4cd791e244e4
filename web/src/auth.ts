// Where the sign-in token lives: in memory, mirrored to sessionStorage so a reload of the
// same tab keeps the player signed in. Never localStorage: sessionStorage dies with the tab
// and is not shared with other tabs, so a phone passed around at the venue, or a tab left
// open on a shared screen, does not keep someone's token for days (docs/decisions/0008-token-in-session-storage.md).
const KEY = "tavla.token";
let token: string | null = sessionStorage.getItem(KEY);
const listeners = new Set<() => void>();

export interface Claims {
  sub: string;
  exp: number;
  "cognito:groups"?: string[];
}

export function getToken(): string | null {
  if (token && expired(token)) signOut();
  return token;
}

export function setToken(value: string): void {
  token = value;
  sessionStorage.setItem(KEY, value);
  listeners.forEach((l) => l());
}

export function signOut(): void {
  token = null;
  sessionStorage.removeItem(KEY);
  // The service worker's copies of the pass and profile are this user's: forget them too.
  if ("caches" in self) void caches.delete("tavla-private");
  listeners.forEach((l) => l());
}

export function onAuthChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function claims(value: string | null = getToken()): Claims | null {
  if (!value) return null;
  try {
    const part = value.split(".")[1] ?? "";
    const json = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
    return JSON.parse(json) as Claims;
  } catch {
    return null;
  }
}

function expired(value: string): boolean {
  const c = claims(value);
  return !c || c.exp * 1000 < Date.now();
}

export function isOrganiser(): boolean {
  return claims()?.["cognito:groups"]?.includes("organisers") ?? false;
}

export function isAdmin(): boolean {
  return claims()?.["cognito:groups"]?.includes("admins") ?? false;
}
