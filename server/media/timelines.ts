import type { MediaKind } from "./probe";
import { groupRuns } from "./render-graph";
import type { RenderPlan } from "./render-plan";

/**
 * Timelines for desktop editors (issue 13): the edit the render made, as FCPXML (Final Cut Pro,
 * DaVinci Resolve), OpenTimelineIO JSON and a CMX 3600 EDL. Pure: no I/O.
 *
 * Every cut is at the frame the render used: a timeline is built from the render's own plan
 * (planRender's cumulative frame rounding, dropped sub-frame segments, clamped starts), so record
 * in/out are the plan's frame edges, and each source in-point is the frame the render's graph reads
 * at the segment's start (renderSourceFrames).
 */

/** A frame rate as a ratio: num / den frames per second (30000/1001 for 29.97). */
export interface FrameRate {
  num: number;
  den: number;
}

export interface TimelineClip {
  /** The original media's name (what the user uploaded), which the editor relinks to. */
  name: string;
  kind: MediaKind;
  /** Sound from this clip is in the edit (a video with audio, or a sound file). */
  hasAudio: boolean;
  /** Picture from this clip is in the edit (a video or a still). */
  hasVideo: boolean;
  /** First source frame used, and how many frames. */
  sourceIn: number;
  frames: number;
  /** Output frame the clip starts at. */
  recordIn: number;
}

export interface TimelineSource {
  name: string;
  kind: MediaKind;
  hasAudio: boolean;
  /** The file's length in frames at the timeline's rate (0 for a still). */
  frames: number;
}

export interface Timeline {
  title: string;
  rate: FrameRate;
  width: number;
  height: number;
  sampleRate: number;
  clips: TimelineClip[];
  /** One per distinct original file, in first-use order. */
  sources: TimelineSource[];
  /** Total length in frames (the render's). */
  frames: number;
}

/** A frame rate in frames per second as a ratio; the NTSC rates (29.97, 23.976, 59.94) as x000/1001. */
export function frameRate(fps: number): FrameRate {
  if (Number.isInteger(fps)) return { num: fps, den: 1 };
  const ntsc = Math.round(fps * 1.001);
  if (Math.abs(fps - (ntsc * 1000) / 1001) < 1e-3) return { num: ntsc * 1000, den: 1001 };
  const den = 1000;
  return reduce(Math.round(fps * den), den);
}

export const fpsOf = (rate: FrameRate) => rate.num / rate.den;

/** Timecode base: frames counted per timecode second (30 for 29.97 non-drop frame). */
export const timecodeBase = (rate: FrameRate) => Math.round(rate.num / rate.den);

/**
 * The source frame (at the plan's rate) each planned segment starts from, as the render graph reads
 * it: one input per run of segments (render-graph groupRuns), seeked to the run's start and turned
 * into `fps` frames from there, each segment cut at round((start − seek) × fps) frames into its run.
 * So a segment's first frame is the source frame nearest seek + that many frames, which can be one
 * off round(start × fps) for a segment in the middle of a run. `chunked`: the render makes its
 * picture in chunks (render.ts pictureChunks), whose picture passes read no crossfade lead.
 * A still starts at 0.
 */
export function renderSourceFrames(plan: RenderPlan, chunked = false): number[] {
  const picture = chunked ? { ...plan, segments: plan.segments.map((s) => ({ ...s, leadSamples: 0, tailSamples: 0 })), fades: plan.fades.map(() => 0) } : plan;
  const frames = plan.segments.map((s) => (s.kind === "image" ? 0 : Math.round(s.start * plan.fps)));
  for (const run of groupRuns(picture)) {
    if (run.kind !== "video") continue;
    for (const i of run.members) {
      const segment = plan.segments[i];
      if (!segment) continue;
      const from = Math.round((segment.start - run.seekStart) * plan.fps);
      frames[i] = Math.max(0, Math.round(run.seekStart * plan.fps + from));
    }
  }
  return frames;
}

export interface SourceInfo {
  name: string;
  durationSeconds: number;
}

/**
 * The timeline of a render plan. `sources` maps each planned file (its path) to its original name
 * and length; `sourceFrames` gives each planned segment's first source frame (renderSourceFrames).
 * Clips are the plan's segments in order, back to back from frame 0.
 */
export function timelineOf(plan: RenderPlan, sources: ReadonlyMap<string, SourceInfo>, title: string, sourceFrames: readonly number[] = renderSourceFrames(plan)): Timeline {
  const rate = frameRate(plan.fps);
  const fps = plan.fps;
  let record = 0;
  const clips: TimelineClip[] = [];
  const byName = new Map<string, TimelineSource>();
  for (const [i, segment] of plan.segments.entries()) {
    const source = sources.get(segment.file);
    const name = source?.name ?? segment.file.split(/[\\/]/).pop() ?? "media";
    const still = segment.kind === "image";
    const sourceIn = still ? 0 : (sourceFrames[i] ?? Math.round(segment.start * fps));
    const hasAudio = segment.kind !== "image" && segment.hasAudio;
    clips.push({ name, kind: segment.kind, hasAudio, hasVideo: segment.kind !== "audio", sourceIn, frames: segment.frames, recordIn: record });
    record += segment.frames;
    const length = still ? 0 : Math.round((source?.durationSeconds ?? 0) * fps);
    const known = byName.get(name);
    const frames = Math.max(length, sourceIn + segment.frames, known?.frames ?? 0);
    byName.set(name, { name, kind: known?.kind ?? segment.kind, hasAudio: (known?.hasAudio ?? false) || hasAudio, frames });
  }
  return { title, rate, width: plan.width, height: plan.height, sampleRate: plan.sampleRate, clips, sources: [...byName.values()], frames: record };
}

function gcd(a: number, b: number): number {
  let x = Math.abs(a);
  let y = Math.abs(b);
  while (y) [x, y] = [y, x % y];
  return x || 1;
}

function reduce(num: number, den: number): FrameRate {
  const g = gcd(num, den);
  return { num: num / g, den: den / g };
}

/** FCPXML rational time of a frame count: "0s", "3s", "3/2s", "1001/30000s" (seconds as a reduced fraction). */
export function rationalTime(frames: number, rate: FrameRate): string {
  if (frames === 0) return "0s";
  const { num, den } = reduce(frames * rate.den, rate.num);
  return den === 1 ? `${num}s` : `${num}/${den}s`;
}

/** HH:MM:SS:FF at the timecode base (non-drop frame); hours past 23 keep counting. */
export function timecode(frames: number, rate: FrameRate): string {
  const base = timecodeBase(rate);
  const ff = frames % base;
  const totalSeconds = Math.floor(frames / base);
  const ss = totalSeconds % 60;
  const mm = Math.floor(totalSeconds / 60) % 60;
  const hh = Math.floor(totalSeconds / 3600);
  return [hh, mm, ss, ff].map((n) => String(n).padStart(2, "0")).join(":");
}

const xmlText = (value: string) =>
  value
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");

/** A relative file URL for a media name (`file:./talk%20one.mp4`). */
export function mediaUrl(name: string): string {
  return `file:./${encodeURIComponent(name).replace(/%2F/gi, "_")}`;
}

/**
 * FCPXML 1.9: one format, one asset per original file (its media-rep pointing at the file by name,
 * next to the .fcpxml), and a project whose spine holds one asset-clip per cut, back to back.
 */
export function toFcpxml(timeline: Timeline): string {
  const { rate } = timeline;
  const frameDuration = rationalTime(1, rate);
  const assetId = new Map(timeline.sources.map((s, i) => [s.name, `r${i + 2}`]));
  const lines: string[] = [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!DOCTYPE fcpxml>`,
    `<fcpxml version="1.9">`,
    `  <resources>`,
    `    <format id="r1" frameDuration="${frameDuration}" width="${timeline.width}" height="${timeline.height}"/>`,
  ];
  for (const source of timeline.sources) {
    const hasVideo = source.kind !== "audio";
    const attrs = [
      `id="${assetId.get(source.name)}"`,
      `name="${xmlText(source.name)}"`,
      `start="0s"`,
      `duration="${rationalTime(source.frames, rate)}"`,
      `hasVideo="${hasVideo ? 1 : 0}"`,
      ...(hasVideo ? [`format="r1"`] : []),
      `hasAudio="${source.hasAudio ? 1 : 0}"`,
      ...(source.hasAudio ? [`audioSources="1"`, `audioChannels="2"`, `audioRate="${timeline.sampleRate}"`] : []),
    ];
    lines.push(`    <asset ${attrs.join(" ")}>`, `      <media-rep kind="original-media" src="${xmlText(mediaUrl(source.name))}"/>`, `    </asset>`);
  }
  lines.push(
    `  </resources>`,
    `  <library>`,
    `    <event name="${xmlText(timeline.title)}">`,
    `      <project name="${xmlText(timeline.title)}">`,
    `        <sequence format="r1" duration="${rationalTime(timeline.frames, rate)}" tcStart="0s" tcFormat="NDF" audioLayout="stereo" audioRate="${timeline.sampleRate === 44_100 ? "44.1k" : "48k"}">`,
    `          <spine>`,
  );
  for (const clip of timeline.clips) {
    const attrs = [
      `ref="${assetId.get(clip.name)}"`,
      `offset="${rationalTime(clip.recordIn, rate)}"`,
      `name="${xmlText(clip.name)}"`,
      `start="${rationalTime(clip.sourceIn, rate)}"`,
      `duration="${rationalTime(clip.frames, rate)}"`,
      ...(clip.hasVideo ? [`format="r1"`] : []),
      `tcFormat="NDF"`,
      // A video whose sound the edit does not use keeps its picture only.
      ...(clip.hasVideo && !clip.hasAudio && clip.kind === "video" ? [`audioRole="dialogue"`, `srcEnable="video"`] : []),
    ];
    lines.push(`            <asset-clip ${attrs.join(" ")}/>`);
  }
  lines.push(`          </spine>`, `        </sequence>`, `      </project>`, `    </event>`, `  </library>`, `</fcpxml>`, ``);
  return lines.join("\n");
}

const otioTime = (frames: number, rate: FrameRate) => ({ OTIO_SCHEMA: "RationalTime.1", rate: fpsOf(rate), value: frames });
const otioRange = (start: number, frames: number, rate: FrameRate) => ({ OTIO_SCHEMA: "TimeRange.1", duration: otioTime(frames, rate), start_time: otioTime(start, rate) });

function otioGap(frames: number, rate: FrameRate) {
  return { OTIO_SCHEMA: "Gap.1", metadata: {}, name: "", source_range: otioRange(0, frames, rate), effects: [], markers: [], enabled: true };
}

function otioClip(clip: TimelineClip, source: TimelineSource | undefined, rate: FrameRate) {
  return {
    OTIO_SCHEMA: "Clip.2",
    metadata: {},
    name: clip.name,
    source_range: otioRange(clip.sourceIn, clip.frames, rate),
    effects: [],
    markers: [],
    enabled: true,
    media_references: {
      DEFAULT_MEDIA: {
        OTIO_SCHEMA: "ExternalReference.1",
        metadata: {},
        name: clip.name,
        available_range: source && source.frames > 0 ? otioRange(0, source.frames, rate) : null,
        available_image_bounds: null,
        target_url: clip.name,
      },
    },
    active_media_reference_key: "DEFAULT_MEDIA",
  };
}

function otioTrack(name: string, kind: "Video" | "Audio", children: unknown[]) {
  return { OTIO_SCHEMA: "Track.1", metadata: {}, name, source_range: null, effects: [], markers: [], enabled: true, children, kind };
}

/** OpenTimelineIO JSON: a Timeline whose Stack holds a video track and an audio track; a cut with nothing on a track is a Gap there. */
export function toOtio(timeline: Timeline): string {
  const { rate } = timeline;
  const sources = new Map(timeline.sources.map((s) => [s.name, s]));
  const track = (has: (clip: TimelineClip) => boolean) => {
    const children: unknown[] = [];
    let gap = 0;
    for (const clip of timeline.clips) {
      if (!has(clip)) {
        gap += clip.frames;
        continue;
      }
      if (gap) children.push(otioGap(gap, rate));
      gap = 0;
      children.push(otioClip(clip, sources.get(clip.name), rate));
    }
    if (gap && children.length) children.push(otioGap(gap, rate));
    return children;
  };
  const document = {
    OTIO_SCHEMA: "Timeline.1",
    metadata: {},
    name: timeline.title,
    global_start_time: otioTime(0, rate),
    tracks: {
      OTIO_SCHEMA: "Stack.1",
      metadata: {},
      name: "tracks",
      source_range: null,
      effects: [],
      markers: [],
      enabled: true,
      children: [otioTrack("Video 1", "Video", track((c) => c.hasVideo)), otioTrack("Audio 1", "Audio", track((c) => c.hasAudio))],
    },
  };
  return `${JSON.stringify(document, null, 4)}\n`;
}

/** An EDL title or comment: one line of printable ASCII. */
const edlText = (value: string) => value.normalize("NFKD").replace(/[^\x20-\x7e]/g, "_").trim();

/**
 * CMX 3600: TITLE, FCM NON-DROP FRAME, then one numbered cut event per clip (reel AX, the clip's
 * name in a FROM CLIP NAME comment): AA/V for picture and sound, V for picture only, AA for sound only.
 * Timecodes are non-drop frame at the timecode base (29.97 counts 30 frames a timecode second).
 */
export function toEdl(timeline: Timeline): string {
  const { rate } = timeline;
  const lines = [`TITLE: ${edlText(timeline.title).slice(0, 70) || "Cutroom"}`, `FCM: NON-DROP FRAME`, ``];
  timeline.clips.forEach((clip, i) => {
    const track = clip.hasVideo && clip.hasAudio ? "AA/V" : clip.hasVideo ? "V" : "AA";
    const event = String(i + 1).padStart(3, "0");
    const times = [clip.sourceIn, clip.sourceIn + clip.frames, clip.recordIn, clip.recordIn + clip.frames].map((f) => timecode(f, rate));
    lines.push(`${event}  ${"AX".padEnd(8)} ${track.padEnd(5)} ${"C".padEnd(8)} ${times.join(" ")}`, `* FROM CLIP NAME: ${edlText(clip.name)}`, ``);
  });
  return lines.join("\n");
}

export type TimelineFormat = "fcpxml" | "otio" | "edl";

export const TIMELINE_CONTENT_TYPES: Record<TimelineFormat, string> = {
  fcpxml: "application/xml; charset=utf-8",
  otio: "application/json; charset=utf-8",
  edl: "text/plain; charset=utf-8",
};

export function timelineFile(timeline: Timeline, format: TimelineFormat): string {
  return format === "fcpxml" ? toFcpxml(timeline) : format === "otio" ? toOtio(timeline) : toEdl(timeline);
}
