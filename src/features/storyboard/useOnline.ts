import { useSyncExternalStore } from "react";

const subscribe = (listener: () => void) => {
  window.addEventListener("online", listener);
  window.addEventListener("offline", listener);
  return () => {
    window.removeEventListener("online", listener);
    window.removeEventListener("offline", listener);
  };
};

/** ARCHITECTURE: structural edits (split, merge, duplicate, reorder, insert) need the server, so they wait for a connection. */
export const useOnline = () => useSyncExternalStore(subscribe, () => navigator.onLine, () => true);
