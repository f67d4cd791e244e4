import { describe, expect, it } from "vitest";
import { roundName, roundOfRounds } from "../src/rounds";
import { setLang } from "../src/i18n";

const m = (label: string, stage = "default", round = 1) => ({ label, stage, round, bracket_round: round });

describe("rounds are named as people say them, never by the draw's code", () => {
  it("in Greek", () => {
    setLang("el");
    expect(roundName(m("S1"))).toBe("Γύρος 1");
    expect(roundName(m("R3", "final", 3))).toBe("Τελικός");
    expect(roundName(m("R2", "semi_final", 2))).toBe("Ημιτελικός");
    expect(roundName(m("W2", "default", 2))).toBe("Νικητές, γύρος 2");
    expect(roundName(m("L4", "default", 4))).toBe("Ηττημένοι, γύρος 4");
    expect(roundName(m("GF1", "final"))).toBe("Μεγάλος τελικός");
    expect(roundName(m("GF2", "final", 2))).toBe("Μεγάλος τελικός, δεύτερος αγώνας");
    expect(roundOfRounds(m("S2", "default", 2), 5)).toBe("Γύρος 2 από 5");
    expect(roundOfRounds(m("S2", "default", 2), undefined)).toBe("Γύρος 2");
    expect(roundOfRounds(m("R3", "final", 3), 3)).toBe("Τελικός");
  });
  it("in Italian and English", () => {
    setLang("it");
    expect(roundOfRounds(m("S1"), 3)).toBe("Turno 1 di 3");
    setLang("en");
    expect(roundName(m("RR5", "default", 5))).toBe("Round 5");
    setLang("el");
  });
});
