/**
 * Readers for the timeline files (FCPXML, OTIO JSON, CMX 3600 EDL) used by the tests: each turns a
 * file back into its cuts in frames, independently of the generators (an XML parser for FCPXML,
 * JSON.parse for OTIO, the EDL's columns for the EDL).
 */
// jsdom (a devDependency, the unit tests' environment) ships no type declarations; its DOMParser reads XML.
// @ts-expect-error no declaration file for "jsdom"
import { JSDOM as UntypedJSDOM } from "jsdom";

const JSDOM = UntypedJSDOM as new (html: string) => { window: { DOMParser: typeof DOMParser } };

export interface ParsedCut {
  name: string;
  /** Output frame the cut starts at, source frame it starts from, its length in frames. */
  recordIn: number;
  sourceIn: number;
  frames: number;
}

/** "3/2s", "2s", "0s", "1001/30000s" → exact frames at `fps` (num/den); throws unless it is a whole frame. */
export function framesOfRational(value: string, fps: { num: number; den: number }): number {
  const match = /^(\d+)(?:\/(\d+))?s$/.exec(value);
  if (!match) throw new Error(`not an FCPXML time: ${value}`);
  const num = Number(match[1]);
  const den = Number(match[2] ?? 1);
  // seconds × fps = (num / den) × (fps.num / fps.den)
  const top = num * fps.num;
  const bottom = den * fps.den;
  if (top % bottom !== 0) throw new Error(`${value} is not on a frame at ${fps.num}/${fps.den}`);
  return top / bottom;
}

export function parseFcpxml(text: string) {
  const { DOMParser } = new JSDOM("").window;
  const doc = new DOMParser().parseFromString(text, "application/xml");
  if (doc.getElementsByTagName("parsererror").length) throw new Error("FCPXML does not parse");
  const root = doc.documentElement;
  const format = doc.getElementsByTagName("format")[0]!;
  const [fdNum, fdDen] = format.getAttribute("frameDuration")!.replace(/s$/, "").split("/").map(Number) as [number, number | undefined];
  // frameDuration = fdNum/fdDen s → fps = fdDen/fdNum
  const fps = { num: fdDen ?? 1, den: fdNum };
  const assets = new Map([...doc.getElementsByTagName("asset")].map((a) => [a.getAttribute("id")!, a]));
  const sequence = doc.getElementsByTagName("sequence")[0]!;
  const clips = [...doc.getElementsByTagName("spine")[0]!.children];
  const cuts: ParsedCut[] = clips.map((clip) => ({
    name: clip.getAttribute("name")!,
    recordIn: framesOfRational(clip.getAttribute("offset")!, fps),
    sourceIn: framesOfRational(clip.getAttribute("start")!, fps),
    frames: framesOfRational(clip.getAttribute("duration")!, fps),
  }));
  return {
    version: root.getAttribute("version"),
    tagName: root.tagName,
    fps,
    duration: framesOfRational(sequence.getAttribute("duration")!, fps),
    cuts,
    clipTags: clips.map((c) => c.tagName),
    refs: clips.map((c) => assets.get(c.getAttribute("ref")!)),
  };
}

interface OtioTime {
  OTIO_SCHEMA: string;
  rate: number;
  value: number;
}
interface OtioItem {
  OTIO_SCHEMA: string;
  name: string;
  source_range: { OTIO_SCHEMA: string; start_time: OtioTime; duration: OtioTime };
  media_references?: Record<string, { OTIO_SCHEMA: string; target_url: string }>;
  active_media_reference_key?: string;
}
interface OtioTrack {
  OTIO_SCHEMA: string;
  kind: "Video" | "Audio";
  children: OtioItem[];
}

/** The clips of each track with the record frame each starts at (gaps advance the record time). */
export function parseOtio(text: string) {
  const doc = JSON.parse(text) as { OTIO_SCHEMA: string; tracks: { OTIO_SCHEMA: string; children: OtioTrack[] } };
  const tracks = doc.tracks.children.map((track) => {
    let record = 0;
    const cuts: (ParsedCut & { url: string; schema: string })[] = [];
    for (const item of track.children) {
      const frames = item.source_range.duration.value;
      if (item.OTIO_SCHEMA === "Clip.2") {
        const ref = item.media_references![item.active_media_reference_key!]!;
        cuts.push({ name: item.name, recordIn: record, sourceIn: item.source_range.start_time.value, frames, url: ref.target_url, schema: ref.OTIO_SCHEMA });
      } else if (item.OTIO_SCHEMA !== "Gap.1") throw new Error(`unexpected ${item.OTIO_SCHEMA}`);
      record += frames;
    }
    return { schema: track.OTIO_SCHEMA, kind: track.kind, cuts, frames: record, rates: track.children.map((c) => c.source_range.duration.rate) };
  });
  return { schema: doc.OTIO_SCHEMA, stackSchema: doc.tracks.OTIO_SCHEMA, tracks };
}

/** HH:MM:SS:FF at a timecode base → frames. */
export function framesOfTimecode(tc: string, base: number): number {
  const [hh, mm, ss, ff] = tc.split(":").map(Number) as [number, number, number, number];
  if (ff >= base || ss >= 60 || mm >= 60) throw new Error(`bad timecode ${tc}`);
  return ((hh * 60 + mm) * 60 + ss) * base + ff;
}

export function parseEdl(text: string, base: number) {
  const lines = text.split("\n");
  const title = /^TITLE: (.*)$/.exec(lines[0] ?? "")?.[1];
  const fcm = /^FCM: (.*)$/.exec(lines[1] ?? "")?.[1];
  const events: (ParsedCut & { event: number; reel: string; track: string; transition: string })[] = [];
  for (let i = 2; i < lines.length; i++) {
    const m = /^(\d{3,})\s+(\S+)\s+(\S+)\s+(C)\s+(\S+) (\S+) (\S+) (\S+)$/.exec(lines[i]!);
    if (!m) continue;
    const [srcIn, srcOut, recIn, recOut] = m.slice(5, 9).map((tc) => framesOfTimecode(tc, base)) as [number, number, number, number];
    if (srcOut - srcIn !== recOut - recIn) throw new Error(`event ${m[1]}: source and record lengths differ`);
    const comment = /^\* FROM CLIP NAME: (.*)$/.exec(lines[i + 1] ?? "");
    events.push({ event: Number(m[1]), reel: m[2]!, track: m[3]!, transition: m[4]!, name: comment?.[1] ?? "", recordIn: recIn, sourceIn: srcIn, frames: recOut - recIn });
  }
  return { title, fcm, events };
}
