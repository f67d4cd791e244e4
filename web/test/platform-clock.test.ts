import { describe, expect, it } from "vitest";
import { heardDate, heardFrom, platformNow } from "../src/platform-clock";

describe("the platform's clock", () => {
  it("follows the Date header of the last answer, ahead or behind", () => {
    const received = Date.now();
    heardDate(new Date(received + 3 * 86_400_000).toUTCString(), received);
    expect(platformNow() - Date.now()).toBeGreaterThan(3 * 86_400_000 - 2_000);
    heardDate(new Date(received - 90_000).toUTCString(), received);
    expect(Math.round((platformNow() - Date.now()) / 1000)).toBeLessThanOrEqual(-89);
  });

  it("keeps what it knew when an answer has no usable Date", () => {
    const received = Date.now();
    heardDate(new Date(received + 60_000).toUTCString(), received);
    const before = platformNow() - Date.now();
    heardDate(null);
    heardDate("not a date");
    expect(Math.abs(platformNow() - Date.now() - before)).toBeLessThan(50);
  });

  it("ignores the kept answer the service worker serves offline", () => {
    const received = Date.now();
    heardDate(new Date(received).toUTCString(), received);
    const stale = new Date(received - 7_200_000).toUTCString();
    heardFrom(new Response("{}", { headers: { Date: stale, "x-tavla-offline": "1" } }));
    expect(Math.abs(platformNow() - Date.now())).toBeLessThan(1_500);
    heardFrom(new Response("{}", { headers: { Date: stale } }));
    expect(platformNow() - Date.now()).toBeLessThan(-7_000_000);
  });
});
