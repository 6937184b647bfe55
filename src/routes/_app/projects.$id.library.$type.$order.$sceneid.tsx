import { createFileRoute } from "@tanstack/react-router";
import { LibraryView } from "../../features/library/LibraryView";
import { parsePositive } from "../../features/library/route-params";

/** SPEC §2: pick one library scene to put over scene `sceneid` (at `order`) of project `id`. Only type overlay exists. */
export const Route = createFileRoute("/_app/projects/$id/library/$type/$order/$sceneid")({
  params: {
    parse: ({ id, type, order, sceneid }) => {
      const parsed = { id: parsePositive(id), type: "overlay" as const, order: parsePositive(order), sceneid: parsePositive(sceneid) };
      return type !== "overlay" || [parsed.id, parsed.order, parsed.sceneid].some(Number.isNaN) ? false : parsed;
    },
    stringify: ({ id, type, order, sceneid }) => ({ id: String(id), type, order: String(order), sceneid: String(sceneid) }),
  },
  component: function OverlayFromLibrary() {
    const { id, order, sceneid } = Route.useParams();
    return <LibraryView key={`${id}:${sceneid}`} mode={{ kind: "overlay", projectId: id, order, sceneId: sceneid }} />;
  },
});
