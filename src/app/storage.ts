import { useCallback, useState } from "react";
import { formatDecimal1, formatGB } from "../lib/format";

/** Remembers, per device, that persistent storage was asked for (Firefox asks the person; once is enough). */
export const PERSIST_KEY = "cutroom:storage-persist";

type StorageLike = Pick<StorageManager, "persist" | "persisted">;
type KeyValue = Pick<Storage, "getItem" | "setItem">;

/**
 * Asks the browser once per device to keep the mirror (and its waiting edits) through storage
 * pressure. Answers whether storage is persistent, or null when the browser cannot tell.
 */
export async function persistStorageOnce(
  storage: StorageLike | undefined = globalThis.navigator?.storage,
  store: KeyValue | undefined = globalThis.localStorage,
): Promise<boolean | null> {
  if (!storage?.persist) return null;
  const asked = store?.getItem(PERSIST_KEY);
  if (asked) return asked === "granted";
  const granted = (await storage.persisted?.()) || (await storage.persist());
  store?.setItem(PERSIST_KEY, granted ? "granted" : "denied");
  return granted;
}

export interface StorageUse {
  used: string;
  quota: string;
}

const MB = 1024 ** 2;
const GB = 1024 ** 3;

/** GB (1024³) with one decimal from 1 GB, MB (1048576) with one decimal below (SPEC §9). */
export const formatGBorMB = (bytes: number) => (bytes >= GB ? `${formatGB(bytes)} GB` : `${formatDecimal1(Math.max(0, bytes) / MB)} MB`);

/** The estimate as the account menu shows it. */
export function storageUse(estimate: StorageEstimate | null | undefined): StorageUse | null {
  if (!estimate || typeof estimate.usage !== "number" || !estimate.quota) return null;
  return { used: formatGBorMB(estimate.usage), quota: formatGBorMB(estimate.quota) };
}

/** This device's storage use, read again each time `refresh` runs (when the account menu opens). */
export function useDeviceStorage(): [StorageUse | null, () => void] {
  const [use, setUse] = useState<StorageUse | null>(null);
  const refresh = useCallback(() => {
    const storage = globalThis.navigator?.storage;
    if (!storage?.estimate) return;
    storage.estimate().then(
      (estimate) => setUse(storageUse(estimate)),
      () => setUse(null),
    );
  }, []);
  return [use, refresh];
}
