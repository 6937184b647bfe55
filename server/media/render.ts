import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runFfmpeg, type FfmpegInput, type ProgressCallback, type RunLimits } from "./ffmpeg";
import { probe, type MediaInfo } from "./probe";
import { buildRenderGraph, fixed, groupRuns, overlapAdd, type GraphOutputs, type GraphStyle } from "./render-graph";
import { smartRender, type SmartStats } from "./smart-render";
import { shiftLines, writeAss, type BurnedSubtitles } from "./burned-subtitles";
import { planRender, RENDER_DEFAULTS, type AudioVisual, type EditSegment, type OverlayClip, type RenderPlan } from "./render-plan";
import { finishSound, type SoundReport } from "./sound";
import type { SoundOptions } from "../domain/audio";

export * from "./render-plan";
export { buildRenderGraph, groupRuns, MAX_DECODE_THROUGH_SECONDS, type GraphStyle, type RenderGraph, type SourceRun } from "./render-graph";
export { OVERLAY_FADE_SECONDS, PIP_MARGIN_SHARE, PIP_WIDTH_SHARE } from "./overlays";

/**
 * Inputs one ffmpeg pass may open. Each open video input holds a decoder and its frames (~50 MB
 * at 720p), so a heavily reordered storyboard is rendered in chunks of at most this many: 200
 * shuffled 720p segments peaked at 9.1 GB in one pass and at 0.87 GB in chunks of 16.
 */
export const MAX_INPUTS_PER_PASS = 16;

export interface RenderOptions extends RunLimits {
  /** Short audio crossfades at every cut, keeping audio and video the same length. */
  smoothCuts?: boolean;
  /**
   * Issue 15: the finishing chain of the edit's sound (sound.ts: denoise, voice booster, music bed,
   * loudness). Absent (and no `music`): the joined sound is encoded as it is, in the same pass as the
   * picture (the bare encode bench:sound compares the chain against).
   */
  sound?: SoundOptions;
  /** Pictures shown over the edit list. */
  overlays?: readonly OverlayClip[];
  /** The output's aspect (width / height) at the render height; the first picture's when absent. */
  aspect?: number | null;
  crossfadeSeconds?: number;
  fps?: number;
  maxShortSide?: number;
  maxLongSide?: number;
  crf?: number;
  preset?: string;
  /** What audio-only segments show. */
  audioVisual?: AudioVisual;
  /** The logo file of the free plan's watermark (watermark.ts WATERMARK_LOGO); no watermark when absent. */
  watermark?: string;
  /** Above this many inputs the render is made in chunks (see MAX_INPUTS_PER_PASS). */
  maxInputsPerPass?: number;
  /** Probes by file, when the caller has them (saves an ffprobe per file). */
  probes?: ReadonlyMap<string, MediaInfo>;
  onProgress?: ProgressCallback;
  /**
   * Where the render's scratch folder (graph scripts, chunks) is made: the job's own folder under
   * DATA_DIR/tmp, so a start-up sweep finds what a killed render left. Without it: beside a chunked
   * output, else the OS temp folder.
   */
  scratchParent?: string;
  /**
   * Copy the stretches that need no re-encode and encode only around the cuts (smart-render.ts),
   * falling back to the full render when the edit does not allow it. Off: always the full render.
   */
  smart?: boolean;
  /** Decode a smart render once and fall back on any decoder error (tests). */
  verifySmart?: boolean;
  /** Which way the render was made, and why not smart when it was asked for. */
  onRenderPath?: (choice: RenderPath) => void;
  /** Subtitles drawn onto the picture (burned-subtitles.ts), in the edit's own time; none when absent or empty. */
  subtitles?: BurnedSubtitles;
  /** Issue 15: makes the music bed for an edit, or null for none. */
  music?: MusicBedFactory;
}

/**
 * Issue 15: the music bed of an edit. Called once per render after denoise + booster; the bed is
 * summed with the speech as is (no automatic level changes), then the mix is loudness-normalised.
 */
export type MusicBedFactory = (ctx: {
  /** The edit's joined sound after denoise+booster: FLAC, 48 kHz stereo, exactly totalSamples long. */
  speech: string;
  totalSamples: number;
  sampleRate: number;
  plan: RenderPlan;
  scratch: string;
  signal?: AbortSignal;
}) => Promise<{ /** FLAC 48 kHz stereo, exactly totalSamples long, already levelled per scene and ducked. */ file: string } | null>;

export interface RenderPath {
  path: "smart" | "full";
  /** Why the full render was made although smart render was asked for. */
  reason?: string;
  smart?: SmartStats;
}

export interface RenderResult {
  durationSeconds: number;
  frames: number;
  width: number;
  height: number;
  /** Segments too short for a single frame are dropped. */
  segmentsRendered: number;
  /** Chunks rendered separately and joined (1 = one pass for everything). */
  chunks: number;
  /** "smart" when stretches were copied (see RenderOptions.smart). */
  path: RenderPath["path"];
  /** A music bed (RenderOptions.music) was mixed in. */
  music: boolean;
  /** What the sound's finishing chain did; null when it did not run. */
  sound: SoundReport | null;
}

/** The progress bar's share for making and finishing the sound before the picture (when the chain runs). */
const SOUND_SHARE = 0.1;

/** Renders the edit list to one MP4 (H.264 + AAC 48 kHz, at most 720p unless told a larger frame, 30 fps). */
export async function renderPreview(segments: readonly EditSegment[], output: string, options: RenderOptions = {}): Promise<RenderResult> {
  const overlays = options.overlays ?? [];
  const probes = await probeAll([...segments.map((s) => s.file), ...overlays.map((o) => o.file)], options);
  const fps = options.fps ?? RENDER_DEFAULTS.fps;
  const sampleRate = RENDER_DEFAULTS.sampleRate;
  const crossfadeSeconds = options.smoothCuts ? (options.crossfadeSeconds ?? RENDER_DEFAULTS.crossfadeSeconds) : 0;
  const plan = planRender(
    segments,
    probes,
    {
      fps,
      sampleRate,
      crossfadeSamples: Math.round(crossfadeSeconds * sampleRate),
      maxShortSide: options.maxShortSide ?? RENDER_DEFAULTS.maxShortSide,
      maxLongSide: options.maxLongSide ?? RENDER_DEFAULTS.maxLongSide,
      aspect: options.aspect,
    },
    overlays,
  );
  const style: GraphStyle = { audioVisual: options.audioVisual ?? RENDER_DEFAULTS.audioVisual, ...(options.watermark ? { watermark: options.watermark } : {}) };
  const frames = plan.segments.reduce((sum, s) => sum + s.frames, 0);
  const durationSeconds = frames / fps;
  const chunks = pictureChunks(plan, options.maxInputsPerPass ?? MAX_INPUTS_PER_PASS);
  const outputDir = path.dirname(path.resolve(output));
  await mkdir(outputDir, { recursive: true });
  const result = { durationSeconds, frames, width: plan.width, height: plan.height, segmentsRendered: plan.segments.length, chunks: Math.max(1, chunks.length) };
  const burn = options.subtitles && options.subtitles.lines.length > 0 ? options.subtitles : null;
  // Chunks of a long render can be as big as the render: keep them on the output's disk, not in /tmp.
  if (options.scratchParent) await mkdir(options.scratchParent, { recursive: true });
  const scratch = await mkdtemp(path.join(options.scratchParent ?? (chunks.length > 1 ? outputDir : os.tmpdir()), ".cutroom-render-"));
  try {
    // Issue 15: the sound first, once for the whole edit (whichever way the picture is made): joined,
    // finished (sound.ts), then encoded once beside the picture.
    let sound: string | undefined;
    let report: SoundReport | null = null;
    let rest: RenderOptions = options;
    if (options.sound || options.music) {
      const joined = path.join(scratch, "joined.flac");
      const soundPass = passRunner(scratch, options, probes, "sound-graph");
      await joinedSound(plan, chunks, style, joined, scratch, soundPass, options, { from: 0, to: SOUND_SHARE / 2 });
      sound = path.join(scratch, "sound.flac");
      report = await finishSound(joined, sound, {
        ...limitsOf(options),
        sound: options.sound ?? { denoise: null, booster: false, loudness: null },
        music: options.music,
        plan,
        totalSamples: plan.segments.reduce((sum, s) => sum + s.samples, 0),
        scratch,
        ...progressShare(options.onProgress, { from: SOUND_SHARE / 2, to: SOUND_SHARE }),
      });
      rest = { ...options, ...progressShare(options.onProgress, { from: SOUND_SHARE, to: 1 }) };
    }
    const done = { ...result, music: report?.music ?? false, sound: report };
    // Burned-in subtitles change the picture of every frame they show on: nothing can be copied.
    if (options.smart && burn) options.onRenderPath?.({ path: "full", reason: "burned-in subtitles are drawn on the picture" });
    else if (options.smart) {
      const smart = await smartRender(plan, style, output, probes, { ...rest, chunked: chunks.length > 1, verifyDecode: options.verifySmart, finishedSound: sound });
      if (!("reason" in smart)) {
        options.onRenderPath?.({ path: "smart", smart });
        return { ...done, path: "smart" };
      }
      options.onRenderPath?.({ path: "full", reason: smart.reason });
    }
    const pass = passRunner(scratch, rest, probes);
    if (chunks.length <= 1) await pass(plan, await withSubtitles(style, burn, plan, scratch, "subtitles.ass", 0), sound ? "video" : "both", output, { from: 0, to: 1 }, sound);
    else await renderInChunks(plan, chunks, style, output, scratch, pass, rest, burn, sound);
    return { ...done, path: "full" };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

function limitsOf(options: RenderOptions) {
  return { threads: options.threads, timeoutMs: options.timeoutMs, signal: options.signal, logLevel: options.logLevel };
}

/** The style with the subtitles this pass shows (from `fromFrame`, the pass's frames) written to our own ASS file. */
async function withSubtitles(style: GraphStyle, burn: BurnedSubtitles | null, plan: RenderPlan, scratch: string, name: string, fromFrame: number): Promise<GraphStyle> {
  if (!burn) return style;
  const frames = plan.segments.reduce((sum, s) => sum + s.frames, 0);
  const lines = shiftLines(burn.lines, fromFrame / plan.fps, frames / plan.fps);
  if (lines.length === 0) return style;
  const file = path.join(scratch, name);
  await writeFile(file, writeAss(lines, burn.style, plan.width, plan.height), "utf8");
  return { ...style, subtitles: file };
}

/** `sound`: a finished sound (FLAC) that a "video" pass encodes beside the picture. */
type Pass = (plan: RenderPlan, style: GraphStyle, outputs: GraphOutputs, output: string, share: { from: number; to: number }, sound?: string) => Promise<void>;

/** One ffmpeg run of a graph; its progress is reported as its share of the whole render. */
function passRunner(scratch: string, options: RenderOptions, probes: ReadonlyMap<string, MediaInfo>, prefix = "graph"): Pass {
  let count = 0;
  return async (plan, style, outputs, output, share, sound) => {
    const graph = buildRenderGraph(plan, style, outputs);
    // Each source is read with the demuxer its probe found (issue 12 item 1).
    const inputs: FfmpegInput[] = graph.inputs.map((input) => ({ ...input, format: input.format ?? probes.get(input.file)?.container }));
    const script = path.join(scratch, `${prefix}-${count++}.txt`);
    await writeFile(script, graph.script);
    const video = ["-c:v", "libx264", "-preset", options.preset ?? RENDER_DEFAULTS.preset, "-crf", String(options.crf ?? RENDER_DEFAULTS.crf), "-pix_fmt", "yuv420p", "-r", String(plan.fps)];
    const audio = ["-c:a", "aac", "-b:a", RENDER_DEFAULTS.audioBitrate, "-ar", String(plan.sampleRate), "-ac", "2"];
    // The picture with the finished sound as one more input: the picture is still encoded once.
    if (sound && outputs === "video") inputs.push({ file: sound, format: "flac", internal: true });
    const outputOptions =
      outputs === "both" || (sound && outputs === "video")
        ? ["-map", "[vout]", "-map", outputs === "both" ? "[aout]" : `${inputs.length - 1}:a:0`, ...video, ...audio, "-max_muxing_queue_size", "4096", "-movflags", "+faststart", "-f", "mp4"]
        : outputs === "video"
          ? ["-map", "[vout]", ...video, "-an", "-f", "mp4"]
          : // Lossless and without encoder priming, so the joined sound stays sample-exact until the one AAC encode.
            ["-map", "[aout]", "-c:a", "flac", "-ar", String(plan.sampleRate), "-ac", "2", "-f", "flac"];
    await runFfmpeg(
      // The inline -filter_complex form breaks past ~100 segments; a script file has no such limit.
      { globalOptions: ["-filter_complex_script", script], inputs, outputOptions, output },
      { ...options, ...progressShare(options.onProgress, share), durationSeconds: graph.frames / plan.fps },
    );
  };
}

function progressShare(onProgress: ProgressCallback | undefined, share: { from: number; to: number }): { onProgress?: ProgressCallback } {
  if (!onProgress) return {};
  return { onProgress: (fraction) => onProgress(share.from + fraction * (share.to - share.from)) };
}

/** Shares of the progress bar: the chunks (their pictures, then the sound when it is made here), then the join. */
const CHUNKS_SHARE = 0.95;
const PICTURE_SHARE_OF_CHUNKS = 0.85;

/**
 * A long reordered storyboard, in chunks of few inputs: each chunk's picture (an H.264 file with the
 * same settings, cut at exact frames), joined by copy through the concat demuxer, with the edit's
 * sound (`sound` when it was made and finished before; else made here by `joinedSound`) encoded once.
 */
async function renderInChunks(plan: RenderPlan, chunks: readonly Chunk[], style: GraphStyle, output: string, scratch: string, pass: Pass, options: RenderOptions, burn: BurnedSubtitles | null, sound: string | undefined) {
  const frames = plan.segments.reduce((sum, s) => sum + s.frames, 0);
  const pictures = sound ? CHUNKS_SHARE : CHUNKS_SHARE * PICTURE_SHARE_OF_CHUNKS;
  const list: string[] = [];
  let done = 0;
  for (const [n, chunk] of chunks.entries()) {
    const from = (pictures * done) / frames;
    // The last chunk ends exactly where the sound's share starts (the quotient may round above it).
    const to = n === chunks.length - 1 ? pictures : (pictures * (done + chunk.frames)) / frames;
    const picture = `chunk-${n}.mp4`;
    const part = chunkPlan(plan, chunk);
    await pass(part, await withSubtitles(style, burn, part, scratch, `subtitles-${n}.ass`, chunk.fromFrame), "video", path.join(scratch, picture), { from, to });
    // An exact duration per file: the demuxer would otherwise take the container's, a little longer.
    list.push(`file '${picture}'`, `duration ${fixed(chunk.frames / plan.fps)}`);
    done += chunk.frames;
  }
  const listFile = path.join(scratch, "chunks.txt");
  await writeFile(listFile, `${list.join("\n")}\n`);
  let audio = sound;
  if (!audio) {
    audio = path.join(scratch, "joined.flac");
    await joinedSound(plan, chunks, style, audio, scratch, pass, options, { from: pictures, to: CHUNKS_SHARE });
  }
  await runFfmpeg(
    {
      inputs: [
        { file: listFile, format: "concat", internal: true },
        { file: audio, format: "flac", internal: true },
      ],
      outputOptions: [
        "-map", "0:v:0", "-map", "1:a:0", "-c:v", "copy",
        "-c:a", "aac", "-b:a", RENDER_DEFAULTS.audioBitrate, "-ar", String(plan.sampleRate), "-ac", "2",
        "-movflags", "+faststart", "-f", "mp4",
      ],
      output,
    },
    { ...options, ...progressShare(options.onProgress, { from: CHUNKS_SHARE, to: 1 }), durationSeconds: frames / plan.fps },
  );
}

/**
 * The edit's joined sound as FLAC (lossless, no encoder priming), exactly its length. In one pass,
 * or for a chunked edit chunk by chunk (each carrying the crossfade halves past its edges) with the
 * pieces overlap-added at their exact samples, so crossfades across chunk edges stay.
 */
async function joinedSound(plan: RenderPlan, chunks: readonly Chunk[], style: GraphStyle, output: string, scratch: string, pass: Pass, options: RenderOptions, share: { from: number; to: number }) {
  if (chunks.length <= 1) return pass(plan, style, "audio", output, share);
  const total = plan.segments.reduce((sum, s) => sum + s.samples, 0);
  const sounds: { file: string; at: number; length: number }[] = [];
  let samplesBefore = 0;
  const step = (share.to - share.from) / (chunks.length + 1);
  for (const [n, chunk] of chunks.entries()) {
    const sound = chunkSound(plan, chunk);
    const file = path.join(scratch, `sound-${n}.flac`);
    await pass(sound, style, "audio", file, { from: share.from + n * step, to: share.from + (n + 1) * step });
    const length = sound.segments.reduce((sum, s) => sum + s.samples, 0) + (sound.segments[0]?.leadSamples ?? 0) + (sound.segments.at(-1)?.tailSamples ?? 0);
    sounds.push({ file, at: samplesBefore - (sound.segments[0]?.leadSamples ?? 0), length });
    samplesBefore += sound.segments.reduce((sum, s) => sum + s.samples, 0);
  }
  const format = `aformat=sample_fmts=fltp:sample_rates=${plan.sampleRate}:channel_layouts=stereo`;
  const exact = `apad=whole_len=${total},atrim=end_sample=${total},asetpts=N/SR/TB[aout]`;
  const script = [
    ...sounds.map((_, c) => `[${c}:a:0]${format},asetpts=N/SR/TB[p${c}]`),
    ...overlapAdd(sounds.map((sound, c) => ({ label: `[p${c}]`, at: sound.at, length: sound.length })), total, plan.sampleRate, exact),
  ];
  const scriptFile = path.join(scratch, `join-${path.basename(output, ".flac")}.txt`);
  await writeFile(scriptFile, `${script.join(";\n")}\n`);
  await runFfmpeg(
    {
      globalOptions: ["-filter_complex_script", scriptFile],
      inputs: sounds.map((sound) => ({ file: sound.file, format: "flac", internal: true })),
      outputOptions: ["-map", "[aout]", "-c:a", "flac", "-ar", String(plan.sampleRate), "-ac", "2", "-f", "flac"],
      output,
    },
    { ...options, ...progressShare(options.onProgress, { from: share.from + chunks.length * step, to: share.to }), durationSeconds: total / plan.sampleRate },
  );
}

interface Chunk {
  /** Segments [first, end) and the output frames before them. */
  first: number;
  end: number;
  fromFrame: number;
  frames: number;
}

/**
 * Consecutive runs (one input each) grouped up to `maxInputs` inputs per chunk, counting the
 * overlays a chunk shows. One chunk (the usual analysis-made preview) is rendered in one pass.
 */
export function pictureChunks(plan: RenderPlan, maxInputs: number): Chunk[] {
  const runs = groupRuns(pictureOnly(plan));
  if (runs.length + plan.overlays.length <= maxInputs) return [];
  const limit = Math.max(1, maxInputs);
  const chunks: Chunk[] = [];
  let frame = 0;
  let current: (Chunk & { inputs: number }) | null = null;
  for (const run of runs) {
    const first = run.members[0] ?? 0;
    const end = (run.members.at(-1) ?? first) + 1;
    const frames = plan.segments.slice(first, end).reduce((sum, s) => sum + s.frames, 0);
    const overlays = plan.overlays.filter((o) => o.fromFrame < frame + frames && o.fromFrame + o.frames > frame).length;
    if (current && current.inputs + 1 + overlays <= limit) {
      current.end = end;
      current.frames += frames;
      current.inputs += 1 + overlays;
    } else {
      if (current) chunks.push(current);
      current = { first, end, fromFrame: frame, frames, inputs: 1 + overlays };
    }
    frame += frames;
  }
  if (current) chunks.push(current);
  return chunks.map(({ first, end, fromFrame, frames }) => ({ first, end, fromFrame, frames }));
}

/** Without crossfades: the sound is made elsewhere, so a picture pass reads no fade windows. */
function pictureOnly(plan: RenderPlan): RenderPlan {
  return { ...plan, segments: plan.segments.map((s) => ({ ...s, leadSamples: 0, tailSamples: 0 })), fades: plan.fades.map(() => 0) };
}

/** The part of the plan a chunk shows, its overlays cut to its frames and renumbered from its start. */
function chunkPlan(plan: RenderPlan, chunk: Chunk): RenderPlan {
  const picture = pictureOnly(plan);
  const segments = picture.segments.slice(chunk.first, chunk.end);
  const endFrame = chunk.fromFrame + chunk.frames;
  const overlays = plan.overlays.flatMap((overlay) => {
    const from = Math.max(overlay.fromFrame, chunk.fromFrame);
    const to = Math.min(overlay.fromFrame + overlay.frames, endFrame);
    if (to <= from) return [];
    const skip = overlay.skipFrames + (from - overlay.fromFrame);
    const start = overlay.kind === "image" ? overlay.start : overlay.start + (from - overlay.fromFrame) / plan.fps;
    return [{ ...overlay, start, fromFrame: from - chunk.fromFrame, frames: to - from, skipFrames: skip }];
  });
  return { ...picture, segments, fades: segments.slice(1).map(() => 0), overlays };
}

/** The sound of a chunk's segments, with the crossfade halves at its edges (the join sums the overlaps). */
function chunkSound(plan: RenderPlan, chunk: Chunk): RenderPlan {
  return { ...plan, segments: plan.segments.slice(chunk.first, chunk.end), fades: plan.fades.slice(chunk.first, chunk.end - 1), overlays: [] };
}

async function probeAll(files: readonly string[], options: RenderOptions): Promise<Map<string, MediaInfo>> {
  const probes = new Map(options.probes ?? []);
  const missing = [...new Set(files)].filter((file) => !probes.has(file));
  const found = await Promise.all(missing.map((file) => probe(file, options)));
  missing.forEach((file, i) => {
    const info = found[i];
    if (info) probes.set(file, info);
  });
  return probes;
}
