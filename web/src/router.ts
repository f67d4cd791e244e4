// Hash routes (#/t/<id>/board): the API owns the paths (/tournaments/...), the site owns `/`.
import { signal } from "./signal";

export interface Route {
  path: string[];
  query: URLSearchParams;
}

function parse(): Route {
  const [path = "", query = ""] = location.hash.replace(/^#/, "").split("?");
  return { path: path.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(query) };
}

export const route = signal<Route>(parse());
addEventListener("hashchange", () => {
  route.set(parse());
  scrollTo(0, 0);
});

/** Read the address again after `history.replaceState` (which fires no hashchange): the
 * return from the hosted UI puts the screen the person was going to into the address. */
export function reroute(): void {
  route.set(parse());
}

export function go(hash: string): void {
  location.hash = hash;
}

/** The sign-in screen, coming back here after it (the calendar and the profile need no return). */
export function signInHref(here = location.hash): string {
  const back = here.replace(/^#/, "");
  return back && !/^\/?(signin|profile)?$/.test(back) ? `#/signin?back=${encodeURIComponent(back)}` : "#/signin";
}

/** Where sign-in goes next: back where the person was, else the profile. */
export function afterSignIn(): string {
  const back = route.value.query.get("back");
  return back && back.startsWith("/") ? `#${back}` : "#/profile";
}
