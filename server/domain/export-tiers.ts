/**
 * SPEC §5 Export, §6 tiers, §9: export resolutions 720p (1), 1080p (2), 4k (4). A plan's video_tier
 * decides which it may ask for: every plan has 720p, video_tier 2 and above add 1080p, above 3 add 4k.
 */
import { allowedTiers, type ExportTier } from "../../api/export-tiers";

export { allowedTiers, type ExportTier };

/** The largest frame of each tier (short side × long side); a render never scales its source up to reach it. */
export const TIER_SIZES: Readonly<Record<ExportTier, { maxShortSide: number; maxLongSide: number }>> = Object.freeze({
  1: { maxShortSide: 720, maxLongSide: 1280 },
  2: { maxShortSide: 1080, maxLongSide: 1920 },
  4: { maxShortSide: 2160, maxLongSide: 3840 },
});

/**
 * The tier a final render is made at: the one asked for when the plan has it (null when it does not),
 * else by default 1080p when the plan has it and 720p otherwise (SPEC §7: default export resolution 2).
 */
export function exportTier(requested: ExportTier | undefined, videoTier: number): ExportTier | null {
  const allowed = allowedTiers(videoTier);
  if (requested === undefined) return allowed.includes(2) ? 2 : 1;
  return allowed.includes(requested) ? requested : null;
}
