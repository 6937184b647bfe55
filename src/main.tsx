import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { createRouter, RouterProvider } from "@tanstack/react-router";
import { routeTree } from "./routeTree.gen";
import { db } from "./db";
import { activateLocale } from "./i18n";
import { defaultLocale } from "./i18n/locale";
import { LocaleProvider } from "./app/LocaleProvider";
import { listenForInstallPrompt } from "./app/install";
import { registerServiceWorker } from "./app/service-worker";
import { worker } from "./worker";
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
  const user = await db.currentUser();
  await Promise.all([
    activateLocale(user?.locale ?? defaultLocale(navigator.languages ?? [navigator.language])),
    Promise.race([worker.boot(), new Promise((resolve) => setTimeout(resolve, 3000))]),
  ]);
  createRoot(document.getElementById("root")!).render(
    <StrictMode>
      <LocaleProvider>
        <RouterProvider router={router} />
      </LocaleProvider>
    </StrictMode>,
  );
  registerServiceWorker();
}

void start();
