import { describe, expect, it } from "vitest";
import { DEFAULT_DENOISER, LOUDNESS_TARGET, soundOptions } from "../../server/domain/audio";

describe("the audio enhancer", () => {
  it("does nothing but level the sound when it is off", () => {
    expect(soundOptions({ audio_preprocessor: 0, voice_booster: 1, mute_videos: 0 })).toEqual({ denoise: null, booster: false, loudness: LOUDNESS_TARGET });
  });
  it("cancels noise with the chosen denoiser when it is on", () => {
    expect(soundOptions({ audio_preprocessor: 1, voice_booster: 0, mute_videos: 0 })).toEqual({ denoise: DEFAULT_DENOISER, booster: false, loudness: LOUDNESS_TARGET });
    expect(soundOptions({ audio_preprocessor: 1, voice_booster: 0, mute_videos: 0 }, "spectral").denoise).toBe("spectral");
  });
  it("boosts the voice only on top of the enhancer", () => {
    const on = soundOptions({ audio_preprocessor: 1, voice_booster: 1, mute_videos: 0 });
    expect(on.booster).toBe(true);
    expect(on.denoise).toBe(DEFAULT_DENOISER);
  });
  it("is off for muted footage (SPEC §5: the booster needs sound)", () => {
    expect(soundOptions({ audio_preprocessor: 1, voice_booster: 1, mute_videos: 1 })).toMatchObject({ denoise: null, booster: false });
  });
  it("levels every render to −14 LUFS with a −1 dBTP true peak", () => {
    expect(LOUDNESS_TARGET).toEqual({ i: -14, tp: -1 });
  });
});
