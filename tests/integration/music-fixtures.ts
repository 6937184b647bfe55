import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** The attribution line of the fixture catalogue's CC-BY song. */
export const CC_BY_ATTRIBUTION = '"Café Nocturne" by Lúcia Ramos, licensed CC BY 4.0';

/** Encodes `seconds` of a lavfi source with ffmpeg (our own test input, not a user's file). */
export function synthAudio(file: string, source: string, seconds: number, args: string[] = []): void {
  execFileSync("ffmpeg", ["-hide_banner", "-loglevel", "error", "-y", "-f", "lavfi", "-i", `${source}:duration=${seconds}`, ...args, file]);
}

/**
 * A stand-in for music/catalogue.json until the composed catalogue lands: two 20 s Opus tracks in a temp folder,
 * one CC0 and one CC-BY, in the format the composer writes.
 */
export function fixtureCatalogue(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-catalogue-"));
  synthAudio(path.join(dir, "sunny-steps.opus"), "sine=frequency=440:sample_rate=48000", 20, ["-c:a", "libopus", "-b:a", "32k"]);
  synthAudio(path.join(dir, "cafe-nocturne.opus"), "anoisesrc=color=pink:amplitude=0.2:sample_rate=48000", 20, ["-c:a", "libopus", "-b:a", "32k"]);
  const tracks = [
    {
      slug: "sunny-steps",
      title: "Sunny Steps",
      author: "Cutroom",
      licence: { id: "CC0-1.0", attribution: null },
      genre_tags: ["acoustic", "pop"],
      instrument_tags: ["guitar"],
      video_theme_tags: ["travel", "vlog"],
      file: "sunny-steps.opus",
      duration_ms: 20_000,
      loop: { start_ms: 2_000, end_ms: 18_000 },
      energy: 2,
      tempo: 112,
      loudness_lufs: -18,
    },
    {
      slug: "cafe-nocturne",
      title: "Café Nocturne",
      author: "Lúcia Ramos",
      licence: { id: "CC-BY-4.0", attribution: CC_BY_ATTRIBUTION },
      genre_tags: ["jazz"],
      instrument_tags: ["piano", "double bass"],
      video_theme_tags: ["calm"],
      file: "cafe-nocturne.opus",
      duration_ms: 20_000,
      loop: { start_ms: 0, end_ms: 20_000 },
      energy: 1,
      tempo: 72,
      loudness_lufs: -18,
    },
  ];
  fs.writeFileSync(path.join(dir, "catalogue.json"), JSON.stringify({ tracks }, null, 2));
  return dir;
}
