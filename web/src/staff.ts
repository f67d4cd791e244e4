// A tournament's staff (R1.3): GET .../staff is the list as it is; PUT .../staff replaces it.
import { api, type Schemas } from "./api/client";

export type Member = Schemas["StaffMember"];

export const getStaff = (id: string) =>
  api.GET("/tournaments/{tournament_id}/staff", { params: { path: { tournament_id: id } } });

/** `member` added to the list as it is now (replacing their earlier role), not instead of it. */
export function withMember(staff: Member[], member: Member): Member[] {
  return [...staff.filter((m) => m.tavla_id !== member.tavla_id), member];
}
