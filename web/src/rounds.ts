// A round as people say it ("Γύρος 2 από 5", "Τελικός"), never the draw's code ("S2", "GF1").
import type { Board, MatchView, Tournament } from "./api/client";
import { t } from "./i18n";

type Named = Pick<MatchView, "label" | "stage" | "round" | "bracket_round">;

/** The name of a match's round: Round n (R, S, RR, V), the final and the semi-final of a
 * knockout, the winners' and losers' rounds and the grand final of a double elimination. */
export function roundName(m: Named): string {
  const [, kind = "", digits = ""] = /^([A-Z]+)(\d+)$/.exec(m.label ?? "") ?? [];
  const n = Number(digits || m.bracket_round || m.round || 1);
  if (kind === "GF") return t(n > 1 ? "round_grand_final_reset" : "round_grand_final");
  if (m.stage === "final") return t("round_final");
  if (m.stage === "semi_final") return t("round_semi_final");
  if (kind === "W") return t("round_winners", { n });
  if (kind === "L") return t("round_losers", { n });
  return t("round_n", { n });
}

/** How many rounds the match's part of the draw has: the Swiss rounds the tournament plays,
 * else the rounds of its bracket on the board; undefined when it cannot be told. */
export function roundsOf(m: Pick<MatchView, "label" | "bracket" | "event" | "division">, board: Board | undefined, tour: Pick<Tournament, "swiss_rounds"> | undefined): number | undefined {
  if (/^S\d+$/.test(m.label ?? "")) return tour?.swiss_rounds ?? undefined;
  const bracket = board?.brackets.find((b) => b.event === m.event && (b.division ?? null) === (m.division ?? null));
  const rounds = bracket?.rounds.filter((r) => r.matches.some((x) => x.bracket === m.bracket)).length;
  return rounds || undefined;
}

/** "Γύρος 2 από 5" when the count is known, else the round's name alone. */
export function roundOfRounds(m: Named, of: number | undefined): string {
  const name = roundName(m);
  return of && /^[A-Z]*\d+$/.test(m.label ?? "") && m.stage !== "final" && m.stage !== "semi_final" ? t("round_n_of", { n: m.bracket_round || m.round || 1, of }) : name;
}
