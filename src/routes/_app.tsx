import { createFileRoute } from "@tanstack/react-router";
import { Shell } from "../app/Shell";
import { requireVerifiedUser } from "../app/guards";

export const Route = createFileRoute("/_app")({
  beforeLoad: ({ location }) => requireVerifiedUser(location),
  component: Shell,
});
