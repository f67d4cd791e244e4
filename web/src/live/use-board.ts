// A board kept by the tournament channel's deltas (live/board-delta.ts): each one is applied to
// the board in memory, with no request; a gap or an unknown kind is one refetch (`refetch`, a
// conditional GET), after which the next delta is taken as it comes.
import { useCallback, useRef } from "preact/hooks";
import type { Board } from "../api/client";
import type { Loaded } from "../load";
import { applyDelta, type Delta } from "./board-delta";

export function useBoardDeltas(board: Loaded<Board>, refetch: () => void): { onDelta: (delta: Delta) => void; reload: () => void } {
  const seq = useRef<number | null>(null);
  const held = useRef(board.data);
  const latest = useRef({ board, refetch });
  latest.current = { board, refetch };
  // a read's answer is what the next delta applies to
  if (board.data !== held.current) held.current = board.data;
  const reload = useCallback(() => {
    seq.current = null;
    latest.current.refetch();
  }, []);
  const onDelta = useCallback(
    (delta: Delta) => {
      const outcome = applyDelta(held.current, seq.current, delta);
      if (outcome === "skip") return;
      if (outcome === "refetch") return reload();
      seq.current = outcome.seq;
      held.current = outcome.board;
      latest.current.board.show(outcome.board);
    },
    [reload],
  );
  return { onDelta, reload };
}
