// A board kept by the tournament channel's deltas (live/board-delta.ts): each one is applied to
// the board in memory, with no request; a gap or an unknown kind is one refetch (`refetch`, a
// conditional GET). A board read says the last delta it holds (`seq`), so the deltas after it
// are applied and a gap since is seen; a board without one takes the next delta as it comes.
import { useCallback, useRef } from "preact/hooks";
import type { Board } from "../api/client";
import type { Loaded } from "../load";
import { applyDelta, type Delta } from "./board-delta";

// The delta each tournament's screens were last told of that made them read the board again.
const told = new Map<string, number>();

/** The board's query: `v`, the delta that made the screen read again (decision 0025): a cache
 * key of its own, so the edge does not answer with its copy from before that change, and the
 * phones told of one change share one copy. */
export function boardQuery(id: string): { v?: number } {
  const v = told.get(id);
  return v === undefined ? {} : { v };
}

export function useBoardDeltas(
  id: string,
  board: Loaded<Board>,
  refetch: () => void,
): { onDelta: (delta: Delta) => void; reload: () => void } {
  const seq = useRef<number | null>(null);
  const held = useRef(board.data);
  const latest = useRef({ board, refetch });
  latest.current = { board, refetch };
  // a read's answer is what the next delta applies to, and says which delta it holds (`seq`):
  // the next one is applied to it, an older one skipped, a gap read again
  if (board.data !== held.current) {
    held.current = board.data;
    seq.current = typeof board.data?.seq === "number" ? board.data.seq : null;
  }
  const reload = useCallback(() => {
    seq.current = null;
    latest.current.refetch();
  }, []);
  const onDelta = useCallback(
    (delta: Delta) => {
      const outcome = applyDelta(held.current, seq.current, delta);
      if (outcome === "skip") return;
      if (outcome === "refetch") {
        told.set(id, delta.seq);
        return reload();
      }
      seq.current = outcome.seq;
      held.current = outcome.board;
      latest.current.board.show(outcome.board);
    },
    [id, reload],
  );
  return { onDelta, reload };
}
