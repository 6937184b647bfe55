/** Where the plan picker sits on /account: Upgrade prompts and `/account#plans` links bring it into view. */
export const PLANS_SECTION_ID = "plans";

/** Scrolls the plan picker into view and moves focus to it; false when the page has none (lifetime users). */
export function focusPlanPicker(): boolean {
  const section = document.getElementById(PLANS_SECTION_ID);
  if (!section) return false;
  const reduced = window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
  section.scrollIntoView({ behavior: reduced ? "auto" : "smooth", block: "start" });
  section.focus({ preventScroll: true });
  return true;
}
