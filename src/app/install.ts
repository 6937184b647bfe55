import { useSyncExternalStore } from "react";

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

let deferred: BeforeInstallPromptEvent | null = null;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((l) => l());

const STANDALONE = "(display-mode: standalone)";
/** Running as the installed app (iOS Safari says so through `navigator.standalone`). */
const isInstalled = () => window.matchMedia?.(STANDALONE).matches || (navigator as { standalone?: boolean }).standalone === true;

/** Hears the prompt arriving or going, and the page switching into the installed app's window. */
function subscribe(listener: () => void) {
  listeners.add(listener);
  const standalone = window.matchMedia?.(STANDALONE);
  standalone?.addEventListener?.("change", listener);
  return () => {
    listeners.delete(listener);
    standalone?.removeEventListener?.("change", listener);
  };
}

/** Keeps the browser's install prompt for the "install app" menu entry. */
export function listenForInstallPrompt() {
  window.addEventListener("beforeinstallprompt", (event) => {
    event.preventDefault();
    deferred = event as BeforeInstallPromptEvent;
    notify();
  });
  window.addEventListener("appinstalled", () => {
    deferred = null;
    notify();
  });
}

/** True when the browser offers installing and the app is not installed. */
export const useCanInstall = () =>
  useSyncExternalStore(subscribe, () => deferred !== null && !isInstalled());

export async function promptInstall(): Promise<boolean> {
  if (!deferred) return false;
  const event = deferred;
  deferred = null;
  notify();
  await event.prompt();
  return (await event.userChoice).outcome === "accepted";
}
