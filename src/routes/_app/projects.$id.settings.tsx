import { createFileRoute } from "@tanstack/react-router";
import { EditRoute } from "../../features/edit/EditRoute";
import { EDIT_ROUTE_PARAMS } from "../../features/edit/route-params";

/** SPEC §2 Routes: /projects/{id}/settings opens the project edit screen on that tab. */
export const Route = createFileRoute("/_app/projects/$id/settings")({
  params: EDIT_ROUTE_PARAMS,
  component: () => <EditRoute tab="settings" />,
});
