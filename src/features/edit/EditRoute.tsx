import { useParams } from "@tanstack/react-router";
import { ProjectEditView } from "./ProjectEditView";
import type { EditRouteTab } from "./tabs";

/** A positive whole number, or no match (the not-found page). */
const parseId = (raw: string) => (/^[1-9]\d*$/.test(raw) ? Number(raw) : NaN);

/** The id of /projects/{id}/<tab> (SPEC §2 Routes): anything but a positive whole number is not found. */
export const EDIT_ROUTE_PARAMS = {
  parse: ({ id }: { id: string }) => {
    const parsed = parseId(id);
    return Number.isNaN(parsed) ? false : { id: parsed };
  },
  stringify: ({ id }: { id: number }) => ({ id: String(id) }),
} as const;

/** The edit screen on one tab; a new project id starts a fresh screen. */
export function EditRoute({ tab }: { tab: EditRouteTab }) {
  const { id } = useParams({ strict: false }) as { id: number };
  return <ProjectEditView key={id} projectId={id} routeTab={tab} />;
}
