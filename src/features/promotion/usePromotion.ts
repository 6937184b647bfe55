import { useEffect, useState } from "react";
import { promotionFor, promotionOpen, type Promotion } from "../../../api/promotion";
import { useConfig } from "../../app/hooks";
import type { UserRow } from "../../db";

/** How often the banner looks at the clock again, so it goes at the window's end without a reload. */
const CLOCK_TICK_MS = 30_000;

/**
 * SPEC §1, §6: the seasonal promotion for a free user while the operator's window is open; null otherwise
 * (no promotion configured, not started, ended, or a paid or lifetime user).
 */
export function usePromotion(user: Pick<UserRow, "video_tier" | "ltd_tier"> | null | undefined): Promotion | null {
  const config = useConfig();
  const [now, setNow] = useState(() => Date.now());
  const promotion = config?.promotion ?? null;
  useEffect(() => {
    if (!promotion) return;
    const timer = setInterval(() => setNow(Date.now()), CLOCK_TICK_MS);
    return () => clearInterval(timer);
  }, [promotion]);
  if (!user || !promotion || !promotionFor(user) || !promotionOpen(promotion, now)) return null;
  return promotion;
}
