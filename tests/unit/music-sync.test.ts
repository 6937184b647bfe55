// @vitest-environment node
/** Issue 15: how catalogue.json entries and operators' tags become songs (server/music/catalogue.ts). */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { catalogueSong, splitTags } from "../../server/music/catalogue";
import { renderedSongId } from "../../server/music/attribution";
import { catalogueSlug, songFilePath, type SongRow } from "../../server/db/songs";

const DIR = path.resolve("/srv/cutroom/music");

/** The row the sync would write, as the lookups answer it. */
function asRow(read: ReturnType<typeof catalogueSong>, id: number): SongRow {
  if (!("song" in read)) throw new Error(`skipped: ${read.skip}`);
  const { song } = read;
  return { ...song, id, available: 1, genre_tags: JSON.stringify(song.genre_tags), instrument_tags: JSON.stringify(song.instrument_tags), video_theme_tags: JSON.stringify(song.video_theme_tags) };
}
const entry = {
  slug: "still-water",
  title: "Still Water",
  author: "Cutroom",
  licence: { id: "CC0-1.0", attribution: null },
  genre_tags: ["Ambient", "ambient", " Piano "],
  instrument_tags: ["piano"],
  video_theme_tags: ["calm"],
  file: "still-water.opus",
  duration_ms: 95_500,
  loop: { start_ms: 8000, end_ms: 88_000 },
  energy: 1,
  tempo: 70,
  loudness_lufs: -18,
};

describe("catalogue entries", () => {
  it("reads the composer's format: slug, licence, tags cleaned, loop points, the file beside catalogue.json", () => {
    const read = catalogueSong(entry, DIR);
    expect("song" in read && read.song).toMatchObject({
      source: "catalogue",
      key: "still-water",
      genre_tags: ["ambient", "piano"],
      licence_id: "CC0-1.0",
      attribution: null,
      duration_ms: 95_500,
      loop_start_ms: 8000,
      loop_end_ms: 88_000,
      energy: 1,
    });
    const row = asRow(read, 1);
    expect(songFilePath(row, { catalogueDir: DIR, musicDir: null })).toBe(path.join(DIR, "still-water.opus"));
  });

  it("also reads ids, licence ids and seconds, and keeps a file of another name", () => {
    const read = catalogueSong({ id: "dawn", title: "Dawn", licence: "CC-BY-4.0", file: "tracks/dawn-v2.opus", duration: 61.25, loop_start: 2, loop_end: 60 }, DIR);
    expect("song" in read && read.song).toMatchObject({ key: "dawn|tracks/dawn-v2.opus", licence_id: "CC-BY-4.0", duration_ms: 61_250, loop_start_ms: 2000, loop_end_ms: 60_000, author: "Cutroom" });
    expect(catalogueSlug("dawn|tracks/dawn-v2.opus")).toBe("dawn");
    const row = asRow(read, 2);
    expect(songFilePath(row, { catalogueDir: DIR, musicDir: null })).toBe(path.join(DIR, "tracks/dawn-v2.opus"));
  });

  it("skips share-alike, non-commercial and no-derivatives licences, files outside the folder, bad slugs and lengths", () => {
    for (const id of ["CC-BY-SA-4.0", "CC-BY-NC-4.0", "CC-BY-ND-4.0"]) expect(catalogueSong({ ...entry, licence: { id, attribution: "x" } }, DIR)).toHaveProperty("skip");
    expect(catalogueSong({ ...entry, file: "../../etc/passwd" }, DIR)).toHaveProperty("skip");
    expect(catalogueSong({ ...entry, file: "/etc/passwd" }, DIR)).toHaveProperty("skip");
    expect(catalogueSong({ ...entry, slug: "../x" }, DIR)).toHaveProperty("skip");
    expect(catalogueSong({ ...entry, duration_ms: 21 * 60_000 }, DIR)).toHaveProperty("skip");
    expect(catalogueSong({ title: "No file" }, DIR)).toHaveProperty("skip");
  });
});

describe("operators' tags", () => {
  it("splits genres on , ; and /", () => {
    expect(splitTags("Rock; Indie/Pop, Lo-Fi")).toEqual(["rock", "indie", "pop", "lo-fi"]);
    expect(splitTags(undefined)).toEqual([]);
  });
});

describe("the song a render played", () => {
  const settings = JSON.stringify({ bgm_id: 7 });
  it("is the render's own record, else the chosen song when the render mixed music, else none", () => {
    expect(renderedSongId({ applied_features: JSON.stringify({ music: true, music_song_id: 3 }), settings })).toBe(3);
    expect(renderedSongId({ applied_features: JSON.stringify({ music: true }), settings })).toBe(7);
    expect(renderedSongId({ applied_features: JSON.stringify({ music: false }), settings })).toBeNull();
    expect(renderedSongId({ applied_features: "{}", settings })).toBeNull();
  });
});
