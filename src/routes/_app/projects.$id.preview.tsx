import { createFileRoute } from "@tanstack/react-router";
import { PreviewView } from "../../features/preview/PreviewView";

/** A positive whole number, or no match (the not-found page). */
const parseId = (raw: string) => (/^[1-9]\d*$/.test(raw) ? Number(raw) : NaN);

export const Route = createFileRoute("/_app/projects/$id/preview")({
  params: {
    parse: ({ id }) => {
      const parsed = parseId(id);
      return Number.isNaN(parsed) ? false : { id: parsed };
    },
    stringify: ({ id }) => ({ id: String(id) }),
  },
  component: function ProjectPreview() {
    const { id } = Route.useParams();
    return <PreviewView key={id} projectId={id} />;
  },
});
