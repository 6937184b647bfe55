/** The audio enhancer of SPEC §1: noise cancelling, and the voice booster on top of it. Pure rules. */

export interface AudioSettings {
  audio_preprocessor: number;
  voice_booster: number;
  mute_videos: number;
}

/**
 * ffmpeg 5.1's afftdn hands its output back 1200 samples (25 ms at 48 kHz) late (measured against the
 * clean speech in bench:sound): the sound is padded by that much and the lag cut off its start.
 */
export const AFFTDN_DELAY_SAMPLES = 1200;
/**
 * The spectral denoiser: an FFT denoiser tracking the room's noise, gentle enough not to make voices
 * metallic, its lag removed (for 48 kHz sound). No high-pass here: the voice booster has its own.
 */
export const NOISE_CANCELLING_FILTERS = [`apad=pad_len=${AFFTDN_DELAY_SAMPLES}`, "afftdn=nr=14:nf=-42:tn=1", `atrim=start_sample=${AFFTDN_DELAY_SAMPLES}`, "asetpts=N/SR/TB"];
/**
 * The voice booster: no rumble, presence at 3 kHz, then compression with make-up gain so quiet words
 * come up. No limiter: the loudness stage after it controls the peaks. None of these delays the sound.
 */
export const VOICE_BOOSTER_FILTERS = ["highpass=f=80", "equalizer=f=3000:t=q:w=1.2:g=3", "acompressor=threshold=0.1:ratio=3:attack=5:release=120:makeup=2"];

/**
 * The two denoisers: "rnnoise", the speech-trained neural one (denoise.ts), and "spectral"
 * (NOISE_CANCELLING_FILTERS). `npm run bench:sound` measures both on talks with known speech and noise.
 */
export type Denoiser = "rnnoise" | "spectral";
/** Chosen by bench:sound: RNNoise improves SI-SDR far more on noisy rooms and keeps quiet ones intact. */
export const DEFAULT_DENOISER: Denoiser = "rnnoise";
/** What video sites normalise to: −14 LUFS integrated, true peak at most −1 dBTP. */
export const LOUDNESS_TARGET = Object.freeze({ i: -14, tp: -1 });

/** The finishing chain of a render's sound (sound.ts): denoise → voice booster → music bed → loudness. */
export interface SoundOptions {
  denoise: Denoiser | null;
  booster: boolean;
  /** Integrated loudness (LUFS) and true peak (dBTP) targets; null leaves the level as mixed. */
  loudness: { i: number; tp: number } | null;
}

/**
 * The finishing chain a project's settings ask for. The enhancer (SPEC §1 "audio enhancer (noise
 * cancelling)") is the denoiser; the booster works only on top of it and with the footage not muted
 * (SPEC §5). Every render is loudness-normalised.
 */
export function soundOptions(settings: AudioSettings, denoiser: Denoiser = DEFAULT_DENOISER): SoundOptions {
  const enhancer = !!settings.audio_preprocessor && !settings.mute_videos;
  return { denoise: enhancer ? denoiser : null, booster: enhancer && !!settings.voice_booster, loudness: { ...LOUDNESS_TARGET } };
}

/** SPEC §9 footage audio levels as gains on the scene's sound (1 = as recorded). */
export const FOOTAGE_VOLUMES = Object.freeze({ mute: 0, low: 0.5, standard: 1, loud: 1.6, extraloud: 2.2 });
export type FootageLevel = keyof typeof FOOTAGE_VOLUMES;

/** A scene's footage gain: muted projects are silent; an unknown level plays as recorded. */
export function footageVolume(level: string | null | undefined, muteVideos: number | boolean | undefined): number {
  if (muteVideos) return 0;
  return level && Object.hasOwn(FOOTAGE_VOLUMES, level) ? FOOTAGE_VOLUMES[level as FootageLevel] : FOOTAGE_VOLUMES.standard;
}
