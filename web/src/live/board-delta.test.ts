import { afterEach, describe, expect, it, vi } from "vitest";
import type { Board, MatchView } from "../api/client";
import { applyDelta, isDelta, type Delta } from "./board-delta";
import { watchdog } from "./socket";

const row = (id: string, place: number, points: number) =>
  ({ place, place_to: place, label: String(place), player: { tavla_id: id }, points }) as Board["standings"][number]["rows"][number];

const match = (code: string, more: Partial<MatchView> = {}): MatchView =>
  ({
    id: `T.${code}`,
    code,
    state: "called",
    home: { tavla_id: "anna", name: "Anna" },
    away: { tavla_id: "boris", name: "Boris" },
    declared: [],
    version: 1,
    ...more,
  }) as MatchView;

function board(): Board {
  const m1 = match("main.R1.1", { table: 1 });
  const m2 = match("main.R1.2", { table: 2 });
  return {
    tournament_id: "T",
    name: "Open",
    status: "running",
    current: [],
    tables: [
      { table: 1, match: m1 },
      { table: 2, match: m2 },
      { table: 3, match: null },
    ],
    queue: [match("main.R1.3")],
    brackets: [{ event: "main", rounds: [{ round: 1, matches: [m1, m2, match("main.R1.3")] }] }],
    standings: [{ event: "main", system: "table", total: 3, rows: [row("anna", 1, 0), row("boris", 1, 0), row("chris", 1, 0)] }],
  } as unknown as Board;
}

const official = match("main.R1.1", {
  state: "official",
  version: 3,
  result: { winner: "anna", home_points: 7, away_points: 5 } as MatchView["result"],
});
const result = (seq: number): Delta => ({
  seq,
  kind: "result",
  match: JSON.parse(JSON.stringify({ ...official, declared: undefined })) as MatchView, // as it travels: no declarations
  standings: [{ division: null, event: "main", total: 3, order: ["anna", "chris", "boris"], rows: [row("anna", 1, 1), row("boris", 3, 0)] }],
});

describe("the tournament channel's deltas applied to the board", () => {
  it("apply a result: the match with its winner, off its table, the moved rows in their order", () => {
    const out = applyDelta(board(), 4, result(5));
    if (typeof out === "string") throw new Error(out);
    expect(out.seq).toBe(5);
    const shown = out.board.brackets[0]!.rounds[0]!.matches[0]!;
    expect(shown.result?.winner).toBe("anna");
    expect(shown.declared).toEqual([]); // kept from the board: the channel carries none
    expect(out.board.tables[0]!.match).toBeNull();
    expect(out.board.standings[0]!.rows.map((r) => [r.player.tavla_id, r.points])).toEqual([
      ["anna", 1],
      ["chris", 0],
      ["boris", 0],
    ]);
  });

  it("skip a delta already applied, and applying one twice changes nothing", () => {
    expect(applyDelta(board(), 5, result(5))).toBe("skip");
    const once = applyDelta(board(), null, result(5));
    if (typeof once === "string") throw new Error(once);
    const twice = applyDelta(once.board, null, result(5));
    if (typeof twice === "string") throw new Error(twice);
    expect(twice.board).toEqual(once.board);
  });

  it("refetch on a gap, an unknown kind, a refetch delta, or a match the board does not hold", () => {
    expect(applyDelta(board(), 3, result(5))).toBe("refetch");
    expect(applyDelta(board(), 4, { seq: 5, kind: "bracket-reseeded" })).toBe("refetch");
    expect(applyDelta(board(), 4, { seq: 5, kind: "refetch", reason: "entries" })).toBe("refetch");
    expect(applyDelta(board(), 4, { ...result(5), match: match("main.R9.1") })).toBe("refetch");
    expect(applyDelta(undefined, null, result(5))).toBe("refetch");
  });

  it("apply a table call: the match on its table and out of the queue", () => {
    const called = match("main.R1.3", { table: 3, version: 2 });
    const out = applyDelta(board(), 1, { seq: 2, kind: "call", calls: [{ table: 3, match: called }] });
    if (typeof out === "string") throw new Error(out);
    expect(out.board.tables[2]!.match?.code).toBe("main.R1.3");
    expect(out.board.queue).toEqual([]);
  });

  it("apply a draw: the new round's tables and pairings", () => {
    const next = match("main.R2.1", { table: 1 });
    const delta = {
      seq: 8,
      kind: "draw",
      current: [],
      tables: [{ table: 1, match: next }],
      queue: [],
      brackets: [{ event: "main", rounds: [{ round: 2, matches: [next] }] }],
    };
    const out = applyDelta(board(), 7, delta);
    if (typeof out === "string") throw new Error(out);
    expect(out.board.tables.map((t) => t.match?.code)).toEqual(["main.R2.1"]);
    expect(out.board.standings).toEqual(board().standings);
  });

  it("tell a delta from a hint", () => {
    expect(isDelta({ seq: 1, kind: "result" })).toBe(true);
    expect(isDelta({ channel: "match/T.main.R1.1", type: "MatchChanged", version: 2 })).toBe(false);
  });
});

describe("the socket's watchdog", () => {
  afterEach(() => vi.useRealTimers());

  it("expire after the connection timeout with nothing heard, not while keep-alives come", () => {
    vi.useFakeTimers();
    const expire = vi.fn();
    const dog = watchdog(1000, expire);
    vi.advanceTimersByTime(900);
    dog.heard(); // a "ka"
    vi.advanceTimersByTime(900);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(expire).toHaveBeenCalledOnce();
    dog.stop();
  });
});
