import type { FfmpegInput } from "./ffmpeg";
import type { MediaKind } from "./probe";
import { overlayChains, overlayInput } from "./overlays";
import { watermarkChains, watermarkInput } from "./watermark";
import { assFilter } from "./burned-subtitles";
import { RENDER_DEFAULTS, type AudioVisual, type PlannedSegment, type RenderPlan } from "./render-plan";
import { pathExpression } from "../domain/faces";

export interface RenderGraph {
  inputs: FfmpegInput[];
  /** For `-filter_complex_script`; outputs `[vout]` and/or `[aout]`. */
  script: string;
  frames: number;
  samples: number;
}

export interface GraphStyle {
  audioVisual: AudioVisual;
  /** The logo file of the free plan's watermark (watermark.ts); none when absent. */
  watermark?: string;
  /** Our ASS file of burned-in subtitles for this pass (burned-subtitles.ts), drawn over the overlays, under the watermark. */
  subtitles?: string;
}

/** What a pass makes: the whole render, or only its picture or only its sound (a render in chunks). */
export type GraphOutputs = "both" | "video" | "audio";

/** Longest stretch between two segments of one file that is decoded through rather than seeked over. */
export const MAX_DECODE_THROUGH_SECONDS = 10;
/** Up to this many inputs keep the normal decoder thread cap. */
const FEW_INPUTS = 4;
/** Read a little past the last segment so its last frame and fade tail are surely there. */
export const READ_SLACK_SECONDS = 0.1;

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
 * Runs are consecutive ranges of segments.
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

/** What a run's input must give this pass: its picture, its sound, or nothing (no input at all). */
function runNeeds(run: SourceRun, outputs: GraphOutputs, style: GraphStyle): { video: boolean; audio: boolean } {
  const picture = outputs !== "audio";
  const sound = run.hasAudio && run.kind !== "image" && (outputs !== "video" || (run.kind === "audio" && style.audioVisual === "waves"));
  return { video: picture && run.kind !== "audio", audio: sound };
}

/** One input per run, one chain per segment, then the joins: video concatenated (overlays on top), audio joined (crossfaded or not). */
export function buildRenderGraph(plan: RenderPlan, style: GraphStyle, outputs: GraphOutputs = "both"): RenderGraph {
  const runs = groupRuns(plan);
  const wantVideo = outputs !== "audio";
  const wantAudio = outputs !== "video";
  const overlays = wantVideo ? plan.overlays : [];
  const needs = runs.map((run) => runNeeds(run, outputs, style));
  const inputCount = needs.filter((n) => n.video || n.audio).length + overlays.length;
  // Many inputs (a reordered storyboard) each get one decoder thread: memory grows per thread pool.
  const decoderThreads = inputCount > FEW_INPUTS ? ["-threads", "1"] : [];
  const inputs: FfmpegInput[] = [];
  const chains: string[] = [];
  runs.forEach((run, r) => {
    const need = needs[r] ?? { video: false, audio: false };
    let k: number | null = null;
    if (need.video || need.audio) {
      k = inputs.length;
      // Streams this pass does not use are not even demuxed.
      const only = need.video && need.audio ? [] : need.video ? ["-an"] : ["-vn"];
      if (run.kind === "image") inputs.push({ file: run.file, options: decoderThreads });
      else inputs.push({ file: run.file, options: [...decoderThreads, ...only, "-ss", fixed(run.seekStart), "-t", fixed(run.seekSeconds + READ_SLACK_SECONDS)] });
    }
    chains.push(...runChains(run, k, need, plan, style, outputs));
  });
  const frames = plan.segments.reduce((sum, s) => sum + s.frames, 0);
  // A chunk of a longer render also carries the crossfade halves past its first and last cut.
  const samples = (plan.segments[0]?.leadSamples ?? 0) + plan.segments.reduce((sum, s) => sum + s.samples, 0) + (plan.segments.at(-1)?.tailSamples ?? 0);
  if (wantVideo) {
    // A file that ends before its segment does leaves the picture short: hold the last frame.
    const hold = `tpad=stop_mode=clone:stop_duration=${fixed(frames / plan.fps)},trim=end_frame=${frames}`;
    const plain = style.watermark ? "vplain" : "vout";
    const overlaid = style.subtitles ? "vnosubs" : plain;
    const base = overlays.length ? "vbase" : overlaid;
    chains.push(`${labels("v", plan.segments.length)}concat=n=${plan.segments.length}:v=1:a=0,settb=1/${plan.fps},setpts=N,${hold}[${base}]`);
    const first = inputs.length;
    overlays.forEach((overlay) => inputs.push(overlayInput(overlay, plan, decoderThreads)));
    chains.push(...overlayChains(overlays, first, base, overlaid, plan));
    if (style.subtitles) chains.push(`[${overlaid}]${assFilter(style.subtitles)},format=yuv420p[${plain}]`);
    if (style.watermark) {
      const k = inputs.length;
      inputs.push(watermarkInput(style.watermark));
      chains.push(...watermarkChains(k, plain, "vout", plan.width, plan.height));
    }
  }
  if (wantAudio) chains.push(...audioJoin(plan, samples));
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
function runChains(run: SourceRun, k: number | null, need: { video: boolean; audio: boolean }, plan: RenderPlan, style: GraphStyle, outputs: GraphOutputs): string[] {
  const chains: string[] = [];
  const members = run.members.map((i) => ({ i, segment: plan.segments[i] })).filter((m): m is { i: number; segment: PlannedSegment } => !!m.segment);
  if (k !== null && need.video && run.kind === "image") {
    chains.push(`[${k}:v:0]split=${members.length}${labels(`r${k}v`, members.length)}`);
  } else if (k !== null && need.video && run.kind === "video") {
    const parts = members.map(({ segment }, j): Part => {
      const from = Math.round((segment.start - run.seekStart) * plan.fps);
      return { label: `r${k}v${j}`, from, to: from + segment.frames };
    });
    // start_time=0: frame k is at k / fps from the seek point, even when the first decoded frame comes a little later.
    chains.push(...splitByParts(`[${k}:v:0]fps=${plan.fps}:start_time=0,`, "segment", parts, `r${k}v`));
  }
  if (k !== null && need.audio) {
    const parts = members.map(({ segment }, j): Part => ({ label: `r${k}a${j}`, ...audioSpan(segment, run, plan) }));
    const head = `[${k}:a:0]aresample=${plan.sampleRate}:async=1:first_pts=0,${audioFormat(plan)},`;
    chains.push(...splitByParts(head, "asegment", parts, `r${k}a`));
  }
  members.forEach(({ i, segment }, j) => {
    const sound = k !== null && need.audio ? sourceAudio(`r${k}a${j}`, segment, plan) : silentAudio(segmentSamples(segment), plan);
    chains.push(...segmentChains(segment, i, `r${k}v${j}`, sound, plan, style, outputs));
  });
  return chains;
}

/** The samples of the run's decoded audio that a segment takes (less any silence it lacks at the file start). */
function audioSpan(segment: PlannedSegment, run: SourceRun, plan: RenderPlan): { from: number; to: number } {
  const window = sourceWindow(segment, plan);
  const from = Math.round((window.start - run.seekStart) * plan.sampleRate);
  return { from, to: from + segmentSamples(segment) - window.missingLeadSamples };
}

function segmentSamples(segment: PlannedSegment): number {
  return segment.leadSamples + segment.samples + segment.tailSamples;
}

/** A segment's picture `[v<i>]` and sound `[a<i>]`, as far as this pass makes them. */
function segmentChains(segment: PlannedSegment, i: number, video: string, sound: string, plan: RenderPlan, style: GraphStyle, outputs: GraphOutputs): string[] {
  const wantVideo = outputs !== "audio";
  const wantAudio = outputs !== "video";
  const chains: string[] = [];
  // Only for streams of their own (a still, a colour, waves): trimming them ends nothing else.
  const finish = `trim=end_frame=${segment.frames},settb=1/${plan.fps},setpts=N`;
  if (segment.kind === "audio" && style.audioVisual === "waves" && wantVideo) {
    const waves = `showwaves=s=${plan.width}x${plan.height}:mode=cline:rate=${plan.fps}:colors=${RENDER_DEFAULTS.waveColour}`;
    const own = `atrim=start_sample=${segment.leadSamples}:end_sample=${segment.leadSamples + segment.samples},asetpts=PTS-STARTPTS`;
    const padSeconds = fixed(segment.frames / plan.fps + 1);
    const picture = `${own},${waves},format=yuv420p,setsar=1,tpad=stop_mode=clone:stop_duration=${padSeconds},${finish}[v${i}]`;
    if (!wantAudio) return [`${sound},${picture}`];
    return [`${sound},asplit=2[a${i}][w${i}]`, `[w${i}]${picture}`];
  }
  if (wantVideo) {
    if (segment.kind === "video") chains.push(`[${video}]setpts=PTS-STARTPTS,${framing(segment, plan)},settb=1/${plan.fps},setpts=N[v${i}]`);
    else if (segment.kind === "image") chains.push(`[${video}]${framing(segment, plan)},loop=loop=-1:size=1:start=0,${finish}[v${i}]`);
    else chains.push(`color=c=${RENDER_DEFAULTS.background}:s=${plan.width}x${plan.height}:r=${plan.fps},format=yuv420p,setsar=1,${finish}[v${i}]`);
  }
  if (wantAudio) chains.push(`${sound}[a${i}]`);
  return chains;
}

/**
 * The segment's part of the picture onto the canvas: same size, pixel format and square pixels for
 * concat. A crop with the canvas's aspect fills it; anything else is letterboxed.
 */
function framing(segment: PlannedSegment, plan: RenderPlan): string {
  const { width: w, height: h } = plan;
  // Scaling to the same size and padding by nothing change no pixel but cost a copy of every frame.
  if (segment.native && !segment.crop) return "setsar=1,format=yuv420p";
  // Issue 17: a window that follows faces moves with the frame's time (a flat sum of ramps), its size fixed.
  const x = segment.crop && segment.cropPath ? `'${pathExpression(segment.cropPath, "x", "iw")}'` : segment.crop ? `iw*${ratio(segment.crop.x)}` : "";
  const y = segment.crop && segment.cropPath ? `'${pathExpression(segment.cropPath, "y", "ih")}'` : segment.crop ? `ih*${ratio(segment.crop.y)}` : "";
  const crop = segment.crop ? `crop=w=iw*${ratio(segment.crop.w)}:h=ih*${ratio(segment.crop.h)}:x=${x}:y=${y},` : "";
  if (segment.fill) return `${crop}scale=${w}:${h},setsar=1,format=yuv420p`;
  return `${crop}scale=${w}:${h}:force_original_aspect_ratio=decrease:force_divisible_by=2,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=black,setsar=1,format=yuv420p`;
}

/** Exactly the segment's samples from its part: silence before it where the file starts too late, padding if it ends early, then its gain. */
function sourceAudio(label: string, segment: PlannedSegment, plan: RenderPlan): string {
  const missing = sourceWindow(segment, plan).missingLeadSamples;
  const delay = missing > 0 ? `,adelay=delays=${missing}S:all=1` : "";
  // volume keeps the length; at 0 it is exact silence, and the crossfades still blend gain into gain.
  const gain = segment.volume === 1 ? "" : `,volume=${ratio(segment.volume)}`;
  return `[${label}]asetpts=N/SR/TB${delay},apad=whole_len=${segmentSamples(segment)}${gain}`;
}

function silentAudio(samples: number, plan: RenderPlan): string {
  return `anullsrc=r=${plan.sampleRate}:cl=stereo,${audioFormat(plan)},atrim=end_sample=${samples},asetpts=N/SR/TB`;
}

function audioFormat(plan: RenderPlan): string {
  return `aformat=sample_fmts=fltp:sample_rates=${plan.sampleRate}:channel_layouts=stereo`;
}

/**
 * Hard cuts concatenate. Smooth cuts overlap-add: each segment fades in over its lead and out over
 * its tail, and the pieces are summed (see `overlapAdd`) — a linear crossfade of length d centred on
 * every cut, the same sound as `acrossfade`, with the total still exactly the video's length. A
 * chain of N−1 acrossfades would hold back d per stage and make ffmpeg buffer raw video meanwhile
 * (1.7 GB at 40 cuts).
 */
function audioJoin(plan: RenderPlan, total: number): string[] {
  const count = plan.segments.length;
  // The one exact-length trim that keeps it in sync; the finishing chain (sound.ts) works on the result.
  const exact = `apad=whole_len=${total},atrim=end_sample=${total},asetpts=N/SR/TB[aout]`;
  if (plan.segments.every((s) => s.leadSamples === 0 && s.tailSamples === 0)) {
    return [`${labels("a", count)}concat=n=${count}:v=0:a=1,${exact}`];
  }
  const chains: string[] = [];
  let outputStart = plan.segments[0]?.leadSamples ?? 0;
  const placed = plan.segments.map((segment, i): PlacedSound => {
    const at = outputStart - segment.leadSamples;
    outputStart += segment.samples;
    const length = segmentSamples(segment);
    const fadeIn = segment.leadSamples > 0 ? `afade=t=in:ss=0:ns=${2 * segment.leadSamples}:curve=tri` : "anull";
    const fadeOut = segment.tailSamples > 0 ? `afade=t=out:ss=${length - 2 * segment.tailSamples}:ns=${2 * segment.tailSamples}:curve=tri` : "anull";
    chains.push(`[a${i}]${fadeIn},${fadeOut}[f${i}]`);
    return { label: `[f${i}]`, at, length };
  });
  return [...chains, ...overlapAdd(placed, total, plan.sampleRate, exact)];
}

/** A piece of sound `length` samples long that belongs at sample `at` of the output. */
export interface PlacedSound {
  label: string;
  at: number;
  length: number;
}

/**
 * Sums pieces that overlap only with their neighbours: even pieces go on one track and odd ones on
 * another (silence between), and the two tracks are mixed. `after` follows the sum (with its label).
 */
export function overlapAdd(placed: readonly PlacedSound[], total: number, sampleRate: number, after: string): string[] {
  const chains: string[] = [];
  const format = `aformat=sample_fmts=fltp:sample_rates=${sampleRate}:channel_layouts=stereo`;
  // One piece needs no second track (and amix against a track of pure silence drops a segmented input).
  const parities = placed.length > 1 ? [0, 1] : [0];
  for (const parity of parities) {
    const items: string[] = [];
    let cursor = 0;
    const silence = (samples: number) => {
      const label = `[s${parity}_${items.length}]`;
      chains.push(`anullsrc=r=${sampleRate}:cl=stereo,${format},atrim=end_sample=${samples},asetpts=N/SR/TB${label}`);
      items.push(label);
    };
    placed.forEach((piece, i) => {
      if (i % 2 !== parity) return;
      if (piece.at > cursor) silence(piece.at - cursor);
      items.push(piece.label);
      cursor = piece.at + piece.length;
    });
    if (total > cursor || items.length === 0) silence(Math.max(1, total - cursor));
    chains.push(`${items.join("")}concat=n=${items.length}:v=0:a=1[track${parity}]`);
  }
  chains.push(parities.length > 1 ? `[track0][track1]amix=inputs=2:normalize=0:dropout_transition=0,${after}` : `[track0]${after}`);
  return chains;
}

export function fixed(seconds: number): string {
  return seconds.toFixed(6);
}

function ratio(value: number): string {
  return value.toFixed(6);
}
