import { useEffect, useRef } from "react";
import { POLL_MS } from "../lib/constants";

/**
 * Runs `refresh` at once, then every `intervalMs` while the tab is visible (SPEC §9: 60 s). A hidden tab
 * does not poll; when it shows again after a full interval (or the network comes back) it catches up at
 * once. Changing `key` (e.g. a project id or a page) starts over with an immediate refresh.
 */
export function usePolling(refresh: () => unknown, key: unknown = null, intervalMs: number = POLL_MS, enabled = true) {
  const latest = useRef(refresh);
  latest.current = refresh;

  useEffect(() => {
    if (!enabled) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastRun = 0;
    const visible = () => document.visibilityState !== "hidden";

    const run = () => {
      lastRun = Date.now();
      void latest.current();
      schedule(intervalMs);
    };
    const schedule = (delay: number) => {
      clearTimeout(timer);
      timer = visible() ? setTimeout(run, delay) : undefined;
    };
    const onVisibility = () => {
      if (!visible()) return clearTimeout(timer);
      const elapsed = Date.now() - lastRun;
      if (elapsed >= intervalMs) run();
      else schedule(intervalMs - elapsed);
    };

    run();
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("online", run);
    return () => {
      clearTimeout(timer);
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("online", run);
    };
  }, [key, intervalMs, enabled]);
}
