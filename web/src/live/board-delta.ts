// The tournament channel's deltas applied to the board a screen holds (the server builds them in
// shared/tavla/live_delta.py). Delta n+1 is applied in memory, with no request; an older or
// repeated one is skipped; a gap, a kind this screen does not know, or a delta that names what
// the board does not hold asks for one refetch of the board (a conditional GET). Applying a
// delta whose change the board already has leaves it as it was.
import type { Board, MatchView } from "../api/client";

type Rows = Board["standings"][number]["rows"];
type Standings = Board["standings"][number];

export interface Delta {
  seq: number;
  kind: string;
  [part: string]: unknown;
}

interface MovedRows {
  division?: string | null;
  event: string;
  total: number;
  order: string[];
  rows: Rows;
}

export type Applied = { board: Board; seq: number } | "skip" | "refetch";

/** A message on the tournament channel that is a delta (the other channels carry hints). */
export function isDelta(value: unknown): value is Delta {
  const v = value as Partial<Delta> | null;
  return Boolean(v) && typeof v!.seq === "number" && typeof v!.kind === "string";
}

/** `seq`: the last delta applied, null when unknown (a fresh read): then any delta is applied. */
export function applyDelta(board: Board | undefined, seq: number | null, delta: Delta): Applied {
  if (seq !== null && delta.seq <= seq) return "skip";
  if (!board || (seq !== null && delta.seq !== seq + 1)) return "refetch";
  const next = applied(board, delta);
  return next ? { board: next, seq: delta.seq } : "refetch";
}

function applied(board: Board, delta: Delta): Board | null {
  switch (delta.kind) {
    case "result":
      return result(board, delta.match as MatchView, (delta.standings as MovedRows[]) ?? []);
    case "call":
      return called(board, delta.calls as { table: number; match: MatchView }[]);
    case "draw":
      return {
        ...board,
        current: delta.current as Board["current"],
        tables: delta.tables as Board["tables"],
        queue: delta.queue as Board["queue"],
        brackets: delta.brackets as Board["brackets"],
      };
    default:
      return null; // "refetch", or a kind newer than this screen
  }
}

/** The board with `match` in place of the one with its id (null: the board does not show it). */
function replaced(board: Board, match: MatchView): Board | null {
  let found = false;
  const merge = (old: MatchView): MatchView => {
    found = true;
    return (old.version ?? 0) > (match.version ?? 0) ? old : { ...old, ...match };
  };
  const brackets = board.brackets.map((b) => ({
    ...b,
    rounds: b.rounds.map((r) => ({ ...r, matches: r.matches.map((m) => (m.id === match.id ? merge(m) : m)) })),
  }));
  return found ? { ...board, brackets } : null;
}

function find(board: Board, id: string): MatchView | undefined {
  for (const b of board.brackets) for (const r of b.rounds) for (const m of r.matches) if (m.id === id) return m;
  return undefined;
}

function result(board: Board, match: MatchView, moved: MovedRows[]): Board | null {
  const next = replaced(board, match);
  if (!next) return null;
  next.tables = board.tables.map((t) => (t.match?.id === match.id ? { ...t, match: null } : t));
  next.queue = board.queue.filter((m) => m.id !== match.id);
  const standings: Standings[] = [];
  for (const s of board.standings) {
    const change = moved.find((c) => c.event === s.event && (c.division ?? null) === (s.division ?? null));
    if (!change) {
      standings.push(s);
      continue;
    }
    const rows = new Map(s.rows.map((r) => [r.player.tavla_id, r]));
    change.rows.forEach((r) => rows.set(r.player.tavla_id, r));
    const ordered = change.order.map((id) => rows.get(id));
    if (ordered.some((r) => !r)) return null;
    standings.push({ ...s, rows: ordered as Rows, total: change.total });
  }
  if (moved.some((c) => !board.standings.some((s) => s.event === c.event))) return null;
  next.standings = standings;
  return next;
}

function called(board: Board, calls: { table: number; match: MatchView }[]): Board | null {
  let next: Board | null = board;
  for (const call of calls) {
    next = next && replaced(next, call.match);
    if (!next || !next.tables.some((t) => t.table === call.table)) return null;
    const match = find(next, call.match.id)!;
    next.tables = next.tables.map((t) =>
      t.table === call.table ? { ...t, match } : t.match?.id === match.id ? { ...t, match: null } : t,
    );
    next.queue = next.queue.filter((m) => m.id !== call.match.id);
  }
  return next;
}
