import { useLiveQuery } from "dexie-react-hooks";
import { useEffect, useSyncExternalStore } from "react";
import { db } from "../db";
import { projectState } from "../lib/project-state";
import { worker } from "../worker";

function subscribePage(onChange: () => void) {
  document.addEventListener("visibilitychange", onChange);
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    document.removeEventListener("visibilitychange", onChange);
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}
const pageActive = () => document.visibilityState !== "hidden" && navigator.onLine;

/**
 * Issue 13: while any project in the mirror is busy or queued and the page is visible and online, the
 * sync worker keeps the progress stream open; otherwise it closes it (the screens' 60 s poll stays).
 */
export function useProgressStream() {
  const anyBusy = useLiveQuery(async () => (await db.projects.filter((p) => ["busy", "queued"].includes(projectState(p))).count()) > 0, [], false);
  const active = useSyncExternalStore(subscribePage, pageActive, () => false);
  const wanted = anyBusy && active;
  useEffect(() => {
    void worker.watchProgress(wanted);
  }, [wanted]);
  useEffect(() => () => void worker.watchProgress(false), []);
}
