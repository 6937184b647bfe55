import { createRootRoute, Outlet } from "@tanstack/react-router";
import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { AriaRouter } from "../app/AriaRouter";
import { TopBanner } from "../app/TopBanner";
import { sunsetIfConfigured } from "../app/sunset";
import { Toasts } from "../ui/Toast";

export const Route = createRootRoute({
  beforeLoad: async () => {
    await sunsetIfConfigured();
  },
  component: () => (
    <AriaRouter>
      <a href="#main" className="skip-link">
        <Trans>Skip to content</Trans>
      </a>
      <TopBanner />
      <Outlet />
      <Toasts />
    </AriaRouter>
  ),
  notFoundComponent: () => (
    <main className="centered-page" id="main">
      <h1>
        <Trans>Page not found</Trans>
      </h1>
      <Link to="/" className="btn btn-primary">
        <Trans>Go home</Trans>
      </Link>
    </main>
  ),
});
