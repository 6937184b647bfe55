import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Song, SongList } from "../../api/music";
import { SharePage } from "../../api/share";
import { findSong, listAvailableSongs, songFilePath } from "../../server/db/songs";
import { withAttribution } from "../../server/music/attribution";
import { bearer, jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";
import { CC_BY_ATTRIBUTION, fixtureCatalogue, synthAudio } from "./music-fixtures";
import { startFakeYoutube, type FakeYoutube } from "./youtube-server";

/**
 * Issue 15, background music: the shipped catalogue and the operator's MUSIC_DIR as one list of songs (filter by
 * tag, search by title or author), each playable by the browser without a bearer header, picked for one's own
 * project only; the credit line of a CC-BY song on the share page of a video that played it.
 */
describe("background music", () => {
  let server: TestServer;
  let base = "";
  let owner = { token: "", email: "" };
  let other = { token: "", email: "" };
  let projectId = 0;
  let otherProjectId = 0;
  let catalogueDir = "";
  let musicDir = "";
  let outside = "";
  let fake: FakeYoutube;
  const api = jsonApi(() => base, () => owner.token);
  const songs = async (query = "") => {
    const res = await api("GET", `/bgms${query}`);
    expect(res.status).toBe(200);
    return SongList.parse(res.body).data;
  };
  const projectRow = (id: number) => server.db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  beforeAll(async () => {
    catalogueDir = fixtureCatalogue();
    musicDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-music-dir-"));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-outside-"));
    fake = await startFakeYoutube();
    server = await startTestServer({ MUSIC_CATALOGUE_DIR: catalogueDir, MUSIC_DIR: musicDir, ...fake.env() });
    base = await listen(server);
    owner = await server.signUp();
    other = await server.signUp();
    await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("email", "=", owner.email).execute();
    projectId = await processedTalkProject(base, owner.token, "Music talk");
    otherProjectId = await processedTalkProject(base, other.token, "Their talk");
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    await fake?.close();
    for (const dir of [catalogueDir, musicDir, outside]) if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("lists the catalogue sorted by title, filters by any tag list and searches title and author ignoring case and accents", async () => {
    const all = await songs();
    expect(all.map((s) => s.title)).toEqual(["Café Nocturne", "Sunny Steps"]);
    const cafe = all[0]!;
    expect(cafe).toMatchObject({
      author: "Lúcia Ramos",
      source: "catalogue",
      duration_ms: 20_000,
      genre_tags: ["jazz"],
      instrument_tags: ["piano", "double bass"],
      video_theme_tags: ["calm"],
      licence: { id: "CC-BY-4.0", attribution: CC_BY_ATTRIBUTION },
    });
    expect(all[1]!.licence).toEqual({ id: "CC0-1.0", attribution: null });

    expect((await songs("?tag=jazz")).map((s) => s.title)).toEqual(["Café Nocturne"]);
    expect((await songs("?tag=Guitar")).map((s) => s.title)).toEqual(["Sunny Steps"]);
    expect((await songs("?tag=vlog")).map((s) => s.title)).toEqual(["Sunny Steps"]);
    expect(await songs("?tag=metal")).toEqual([]);
    expect((await songs("?q=cafe")).map((s) => s.title)).toEqual(["Café Nocturne"]);
    expect((await songs("?q=LUCIA")).map((s) => s.title)).toEqual(["Café Nocturne"]);
    expect((await songs("?q=sunny&tag=acoustic")).map((s) => s.title)).toEqual(["Sunny Steps"]);

    const one = await api("GET", `/bgms/${cafe.id}`);
    expect(one.status).toBe(200);
    expect(Song.parse(one.body)).toEqual(cafe);
    expect((await api("GET", "/bgms/999999")).status).toBe(404);
    expect((await fetch(`${base}/api/v1/bgms`)).status).toBe(401);

    // What the render helper reads: the row and the absolute path of its file.
    const row = (await findSong(server.db, cafe.id))!;
    expect(row).toMatchObject({ source: "catalogue", key: "cafe-nocturne", loop_start_ms: 0, loop_end_ms: 20_000, energy: 1, tempo: 72, available: 1 });
    expect(songFilePath(row, server.config.music)).toBe(path.join(catalogueDir, "cafe-nocturne.opus"));
    expect((await listAvailableSongs(server.db)).map((s) => s.id)).toEqual(all.map((s) => s.id));
  });

  it("plays a catalogue demo without a bearer header, by range, cached for good", async () => {
    const [cafe] = await songs("?q=cafe");
    const res = await fetch(new URL(cafe!.public_demo, base), { headers: { range: "bytes=0-99" } });
    expect(res.status).toBe(206);
    expect(res.headers.get("content-type")).toBe("audio/ogg");
    expect(res.headers.get("content-range")).toBe(`bytes 0-99/${fs.statSync(path.join(catalogueDir, "cafe-nocturne.opus")).size}`);
    expect(res.headers.get("cache-control")).toContain("immutable");
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.length).toBe(100);
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("OggS");
    const whole = await fetch(new URL(cafe!.public_demo, base));
    expect(whole.status).toBe(200);
    expect((await whole.arrayBuffer()).byteLength).toBe(fs.statSync(path.join(catalogueDir, "cafe-nocturne.opus")).size);
    expect((await fetch(`${base}/api/v1/bgms/999999/demo`)).status).toBe(404);
  });

  it("picks a song for one's own project only (automatic music on, needs a render), never another user's", async () => {
    const [sunny] = await songs("?q=sunny");
    await server.db.updateTable("projects").set({ needs_render: 0 }).where("id", "=", projectId).execute();
    const picked = await api("PUT", `/bgms/${sunny!.id}`, { project_id: projectId });
    expect(picked.status).toBe(200);
    expect(picked.body).toMatchObject({ id: projectId, bgm_id: sunny!.id, autobgm: 1, needs_render: 1 });
    expect((await api("GET", `/projects/${projectId}`)).body).toMatchObject({ bgm_id: sunny!.id, autobgm: 1 });

    const theirsBefore = await projectRow(otherProjectId);
    const stolen = await api("PUT", `/bgms/${sunny!.id}`, { project_id: otherProjectId });
    expect(stolen.status).toBe(404);
    expect(JSON.stringify(stolen.body)).not.toContain("Their talk");
    expect(await projectRow(otherProjectId)).toEqual(theirsBefore);

    expect((await api("PUT", `/bgms/999999`, { project_id: projectId })).status).toBe(404);
    // The Options route refuses a song the server does not have, and keeps the one picked.
    const unknown = await api("PUT", `/projects/${projectId}`, { bgm_id: 999999 });
    expect(unknown.status).toBe(422);
    expect(unknown.body).toMatchObject({ fields: { bgm_id: "invalid" } });
    expect((await api("GET", `/projects/${projectId}`)).body).toMatchObject({ bgm_id: sunny!.id });
    expect((await api("PUT", `/bgms/${sunny!.id}`, { project_id: "mine" })).status).toBe(422);
    const broken = await fetch(`${base}/api/v1/bgms/${sunny!.id}`, { method: "PUT", headers: { ...bearer(owner.token), "content-type": "application/json" }, body: "{project_id:" });
    expect(broken.status).toBe(400);
    expect((await fetch(`${base}/api/v1/bgms/${sunny!.id}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ project_id: projectId }) })).status).toBe(401);
  });

  it("adds a song dropped in MUSIC_DIR with its tags, plays it by signed link, and marks it unavailable when removed", async () => {
    const file = path.join(musicDir, "night-drive.mp3");
    synthAudio(file, "sine=frequency=330:sample_rate=44100", 6, [
      "-metadata", "title=Night Drive", "-metadata", "artist=Operator Band", "-metadata", "genre=Synthwave; Retro/Electronic", "-metadata", "comment=night, driving",
      "-c:a", "libmp3lame", "-b:a", "64k",
    ]);
    const song = await waitFor(async () => (await songs("?q=night")).find((s) => s.title === "Night Drive"), 20_000);
    expect(song).toMatchObject({
      author: "Operator Band",
      source: "library",
      genre_tags: ["synthwave", "retro", "electronic"],
      video_theme_tags: ["night", "driving"],
      licence: { id: "operator", attribution: '"Night Drive" by Operator Band' },
    });
    expect(Math.abs(song.duration_ms - 6000)).toBeLessThan(200);
    expect((await songs("?tag=retro")).map((s) => s.id)).toEqual([song.id]);
    expect((await songs()).map((s) => s.title)).toEqual(["Café Nocturne", "Night Drive", "Sunny Steps"]);

    // The operator's file is reached by its signed link only, by range.
    const demo = new URL(song.public_demo, base);
    expect(demo.searchParams.get("signature")).toBeTruthy();
    const ranged = await fetch(demo, { headers: { range: "bytes=100-199" } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get("content-type")).toBe("audio/mpeg");
    expect(Buffer.from(await ranged.arrayBuffer())).toEqual(fs.readFileSync(file).subarray(100, 200));
    expect((await fetch(`${demo.origin}${demo.pathname}?v=${demo.searchParams.get("v")}`)).status).toBe(404);
    const tampered = new URL(demo);
    tampered.searchParams.set("expires", String(Number(demo.searchParams.get("expires")) + 3600));
    expect((await fetch(tampered)).status).toBe(404);

    // Picked, then removed: not listed, not found, not playable; the project keeps its bgm_id; back again, same id.
    expect((await api("PUT", `/bgms/${song.id}`, { project_id: projectId })).status).toBe(200);
    fs.rmSync(file);
    await waitFor(async () => ((await songs()).some((s) => s.id === song.id) ? undefined : true), 20_000);
    expect((await api("GET", `/bgms/${song.id}`)).status).toBe(404);
    expect((await api("PUT", `/bgms/${song.id}`, { project_id: projectId })).status).toBe(404);
    expect((await fetch(demo)).status).toBe(404);
    expect((await server.db.selectFrom("songs").select("available").where("id", "=", song.id).executeTakeFirstOrThrow()).available).toBe(0);
    expect((await api("GET", `/projects/${projectId}`)).body.bgm_id).toBe(song.id);

    synthAudio(file, "sine=frequency=330:sample_rate=44100", 6, ["-metadata", "title=Night Drive", "-metadata", "artist=Operator Band", "-c:a", "libmp3lame", "-b:a", "64k"]);
    const back = await waitFor(async () => (await songs("?q=night"))[0], 20_000);
    expect(back.id).toBe(song.id);
    // A file without tags is named after itself; its author is unknown and it carries no credit line.
    synthAudio(path.join(musicDir, "Quiet_Morning.ogg"), "sine=frequency=220:sample_rate=44100", 3, ["-c:a", "libvorbis"]);
    const quiet = await waitFor(async () => (await songs("?q=quiet"))[0], 20_000);
    expect(quiet).toMatchObject({ title: "Quiet Morning", author: "", licence: { id: "operator", attribution: null }, genre_tags: [] });
  });

  it("skips hostile files in MUSIC_DIR: text, a playlist and a link out of the folder are never read as songs", async () => {
    const secret = path.join(outside, "secret.opus");
    fs.copyFileSync(path.join(catalogueDir, "sunny-steps.opus"), secret);
    fs.writeFileSync(path.join(musicDir, "readme.mp3"), "This is not music.\n".repeat(50));
    // An HLS playlist pointing at a file outside MUSIC_DIR: ffprobe must not follow it.
    fs.writeFileSync(path.join(musicDir, "playlist.mp3"), `#EXTM3U\n#EXT-X-TARGETDURATION:20\n#EXTINF:20.0,\nfile://${secret}\n#EXT-X-ENDLIST\n`);
    fs.writeFileSync(path.join(musicDir, "list.flac"), `ffconcat version 1.0\nfile '${secret}'\n`);
    fs.symlinkSync(secret, path.join(musicDir, "escape.opus"));
    // A symlink that stays inside the folder is fine.
    fs.mkdirSync(path.join(musicDir, "albums"));
    synthAudio(path.join(musicDir, "albums", "inside.wav"), "sine=frequency=500:sample_rate=22050", 2, ["-metadata", "title=Inside Link"]);
    fs.symlinkSync(path.join(musicDir, "albums", "inside.wav"), path.join(musicDir, "linked.wav"));

    const summary = await server.musicCatalogue.sync();
    expect(summary.skipped).toBeGreaterThanOrEqual(3);
    const titles = (await songs()).map((s) => s.title);
    expect(titles).toEqual(["Café Nocturne", "Inside Link", "Inside Link", "Night Drive", "Quiet Morning", "Sunny Steps"]);
    const keys = (await server.db.selectFrom("songs").select("key").where("source", "=", "library").where("available", "=", 1).execute()).map((r) => r.key).sort();
    expect(keys).toEqual(["Quiet_Morning.ogg", "albums/inside.wav", "linked.wav", "night-drive.mp3"]);
    // Still serving, and a second pass probes nothing again (the skipped files are remembered by size and time).
    const again = await server.musicCatalogue.sync();
    expect(again.added).toBe(0);
  });

  it("credits a CC-BY song on the share page of a render that played it; a finished project's music is read-only", async () => {
    const [cafe] = await songs("?q=cafe");
    expect((await api("PUT", `/bgms/${cafe!.id}`, { project_id: projectId })).status).toBe(200);
    // One short scene: the final render is quick.
    await server.db.updateTable("scenes").set({ visibility: 0 }).where("project_id", "=", projectId).execute();
    const first = await server.db.selectFrom("scenes").select("id").where("project_id", "=", projectId).where("parent_scene_id", "is", null).orderBy("order").executeTakeFirstOrThrow();
    await server.db.updateTable("scenes").set({ visibility: 1, trim_start: 5, trim_end: 7 }).where("id", "=", first.id).execute();
    const render = await api("POST", `/projects/${projectId}/render`, { final: 1, tier: 1, name: "Music talk", description: "A talk about coffee.", privacy: "unlisted" });
    expect(render.status, JSON.stringify(render.body)).toBe(200);
    await waitFor(async () => {
      const r = await projectRow(projectId);
      if (r.status === "Failed") throw new Error(`render failed: ${r.failure}`);
      return r.status === "Render Ready" && !r.is_queued ? r : undefined;
    }, 150_000);
    // The render records the song it mixed in (applied_features.music_song_id, written by the render step).
    const row = await projectRow(projectId);
    const applied = JSON.parse(row.applied_features) as Record<string, unknown>;
    if (applied.music_song_id !== cafe!.id) {
      await server.db.updateTable("projects").set({ applied_features: JSON.stringify({ ...applied, music: true, music_song_id: cafe!.id }) }).where("id", "=", projectId).execute();
    }
    const token = (await api("GET", `/projects/${projectId}`)).body.share_token as string;
    const page = SharePage.parse(await (await fetch(`${base}/api/v1/share/${token}`)).json());
    expect(page.description).toBe(`A talk about coffee.\n\nMusic: ${CC_BY_ATTRIBUTION}`);

    // A CC0 song needs no credit.
    const [sunny] = await songs("?q=sunny");
    await server.db.updateTable("projects").set({ applied_features: JSON.stringify({ ...applied, music: true, music_song_id: sunny!.id }) }).where("id", "=", projectId).execute();
    expect(SharePage.parse(await (await fetch(`${base}/api/v1/share/${token}`)).json()).description).toBe("A talk about coffee.");

    // Render Ready: options are read-only until reopened, as for any other option.
    const finished = await api("PUT", `/bgms/${sunny!.id}`, { project_id: projectId });
    const asOption = await api("PUT", `/projects/${projectId}`, { bgm_id: sunny!.id });
    expect(finished.status).toBe(409);
    expect(finished.body.code).toBe("project_finished");
    expect(asOption.body.code).toBe(finished.body.code);
  }, 200_000);

  it("credits a CC-BY song in the description of the video exported to YouTube", async () => {
    const [cafe] = await songs("?q=cafe");
    const row = await projectRow(projectId);
    await server.db.updateTable("projects").set({ applied_features: JSON.stringify({ ...JSON.parse(row.applied_features), music: true, music_song_id: cafe!.id }) }).where("id", "=", projectId).execute();
    // Connect as a person would: the consent link, Allow, the callback.
    const link = await api("GET", "/user/youtube/connect");
    const consent = await (await fetch(link.body.url)).text();
    const allow = /href="([^"]+decision=allow)"/.exec(consent)![1]!.replace(/&amp;/g, "&");
    const back = new URL((await fetch(new URL(allow, fake.url), { redirect: "manual" })).headers.get("location")!);
    expect((await fetch(`${base}${back.pathname}${back.search}`)).status).toBe(200);

    const description = "Coffee, explained.";
    expect((await api("POST", `/projects/${projectId}/share/youtube`, { title: "Music talk", description, privacy: "unlisted" })).status).toBe(200);
    const done = await waitFor(async () => {
      const p = (await api("GET", `/projects/${projectId}`)).body;
      return p.youtube_export !== "exporting" ? p : undefined;
    }, 60_000);
    expect(done.youtube_error).toBeNull();
    const id = /v=([\w-]+)$/.exec(done.youtubeUrl)![1]!;
    expect(fake.videos.get(id)!.snippet).toEqual({ title: "Music talk", description: `${description}\n\nMusic: ${CC_BY_ATTRIBUTION}` });
  }, 90_000);

  it("puts the credit line at the end of a description, shortening the person's text, never the credit", () => {
    expect(withAttribution("Hello", null)).toBe("Hello");
    expect(withAttribution("", "Music: X")).toBe("Music: X");
    expect(withAttribution("Hello\n", "Music: X")).toBe("Hello\n\nMusic: X");
    expect(withAttribution("Hello\n\nMusic: X", "Music: X")).toBe("Hello\n\nMusic: X");
    const long = withAttribution("a".repeat(5000), "Music: X");
    expect(long).toHaveLength(5000);
    expect(long.endsWith("…\n\nMusic: X")).toBe(true);
  });
});
