/**
 * SPEC §5 Export, §6 tiers, §9: export resolutions 720p (1), 1080p (2), 4k (4). Shared by the server (which
 * refuses a tier above the plan) and the app (whose export form offers only the tiers the plan has).
 */
export type ExportTier = 1 | 2 | 4;

/** The tiers a plan's video_tier may export at, lowest first: every plan 720p, 2 and above 1080p, above 3 4k. */
export function allowedTiers(videoTier: number): ExportTier[] {
  return [1, ...(videoTier >= 2 ? [2 as const] : []), ...(videoTier > 3 ? [4 as const] : [])];
}

/** The video tier a user's final renders may use: the plan's, and a lifetime deal exports 1080p (SPEC §9). */
export const userVideoTier = (user: { video_tier: number; ltd_tier?: string | null }) => Math.max(user.video_tier, user.ltd_tier ? 2 : 0);

/** SPEC §6: a final render carries the Cutroom watermark unless the plan has no_watermark or a lifetime deal. */
export const carriesWatermark = (user: { features?: readonly string[]; ltd_tier?: string | null }) =>
  !(user.features ?? []).includes("no_watermark") && !user.ltd_tier;

/**
 * Issue 16 (SPEC §6): a project whose watermark-free 1080p export was bought for a one-time fee exports at
 * 1080p (or the plan's higher tier) without the watermark; every other project follows the plan.
 */
export function projectExportRights(rights: { videoTier: number; watermark: boolean }, project: { export_unlocked?: 0 | 1 }) {
  return project.export_unlocked ? { videoTier: Math.max(rights.videoTier, 2), watermark: false } : rights;
}
