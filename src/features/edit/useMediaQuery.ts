import { useSyncExternalStore } from "react";
import { MENU_BREAKPOINT_PX } from "../../lib/constants";

/** Whether a CSS media query matches, following the window as it changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia?.(query);
      list?.addEventListener("change", onChange);
      return () => list?.removeEventListener("change", onChange);
    },
    () => window.matchMedia?.(query).matches ?? false,
    () => false,
  );
}

/** SPEC §2: under 1023 px the edit screen's tabs become a dropdown and the reference player a mobile one. */
export const NARROW_QUERY = `(max-width: ${MENU_BREAKPOINT_PX - 0.02}px)`;
export const useNarrow = () => useMediaQuery(NARROW_QUERY);

/** Issue 18: a phone (up to 560 px wide, the width at which the header shows icons only). */
export const PHONE_QUERY = "(max-width: 560px)";
