import { describe, expect, it } from "vitest";
import { afterSignIn, route, signInHref } from "../src/router";

describe("sign-in comes back where the person was", () => {
  it("names the screen to return to, except the calendar and the profile", () => {
    expect(signInHref("#/t/abc/match")).toBe("#/signin?back=%2Ft%2Fabc%2Fmatch");
    expect(signInHref("#/")).toBe("#/signin");
    expect(signInHref("#/profile")).toBe("#/signin");
  });
  it("returns to that screen, and only to a screen of this site", () => {
    route.set({ path: ["signin"], query: new URLSearchParams("back=%2Ft%2Fabc%2Fmatch") });
    expect(afterSignIn()).toBe("#/t/abc/match");
    route.set({ path: ["signin"], query: new URLSearchParams("back=https%3A%2F%2Fevil.example") });
    expect(afterSignIn()).toBe("#/profile");
    route.set({ path: ["signin"], query: new URLSearchParams() });
    expect(afterSignIn()).toBe("#/profile");
  });
});
