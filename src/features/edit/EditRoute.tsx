import { useParams } from "@tanstack/react-router";
import { ProjectEditView } from "./ProjectEditView";
import type { EditRouteTab } from "./tabs";

export { EDIT_ROUTE_PARAMS } from "./route-params";

/** The edit screen on one tab; a new project id starts a fresh screen. */
export function EditRoute({ tab }: { tab: EditRouteTab }) {
  const { id } = useParams({ strict: false }) as { id: number };
  return <ProjectEditView key={id} projectId={id} routeTab={tab} />;
}
