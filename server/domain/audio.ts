/** The audio enhancer of SPEC §1: noise cancelling, and the voice booster on top of it. Pure rules. */

export interface AudioSettings {
  audio_preprocessor: number;
  voice_booster: number;
  mute_videos: number;
}

/** FFT denoiser tracking the room's noise, gentle enough not to make voices metallic. */
export const NOISE_CANCELLING_FILTERS = ["highpass=f=70", "afftdn=nr=14:nf=-42:tn=1"];
/** Presence and evenness for speech: a lift at 3 kHz, compression with make-up gain, a safety limiter. */
export const VOICE_BOOSTER_FILTERS = [
  "equalizer=f=3000:t=q:w=1.2:g=3",
  "acompressor=threshold=0.1:ratio=3:attack=5:release=120:makeup=2",
  "alimiter=limit=0.95:level=false",
];

/**
 * Filters for the joined audio and what they apply. The booster only works with the enhancer on
 * and the footage not muted (SPEC §5); every filter keeps the length, so audio stays in sync.
 */
export function audioEnhancement(settings: AudioSettings): { filters: string[]; noiseCancelling: boolean; voiceBooster: boolean } {
  if (!settings.audio_preprocessor || settings.mute_videos) return { filters: [], noiseCancelling: false, voiceBooster: false };
  const voiceBooster = !!settings.voice_booster;
  return { filters: [...NOISE_CANCELLING_FILTERS, ...(voiceBooster ? VOICE_BOOSTER_FILTERS : [])], noiseCancelling: true, voiceBooster };
}

/** SPEC §9 footage audio levels as gains on the scene's sound (1 = as recorded). */
export const FOOTAGE_VOLUMES = Object.freeze({ mute: 0, low: 0.5, standard: 1, loud: 1.6, extraloud: 2.2 });
export type FootageLevel = keyof typeof FOOTAGE_VOLUMES;

/** A scene's footage gain: muted projects are silent; an unknown level plays as recorded. */
export function footageVolume(level: string | null | undefined, muteVideos: number | boolean | undefined): number {
  if (muteVideos) return 0;
  return level && Object.hasOwn(FOOTAGE_VOLUMES, level) ? FOOTAGE_VOLUMES[level as FootageLevel] : FOOTAGE_VOLUMES.standard;
}
