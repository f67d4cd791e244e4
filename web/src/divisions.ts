// A tournament's divisions (R3.7): listed highest first in `settings.divisions`; a tournament
// of one division shows none of this. Shared by the player's, the organiser's and the board's
// screens (small: it is on the player's first screen).
import type { Schemas, Tournament } from "./api/client";

/** What the screens read of a division (its prizes are the prize list's business). */
export type Division = Pick<Schemas["Division-Output"], "id" | "name" | "entry_fee" | "early_bird_fee">;
type WithDivisions = { divisions?: readonly Division[] | null };

/** More than one division: the screens let people choose, group and place by division. */
export const several = (tour: WithDivisions | undefined): boolean => (tour?.divisions?.length ?? 0) > 1;

/** The division's name by its id (the id itself when the tournament no longer lists it). */
export function divisionName(tour: WithDivisions | undefined, id: string | null | undefined): string {
  return tour?.divisions?.find((d) => d.id === id)?.name ?? id ?? "";
}

/** What a player of this division pays: its own fees first, then the tournament's (R3.3). */
export type Fees = Pick<Tournament, "entry_fee" | "early_bird_fee" | "early_bird_deadline">;

export function feeOf(tour: Fees, division: Division): { fee: number; early: number | null } {
  return {
    fee: (division.entry_fee ?? tour.entry_fee)?.amount ?? 0,
    early: tour.early_bird_deadline ? ((division.early_bird_fee ?? tour.early_bird_fee)?.amount ?? null) : null,
  };
}

// ELOT 743, simplified: enough for a division's id to read like its Greek name.
const GREEK: Record<string, string> = {
  α: "a", β: "v", γ: "g", δ: "d", ε: "e", ζ: "z", η: "i", θ: "th", ι: "i", κ: "k", λ: "l", μ: "m",
  ν: "n", ξ: "x", ο: "o", π: "p", ρ: "r", σ: "s", ς: "s", τ: "t", υ: "y", φ: "f", χ: "ch", ψ: "ps", ω: "o",
};

/** A safe id (^[A-Za-z0-9_-]+$, at most 64) from a division's name: "Ανοιχτή Α'" -> "anoichti-a". */
export function slug(name: string): string {
  const plain = name
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/./g, (c) => GREEK[c] ?? c);
  return plain
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
}

/** `id`, or `id-2`, `id-3` ... when another division already has it. */
export function unique(id: string, taken: readonly string[]): string {
  const base = id || "division";
  if (!taken.includes(base)) return base;
  for (let n = 2; ; n++) {
    const next = `${base.slice(0, 60)}-${n}`;
    if (!taken.includes(next)) return next;
  }
}
