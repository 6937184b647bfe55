/**
 * React Aria's Button announces its pending state by adding a node to the live announcer that points at the
 * button (`role="img"` with `aria-labelledby`) and removes it 7 s later. A button that goes away meanwhile (a
 * form replaced by its result, a dialog closing) leaves that node pointing at nothing: an unnamed image to a
 * screen reader, and axe's role-img-alt. Here each such node gets the words it pointed at as its own name
 * when it is added; a node whose words are already gone had nothing to say and is dropped.
 */
const watched = new WeakSet<Element>();

function nameOf(ids: string): string {
  return ids
    .split(/\s+/)
    .map((id) => {
      const element = id ? document.getElementById(id) : null;
      return element ? (element.getAttribute("aria-label") ?? (element as HTMLElement).innerText ?? "").trim() : "";
    })
    .filter(Boolean)
    .join(" ");
}

function settle(node: Node) {
  if (!(node instanceof Element)) return;
  const ids = node.getAttribute("aria-labelledby");
  if (ids === null) return;
  const name = nameOf(ids);
  if (!name) return node.remove();
  node.setAttribute("aria-label", name);
  node.removeAttribute("aria-labelledby");
}

/** Watches the live announcer (once it exists) so its announcements keep their words. */
export function keepAnnouncementsNamed() {
  const announcer = document.querySelector("[data-live-announcer]");
  if (!announcer || watched.has(announcer)) return;
  watched.add(announcer);
  announcer.querySelectorAll("[aria-labelledby]").forEach(settle);
  new MutationObserver((records) => records.forEach((record) => record.addedNodes.forEach(settle))).observe(announcer, { childList: true, subtree: true });
}
