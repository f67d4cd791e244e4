// Whether the signed-in person is on this tournament's staff, and as what: the desk and the
// console are offered to them only.
import { api, type MyProfile } from "../api/client";
import { getToken, isOrganiser } from "../auth";
import { nothing, useLoad } from "../load";
import { getStaff, roleOf, type Role } from "../staff";

export function useStaffRole(id: string): Role | null {
  const signed = Boolean(getToken());
  const staff = useLoad(() => (signed ? getStaff(id) : nothing<{ staff: [] }>(401)), [id, signed]);
  const me = useLoad(() => (signed ? api.GET("/me") : nothing<MyProfile>(401)), [signed]);
  return roleOf(staff.data?.staff, me.data?.tavla_id, isOrganiser());
}
