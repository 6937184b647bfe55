/** Product analytics events (SPEC §7). Forwarded to a tag manager's dataLayer when the page has one. */
export function track(event: string, properties: Record<string, unknown> = {}) {
  const layer = (window as { dataLayer?: unknown[] }).dataLayer;
  if (Array.isArray(layer)) layer.push({ event, ...properties });
}
