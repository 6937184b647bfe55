import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runFfmpeg, type FfmpegInput, type ProgressCallback, type RunLimits } from "./ffmpeg";
import { probe, type MediaInfo, type MediaKind } from "./probe";

/** One piece of the edit list: [start, end) of a file, in seconds. For an image, end − start is how long it shows. */
export interface EditSegment {
  file: string;
  kind: MediaKind;
  start: number;
  end: number;
}

export type AudioVisual = "color" | "waves";

export const RENDER_DEFAULTS = Object.freeze({
  fps: 30,
  sampleRate: 48_000,
  /** 720p at most: the short side ≤ 720 and the long side ≤ 1280. */
  maxShortSide: 720,
  maxLongSide: 1280,
  /** Canvas when the edit list has no picture at all. */
  audioOnlyWidth: 640,
  audioOnlyHeight: 360,
  /** Long enough to hide the click of a cut, short enough not to smear words. */
  crossfadeSeconds: 0.06,
  crf: 23,
  preset: "veryfast",
  audioBitrate: "128k",
  background: "0x111018",
  waveColour: "0x8a7dff",
  audioVisual: "waves" as AudioVisual,
});

export interface RenderOptions extends RunLimits {
  /** Short audio crossfades at every cut, keeping audio and video the same length. */
  smoothCuts?: boolean;
  /** Filters for the joined audio (noise cancelling, voice booster); they must keep its length. */
  audioFilters?: readonly string[];
  crossfadeSeconds?: number;
  fps?: number;
  maxShortSide?: number;
  maxLongSide?: number;
  crf?: number;
  preset?: string;
  /** What audio-only segments show. */
  audioVisual?: AudioVisual;
  /** Probes by file, when the caller has them (saves an ffprobe per file). */
  probes?: ReadonlyMap<string, MediaInfo>;
  onProgress?: ProgressCallback;
}

export interface RenderResult {
  durationSeconds: number;
  frames: number;
  width: number;
  height: number;
  /** Segments too short for a single frame are dropped. */
  segmentsRendered: number;
}

export class EmptyEditListError extends Error {
  constructor() {
    super("The edit list has no segment long enough to render");
    this.name = "EmptyEditListError";
  }
}

// ---------------------------------------------------------------------------------------------
// Planning: seconds → exact frame and sample counts (pure)
// ---------------------------------------------------------------------------------------------

export interface PlannedSegment {
  file: string;
  kind: MediaKind;
  hasAudio: boolean;
  start: number;
  frames: number;
  /** Audio samples that belong to this segment's frames. */
  samples: number;
  /** Extra samples taken before / after the segment for the crossfades at its cuts. */
  leadSamples: number;
  tailSamples: number;
}

export interface RenderPlan {
  segments: PlannedSegment[];
  /** Crossfade length in samples at each cut (0 = hard cut); `segments.length − 1` entries. */
  fades: number[];
  fps: number;
  sampleRate: number;
  width: number;
  height: number;
}

export interface PlanSettings {
  fps: number;
  sampleRate: number;
  crossfadeSamples: number;
  maxShortSide: number;
  maxLongSide: number;
}

/**
 * Frame counts from cumulative rounding (no drift over hundreds of cuts), sample counts from the
 * same frame edges (so audio and video totals agree exactly), and crossfade halves at each cut.
 */
export function planRender(segments: readonly EditSegment[], probes: ReadonlyMap<string, MediaInfo>, settings: PlanSettings): RenderPlan {
  const planned: PlannedSegment[] = [];
  let seconds = 0;
  let frameEdge = 0;
  for (const segment of segments) {
    const info = probes.get(segment.file);
    if (!info) throw new Error(`No probe for ${segment.file}`);
    // A start past the end of the file still yields a (held) frame rather than an empty stream.
    const lastFrameAt = info.kind === "image" ? 0 : Math.max(0, info.durationSeconds - 1 / settings.fps);
    const start = Math.min(Math.max(0, segment.start), lastFrameAt);
    seconds += Math.max(0, segment.end - Math.max(0, segment.start));
    const nextEdge = Math.round(seconds * settings.fps);
    const frames = nextEdge - frameEdge;
    if (frames <= 0) continue;
    const samples = samplesAt(nextEdge, settings) - samplesAt(frameEdge, settings);
    frameEdge = nextEdge;
    planned.push({ file: segment.file, kind: effectiveKind(segment, info), hasAudio: info.hasAudio, start, frames, samples, leadSamples: 0, tailSamples: 0 });
  }
  if (planned.length === 0) throw new EmptyEditListError();
  const fades = planned.slice(1).map((next, i) => crossfadeAt(planned[i], next, settings));
  fades.forEach((fade, i) => {
    const before = planned[i];
    const after = planned[i + 1];
    if (before) before.tailSamples = fade / 2;
    if (after) after.leadSamples = fade / 2;
  });
  return { segments: planned, fades, fps: settings.fps, sampleRate: settings.sampleRate, ...canvas(segments, probes, settings) };
}

function samplesAt(frameEdge: number, settings: PlanSettings): number {
  return Math.round((frameEdge * settings.sampleRate) / settings.fps);
}

/**
 * Even (two equal halves), never longer than either neighbour (no fade reaches past the next cut),
 * and, between two pieces of one file, never longer than the source gap between them: their audio
 * windows stay disjoint, and a cut with no gap is already seamless.
 */
function crossfadeAt(before: PlannedSegment | undefined, after: PlannedSegment, settings: PlanSettings): number {
  if (!before) return 0;
  let limit = Math.min(settings.crossfadeSamples, before.samples, after.samples);
  const beforeEnd = before.start + before.frames / settings.fps;
  if (before.file === after.file && after.kind !== "image" && after.start >= beforeEnd) {
    limit = Math.min(limit, Math.floor((after.start - beforeEnd) * settings.sampleRate));
  }
  return Math.max(0, limit - (limit % 2));
}

/** The file's content decides; a video may still be used for its sound only when the caller says "audio". */
function effectiveKind(segment: EditSegment, info: MediaInfo): MediaKind {
  return info.kind === "video" && segment.kind === "audio" && info.hasAudio ? "audio" : info.kind;
}

/** The first picture's aspect, fitted into 720p; a fixed canvas when there is no picture. */
function canvas(segments: readonly EditSegment[], probes: ReadonlyMap<string, MediaInfo>, settings: PlanSettings): { width: number; height: number } {
  const first = segments.map((s) => probes.get(s.file)).find((info) => info && info.kind !== "audio" && info.width && info.height);
  if (!first?.width || !first.height) return { width: RENDER_DEFAULTS.audioOnlyWidth, height: RENDER_DEFAULTS.audioOnlyHeight };
  const short = Math.min(first.width, first.height);
  const long = Math.max(first.width, first.height);
  const scale = Math.min(1, settings.maxShortSide / short, settings.maxLongSide / long);
  return { width: even(first.width * scale), height: even(first.height * scale) };
}

function even(value: number): number {
  return Math.max(2, 2 * Math.round(value / 2));
}

// ---------------------------------------------------------------------------------------------
// The filter graph (pure text)
// ---------------------------------------------------------------------------------------------

export interface RenderGraph {
  inputs: FfmpegInput[];
  /** For `-filter_complex_script`; outputs `[vout]` and `[aout]`. */
  script: string;
  frames: number;
  samples: number;
}

export interface GraphStyle {
  audioVisual: AudioVisual;
  audioFilters?: readonly string[];
}

/** Longest stretch between two segments of one file that is decoded through rather than seeked over. */
export const MAX_DECODE_THROUGH_SECONDS = 10;
/** Up to this many inputs keep the normal decoder thread cap. */
const FEW_INPUTS = 4;
/** Read a little past the last segment so its last frame and fade tail are surely there. */
const READ_SLACK_SECONDS = 0.1;

/** Consecutive segments read from one input: the same file, moving forward, close together. */
export interface SourceRun {
  file: string;
  kind: MediaKind;
  hasAudio: boolean;
  /** The input is seeked here and read this long. */
  seekStart: number;
  seekSeconds: number;
  /** Indexes into `plan.segments`. */
  members: number[];
}

/** The stretch of source a segment reads: its frames plus its crossfade halves (clamped at 0). */
function sourceWindow(segment: PlannedSegment, plan: RenderPlan): { start: number; end: number; missingLeadSamples: number } {
  const wanted = segment.start - segment.leadSamples / plan.sampleRate;
  const start = Math.max(0, wanted);
  const end = segment.start + segment.frames / plan.fps + segment.tailSamples / plan.sampleRate;
  return { start, end, missingLeadSamples: Math.round((start - wanted) * plan.sampleRate) };
}

/**
 * Groups segments into runs that one input serves (cut into one part per segment). A run breaks
 * on another file, on going backwards, or on a long jump (seeking is cheaper than decoding through),
 * so frames never wait in memory for a later segment and an analysis-made preview is one input.
 */
export function groupRuns(plan: RenderPlan): SourceRun[] {
  const runs: SourceRun[] = [];
  let previousEnd = 0;
  plan.segments.forEach((segment, i) => {
    const window = sourceWindow(segment, plan);
    const run = runs.at(-1);
    const videoEnd = segment.start + segment.frames / plan.fps;
    const continues =
      run !== undefined &&
      segment.kind !== "image" &&
      run.kind === segment.kind &&
      run.file === segment.file &&
      segment.start >= previousEnd &&
      window.start - (run.seekStart + run.seekSeconds) <= MAX_DECODE_THROUGH_SECONDS;
    if (run && continues) {
      run.members.push(i);
      run.seekSeconds = Math.max(run.seekSeconds, window.end - run.seekStart);
    } else {
      runs.push({ file: segment.file, kind: segment.kind, hasAudio: segment.hasAudio, seekStart: window.start, seekSeconds: window.end - window.start, members: [i] });
    }
    previousEnd = videoEnd;
  });
  return runs;
}

/** One input per run, one chain per segment, then the joins: video concatenated, audio joined (crossfaded or not). */
export function buildRenderGraph(plan: RenderPlan, style: GraphStyle): RenderGraph {
  const runs = groupRuns(plan);
  const chains: string[] = [];
  // Many inputs (a reordered storyboard) each get one decoder thread: memory grows per thread pool.
  const decoderThreads = runs.length > FEW_INPUTS ? ["-threads", "1"] : [];
  const inputs = runs.map((run, k): FfmpegInput => {
    chains.push(...runChains(run, k, plan, style));
    if (run.kind === "image") return { file: run.file, options: decoderThreads };
    const window = ["-ss", fixed(run.seekStart), "-t", fixed(run.seekSeconds + READ_SLACK_SECONDS)];
    return { file: run.file, options: [...decoderThreads, ...window] };
  });
  const frames = plan.segments.reduce((sum, s) => sum + s.frames, 0);
  const samples = plan.segments.reduce((sum, s) => sum + s.samples, 0);
  // A file that ends before its segment does leaves the picture short: hold the last frame.
  const hold = `tpad=stop_mode=clone:stop_duration=${fixed(frames / plan.fps)},trim=end_frame=${frames}`;
  chains.push(`${labels("v", plan.segments.length)}concat=n=${plan.segments.length}:v=1:a=0,settb=1/${plan.fps},setpts=N,${hold}[vout]`);
  chains.push(...audioJoin(plan, samples, style.audioFilters ?? []));
  return { inputs, script: `${chains.join(";\n")}\n`, frames, samples };
}

function labels(prefix: string, count: number): string {
  return Array.from({ length: count }, (_, j) => `[${prefix}${j}]`).join("");
}

/**
 * Splits a stream into consecutive parts (`segment`/`asegment`: each frame and sample goes to
 * exactly one output; a `split` would copy every frame to every segment: O(frames × segments)).
 * Stretches that belong to no segment go to a null sink. A part that would start inside the
 * previous one (a sample of rounding) starts where it ends.
 */
function splitByParts(head: string, filter: "segment" | "asegment", parts: Part[], prefix: string): string[] {
  const option = filter === "segment" ? "frames" : "samples";
  const points: number[] = [];
  const outputs: string[] = [];
  const sinks: string[] = [];
  let cursor = 0;
  const gap = () => {
    const label = `[${prefix}g${outputs.length}]`;
    outputs.push(label);
    sinks.push(`${label}${filter === "segment" ? "nullsink" : "anullsink"}`);
  };
  for (const part of parts) {
    if (part.from > cursor) {
      gap();
      points.push(part.from);
    }
    outputs.push(`[${part.label}]`);
    cursor = Math.max(part.to, cursor + 1);
    points.push(cursor);
  }
  gap();
  return [`${head}${filter}=${option}=${points.join("|")}${outputs.join("")}`, ...sinks];
}

interface Part {
  label: string;
  /** Frames (video, at the output rate) or samples (audio) from the start of the run's input. */
  from: number;
  to: number;
}

/**
 * One input serves a run, converted once to the output frame rate and sample rate, then cut into
 * parts of exactly each segment's frames and samples. No filter after a cut may end its stream
 * early: `segment` would take that as the end of the whole input, so exact lengths are padded
 * (never trimmed) per segment, and the totals are capped once, after the joins.
 */
function runChains(run: SourceRun, k: number, plan: RenderPlan, style: GraphStyle): string[] {
  const chains: string[] = [];
  const members = run.members.map((i) => ({ i, segment: plan.segments[i] })).filter((m): m is { i: number; segment: PlannedSegment } => !!m.segment);
  if (run.kind === "image") {
    chains.push(`[${k}:v:0]split=${members.length}${labels(`r${k}v`, members.length)}`);
  } else if (run.kind === "video") {
    const parts = members.map(({ segment }, j): Part => {
      const from = Math.round((segment.start - run.seekStart) * plan.fps);
      return { label: `r${k}v${j}`, from, to: from + segment.frames };
    });
    // start_time=0: frame k is at k / fps from the seek point, even when the first decoded frame comes a little later.
    chains.push(...splitByParts(`[${k}:v:0]fps=${plan.fps}:start_time=0,`, "segment", parts, `r${k}v`));
  }
  if (run.hasAudio && run.kind !== "image") {
    const parts = members.map(({ segment }, j): Part => ({ label: `r${k}a${j}`, ...audioSpan(segment, run, plan) }));
    const head = `[${k}:a:0]aresample=${plan.sampleRate}:async=1:first_pts=0,${audioFormat(plan)},`;
    chains.push(...splitByParts(head, "asegment", parts, `r${k}a`));
  }
  members.forEach(({ i, segment }, j) => chains.push(...segmentChains(segment, i, run, `r${k}v${j}`, `r${k}a${j}`, plan, style)));
  return chains;
}

/** The samples of the run's decoded audio that a segment takes (less any silence it lacks at the file start). */
function audioSpan(segment: PlannedSegment, run: SourceRun, plan: RenderPlan): { from: number; to: number } {
  const window = sourceWindow(segment, plan);
  const from = Math.round((window.start - run.seekStart) * plan.sampleRate);
  const samples = segment.leadSamples + segment.samples + segment.tailSamples;
  return { from, to: from + samples - window.missingLeadSamples };
}

function segmentChains(segment: PlannedSegment, i: number, run: SourceRun, video: string, audio: string, plan: RenderPlan, style: GraphStyle): string[] {
  const audioSamples = segment.leadSamples + segment.samples + segment.tailSamples;
  // Only for streams of their own (a still, a colour, waves): trimming them ends nothing else.
  const finish = `trim=end_frame=${segment.frames},settb=1/${plan.fps},setpts=N`;
  const padSeconds = fixed(segment.frames / plan.fps + 1);
  const sound = run.hasAudio && segment.kind !== "image" ? sourceAudio(audio, segment, audioSamples, plan) : silentAudio(audioSamples, plan);
  if (segment.kind === "video") {
    return [`[${video}]setpts=PTS-STARTPTS,${fitFilter(plan)},settb=1/${plan.fps},setpts=N[v${i}]`, `${sound}[a${i}]`];
  }
  if (segment.kind === "image") return [`[${video}]${fitFilter(plan)},loop=loop=-1:size=1:start=0,${finish}[v${i}]`, `${sound}[a${i}]`];
  if (style.audioVisual === "waves") {
    const waves = `showwaves=s=${plan.width}x${plan.height}:mode=cline:rate=${plan.fps}:colors=${RENDER_DEFAULTS.waveColour}`;
    const own = `atrim=start_sample=${segment.leadSamples}:end_sample=${segment.leadSamples + segment.samples},asetpts=PTS-STARTPTS`;
    return [
      `${sound},asplit=2[a${i}][w${i}]`,
      `[w${i}]${own},${waves},format=yuv420p,setsar=1,tpad=stop_mode=clone:stop_duration=${padSeconds},${finish}[v${i}]`,
    ];
  }
  return [
    `color=c=${RENDER_DEFAULTS.background}:s=${plan.width}x${plan.height}:r=${plan.fps},format=yuv420p,setsar=1,${finish}[v${i}]`,
    `${sound}[a${i}]`,
  ];
}

/** Letterbox into the canvas: same size, pixel format and square pixels for concat. */
function fitFilter(plan: RenderPlan): string {
  const { width: w, height: h } = plan;
  return `scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuv420p`;
}

/** Exactly `samples` of audio from this segment's part: silence before it where the file starts too late, padding if it ends early. */
function sourceAudio(label: string, segment: PlannedSegment, samples: number, plan: RenderPlan): string {
  const missing = sourceWindow(segment, plan).missingLeadSamples;
  const delay = missing > 0 ? `,adelay=delays=${missing}S:all=1` : "";
  return `[${label}]asetpts=N/SR/TB${delay},apad=whole_len=${samples}`;
}

function silentAudio(samples: number, plan: RenderPlan): string {
  return `anullsrc=r=${plan.sampleRate}:cl=stereo,${audioFormat(plan)},atrim=end_sample=${samples},asetpts=N/SR/TB`;
}

function audioFormat(plan: RenderPlan): string {
  return `aformat=sample_fmts=fltp:sample_rates=${plan.sampleRate}:channel_layouts=stereo`;
}

/**
 * Hard cuts concatenate. Smooth cuts overlap-add: each segment fades in over its lead and out over
 * its tail, even segments go on one track and odd ones on another (silence between), and the two
 * tracks are summed — a linear crossfade of length d centred on every cut, the same sound as
 * `acrossfade`, with the total still exactly the video's length. A chain of N−1 acrossfades would
 * hold back d per stage and make ffmpeg buffer raw video meanwhile (1.7 GB at 40 cuts).
 */
function audioJoin(plan: RenderPlan, total: number, filters: readonly string[]): string[] {
  const count = plan.segments.length;
  // Enhancement runs on the joined track, before the one exact-length trim that keeps it in sync.
  const enhance = filters.length ? `${filters.join(",")},` : "";
  const exact = `${enhance}apad=whole_len=${total},atrim=end_sample=${total},asetpts=N/SR/TB[aout]`;
  if (plan.fades.every((fade) => fade === 0)) {
    return [`${labels("a", count)}concat=n=${count}:v=0:a=1,${exact}`];
  }
  const chains: string[] = [];
  let outputStart = 0;
  const placed = plan.segments.map((segment, i) => {
    const at = outputStart - segment.leadSamples;
    outputStart += segment.samples;
    const length = segment.leadSamples + segment.samples + segment.tailSamples;
    const fadeIn = segment.leadSamples > 0 ? `afade=t=in:ss=0:ns=${2 * segment.leadSamples}:curve=tri` : "anull";
    const fadeOut = segment.tailSamples > 0 ? `afade=t=out:ss=${length - 2 * segment.tailSamples}:ns=${2 * segment.tailSamples}:curve=tri` : "anull";
    chains.push(`[a${i}]${fadeIn},${fadeOut}[f${i}]`);
    return { label: `[f${i}]`, at, length };
  });
  for (const parity of [0, 1]) {
    const items: string[] = [];
    let cursor = 0;
    const silence = (samples: number) => {
      const label = `[s${parity}_${items.length}]`;
      chains.push(`anullsrc=r=${plan.sampleRate}:cl=stereo,${audioFormat(plan)},atrim=end_sample=${samples},asetpts=N/SR/TB${label}`);
      items.push(label);
    };
    placed.forEach((piece, i) => {
      if (i % 2 !== parity) return;
      if (piece.at > cursor) silence(piece.at - cursor);
      items.push(piece.label);
      cursor = piece.at + piece.length;
    });
    if (total > cursor) silence(total - cursor);
    chains.push(`${items.join("")}concat=n=${items.length}:v=0:a=1[track${parity}]`);
  }
  chains.push(`[track0][track1]amix=inputs=2:normalize=0:dropout_transition=0,${exact}`);
  return chains;
}

function fixed(seconds: number): string {
  return seconds.toFixed(6);
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

/** Renders the edit list to one MP4 (H.264 + AAC 48 kHz, at most 720p, 30 fps). */
export async function renderPreview(segments: readonly EditSegment[], output: string, options: RenderOptions = {}): Promise<RenderResult> {
  const probes = await probeAll(segments, options);
  const fps = options.fps ?? RENDER_DEFAULTS.fps;
  const sampleRate = RENDER_DEFAULTS.sampleRate;
  const crossfadeSeconds = options.smoothCuts ? (options.crossfadeSeconds ?? RENDER_DEFAULTS.crossfadeSeconds) : 0;
  const plan = planRender(segments, probes, {
    fps,
    sampleRate,
    crossfadeSamples: Math.round(crossfadeSeconds * sampleRate),
    maxShortSide: options.maxShortSide ?? RENDER_DEFAULTS.maxShortSide,
    maxLongSide: options.maxLongSide ?? RENDER_DEFAULTS.maxLongSide,
  });
  const graph = buildRenderGraph(plan, { audioVisual: options.audioVisual ?? RENDER_DEFAULTS.audioVisual, audioFilters: options.audioFilters });
  const durationSeconds = graph.frames / fps;
  await mkdir(path.dirname(path.resolve(output)), { recursive: true });
  const scratch = await mkdtemp(path.join(os.tmpdir(), "cutroom-render-"));
  try {
    const script = path.join(scratch, "graph.txt");
    await writeFile(script, graph.script);
    await runFfmpeg(
      {
        // The inline -filter_complex form breaks past ~100 segments; a script file has no such limit.
        globalOptions: ["-filter_complex_script", script],
        inputs: graph.inputs,
        outputOptions: [
          "-map", "[vout]", "-map", "[aout]",
          "-c:v", "libx264", "-preset", options.preset ?? RENDER_DEFAULTS.preset, "-crf", String(options.crf ?? RENDER_DEFAULTS.crf),
          "-pix_fmt", "yuv420p", "-r", String(fps),
          "-c:a", "aac", "-b:a", RENDER_DEFAULTS.audioBitrate, "-ar", String(sampleRate), "-ac", "2",
          "-max_muxing_queue_size", "4096", "-movflags", "+faststart", "-f", "mp4",
        ],
        output,
      },
      { ...options, durationSeconds },
    );
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return { durationSeconds, frames: graph.frames, width: plan.width, height: plan.height, segmentsRendered: plan.segments.length };
}

async function probeAll(segments: readonly EditSegment[], options: RenderOptions): Promise<Map<string, MediaInfo>> {
  const probes = new Map(options.probes ?? []);
  const missing = [...new Set(segments.map((s) => s.file))].filter((file) => !probes.has(file));
  const found = await Promise.all(missing.map((file) => probe(file, options)));
  missing.forEach((file, i) => {
    const info = found[i];
    if (info) probes.set(file, info);
  });
  return probes;
}
