import { describe, expect, it } from "vitest";
import { audioEnhancement, NOISE_CANCELLING_FILTERS, VOICE_BOOSTER_FILTERS } from "../../server/domain/audio";

describe("the audio enhancer", () => {
  it("does nothing when it is off", () => {
    expect(audioEnhancement({ audio_preprocessor: 0, voice_booster: 1, mute_videos: 0 })).toEqual({ filters: [], noiseCancelling: false, voiceBooster: false });
  });
  it("cancels noise when it is on", () => {
    expect(audioEnhancement({ audio_preprocessor: 1, voice_booster: 0, mute_videos: 0 })).toEqual({ filters: NOISE_CANCELLING_FILTERS, noiseCancelling: true, voiceBooster: false });
  });
  it("boosts the voice only on top of the enhancer", () => {
    const on = audioEnhancement({ audio_preprocessor: 1, voice_booster: 1, mute_videos: 0 });
    expect(on.filters).toEqual([...NOISE_CANCELLING_FILTERS, ...VOICE_BOOSTER_FILTERS]);
    expect(on.voiceBooster).toBe(true);
  });
  it("is off for muted footage (SPEC §5: the booster needs sound)", () => {
    expect(audioEnhancement({ audio_preprocessor: 1, voice_booster: 1, mute_videos: 1 }).filters).toEqual([]);
  });
});
