import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createRouter, RouterProvider } from "@tanstack/react-router";
import { routeTree } from "./routeTree.gen";
import { db } from "./db";
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
  // Speak the stored user's language from the first paint; the server set-up loads alongside.
  const [user, signedIn, config] = await Promise.all([db.currentUser(), db.auth.get("token"), db.config()]);
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
