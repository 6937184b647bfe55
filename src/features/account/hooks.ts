import { useLiveQuery } from "dexie-react-hooks";
import { db, type MetaRow } from "../../db";

type MetaKey = "quotas" | "limits" | "subscription" | "paymentMethods";
type MetaValue<K extends MetaKey> = Extract<MetaRow, { key: K }>["value"];

/** A row of the account page's mirror: undefined while reading, null when it was never fetched. */
export function useAccountMeta<K extends MetaKey>(key: K): MetaValue<K> | null | undefined {
  return useLiveQuery(
    async () => {
      const row = await db.meta.get(key);
      return row?.key === key ? (row.value as MetaValue<K>) : null;
    },
    [key],
    undefined,
  );
}
