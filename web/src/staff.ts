// A tournament's staff (R1.3): GET .../staff is the list as it is; PUT .../staff replaces it.
import { api, type Schemas } from "./api/client";

export type Member = Schemas["StaffMember"];

export const getStaff = (id: string) =>
  api.GET("/tournaments/{tournament_id}/staff", { params: { path: { tournament_id: id } } });

/** `member` added to the list as it is now (replacing their earlier role), not instead of it. */
export function withMember(staff: Member[], member: Member): Member[] {
  return [...staff.filter((m) => m.tavla_id !== member.tavla_id), member];
}

export type Role = "organiser" | "referee";

/** The signed-in person's role in a tournament's staff, or null (a player, or signed out):
 * the staff list answers only its staff (403 to others); the creator, who may have no Tavla ID
 * yet and so is not listed, is in the organisers group. */
export function roleOf(staff: readonly Member[] | undefined, me: string | undefined, organiserGroup: boolean): Role | null {
  if (!staff) return null;
  const listed = me ? staff.find((m) => m.tavla_id === me) : undefined;
  if (listed) return listed.role === "organiser" ? "organiser" : "referee";
  return organiserGroup ? "organiser" : null;
}
