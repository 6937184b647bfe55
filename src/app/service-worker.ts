import { Workbox } from "workbox-window";
import { i18n } from "../i18n";
import { msg } from "@lingui/core/macro";
import { toast } from "../ui/Toast";

/** Registers /service-worker.js; a new version offers "reload to update" instead of breaking the tab. */
export function registerServiceWorker() {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  const wb = new Workbox("/service-worker.js", { scope: "/" });
  wb.addEventListener("waiting", () => {
    toast({
      variant: "info",
      title: i18n._(msg`A new version of Cutroom is ready`),
      action: {
        label: i18n._(msg`Reload to update`),
        onAction: () => {
          wb.addEventListener("controlling", () => window.location.reload());
          wb.messageSkipWaiting();
        },
      },
    });
  });
  void wb.register();
}
