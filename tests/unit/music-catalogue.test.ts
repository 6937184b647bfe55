// @vitest-environment node
/**
 * The background-music catalogue that ships in music/ (built by `npm run music:build`) and the composer
 * behind it: real files, probed with ffprobe and measured with ffmpeg.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { barMs, compose, INTRO_BARS, OUTRO_BARS, phraseBars, type TrackSpec } from "../../scripts/music/composer";
import { writeSmf } from "../../scripts/music/midi";
import { SPECS } from "../../scripts/music/specs";

const MUSIC = path.resolve(import.meta.dirname, "../../music");

interface Track {
  slug: string;
  title: string;
  author: string;
  licence: { id: string; attribution: string | null };
  genre_tags: string[];
  instrument_tags: string[];
  video_theme_tags: string[];
  file: string;
  duration_ms: number;
  loop: { start_ms: number; end_ms: number };
  energy: number;
  tempo: number;
  loudness_lufs: number;
}

const catalogue = JSON.parse(fs.readFileSync(path.join(MUSIC, "catalogue.json"), "utf8")) as { tracks: Track[] };
const tracks = catalogue.tracks;

function ffprobe(file: string) {
  const out = execFileSync("ffprobe", ["-v", "error", "-show_entries", "format=duration:stream=codec_name,sample_rate,channels", "-of", "json", file], { encoding: "utf8" });
  return JSON.parse(out) as { format: { duration: string }; streams: { codec_name: string; sample_rate: string; channels: number }[] };
}

describe("the shipped music catalogue", () => {
  it("has at least 24 tracks, each a distinct slug and title with its Opus file", () => {
    expect(tracks.length).toBeGreaterThanOrEqual(24);
    expect(new Set(tracks.map((t) => t.slug)).size).toBe(tracks.length);
    expect(new Set(tracks.map((t) => t.title.toLowerCase())).size).toBe(tracks.length);
    for (const t of tracks) {
      expect(t.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(t.file).toBe(`${t.slug}.opus`);
      expect(fs.statSync(path.join(MUSIC, t.file)).size, t.file).toBeGreaterThan(100_000);
      expect(t.author).toBe("Cutroom");
    }
    // No stray audio that the catalogue does not describe.
    const files = fs.readdirSync(MUSIC).filter((f) => f.endsWith(".opus")).sort();
    expect(files).toEqual(tracks.map((t) => t.file).sort());
  });

  it("is free to publish: CC0, or CC-BY with the attribution line a video must carry", () => {
    for (const t of tracks) {
      if (t.licence.id === "CC0-1.0") expect(t.licence.attribution).toBeNull();
      else {
        expect(t.licence.id).toMatch(/^CC-BY-\d\.\d$/);
        expect(t.licence.attribution?.length).toBeGreaterThan(0);
      }
    }
    const licence = fs.readFileSync(path.join(MUSIC, "LICENSE.md"), "utf8");
    expect(licence).toContain("CC0 1.0");
    expect(licence).toContain("FluidR3_GM");
    for (const t of tracks) expect(licence, t.title).toContain(t.title);
  });

  it("lasts 2–4 minutes per track, with a loop of at least 20 s inside it", () => {
    for (const t of tracks) {
      expect(t.duration_ms, t.slug).toBeGreaterThanOrEqual(120_000);
      expect(t.duration_ms, t.slug).toBeLessThanOrEqual(240_000);
      expect(t.loop.start_ms, t.slug).toBeGreaterThan(0);
      expect(t.loop.end_ms, t.slug).toBeLessThan(t.duration_ms);
      expect(t.loop.end_ms - t.loop.start_ms, t.slug).toBeGreaterThanOrEqual(20_000);
    }
  });

  it("tags every track with lowercase words, an energy from 1 to 3, a tempo and a level", () => {
    const word = /^[a-z]+([ -][a-z]+)*$/;
    for (const t of tracks) {
      for (const list of [t.genre_tags, t.instrument_tags, t.video_theme_tags]) {
        expect(list.length, t.slug).toBeGreaterThan(0);
        for (const tag of list) expect(tag, t.slug).toMatch(word);
      }
      expect([1, 2, 3]).toContain(t.energy);
      expect(t.tempo).toBeGreaterThanOrEqual(60);
      expect(t.tempo).toBeLessThanOrEqual(120);
      // Every track at the same loudness, so switching songs never jumps in level.
      expect(Math.abs(t.loudness_lufs - -20), t.slug).toBeLessThanOrEqual(1);
    }
    // Several genres and all three energies.
    expect(new Set(tracks.flatMap((t) => t.genre_tags)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(tracks.map((t) => t.energy))).toEqual(new Set([1, 2, 3]));
  });

  it("fits in 30 MB in all", () => {
    const total = tracks.reduce((sum, t) => sum + fs.statSync(path.join(MUSIC, t.file)).size, 0);
    expect(total).toBeLessThanOrEqual(30 * 1000 * 1000);
  });

  it("matches its files: stereo Opus at 48 kHz, as long as the catalogue says", () => {
    for (const t of [tracks[0], tracks[Math.floor(tracks.length / 2)], tracks[tracks.length - 1]] as Track[]) {
      const probe = ffprobe(path.join(MUSIC, t.file));
      expect(probe.streams[0]).toMatchObject({ codec_name: "opus", sample_rate: "48000", channels: 2 });
      expect(Math.abs(Number(probe.format.duration) * 1000 - t.duration_ms), t.slug).toBeLessThan(50);
    }
  });

  it("sounds like a bed for speech: no clipping, no silence before its ending, little energy in the speech presence band", () => {
    const rms = (file: string, filter: string) => {
      const { stderr } = spawnSync("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", `${filter},astats=measure_overall=RMS_level:measure_perchannel=none`, "-f", "null", "-"], { encoding: "utf8" });
      return Number(/RMS level dB: (-?[\d.]+)/.exec(stderr)?.[1]);
    };
    for (const t of [tracks[1], tracks[7], tracks[tracks.length - 2]] as Track[]) {
      const file = path.join(MUSIC, t.file);
      const result = spawnSync("ffmpeg", ["-hide_banner", "-nostats", "-i", file, "-af", "silencedetect=n=-50dB:d=2,ebur128=peak=true", "-f", "null", "-"], { encoding: "utf8" });
      const log = result.stderr;
      const summary = log.slice(log.lastIndexOf("Summary:"));
      expect(Number(/I:\s+(-?[\d.]+) LUFS/.exec(summary)?.[1]), t.slug).toBeCloseTo(-20, 0);
      expect(Number(/True peak:\s+Peak:\s+(-?[\d.]+)/.exec(summary)?.[1]), t.slug).toBeLessThanOrEqual(-3);
      // The only quiet stretch allowed is the last chord dying away.
      for (const m of log.matchAll(/silence_start: ([\d.]+)/g)) expect(Number(m[1]) * 1000, t.slug).toBeGreaterThan(t.duration_ms - 4000);
      const body = rms(file, "highpass=f=250:p=2,lowpass=f=2000:p=2");
      const presence = rms(file, "highpass=f=2000:p=2,lowpass=f=4000:p=2");
      expect(body - presence, t.slug).toBeGreaterThanOrEqual(8);
    }
  }, 60_000);

  it("was built from the current specs (rebuild with `npm run music:build` after changing one)", () => {
    expect(tracks.map((t) => t.slug)).toEqual(SPECS.map((s) => s.slug));
    for (const spec of SPECS) {
      const t = tracks.find((x) => x.slug === spec.slug) as Track;
      const { loop } = compose(spec);
      expect(t.loop, spec.slug).toEqual({ start_ms: loop.startMs, end_ms: loop.endMs });
      expect(t.tempo).toBe(spec.tempo);
      expect(t.energy).toBe(spec.energy);
      expect(t.genre_tags).toEqual(spec.genre_tags);
    }
  });
});

describe("the composer", () => {
  it("writes the same notes for the same spec, and other notes for another seed", () => {
    for (const spec of SPECS) {
      const a = writeSmf(compose(spec).tracks);
      const b = writeSmf(compose(structuredClone(spec)).tracks);
      expect(a.equals(b), spec.slug).toBe(true);
      expect(a.subarray(0, 4).toString("ascii")).toBe("MThd");
    }
    const spec = SPECS[0] as TrackSpec;
    const other = writeSmf(compose({ ...spec, seed: 12345 }).tracks);
    expect(other.equals(writeSmf(compose(spec).tracks))).toBe(false);
  });

  it("builds every section from whole phrases and loops from a B's end back to a B's end", () => {
    for (const spec of SPECS) {
      const c = compose(spec);
      let bar = 0;
      for (const s of c.sections) {
        expect(s.startBar, spec.slug).toBe(bar);
        const phrase = s.name === "intro" || s.name === "outro" ? 4 : phraseBars(spec);
        expect(s.bars % phrase, `${spec.slug} ${s.name}`).toBe(0);
        bar += s.bars;
      }
      expect(c.bars).toBe(bar);
      expect(c.sections[0]).toMatchObject({ name: "intro", bars: INTRO_BARS });
      expect(c.sections.at(-1)).toMatchObject({ name: "outro", bars: OUTRO_BARS });
      // Both loop points sit right after a B section: the jump back lands where the music already goes.
      const before = (startBar: number) => c.sections.find((s) => s.startBar + s.bars === startBar)?.name;
      expect(before(c.loop.startBar), spec.slug).toBe("B");
      expect(before(c.loop.endBar), spec.slug).toBe("B");
      expect((c.loop.endBar - c.loop.startBar) % (2 * phraseBars(spec))).toBe(0);
      expect(c.loop.startMs).toBe(Math.round(c.loop.startBar * barMs(spec)));
      expect(c.loop.endMs).toBe(Math.round(c.loop.endBar * barMs(spec)));
      expect(c.seconds).toBeGreaterThanOrEqual(115);
      expect(c.seconds).toBeLessThanOrEqual(235);
    }
  });

  it("keeps every part soft: no note louder than velocity 64, drums quieter still", () => {
    for (const spec of SPECS) {
      for (const track of compose(spec).tracks) {
        for (const e of track.events) {
          if (e.kind !== "note") continue;
          expect(e.velocity, spec.slug).toBeLessThanOrEqual(e.channel === 9 ? 58 : 64);
          expect(e.key).toBeGreaterThanOrEqual(24);
          expect(e.key).toBeLessThanOrEqual(100);
        }
      }
    }
  });
});
