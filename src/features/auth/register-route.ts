import { redirect } from "@tanstack/react-router";
import { publicConfig } from "../../db/mirror";

/**
 * The register routes' search and guard, apart from RegisterView so the route tree (in the first bundle)
 * does not pull in the form (issue 18).
 */
export const registerSearch = (search: Record<string, unknown>): { irclickid?: string } =>
  typeof search.irclickid === "string" && search.irclickid ? { irclickid: search.irclickid.slice(0, 255) } : {};

/** Registration is hidden on the beta host (SPEC §2). */
export async function refuseOnBetaHost() {
  if ((await publicConfig())?.betaHost) throw redirect({ to: "/login" });
}
