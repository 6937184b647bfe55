import { createFileRoute } from "@tanstack/react-router";
import { EditRoute, EDIT_ROUTE_PARAMS } from "../../features/edit/EditRoute";

/** SPEC §2 Routes: /projects/{id}/storyboard opens the project edit screen on that tab. */
export const Route = createFileRoute("/_app/projects/$id/storyboard")({
  params: EDIT_ROUTE_PARAMS,
  component: () => <EditRoute tab="storyboard" />,
});
