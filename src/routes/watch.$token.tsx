import { createFileRoute } from "@tanstack/react-router";
import { WatchView } from "../features/share/WatchView";

/** A share page (SPEC §6): outside the signed-in layout, so a visitor without an account can watch. */
export const Route = createFileRoute("/watch/$token")({
  component: function Watch() {
    const { token } = Route.useParams();
    return <WatchView token={token} />;
  },
});
