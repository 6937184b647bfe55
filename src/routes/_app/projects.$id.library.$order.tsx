import { createFileRoute } from "@tanstack/react-router";
import { LibraryView } from "../../features/library/LibraryView";
import { parsePositive } from "../../features/library/route-params";

/** SPEC §2: pick library scenes to insert into project `id` before scene `order` (1 = at the start). */
export const Route = createFileRoute("/_app/projects/$id/library/$order")({
  params: {
    parse: ({ id, order }) => {
      const parsed = { id: parsePositive(id), order: parsePositive(order) };
      return Number.isNaN(parsed.id) || Number.isNaN(parsed.order) ? false : parsed;
    },
    stringify: ({ id, order }) => ({ id: String(id), order: String(order) }),
  },
  component: function InsertFromLibrary() {
    const { id, order } = Route.useParams();
    return <LibraryView key={`${id}:${order}`} mode={{ kind: "insert", projectId: id, order }} />;
  },
});
