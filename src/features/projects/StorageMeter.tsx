import { useLingui } from "@lingui/react/macro";
import type { UserRow } from "../../db";
import { STORAGE_WARNING_RATIO } from "../../lib/constants";
import { formatStorage } from "../../lib/format";
import { Meter } from "../../ui/Meter";

/** Storage used out of the plan's maximum; red from 90 % (SPEC §2 Project list). */
export function StorageMeter({ user }: { user: Pick<UserRow, "total_used_storage" | "max_storage"> }) {
  const { t } = useLingui();
  const ratio = user.max_storage > 0 ? user.total_used_storage / user.max_storage : 0;
  return (
    <div className="storage-meter">
      <Meter
        label={t`Storage`}
        value={Math.min(1, ratio) * 100}
        valueLabel={formatStorage(user.total_used_storage, user.max_storage)}
        isWarning={ratio >= STORAGE_WARNING_RATIO}
      />
    </div>
  );
}
