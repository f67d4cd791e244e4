// A tournament's staff as last set (R1.3). The API has no GET for it: the newest
// `staff_changed` record of the audit trail (staff only) holds the list, "TAVLAID:role" each.
import { api, type Schemas } from "./api/client";

export type Member = Schemas["StaffMember"];

export function lastStaff(records: Schemas["AuditEntry"][] | undefined): Member[] | undefined {
  const last = records?.find((r) => r.action === "staff_changed");
  if (!last) return undefined;
  const staff = (last.details as { staff?: unknown } | undefined)?.staff;
  if (!Array.isArray(staff)) return [];
  return staff.map((s) => {
    const [tavla_id = "", role = "referee"] = String(s).split(":");
    return { tavla_id, role: role === "organiser" ? "organiser" : "referee" };
  });
}

export const staffAudit = (id: string) =>
  api.GET("/tournaments/{tournament_id}/audit", { params: { path: { tournament_id: id }, query: { limit: 500 } } });

/** `member` added to the list as it is now (replacing their earlier role), not instead of it. */
export function withMember(staff: Member[], member: Member): Member[] {
  return [...staff.filter((m) => m.tavla_id !== member.tavla_id), member];
}
