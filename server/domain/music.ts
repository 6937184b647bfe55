/**
 * Issue 15, the music bed of a render: which song, how loud each scene plays it, how it ducks under
 * speech, and where it loops and fades. Pure planning; server/media/music-bed.ts makes the sound.
 */

export type MusicLevel = "bgmmute" | "bgmlow" | "bgmstandard" | "bgmloud" | "mainmusic";
export type MusicStyle = "video" | "music" | "video_music";
export type IntroOutroMode = "" | "music" | "silent";

/**
 * The bed's level in pauses, in dB against the voice (the RMS of the edit's speech stretches), before
 * ducking. Under speech the auto-duck takes DUCK.depthDb more off: standard music plays 12 dB under the
 * voice in pauses and 27 dB under it while someone speaks. "mainmusic" is the music as loud as the voice.
 */
export const MUSIC_LEVEL_DB: Readonly<Record<Exclude<MusicLevel, "bgmmute">, number>> = Object.freeze({
  bgmlow: -18,
  bgmstandard: -12,
  bgmloud: -6,
  mainmusic: 0,
});

/** Style "music": the music carries the edit, this much louder, and ducks less. */
export const MUSIC_STYLE_BOOST_DB = 6;

export interface DuckSettings {
  /** How far the music goes down under speech (dB). */
  depthDb: number;
  /** The ramp down, ending where speech starts (the envelope looks ahead). */
  attackSeconds: number;
  /** The ramp up, starting where speech ends. */
  releaseSeconds: number;
  /** Pauses shorter than this stay ducked (no pumping between phrases). */
  holdSeconds: number;
  /** A cut of the music's presence band (2–4 kHz) under speech, scaled with the duck (dB at 2.8 kHz). */
  presenceCutDb: number;
}

/** Such music puts 50–70 % of its energy in the speech band (ARCHITECTURE.md): duck it and cut 2–4 kHz. */
export const DUCK: Readonly<DuckSettings> = Object.freeze({ depthDb: 15, attackSeconds: 0.08, releaseSeconds: 0.4, holdSeconds: 0.5, presenceCutDb: 6 });
/** Style "music": gentler ducking. */
export const MUSIC_STYLE_DUCK: Readonly<DuckSettings> = Object.freeze({ ...DUCK, depthDb: 9, presenceCutDb: 3 });

export const BED = Object.freeze({
  /** Fade in at the start of the edit and out at its end (shortened for very short edits). */
  fadeInSeconds: 1,
  fadeOutSeconds: 2.5,
  /** Level changes between scenes ramp over this (centred on the cut). */
  sceneRampSeconds: 0.25,
  /** Crossfade at a loop's join when the song has loop points (the music is the same on both sides). */
  loopCrossfadeSeconds: 0.05,
  /** Without loop points the end and the start of the song are different music: a longer crossfade. */
  plainLoopCrossfadeSeconds: 2,
  /** The gain track's resolution: the envelope is computed per frame and interpolated per sample. */
  frameSeconds: 0.01,
  /** Reference voice level when the edit has no speech at all (dB RMS). */
  referenceVoiceDb: -20,
  /** Never lift a very quiet song more than this. */
  maxSongGainDb: 24,
});

/** What a scene says about the music, in render order. */
export interface SceneMusic {
  /** Scene type: "intro", "outro", anything else. */
  type: string;
  musicType: string;
  /** Its share of the edit in seconds (trim_end − trim_start). */
  seconds: number;
}

export interface BedSettings {
  /** The project's musicType: a scene at "bgmstandard" (every scene's default) plays the project's level. */
  musicType: string;
  style: string;
  autoduck: boolean;
  intro_mode: string;
  outro_mode: string;
}

export interface SceneLevel {
  /** dB against the voice, or null: no music in this scene. */
  levelDb: number | null;
  /** Ducks under speech (only when the project's auto-duck is on). */
  duck: boolean;
}

const isLevel = (value: string): value is MusicLevel => ["bgmmute", "bgmlow", "bgmstandard", "bgmloud", "mainmusic"].includes(value);

/**
 * Each scene's music: an intro or outro with mode "music" plays it as the main sound, "silent" none;
 * a scene at its own level keeps it, one at the default "bgmstandard" takes the project's musicType.
 * Main music is never ducked (the footage keeps its own level: mute it for music alone).
 */
export function sceneLevels(scenes: readonly SceneMusic[], settings: BedSettings): SceneLevel[] {
  const boost = settings.style === "music" ? MUSIC_STYLE_BOOST_DB : 0;
  const projectLevel: MusicLevel = isLevel(settings.musicType) ? settings.musicType : "bgmstandard";
  return scenes.map((scene) => {
    const mode = scene.type === "intro" ? settings.intro_mode : scene.type === "outro" ? settings.outro_mode : "";
    if (mode === "silent") return { levelDb: null, duck: false };
    if (mode === "music") return { levelDb: MUSIC_LEVEL_DB.mainmusic, duck: false };
    const own = isLevel(scene.musicType) && scene.musicType !== "bgmstandard" ? scene.musicType : projectLevel;
    if (own === "bgmmute") return { levelDb: null, duck: false };
    if (own === "mainmusic") return { levelDb: MUSIC_LEVEL_DB.mainmusic, duck: false };
    return { levelDb: Math.min(MUSIC_LEVEL_DB.mainmusic, MUSIC_LEVEL_DB[own] + boost), duck: settings.autoduck };
  });
}

export function duckSettings(style: string): DuckSettings {
  return style === "music" ? MUSIC_STYLE_DUCK : DUCK;
}

/**
 * Where each scene plays in the output, in samples: the same cumulative rounding as the render plan
 * (render-plan.ts planRender), so a scene's level changes exactly at its cut. Scenes too short for a
 * frame get an empty span.
 */
export function sceneSpans(seconds: readonly number[], fps: number, sampleRate: number): { from: number; to: number }[] {
  let total = 0;
  let edge = 0;
  const at = (frame: number) => Math.round((frame * sampleRate) / fps);
  return seconds.map((s) => {
    total += Math.max(0, s);
    const next = Math.round(total * fps);
    const span = { from: at(edge), to: at(next) };
    edge = next;
    return span;
  });
}

const dbToGain = (db: number) => 10 ** (db / 20);

/**
 * The bed's gain per frame (linear, before ducking): each scene's level (as a gain on the song, from
 * the voice and song levels), ramps centred on the cuts, the fade in and the fade out.
 */
export function levelTrack(
  spans: readonly { from: number; to: number }[],
  levels: readonly SceneLevel[],
  options: { totalSamples: number; sampleRate: number; voiceDb: number; songDb: number },
): { gain: Float32Array; duck: Float32Array; frameSamples: number } {
  const frameSamples = Math.round(options.sampleRate * BED.frameSeconds);
  const frames = Math.ceil(options.totalSamples / frameSamples) + 1;
  const target = new Float32Array(frames);
  const ducks = new Float32Array(frames);
  const songGainDb = (levelDb: number) => Math.min(BED.maxSongGainDb, options.voiceDb + levelDb - options.songDb);
  spans.forEach((span, i) => {
    const level = levels[i];
    if (!level || span.to <= span.from) return;
    const from = Math.floor(span.from / frameSamples);
    const to = Math.min(frames, Math.ceil(span.to / frameSamples));
    const gain = level.levelDb === null ? 0 : dbToGain(songGainDb(level.levelDb));
    for (let f = from; f < to; f++) {
      target[f] = gain;
      ducks[f] = level.duck ? 1 : 0;
    }
  });
  // The frame after the end holds the last level (the interpolation reads it).
  target[frames - 1] = target[frames - 2] ?? 0;
  ducks[frames - 1] = ducks[frames - 2] ?? 0;
  const ramp = Math.max(1, Math.round(BED.sceneRampSeconds / BED.frameSeconds));
  const gain = movingAverage(target, ramp);
  // Whether a scene ducks changes with the same ramp (a main-music scene next to a ducked one).
  const duck = movingAverage(ducks, ramp);
  const seconds = options.totalSamples / options.sampleRate;
  // Fades never take more than a third of a short edit each.
  const fadeIn = Math.min(BED.fadeInSeconds, seconds / 3);
  const fadeOut = Math.min(BED.fadeOutSeconds, seconds / 3);
  for (let f = 0; f < frames; f++) {
    const t = (f * frameSamples) / options.sampleRate;
    const shape = Math.min(1, fadeIn > 0 ? t / fadeIn : 1, fadeOut > 0 ? Math.max(0, seconds - t) / fadeOut : 1);
    gain[f] = (gain[f] ?? 0) * Math.sin((Math.PI / 2) * shape) ** 2;
  }
  return { gain, duck, frameSamples };
}

/** Centred moving average: a level step becomes a linear ramp `width` frames long. */
function movingAverage(values: Float32Array, width: number): Float32Array {
  if (width <= 1) return Float32Array.from(values);
  const out = new Float32Array(values.length);
  const half = Math.floor(width / 2);
  let sum = 0;
  let count = 0;
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < values.length; i++) {
    for (; hi < Math.min(values.length, i + half + 1); hi++, count++) sum += values[hi] ?? 0;
    for (; lo < i - half; lo++, count--) sum -= values[lo] ?? 0;
    out[i] = sum / count;
  }
  return out;
}

/**
 * How far each frame is ducked, 0 (not) to 1 (the full depth): speech stretches (seconds) with short
 * pauses held, a linear attack ending at each onset (look-ahead, so no word starts under loud music)
 * and a linear release starting at each end.
 */
export function duckWeights(speech: readonly { start: number; end: number }[], frames: number, frameSeconds: number, settings: DuckSettings): Float32Array {
  const mask = new Uint8Array(frames);
  const sorted = [...speech].sort((a, b) => a.start - b.start);
  let previousEnd = Number.NEGATIVE_INFINITY;
  for (const range of sorted) {
    // A pause shorter than the hold stays ducked.
    const start = range.start - previousEnd < settings.holdSeconds ? previousEnd : range.start;
    const from = Math.max(0, Math.floor(start / frameSeconds));
    const to = Math.min(frames, Math.ceil(range.end / frameSeconds));
    for (let f = from; f < to; f++) mask[f] = 1;
    previousEnd = Math.max(previousEnd, range.end);
  }
  const attack = Math.max(1, settings.attackSeconds / frameSeconds);
  const release = Math.max(1, settings.releaseSeconds / frameSeconds);
  const weights = new Float32Array(frames);
  let level = 0;
  for (let f = 0; f < frames; f++) {
    level = mask[f] ? 1 : Math.max(0, level - 1 / release);
    weights[f] = level;
  }
  level = 0;
  for (let f = frames - 1; f >= 0; f--) {
    level = mask[f] ? 1 : Math.max(0, level - 1 / attack);
    weights[f] = Math.max(weights[f] ?? 0, level);
  }
  return weights;
}

/** The duck as a gain: linear in dB with the weight. */
export function duckGain(weight: number, settings: DuckSettings): number {
  return dbToGain(-settings.depthDb * weight);
}

export interface LoopPoints {
  /** Samples of the song. */
  songSamples: number;
  loopStart: number;
  loopEnd: number;
  /** The crossfade at each join: `before` samples before it and `after` after it. */
  before: number;
  after: number;
}

/**
 * The song's loop in samples. With loop points: a short crossfade around the join, reaching past the
 * loop end into the song's tail and before the loop start where there is music. Without: the whole
 * song loops, its last seconds crossfaded with its first.
 */
export function loopPoints(song: { durationMs: number; loopStartMs: number | null; loopEndMs: number | null }, sampleRate: number, decodedSamples?: number): LoopPoints {
  const ms = (value: number) => Math.round((value * sampleRate) / 1000);
  const songSamples = Math.max(1, decodedSamples ?? ms(song.durationMs));
  const marked = song.loopEndMs !== null && song.loopEndMs > (song.loopStartMs ?? 0);
  let loopStart = Math.min(songSamples - 1, Math.max(0, ms(song.loopStartMs ?? 0)));
  let loopEnd = Math.min(songSamples, Math.max(loopStart + 1, marked ? ms(song.loopEndMs!) : songSamples));
  const crossfade = Math.round((marked ? BED.loopCrossfadeSeconds : BED.plainLoopCrossfadeSeconds) * sampleRate);
  let before = Math.min(Math.floor(crossfade / 2), loopStart);
  let after = Math.min(crossfade - before, songSamples - loopEnd);
  before = Math.min(crossfade - after, loopStart);
  if (before + after < crossfade) {
    // The loop ends with the file: pull its end back so the old pass has music to fade out with.
    const pull = Math.min(crossfade - before - after, Math.floor((loopEnd - loopStart) / 2));
    loopEnd -= pull;
    after += pull;
  }
  loopStart = Math.max(0, loopStart);
  return { songSamples, loopStart, loopEnd, before, after };
}

/**
 * Where output sample `n` reads the song: `a` with weight `wa` plus `b` with weight `wb` in a
 * crossfade (equal-gain: the two sides are the same music), or -1 past the song's end (silence).
 * `loop` false: the song plays once from its start.
 */
export function sourceAt(n: number, points: LoopPoints, loop: boolean): { a: number; wa: number; b: number; wb: number } {
  if (!loop || n < points.loopEnd - points.before) return { a: n < points.songSamples ? n : -1, wa: 1, b: -1, wb: 0 };
  const length = points.loopEnd - points.loopStart;
  const sinceFirstJoin = n - points.loopEnd;
  // The join at or just after n − before… (joins sit at loopEnd + k·length).
  const k = Math.floor((sinceFirstJoin + points.before) / length);
  const join = points.loopEnd + k * length;
  const offset = n - join;
  const inLoop = points.loopStart + offset;
  if (offset < points.after && offset >= -points.before && points.before + points.after > 0) {
    const x = (offset + points.before) / (points.before + points.after);
    const wb = Math.sin((Math.PI / 2) * x) ** 2;
    // The pass before this join, continuing past the loop end.
    const previous = points.loopEnd + offset;
    return { a: previous < points.songSamples ? previous : -1, wa: 1 - wb, b: inLoop, wb };
  }
  return { a: offset < 0 ? points.loopEnd + offset : inLoop, wa: 1, b: -1, wb: 0 };
}

// ---------------------------------------------------------------------------------------------
// Which song
// ---------------------------------------------------------------------------------------------

export interface SongChoice {
  id: number;
  durationMs: number;
  energy: number | null;
  tempo: number | null;
}

/** Energy (1 calm – 3 lively) and tempo that suit a style and the footage's sound. */
export function wantedFeel(style: string, audioType: string): { energy: number; tempo: number } {
  if (style === "music") return { energy: 3, tempo: 120 };
  const speech = audioType !== "music";
  if (style === "video_music") return { energy: speech ? 2 : 3, tempo: speech ? 100 : 115 };
  return { energy: speech ? 1 : 2, tempo: speech ? 85 : 100 };
}

/** Deterministic 32-bit hash (FNV-1a) so a project always gets the same song from the same catalogue. */
function hash(value: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < value.length; i++) {
    h ^= value.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/** Scores within this of the best count as equally good; the project's hash chooses among them. */
const SCORE_TIE = 0.5;

/**
 * The song for a project with automatic music: one that fits the style (energy, tempo) and lasts at
 * least the edit if one does, never one of the user's recent projects' songs when another fits, and
 * the same for the same project and catalogue. Null when there is no song.
 */
export function pickSong(songs: readonly SongChoice[], wanted: { style: string; audioType: string; editSeconds: number; recent: readonly number[]; projectId: number }): SongChoice | null {
  if (songs.length === 0) return null;
  const recent = new Set(wanted.recent);
  const fresh = songs.filter((s) => !recent.has(s.id));
  const pool = fresh.length > 0 ? fresh : songs;
  const feel = wantedFeel(wanted.style, wanted.audioType);
  const score = (s: SongChoice) =>
    (s.energy === null ? 1 : Math.abs(s.energy - feel.energy)) + (s.tempo === null ? 0.5 : Math.min(1.5, Math.abs(s.tempo - feel.tempo) / 40)) + (s.durationMs / 1000 >= wanted.editSeconds ? 0 : 1);
  const scored = pool.map((s) => ({ s, score: score(s) }));
  const best = Math.min(...scored.map((x) => x.score));
  const ties = scored.filter((x) => x.score <= best + SCORE_TIE).map((x) => x.s).sort((a, b) => a.id - b.id);
  return ties[hash(`project:${wanted.projectId}`) % ties.length] ?? null;
}
