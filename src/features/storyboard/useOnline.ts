import { useSyncExternalStore } from "react";
import { useLiveQuery } from "dexie-react-hooks";
import { db } from "../../db";

const subscribe = (listener: () => void) => {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
};

/** Whether the sync worker's last call reached the server (meta "connection"): a network that is up but goes nowhere counts as offline. */
const reachable = async () => {
  const row = await db.meta.get("connection");
  return row?.key === "connection" ? row.value.reachable : true;
};

/**
 * ARCHITECTURE: structural edits (split, merge, duplicate, reorder, insert) need the server, so they wait
 * for a connection: the browser's word (navigator.onLine) and the worker's last call must both say so.
 */
export function useOnline() {
  const browser = useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
  const server = useLiveQuery(reachable, [], true);
  return browser && server;
}
