// Every screen the site has, as one table: the hash path's shape, and the screen it opens.
// The organiser's and referee's extra screens are loaded on demand (a chunk of their own), so
// the player's first screen stays small (at most 100 KB of JavaScript gzipped).
import type { FunctionComponent } from "preact";
import { Calendar } from "./screens/calendar";
import { SignIn } from "./screens/signin";
import { Profile } from "./screens/profile";
import { TournamentPage } from "./screens/tournament";
import { Pass } from "./screens/pass";
import { MyMatch } from "./screens/match";
import { Desk } from "./screens/desk";
import { Organise } from "./screens/organise";
import { NewTournament } from "./screens/new-tournament";
import { BoardScreen, TvScreen } from "./screens/board";
import { Notifications } from "./screens/notifications";
import { Privacy } from "./screens/privacy";
import { MyMoney } from "./screens/money/mine";
import { TournamentMoney } from "./screens/money/tournament";
import { MyInvitations, PlayerScreen, Ratings, SeasonScreen } from "./screens/season";
import { PaymentDeadline, Payouts, RefundList, Till } from "./screens/treasury";

export type Screen = FunctionComponent<{ id: string }>;

export interface RouteEntry {
  /** The hash path, "t/:id/desk"; `:id` is handed to the screen. */
  path: string;
  screen?: Screen;
  /** A screen few people open, loaded when opened. */
  later?: () => Promise<Screen>;
  /** Shown without the header and the menu (the pass, the venue TV). */
  bare?: boolean;
}

export const ROUTES: readonly RouteEntry[] = [
  { path: "", screen: Calendar },
  { path: "signin", screen: SignIn },
  { path: "profile", screen: Profile },
  { path: "notifications", screen: Notifications },
  { path: "privacy", screen: Privacy },
  { path: "new", screen: NewTournament },
  { path: "money", screen: MyMoney },
  { path: "pass", screen: Pass, bare: true },
  { path: "season", screen: Ratings },
  { path: "season/:id", screen: SeasonScreen },
  { path: "season/:id/replies", later: () => import("./screens/replies").then((m) => m.Replies) },
  { path: "invitations", screen: MyInvitations },
  { path: "player/:id", screen: PlayerScreen },
  { path: "t/:id", screen: TournamentPage },
  { path: "t/:id/match", screen: MyMatch },
  { path: "t/:id/desk", screen: Desk },
  { path: "t/:id/organise", screen: Organise },
  { path: "t/:id/money", screen: TournamentMoney },
  { path: "t/:id/till", screen: Till },
  { path: "t/:id/refunds", screen: RefundList },
  { path: "t/:id/payouts", screen: Payouts },
  { path: "t/:id/deadline", screen: PaymentDeadline },
  { path: "t/:id/board", screen: BoardScreen },
  { path: "t/:id/tv", screen: TvScreen, bare: true },
  { path: "t/:id/edit", later: () => import("./screens/manage/edit").then((m) => m.EditTournament) },
  { path: "t/:id/approvals", later: () => import("./screens/manage/approvals").then((m) => m.Approvals) },
  { path: "t/:id/staff", later: () => import("./screens/manage/staff").then((m) => m.StaffList) },
  { path: "t/:id/tables", later: () => import("./screens/tables").then((m) => m.TablePlan) },
  { path: "t/:id/conduct", later: () => import("./screens/conduct").then((m) => m.Conduct) },
  { path: "t/:id/categories", later: () => import("./screens/categories").then((m) => m.Categories) },
  { path: "t/:id/cancel", later: () => import("./screens/manage/cancel").then((m) => m.CancelOrPostpone) },
  { path: "admin", later: () => import("./screens/admin").then((m) => m.AdminConsole) },
];

/** The route a hash path opens, with its `:id`; none for an unknown path. */
export function match(path: readonly string[], routes: readonly RouteEntry[] = ROUTES): { route: RouteEntry; id: string } | undefined {
  for (const route of routes) {
    const parts = route.path.split("/").filter(Boolean);
    if (parts.length !== path.length) continue;
    let id = "";
    if (parts.every((p, i) => (p === ":id" ? ((id = path[i] ?? ""), true) : p === path[i]))) return { route, id };
  }
  return undefined;
}
