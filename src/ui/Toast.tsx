import { useEffect, useState, type ComponentType } from "react";
import { UNSTABLE_ToastQueue as ToastQueue } from "react-aria-components";
import { TOAST_MS } from "../lib/constants";

export interface ToastContentValue {
  title: string;
  description?: string;
  variant: "success" | "danger" | "warning" | "info";
  action?: { label: string; onAction: () => void };
}

export const toasts = new ToastQueue<ToastContentValue>({ maxVisibleToasts: 4 });

/** Shows a toast that hides itself after SPEC §9's 2.5 s (unless it has an action). */
export function toast(content: ToastContentValue, timeout: number | undefined = content.action ? undefined : TOAST_MS) {
  return toasts.add(content, { timeout });
}

// The region, its landmark and focus handling load with the first toast, not with every page (issue 18);
// a toast added before then is shown (and announced) as soon as the region mounts with it.
type RegionView = ComponentType;
let region: RegionView | undefined;
let loading: Promise<RegionView> | undefined;

/**
 * Loads the region's code once. A failed load (offline before the app's code was cached) is forgotten, so the
 * next try can succeed: React's lazy() would keep the failure and take the whole page down with it.
 */
export function loadToastRegion(): Promise<RegionView> {
  loading ??= import("./ToastRegion").then(
    (module) => (region = module.default),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

export function Toasts() {
  const [wanted, setWanted] = useState(() => toasts.visibleToasts.length > 0);
  const [Region, setRegion] = useState<RegionView | undefined>(() => region);
  useEffect(() => {
    if (wanted) return;
    if (toasts.visibleToasts.length > 0) return setWanted(true);
    return toasts.subscribe(() => {
      if (toasts.visibleToasts.length > 0) setWanted(true);
    });
  }, [wanted]);
  useEffect(() => {
    if (!wanted || Region) return;
    let live = true;
    const attempt = () =>
      loadToastRegion().then(
        (view) => live && setRegion(() => view),
        // Offline: the toast waits in the queue and shows once the connection brings the code.
        () => live && window.addEventListener("online", attempt, { once: true }),
      );
    void attempt();
    return () => {
      live = false;
      window.removeEventListener("online", attempt);
    };
  }, [wanted, Region]);
  return Region ? <Region /> : null;
}
