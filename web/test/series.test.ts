import { describe, expect, it } from "vitest";
import { legsWon, parseLegs } from "../src/screens/match";

describe("a series' matches (cnb 2.2.2)", () => {
  it("counts the matches each player won, home first", () => {
    expect(legsWon([[7, 3], [5, 7], [7, 6]])).toEqual([2, 1]);
    expect(legsWon(undefined)).toEqual([0, 0]);
  });
  it("reads typed scores, dashes of either kind, and drops what is not a score", () => {
    expect(parseLegs("7-3, 5–7; 7:6")).toEqual([
      { home_points: 7, away_points: 3 },
      { home_points: 5, away_points: 7 },
      { home_points: 7, away_points: 6 },
    ]);
    expect(parseLegs("7-3, x, 7")).toEqual([{ home_points: 7, away_points: 3 }]);
  });
});
