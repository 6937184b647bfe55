import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createRouter, RouterProvider } from "@tanstack/react-router";
import { routeTree } from "./routeTree.gen";
import { openMirrorIfAny, pageConfig } from "./db/mirror";
import { activateLocale, loadWholeCatalog } from "./i18n";
import { defaultLocale } from "./i18n/locale";
import { LocaleProvider } from "./app/LocaleProvider";
import { listenForInstallPrompt } from "./app/install";
import { bootWorker } from "./worker";
import "./ui/theme.css";

const router = createRouter({ routeTree, defaultPreload: "intent", scrollRestoration: true });

declare module "@tanstack/react-router" {
  interface Register {
    router: typeof router;
  }
}

async function start() {
  listenForInstallPrompt();
  // Issue 18: the first page's route chunks download while the mirror and the catalog are read, not after
  // them (the router finds them under way; one that failed is fetched again when it renders).
  const [firstRoutes] = router.getMatchedRoutes(window.location.pathname);
  for (const route of firstRoutes) void router.loadRouteChunk(route)?.catch(() => undefined);
  // Speak the stored user's language from the first paint; the server set-up loads alongside. A first
  // visit holds no mirror: nobody is signed in, and the set-up is the one the server wrote into the page.
  const mirror = await openMirrorIfAny();
  const [user, signedIn, config] = mirror ? await Promise.all([mirror.db.currentUser(), mirror.db.auth.get("token"), mirror.db.config()]) : [null, undefined, pageConfig()];
  // Issue 18: a signed-in app boots the sync worker at once; a visitor's pages (sign in, register,
  // pricing) render from the set-up the server wrote into the page and start the worker only when
  // they act. The first render waits for the worker only when there is no set-up at all to show.
  const booting = signedIn || !config ? bootWorker() : undefined;
  if (signedIn) await loadWholeCatalog();
  await Promise.all([
    activateLocale(user?.locale ?? defaultLocale(navigator.languages ?? [navigator.language])),
    config || !booting ? undefined : Promise.race([booting, new Promise((resolve) => setTimeout(resolve, 3000))]),
  ]);
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <LocaleProvider>
        <RouterProvider router={router} />
      </LocaleProvider>
    </StrictMode>,
  );
  // The service worker (workbox-window, push) registers after the first paint, from its own chunk.
  void import("./app/service-worker").then((m) => m.registerServiceWorker());
}

void start();
