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

import { roleOf } from "../src/staff";

describe("the desk and the console are for the tournament's staff", () => {
  const staff = [
    { tavla_id: "REF0001", role: "referee" },
    { tavla_id: "ORG0001", role: "organiser" },
  ] as const;
  it("are offered from the staff list, by role", () => {
    expect(roleOf([...staff], "REF0001", false)).toBe("referee");
    expect(roleOf([...staff], "ORG0001", false)).toBe("organiser");
  });
  it("are not offered to a player, whom the staff list refuses", () => {
    expect(roleOf(undefined, "PLY0001", false)).toBeNull();
    expect(roleOf(undefined, "PLY0001", true)).toBeNull();
  });
  it("are offered to the creator, staff before having a Tavla ID", () => {
    expect(roleOf([...staff], undefined, true)).toBe("organiser");
  });
});
