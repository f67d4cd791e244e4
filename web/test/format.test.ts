import { describe, expect, it } from "vitest";
import { cents, clock, countdown, money, venueInputToIso } from "../src/format";
import { setLang } from "../src/i18n";

describe("amounts", () => {
  it("shows cents as euros in Greek formatting whatever the language", () => {
    setLang("en");
    expect(money(1250).replace(/\s/g, " ")).toBe("12,50 €");
    setLang("el");
  });
  it("reads what a person types into integer cents, never through a float", () => {
    expect(cents("12,50")).toBe(1250);
    expect(cents("12.5")).toBe(1250);
    expect(cents(" 12 ")).toBe(1200);
    expect(cents("0,07")).toBe(7);
    expect(cents("12,505")).toBeNull();
    expect(cents("-3")).toBeNull();
    expect(cents("twelve")).toBeNull();
  });
});

describe("times", () => {
  it("gives the venue's 24-hour wall clock in every language", () => {
    for (const l of ["el", "en", "it"] as const) {
      setLang(l);
      expect(clock("2026-07-01T11:05:00Z")).toBe("14:05"); // Athens, summer: UTC+3
    }
    setLang("el");
  });
  it("reads a typed venue time as that instant, across the summer-time change", () => {
    expect(venueInputToIso("2026-03-28T10:00")).toBe("2026-03-28T08:00:00.000Z");
    expect(venueInputToIso("2026-03-29T10:00")).toBe("2026-03-29T07:00:00.000Z");
  });
  it("counts down to the table call and stops after it", () => {
    expect(countdown(125_000, 0)).toBe("2:05");
    expect(countdown(0, 1_000)).toBeNull();
  });
});
