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

interface PlanSettings {
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
    const start = Math.max(0, segment.start);
    seconds += Math.max(0, segment.end - start);
    const nextEdge = Math.round(seconds * settings.fps);
    const frames = nextEdge - frameEdge;
    if (frames <= 0) continue;
    const samples = samplesAt(nextEdge, settings) - samplesAt(frameEdge, settings);
    frameEdge = nextEdge;
    planned.push({ file: segment.file, kind: effectiveKind(segment, info), hasAudio: info.hasAudio, start, frames, samples, leadSamples: 0, tailSamples: 0 });
  }
  if (planned.length === 0) throw new EmptyEditListError();
  const fades = planned.slice(1).map((next, i) => crossfadeAt(planned[i], next, settings.crossfadeSamples));
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

/** Even (two equal halves) and never longer than either neighbour, so acrossfade always has enough audio. */
function crossfadeAt(before: PlannedSegment | undefined, after: PlannedSegment, wanted: number): number {
  const limit = Math.min(wanted, before?.samples ?? 0, after.samples);
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

interface GraphStyle {
  audioVisual: AudioVisual;
}

/** One input per segment (seeked, so memory stays flat however long the list), one chain per segment, then the joins. */
export function buildRenderGraph(plan: RenderPlan, style: GraphStyle): RenderGraph {
  const inputs: FfmpegInput[] = [];
  const chains: string[] = [];
  plan.segments.forEach((segment, i) => {
    const source = segmentInput(segment, plan);
    inputs.push(source.input);
    chains.push(...segmentChains(segment, i, inputs.length - 1, source.leadSeconds, plan, style));
  });
  chains.push(`${plan.segments.map((_, i) => `[v${i}]`).join("")}concat=n=${plan.segments.length}:v=1:a=0,settb=1/${plan.fps},setpts=N[vout]`);
  chains.push(...audioJoin(plan));
  const frames = plan.segments.reduce((sum, s) => sum + s.frames, 0);
  const samples = plan.segments.reduce((sum, s) => sum + s.samples, 0);
  return { inputs, script: `${chains.join(";\n")}\n`, frames, samples };
}

/** The input for a segment: seeked to the start (less the crossfade lead), read for just as long. */
function segmentInput(segment: PlannedSegment, plan: RenderPlan): { input: FfmpegInput; leadSeconds: number } {
  // One decoder thread per input: hundreds of inputs must not mean hundreds of thread pools.
  const oneThread = ["-threads", "1"];
  if (segment.kind === "image") return { input: { file: segment.file, options: oneThread }, leadSeconds: 0 };
  const leadSeconds = Math.min(segment.start, segment.leadSamples / plan.sampleRate);
  const seconds = leadSeconds + segment.frames / plan.fps + segment.tailSamples / plan.sampleRate;
  const options = [...oneThread, "-ss", fixed(segment.start - leadSeconds), "-t", fixed(seconds)];
  return { input: { file: segment.file, options }, leadSeconds };
}

function segmentChains(segment: PlannedSegment, i: number, input: number, leadSeconds: number, plan: RenderPlan, style: GraphStyle): string[] {
  const audioSamples = segment.leadSamples + segment.samples + segment.tailSamples;
  const finish = `trim=end_frame=${segment.frames},settb=1/${plan.fps},setpts=N`;
  const fit = fitFilter(plan);
  const padSeconds = fixed(segment.frames / plan.fps + 1);
  const chains: string[] = [];
  const audio = segment.hasAudio ? sourceAudio(input, segment, leadSeconds, audioSamples, plan) : silentAudio(audioSamples, plan);
  if (segment.kind === "video") {
    const cut = leadSeconds > 0 ? `trim=start=${fixed(leadSeconds)},` : "";
    chains.push(`[${input}:v:0]${cut}setpts=PTS-STARTPTS,fps=${plan.fps},${fit},tpad=stop_mode=clone:stop_duration=${padSeconds},${finish}[v${i}]`);
    chains.push(`${audio}[a${i}]`);
  } else if (segment.kind === "image") {
    chains.push(`[${input}:v:0]${fit},loop=loop=-1:size=1:start=0,${finish}[v${i}]`);
    chains.push(`${audio}[a${i}]`);
  } else if (style.audioVisual === "waves") {
    const waves = `showwaves=s=${plan.width}x${plan.height}:mode=cline:rate=${plan.fps}:colors=${RENDER_DEFAULTS.waveColour}`;
    const own = `atrim=start_sample=${segment.leadSamples}:end_sample=${segment.leadSamples + segment.samples},asetpts=PTS-STARTPTS`;
    chains.push(`${audio},asplit=2[a${i}][w${i}]`);
    chains.push(`[w${i}]${own},${waves},format=yuv420p,setsar=1,tpad=stop_mode=clone:stop_duration=${padSeconds},${finish}[v${i}]`);
  } else {
    chains.push(`color=c=${RENDER_DEFAULTS.background}:s=${plan.width}x${plan.height}:r=${plan.fps},format=yuv420p,setsar=1,${finish}[v${i}]`);
    chains.push(`${audio}[a${i}]`);
  }
  return chains;
}

/** Letterbox into the canvas: same size, pixel format and square pixels for concat. */
function fitFilter(plan: RenderPlan): string {
  const { width: w, height: h } = plan;
  return `scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuv420p`;
}

/** Exactly `samples` of the source's audio: timestamps honoured, resampled, padded if the file ends early. */
function sourceAudio(input: number, segment: PlannedSegment, leadSeconds: number, samples: number, plan: RenderPlan): string {
  const missingLead = segment.leadSamples - Math.round(leadSeconds * plan.sampleRate);
  const delay = missingLead > 0 ? `,adelay=delays=${missingLead}S:all=1` : "";
  return `[${input}:a:0]aresample=${plan.sampleRate}:async=1:first_pts=0,${audioFormat(plan)}${delay},apad=whole_len=${samples},atrim=end_sample=${samples},asetpts=N/SR/TB`;
}

function silentAudio(samples: number, plan: RenderPlan): string {
  return `anullsrc=r=${plan.sampleRate}:cl=stereo,${audioFormat(plan)},atrim=end_sample=${samples},asetpts=N/SR/TB`;
}

function audioFormat(plan: RenderPlan): string {
  return `aformat=sample_fmts=fltp:sample_rates=${plan.sampleRate}:channel_layouts=stereo`;
}

/** Hard cuts concatenate; smooth cuts crossfade the overlapping halves, so the total stays the video's length. */
function audioJoin(plan: RenderPlan): string[] {
  const count = plan.segments.length;
  if (plan.fades.every((fade) => fade === 0)) {
    return [`${plan.segments.map((_, i) => `[a${i}]`).join("")}concat=n=${count}:v=0:a=1,asetpts=N/SR/TB[aout]`];
  }
  const chains: string[] = [];
  let running = "[a0]";
  plan.fades.forEach((fade, i) => {
    const next = `[a${i + 1}]`;
    const out = `[x${i + 1}]`;
    chains.push(fade > 0 ? `${running}${next}acrossfade=ns=${fade}:c1=tri:c2=tri${out}` : `${running}${next}concat=n=2:v=0:a=1${out}`);
    running = out;
  });
  chains.push(`${running}asetpts=N/SR/TB[aout]`);
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
  const graph = buildRenderGraph(plan, { audioVisual: options.audioVisual ?? RENDER_DEFAULTS.audioVisual });
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
