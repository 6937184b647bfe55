import { createFileRoute } from "@tanstack/react-router";
import { Shell } from "../app/Shell";
import { requireVerifiedUser } from "../app/guards";
import { loadWholeCatalog } from "../i18n";

export const Route = createFileRoute("/_app")({
  beforeLoad: async ({ location }) => {
    const context = await requireVerifiedUser(location);
    // The app's pages speak from the whole catalog; the sign-in pages loaded only their part (issue 18).
    await loadWholeCatalog();
    return context;
  },
  component: Shell,
});
