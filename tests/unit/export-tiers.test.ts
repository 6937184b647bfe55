import { describe, expect, it } from "vitest";
import { allowedTiers, exportTier, TIER_SIZES } from "../../server/domain/export-tiers";
import { PLAN_CATALOGUE } from "../../server/domain/plans";
import { watermarkBox } from "../../server/media/watermark";

describe("export tiers (SPEC §5 Export, §6, §9)", () => {
  it("gives every plan 720p, video_tier 2 and up 1080p, and 4k only above tier 3", () => {
    expect(allowedTiers(0)).toEqual([1]);
    expect(allowedTiers(1)).toEqual([1]);
    expect(allowedTiers(2)).toEqual([1, 2]);
    expect(allowedTiers(3)).toEqual([1, 2]);
    expect(allowedTiers(4)).toEqual([1, 2, 4]);
    const byPlan = Object.fromEntries(PLAN_CATALOGUE.map((p) => [p.id, allowedTiers(p.metadata.video_tier)]));
    expect(byPlan).toMatchObject({ free: [1], starter_month: [1], standard_month: [1, 2], professional_month: [1, 2, 4], ltd_tier1: [1, 2] });
  });

  it("defaults to 1080p where the plan has it, else 720p, and refuses (null) a tier above the plan", () => {
    expect(exportTier(undefined, 0)).toBe(1);
    expect(exportTier(undefined, 2)).toBe(2);
    expect(exportTier(undefined, 4)).toBe(2);
    expect(exportTier(2, 0)).toBeNull();
    expect(exportTier(4, 2)).toBeNull();
    expect(exportTier(4, 4)).toBe(4);
    expect(exportTier(1, 4)).toBe(1);
  });

  it("sizes each tier by its short side: 720, 1080, 2160", () => {
    expect(Object.values(TIER_SIZES).map((s) => [s.maxShortSide, s.maxLongSide])).toEqual([[720, 1280], [1080, 1920], [2160, 3840]]);
  });

  it("keeps the watermark's plate inside the frame's bottom-right corner at every size", () => {
    for (const [w, h] of [[320, 240], [1280, 720], [720, 1280], [1080, 1080], [3840, 2160]] as const) {
      const box = watermarkBox(w, h);
      expect(box.x).toBeGreaterThan(w / 2);
      expect(box.y).toBeGreaterThan(h / 2);
      expect(box.x + box.size).toBeLessThan(w);
      expect(box.y + box.size).toBeLessThan(h);
      expect(box.logo + 2 * box.padding).toBe(box.size);
    }
  });
});
