/**
 * Smart render (issue 13): the stretches of an edit that need no re-encode are stream-copied from
 * the upload, and only the frames around each cut are encoded — from the cut to the source's next
 * keyframe, and from the last keyframe before the next cut to that cut. Every piece is an MPEG-TS
 * file in the render's own scratch folder (each keyframe carries its parameter sets), joined by the
 * concat demuxer on a list the server wrote; the sound is made once for the whole edit, exactly as
 * the full render makes it, and muxed with the joined picture.
 *
 * Frame-exact: each copied frame is the one the full render's graph would show at that output frame
 * (the same seek points and the same rounding as `fps=…:start_time=0`), so the cuts fall on the same
 * frames. Anything that does not qualify falls back to the full render, with the reason.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runFfmpeg, runFfprobe, type FfmpegInput, type ProgressCallback, type RunLimits } from "./ffmpeg";
import type { MediaInfo } from "./probe";
import { buildRenderGraph, fixed, groupRuns, type GraphOutputs, type GraphStyle } from "./render-graph";
import { RENDER_DEFAULTS, type PlannedSegment, type RenderPlan } from "./render-plan";

/** Copy only stretches at least this many frames long: a shorter one saves less than it costs to cut out. */
export const MIN_COPY_FRAMES = 15;
/** How far before a frame's time a piece is cut, in frames: the seek keeps that frame whatever the rounding. */
const SEEK_LEAD_FRAMES = 0.25;
/** A frame's time may stray this share of a frame from its slot and still count as constant rate. */
const CFR_TOLERANCE = 0.2;
/** Packets read past the last copied keyframe (s), so the split after it surely happens. */
const COPY_SLACK_SECONDS = 1;

/** The facts about an upload's picture that decide whether it can be copied into the output. */
export interface SourceVideo {
  codec: string;
  profile: string;
  /** ffprobe's level: 40 for 4.0. */
  level: number;
  pixFmt: string;
  width: number;
  height: number;
  /** "1:1" when square, "0:1" or "" when unknown. */
  sar: string;
  rotation: number;
  fieldOrder: string;
  colour: { range?: string; space?: string; primaries?: string; transfer?: string };
  /** Each frame's time in presentation order, from the file's start (what `-ss` counts from). */
  times: number[];
  /** Frames (presentation index) at which a copy may start: a keyframe no later packet reaches back past. */
  keyframes: number[];
  /** Most packets a frame is decoded ahead of its presentation (B-frame reordering). */
  delay: number;
}

export type SmartPiece =
  /** Frames [from, to) of a source (presentation indexes), copied. */
  | { kind: "copy"; file: string; from: number; to: number; frames: number }
  /** Output frames made by the render graph from these (shortened) segments. */
  | { kind: "encode"; segments: PlannedSegment[]; outputFrom: number; frames: number };

export interface SmartPlan {
  pieces: SmartPiece[];
  copiedFrames: number;
  encodedFrames: number;
}

export interface SmartStats {
  copiedFrames: number;
  encodedFrames: number;
  copiedPieces: number;
  encodedPieces: number;
}

/** Why an upload's picture cannot be copied into this output, or null when it can. */
export function sourceProblem(source: SourceVideo, plan: Pick<RenderPlan, "width" | "height" | "fps">): string | null {
  if (source.codec !== "h264") return `codec ${source.codec} is not H.264`;
  if (source.pixFmt !== "yuv420p") return `pixel format ${source.pixFmt} is not yuv420p`;
  if (source.width !== plan.width || source.height !== plan.height) return `size ${source.width}x${source.height} is not the output's ${plan.width}x${plan.height}`;
  if (source.sar && source.sar !== "1:1" && source.sar !== "0:1") return `pixels are not square (${source.sar})`;
  if (source.rotation % 360 !== 0) return `rotated ${source.rotation}°`;
  if (source.fieldOrder && source.fieldOrder !== "progressive" && source.fieldOrder !== "unknown") return `interlaced (${source.fieldOrder})`;
  if (!/^(baseline|constrained baseline|main|high)$/i.test(source.profile)) return `profile ${source.profile} is not one x264 makes in 8-bit 4:2:0`;
  if (source.keyframes.length === 0) return "no keyframe a copy can start at";
  return null;
}

/** Why a segment must be encoded whatever its source (a crop or punch-in, an overlay over it, not video), or null. */
export function segmentProblem(plan: RenderPlan, index: number, outputFrom: number): string | null {
  const segment = plan.segments[index];
  if (!segment) return "missing";
  if (segment.kind !== "video") return `a ${segment.kind}`;
  if (segment.crop) return "cropped or punched in";
  const to = outputFrom + segment.frames;
  if (plan.overlays.some((o) => o.fromFrame < to && o.fromFrame + o.frames > outputFrom)) return "under an overlay";
  return null;
}

/**
 * Where the full render seeks each segment's input: its run's start (runs as the render groups them;
 * a render in chunks reads pictures without the crossfade windows).
 */
export function seekStarts(plan: RenderPlan, chunked: boolean): number[] {
  const picture = chunked ? { ...plan, segments: plan.segments.map((s) => ({ ...s, leadSamples: 0, tailSamples: 0 })) } : plan;
  const starts: number[] = plan.segments.map((s) => s.start);
  for (const run of groupRuns(picture)) for (const i of run.members) starts[i] = run.seekStart;
  return starts;
}

/**
 * The source frame the full render shows at each of a segment's output frames. Its graph seeks the
 * run's input to `seekStart` (frames before it are dropped) and `fps=…:start_time=0` puts each input
 * frame in the slot its time rounds to; a slot before the first frame shows the first frame. Frames
 * past the end of the file repeat the last one (the render's hold).
 */
export function slotFrames(segment: PlannedSegment, seekStart: number, times: readonly number[], fps: number): number[] {
  const from = Math.round((segment.start - seekStart) * fps);
  const slot = (k: number) => Math.round(((times[k] ?? Number.POSITIVE_INFINITY) - seekStart) * fps);
  let first = lowerBound(times, seekStart - 1e-6);
  if (first >= times.length) first = times.length - 1;
  let k = first;
  const shown: number[] = [];
  for (let n = from; n < from + segment.frames; n++) {
    while (k + 1 < times.length && slot(k + 1) <= n) k++;
    shown.push(k);
  }
  return shown;
}

/** Runs of consecutive source frames at the output's constant rate: [output index, source frame, length]. */
export function frameBlocks(shown: readonly number[], times: readonly number[], fps: number): { at: number; frame: number; frames: number }[] {
  const blocks: { at: number; frame: number; frames: number }[] = [];
  shown.forEach((k, n) => {
    const block = blocks.at(-1);
    const offset = block ? ((times[k] ?? 0) - (times[block.frame] ?? 0)) * fps - (n - block.at) : 0;
    if (block && k === block.frame + (n - block.at) && Math.abs(offset) <= CFR_TOLERANCE) block.frames++;
    else blocks.push({ at: n, frame: k, frames: 1 });
  });
  return blocks;
}

function lowerBound(times: readonly number[], target: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid] ?? 0) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A segment the full render shows in more pieces than this is encoded as it is (it ends past its file, or its rate varies). */
const MAX_BLOCKS = 3;

/**
 * Splits the edit into copied and encoded pieces (pure). A qualifying segment copies from the first
 * keyframe to the last of its frames (whole GOPs) and encodes the frames before and after; the
 * neighbouring encoded frames (a tail, the next head, segments that do not qualify) make one piece.
 * Encoded frames are cut at the exact source frames the full render shows, so both agree to the
 * frame. Gives a reason instead when nothing would be copied.
 */
export function planSmartRender(
  plan: RenderPlan,
  sources: ReadonlyMap<string, SourceVideo | string>,
  options: { chunked: boolean; minCopyFrames?: number },
): SmartPlan | { reason: string } {
  const minCopy = options.minCopyFrames ?? MIN_COPY_FRAMES;
  const seeks = seekStarts(plan, options.chunked);
  const pieces: SmartPiece[] = [];
  const reasons = new Set<string>();
  let output = 0;
  let open: Extract<SmartPiece, { kind: "encode" }> | null = null;
  const encode = (segment: PlannedSegment) => {
    if (segment.frames <= 0) return;
    if (!open) {
      open = { kind: "encode", segments: [], outputFrom: output, frames: 0 };
      pieces.push(open);
    }
    open.segments.push(segment);
    open.frames += segment.frames;
    output += segment.frames;
  };
  plan.segments.forEach((segment, i) => {
    const source = sources.get(segment.file);
    const times = typeof source === "object" ? source.times : null;
    const blocks = times && segment.kind === "video" ? frameBlocks(slotFrames(segment, seeks[i] ?? segment.start, times, plan.fps), times, plan.fps) : null;
    // Source frames k… for `frames` output frames, a quarter frame early so the seek surely keeps frame k.
    const at = (k: number, frames: number): PlannedSegment => ({
      ...segment,
      start: Math.max(0, (times?.[k] ?? 0) - SEEK_LEAD_FRAMES / plan.fps),
      frames,
      samples: 0,
      leadSamples: 0,
      tailSamples: 0,
    });
    const encodeAll = () => {
      if (blocks && blocks.length <= MAX_BLOCKS) for (const b of blocks) encode(at(b.frame, b.frames));
      else encode({ ...segment, leadSamples: 0, tailSamples: 0 });
    };
    const problem =
      segmentProblem(plan, i, output) ??
      (typeof source === "string" ? source : !source || !blocks ? "not probed" : blocks.length > MAX_BLOCKS ? "frames not at the output's constant rate" : null);
    if (problem || !blocks || typeof source !== "object") {
      reasons.add(problem ?? "not copyable");
      encodeAll();
      return;
    }
    const longest = blocks.reduce((a, b) => (b.frames > a.frames ? b : a));
    const copyFrom = source.keyframes.find((k) => k >= longest.frame);
    const copyTo = [...source.keyframes].reverse().find((k) => k <= longest.frame + longest.frames);
    if (copyFrom === undefined || copyTo === undefined || copyTo - copyFrom < minCopy) {
      reasons.add("no whole GOP inside a segment");
      encodeAll();
      return;
    }
    for (const b of blocks) {
      if (b !== longest) {
        encode(at(b.frame, b.frames));
        continue;
      }
      encode(at(b.frame, copyFrom - b.frame));
      open = null;
      pieces.push({ kind: "copy", file: segment.file, from: copyFrom, to: copyTo, frames: copyTo - copyFrom });
      output += copyTo - copyFrom;
      encode(at(copyTo, b.frame + b.frames - copyTo));
    }
  });
  const copiedFrames = pieces.reduce((sum, p) => sum + (p.kind === "copy" ? p.frames : 0), 0);
  if (copiedFrames === 0) return { reason: reasons.size ? [...reasons].join("; ") : "nothing to copy" };
  return { pieces, copiedFrames, encodedFrames: output - copiedFrames };
}

// ---------------------------------------------------------------------------------------------
// Reading an upload's picture
// ---------------------------------------------------------------------------------------------

interface StreamProbe {
  streams?: {
    codec_name?: string;
    profile?: string;
    level?: number;
    pix_fmt?: string;
    width?: number;
    height?: number;
    sample_aspect_ratio?: string;
    field_order?: string;
    color_range?: string;
    color_space?: string;
    color_primaries?: string;
    color_transfer?: string;
    tags?: { rotate?: string };
    side_data_list?: { rotation?: number }[];
  }[];
  format?: { start_time?: string };
}

/** The upload's first picture stream and every packet's timing (one demux, no decode). */
export async function probeSourceVideo(file: string, info: Pick<MediaInfo, "container">, limits: RunLimits = {}): Promise<SourceVideo> {
  const entries = "stream=codec_name,profile,level,pix_fmt,width,height,sample_aspect_ratio,field_order,color_range,color_space,color_primaries,color_transfer:stream_tags=rotate:stream_side_data=rotation:format=start_time";
  const [head, packets, base] = await Promise.all([
    runFfprobe(["-select_streams", "v:0", "-show_entries", entries, "-of", "json", path.resolve(file)], { ...limits, format: info.container }),
    runFfprobe(["-select_streams", "v:0", "-show_entries", "packet=pts,dts,flags", "-of", "csv=p=0", path.resolve(file)], { ...limits, format: info.container }),
    runFfprobe(["-select_streams", "v:0", "-show_entries", "stream=time_base", "-of", "csv=p=0", path.resolve(file)], { ...limits, format: info.container }),
  ]);
  const parsed = JSON.parse(head) as StreamProbe;
  const stream = parsed.streams?.[0];
  if (!stream) throw new Error("no video stream");
  const [num = 1, den = 1] = base.trim().split("/").map(Number);
  const start = Number(parsed.format?.start_time ?? 0) || 0;
  const rows = packets
    .split("\n")
    .map((line) => line.trim().split(","))
    .filter((cells) => cells.length >= 3 && cells[0] !== "N/A" && cells[0] !== "")
    .map(([pts, , flags]) => ({ pts: Number(pts), key: (flags ?? "").startsWith("K") }));
  const timing = packetTiming(rows, (pts) => (pts * num) / den - start);
  const rotation = Number(stream.side_data_list?.find((s) => s.rotation !== undefined)?.rotation ?? stream.tags?.rotate ?? 0) || 0;
  return {
    codec: stream.codec_name ?? "",
    profile: stream.profile ?? "",
    level: stream.level ?? 0,
    pixFmt: stream.pix_fmt ?? "",
    width: stream.width ?? 0,
    height: stream.height ?? 0,
    sar: stream.sample_aspect_ratio ?? "",
    rotation,
    fieldOrder: stream.field_order ?? "",
    colour: { range: stream.color_range, space: stream.color_space, primaries: stream.color_primaries, transfer: stream.color_transfer },
    ...timing,
  };
}

/**
 * Frames in presentation order from packets in decode order, the keyframes a copy may start at
 * (no packet before it is shown after it, none after it is shown before it: a closed GOP starts
 * there) and the reordering delay. Pure.
 */
export function packetTiming(packets: readonly { pts: number; key: boolean }[], toSeconds: (pts: number) => number): Pick<SourceVideo, "times" | "keyframes" | "delay"> {
  const order = packets.map((p, d) => ({ pts: p.pts, d })).sort((a, b) => a.pts - b.pts);
  const rank = new Array<number>(packets.length);
  order.forEach((o, k) => (rank[o.d] = k));
  let delay = 0;
  rank.forEach((k, d) => (delay = Math.max(delay, d - k)));
  const suffixMin = new Array<number>(packets.length + 1).fill(Number.POSITIVE_INFINITY);
  for (let d = packets.length - 1; d >= 0; d--) suffixMin[d] = Math.min(suffixMin[d + 1] ?? Number.POSITIVE_INFINITY, packets[d]?.pts ?? 0);
  const keyframes: number[] = [];
  let prefixMax = Number.NEGATIVE_INFINITY;
  packets.forEach((p, d) => {
    if (p.key && p.pts > prefixMax && p.pts < (suffixMin[d + 1] ?? Number.POSITIVE_INFINITY)) keyframes.push(rank[d] ?? 0);
    prefixMax = Math.max(prefixMax, p.pts);
  });
  keyframes.sort((a, b) => a - b);
  return { times: order.map((o) => toSeconds(o.pts)), keyframes, delay };
}

// ---------------------------------------------------------------------------------------------
// Rendering
// ---------------------------------------------------------------------------------------------

export interface SmartRenderOptions extends RunLimits {
  crf?: number;
  preset?: string;
  /** Sources read by a render in chunks (another seek rule). */
  chunked: boolean;
  scratchParent?: string;
  onProgress?: ProgressCallback;
  /** Decode the whole result once and refuse it on any decoder error (tests, and when asked). */
  verifyDecode?: boolean;
  /** The edit's finished sound (FLAC, sound.ts), made before; without it the joined sound is made here. */
  finishedSound?: string;
}

/** Shares of the progress bar: the copies, the encoded pieces, the sound, the join. */
const SHARES = { copy: [0, 0.1], encode: [0.1, 0.7], audio: [0.7, 0.9], join: [0.9, 1] } as const;

/**
 * Makes `output` by smart render, or says why it cannot (the caller then renders in full). Throws
 * only for an abort; a failure on the way is a reason to fall back.
 */
export async function smartRender(plan: RenderPlan, style: GraphStyle, output: string, probes: ReadonlyMap<string, MediaInfo>, options: SmartRenderOptions): Promise<SmartStats | { reason: string }> {
  if (style.watermark) return { reason: "the watermark covers every frame" };
  if (style.subtitles) return { reason: "burned-in subtitles are drawn on the picture" };
  const files = [...new Set(plan.segments.filter((s) => s.kind === "video").map((s) => s.file))];
  const sources = new Map<string, SourceVideo | string>();
  await Promise.all(
    files.map(async (file) => {
      const info = probes.get(file);
      if (!info) return void sources.set(file, "not probed");
      try {
        const source = await probeSourceVideo(file, info, options);
        sources.set(file, sourceProblem(source, plan) ?? source);
      } catch (error) {
        if (options.signal?.aborted) throw error;
        sources.set(file, `unreadable picture (${(error as Error).message})`);
      }
    }),
  );
  const planned = planSmartRender(plan, sources, { chunked: options.chunked });
  if ("reason" in planned) return planned;
  if (options.scratchParent) await mkdir(options.scratchParent, { recursive: true });
  const scratch = await mkdtemp(path.join(options.scratchParent ?? os.tmpdir(), ".cutroom-smart-"));
  try {
    return await renderPieces(plan, style, planned, sources as ReadonlyMap<string, SourceVideo>, output, probes, scratch, options);
  } catch (error) {
    if (options.signal?.aborted) throw error;
    return { reason: `smart render failed: ${(error as Error).message}` };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function renderPieces(
  plan: RenderPlan,
  style: GraphStyle,
  planned: SmartPlan,
  sources: ReadonlyMap<string, SourceVideo>,
  output: string,
  probes: ReadonlyMap<string, MediaInfo>,
  scratch: string,
  options: SmartRenderOptions,
): Promise<SmartStats> {
  const total = plan.segments.reduce((sum, s) => sum + s.frames, 0);
  const report = (from: number, to: number) => (fraction: number) => options.onProgress?.(from + fraction * (to - from));
  const limits: RunLimits = { threads: options.threads, timeoutMs: options.timeoutMs, signal: options.signal, logLevel: options.logLevel };
  // The copied stream's parameters, which every encoded piece matches (the first copied source's).
  const firstCopy = planned.pieces.find((p) => p.kind === "copy");
  const reference = firstCopy && firstCopy.kind === "copy" ? sources.get(firstCopy.file) : undefined;
  if (!reference) throw new Error("no copied source");
  for (const piece of planned.pieces) {
    if (piece.kind !== "copy") continue;
    const source = sources.get(piece.file);
    if (!source || source.profile.toLowerCase() !== reference.profile.toLowerCase() || source.level !== reference.level || JSON.stringify(source.colour) !== JSON.stringify(reference.colour)) {
      throw new Error("copied sources differ in profile, level or colour");
    }
  }
  const names: { file: string; frames: number }[] = [];
  // The copies: one stream-copy pass per source, split at exactly the keyframes the pieces start and end at.
  const copyNames = await copySources(planned, sources, probes, plan.fps, scratch, limits, report(...SHARES.copy));
  let encodedDone = 0;
  let copyIndex = 0;
  for (const [n, piece] of planned.pieces.entries()) {
    if (piece.kind === "copy") {
      names.push(...(copyNames[copyIndex++] ?? []));
      continue;
    }
    const name = `piece-${n}.ts`;
    const [low, high] = SHARES.encode;
    const from = low + ((high - low) * encodedDone) / Math.max(1, planned.encodedFrames);
    encodedDone += piece.frames;
    const to = low + ((high - low) * encodedDone) / Math.max(1, planned.encodedFrames);
    await encodePiece(plan, piece, style, path.join(scratch, name), reference, probes, options, limits, report(from, to));
    names.push({ file: name, frames: piece.frames });
  }
  // Each piece's frames and reordering: the join's decode timestamps must cover the deepest reordering.
  let delay = reference.delay;
  for (const piece of names) {
    const packets = await runFfprobe(["-select_streams", "v:0", "-show_entries", "packet=pts", "-of", "csv=p=0", path.join(scratch, piece.file)], { ...limits, format: "mpegts" });
    const rows = packets.split("\n").map((l) => l.trim()).filter((l) => l && l !== "N/A").map((pts) => ({ pts: Number(pts), key: false }));
    if (rows.length !== piece.frames) throw new Error(`${piece.file} has ${rows.length} frames, not ${piece.frames}`);
    delay = Math.max(delay, packetTiming(rows, (pts) => pts).delay);
  }
  const list = path.join(scratch, "pieces.txt");
  await writeFile(list, `${names.map((p) => `file '${p.file}'\nduration ${fixed(p.frames / plan.fps)}`).join("\n")}\n`);
  // The sound of the whole edit: the finished one made before (issue 15), else joined as the full render joins it (crossfades, exact length).
  let sound = options.finishedSound;
  if (!sound) {
    sound = path.join(scratch, "sound.flac");
    await runGraph(plan, style, "audio", sound, ["-c:a", "flac", "-ar", String(plan.sampleRate), "-ac", "2", "-f", "flac"], probes, scratch, limits, report(...SHARES.audio));
  }
  // Presentation times snapped to the frame grid; decode times one frame apart, `delay` frames early.
  const tick = `(${plan.fps}*TB)`;
  await runFfmpeg(
    {
      inputs: [
        { file: list, format: "concat", internal: true },
        { file: sound, format: "flac", internal: true },
      ],
      outputOptions: [
        "-map", "0:v:0", "-map", "1:a:0", "-c:v", "copy",
        "-bsf:v", `setts=pts=round(PTS*TB*${plan.fps})/${tick}:dts=(N-${delay})/${tick}`,
        "-c:a", "aac", "-b:a", RENDER_DEFAULTS.audioBitrate, "-ar", String(plan.sampleRate), "-ac", "2",
        "-movflags", "+faststart", "-f", "mp4",
      ],
      output,
    },
    { ...limits, durationSeconds: total / plan.fps, onProgress: report(...SHARES.join) },
  );
  const counted = await runFfprobe(["-select_streams", "v:0", "-count_packets", "-show_entries", "stream=nb_read_packets", "-of", "csv=p=0", path.resolve(output)], { ...limits, format: "mov" });
  if (Number(counted.trim().split(",")[0]) !== total) throw new Error(`the join has ${counted.trim()} frames, not ${total}`);
  if (options.verifyDecode) {
    const errors: string[] = [];
    await runFfmpeg({ inputs: [{ file: output, format: "mov" }], outputOptions: ["-map", "0:v:0"], output: null }, { ...limits, logLevel: "error", onStderrLine: (line) => errors.push(line) });
    if (errors.length) throw new Error(`the join does not decode cleanly: ${errors.slice(0, 3).join(" | ")}`);
  }
  return {
    copiedFrames: planned.copiedFrames,
    encodedFrames: planned.encodedFrames,
    copiedPieces: planned.pieces.filter((p) => p.kind === "copy").length,
    encodedPieces: planned.pieces.filter((p) => p.kind === "encode").length,
  };
}

/**
 * Stream-copies each source once, split (segment muxer) at the keyframes where copied pieces start
 * and end; returns, per copy piece in order, the split files that make it up.
 */
async function copySources(
  planned: SmartPlan,
  sources: ReadonlyMap<string, SourceVideo>,
  probes: ReadonlyMap<string, MediaInfo>,
  fps: number,
  scratch: string,
  limits: RunLimits,
  onProgress: ProgressCallback,
): Promise<{ file: string; frames: number }[][]> {
  const copies = planned.pieces.filter((p): p is Extract<SmartPiece, { kind: "copy" }> => p.kind === "copy");
  const files = [...new Set(copies.map((c) => c.file))];
  const byFile = new Map<string, number[]>();
  for (const [f, file] of files.entries()) {
    const source = sources.get(file);
    const info = probes.get(file);
    if (!source || !info) throw new Error("source not probed");
    const bounds = [...new Set(copies.filter((c) => c.file === file).flatMap((c) => [c.from, c.to]))].sort((a, b) => a - b);
    byFile.set(file, bounds);
    // Split times a quarter frame before each keyframe: the muxer splits at the first keyframe at or after them.
    const times = bounds.map((k) => fixed(Math.max(0, (source.times[k] ?? 0) - SEEK_LEAD_FRAMES / fps)));
    const last = (source.times[bounds.at(-1) ?? 0] ?? 0) + COPY_SLACK_SECONDS;
    await runFfmpeg(
      {
        inputs: [{ file, format: info.container }],
        outputOptions: ["-map", "0:v:0", "-c", "copy", "-t", fixed(last), "-f", "segment", "-segment_format", "mpegts", "-segment_times", times.join(",")],
        output: path.join(scratch, `copy-${f}-%d.ts`),
      },
      { ...limits, durationSeconds: last, onProgress: (x) => onProgress((f + x) / files.length) },
    );
  }
  return copies.map((copy) => {
    const bounds = byFile.get(copy.file) ?? [];
    const f = files.indexOf(copy.file);
    const parts: { file: string; frames: number }[] = [];
    // Split file n + 1 holds the frames from bound n to bound n + 1.
    for (let n = bounds.indexOf(copy.from); n >= 0 && (bounds[n] ?? Infinity) < copy.to; n++) {
      parts.push({ file: `copy-${f}-${n + 1}.ts`, frames: (bounds[n + 1] ?? 0) - (bounds[n] ?? 0) });
    }
    return parts;
  });
}

/** An encoded piece: the render graph on the piece's segments (and the overlays over them), x264 matching the copies. */
async function encodePiece(
  plan: RenderPlan,
  piece: Extract<SmartPiece, { kind: "encode" }>,
  style: GraphStyle,
  output: string,
  reference: SourceVideo,
  probes: ReadonlyMap<string, MediaInfo>,
  options: SmartRenderOptions,
  limits: RunLimits,
  onProgress: ProgressCallback,
) {
  const end = piece.outputFrom + piece.frames;
  const overlays = plan.overlays.flatMap((overlay) => {
    const from = Math.max(overlay.fromFrame, piece.outputFrom);
    const to = Math.min(overlay.fromFrame + overlay.frames, end);
    if (to <= from) return [];
    const skip = overlay.skipFrames + (from - overlay.fromFrame);
    const start = overlay.kind === "image" ? overlay.start : overlay.start + (from - overlay.fromFrame) / plan.fps;
    return [{ ...overlay, start, fromFrame: from - piece.outputFrom, frames: to - from, skipFrames: skip }];
  });
  const sub: RenderPlan = { ...plan, segments: piece.segments, fades: piece.segments.slice(1).map(() => 0), overlays };
  const level = reference.level > 0 ? (reference.level / 10).toFixed(1) : undefined;
  const colour = [
    ...(reference.colour.range && reference.colour.range !== "unknown" ? ["-color_range", reference.colour.range] : []),
    ...(reference.colour.space && reference.colour.space !== "unknown" ? ["-colorspace", reference.colour.space] : []),
    ...(reference.colour.primaries && reference.colour.primaries !== "unknown" ? ["-color_primaries", reference.colour.primaries] : []),
    ...(reference.colour.transfer && reference.colour.transfer !== "unknown" ? ["-color_trc", reference.colour.transfer] : []),
  ];
  const video = [
    "-c:v", "libx264", "-preset", options.preset ?? RENDER_DEFAULTS.preset, "-crf", String(options.crf ?? RENDER_DEFAULTS.crf),
    "-pix_fmt", "yuv420p", "-r", String(plan.fps),
    "-profile:v", x264Profile(reference.profile), ...(level ? ["-level:v", level] : []), ...colour,
    "-an", "-f", "mpegts",
  ];
  await runGraph(sub, style, "video", output, video, probes, path.dirname(output), limits, onProgress, `graph-${path.basename(output)}.txt`);
}

function x264Profile(profile: string): string {
  const p = profile.toLowerCase();
  return p === "constrained baseline" ? "baseline" : p;
}

let graphCount = 0;

async function runGraph(
  plan: RenderPlan,
  style: GraphStyle,
  outputs: GraphOutputs,
  output: string,
  outputOptions: string[],
  probes: ReadonlyMap<string, MediaInfo>,
  scratch: string,
  limits: RunLimits,
  onProgress: ProgressCallback,
  scriptName = `graph-${graphCount++}.txt`,
) {
  const graph = buildRenderGraph(plan, style, outputs);
  const inputs: FfmpegInput[] = graph.inputs.map((input) => ({ ...input, format: input.format ?? probes.get(input.file)?.container }));
  const script = path.join(scratch, scriptName);
  await writeFile(script, graph.script);
  const map = outputs === "audio" ? ["-map", "[aout]"] : ["-map", "[vout]"];
  await runFfmpeg(
    { globalOptions: ["-filter_complex_script", script], inputs, outputOptions: [...map, ...outputOptions], output },
    { ...limits, durationSeconds: graph.frames / plan.fps, onProgress },
  );
}
