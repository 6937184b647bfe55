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
