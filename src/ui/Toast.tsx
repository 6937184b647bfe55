import { lazy, Suspense, useEffect, useState } from "react";
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
const Region = lazy(() => import("./ToastRegion"));

export function Toasts() {
  const [wanted, setWanted] = useState(() => toasts.visibleToasts.length > 0);
  useEffect(() => {
    if (wanted) return;
    if (toasts.visibleToasts.length > 0) return setWanted(true);
    return toasts.subscribe(() => {
      if (toasts.visibleToasts.length > 0) setWanted(true);
    });
  }, [wanted]);
  return wanted ? (
    <Suspense fallback={null}>
      <Region />
    </Suspense>
  ) : null;
}
