import { createFileRoute } from "@tanstack/react-router";
import { EDIT_ROUTE_PARAMS } from "../../features/edit/route-params";
import { DirectDownloadView } from "../../features/preview/DirectDownloadView";

/** SPEC §7: the direct link GET /projects/{id}/subtitles on the web host starts the owner's download. */
export const Route = createFileRoute("/_app/projects/$id/subtitles")({
  params: EDIT_ROUTE_PARAMS,
  component: function DirectDownload() {
    const { id } = Route.useParams();
    return <DirectDownloadView key={id} projectId={id} kind="subtitles" />;
  },
});
