import { openMirrorIfAny, publicConfig } from "../db/mirror";

/**
 * SPEC §2 "Navigation reset", a sunset mode that is off unless SUNSET_REDIRECT_URL is set:
 * clear storage, caches, service workers and cookies, sign out, and send the browser on.
 */
export async function sunsetReset(target: string, go: (url: string) => void = (url) => window.location.replace(url)): Promise<void> {
  try {
    localStorage.clear();
    sessionStorage.clear();
    if ("caches" in window) for (const key of await caches.keys()) await caches.delete(key);
    if ("serviceWorker" in navigator) for (const reg of await navigator.serviceWorker.getRegistrations()) await reg.unregister();
    for (const cookie of document.cookie.split(";")) {
      const name = cookie.split("=")[0]?.trim();
      if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`;
    }
    await (await openMirrorIfAny())?.db.signOutLocally();
  } finally {
    go(target);
  }
}

export async function sunsetIfConfigured(go?: (url: string) => void): Promise<boolean> {
  const target = (await publicConfig())?.sunsetRedirectUrl;
  if (!target) return false;
  await sunsetReset(target, go);
  // Hold the navigation: the browser is leaving.
  if (!go) await new Promise<never>(() => undefined);
  return true;
}
