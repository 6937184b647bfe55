import { useBlocker } from "@tanstack/react-router";
import type { RefObject } from "react";

/**
 * Asks before leaving the wizard (links, back button) while `block` holds; the browser asks before a reload
 * or closing the tab while `warnOnUnload` holds. Moving between the wizard's own steps never asks, and
 * neither does a departure the wizard starts itself (`allowed`).
 */
export function useLeaveGuard({ block, warnOnUnload, allowed }: { block: boolean; warnOnUnload: boolean; allowed: RefObject<boolean> }) {
  return useBlocker({
    shouldBlockFn: ({ current, next }) => block && !allowed.current && next.pathname !== current.pathname,
    enableBeforeUnload: () => warnOnUnload && !allowed.current,
    disabled: !block && !warnOnUnload,
    withResolver: true,
  });
}
