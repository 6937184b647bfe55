/**
 * Issue 12, the media items: crafted playlists (1), lying durations (5), Theora and APNG (12), huge
 * declared pictures (16) and verified, per-attempt outputs (4). Real tus over real HTTP, real ffmpeg.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lengthCap, makeProxy, MAX_DECODED_PIXELS, OutputCheckError, probe, runFfmpeg, runFfprobe, UnreadableMediaError, UnsupportedMediaError, verifyOutput } from "../../server/media";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { ffconcatList, ffmpeg, hlsPlaylist, hugePng, lyingMp3, testPicture, testTone } from "./hostile-files";
import { tusUpload } from "./tus";

const SPEC_MESSAGE = "Uploaded file may be corrupted or not be compatible";
const fixture = (name: string) => path.resolve(__dirname, "../fixtures", name);

let server: TestServer;
let base: string;
let victim: string;
let attacker: string;
let work: string;
/** The victim's processed video: its proxy and source under the store. */
let victimMedia: { id: number; userId: number; proxy: string; source: string };

const api = jsonApi(() => base, () => attacker);
const stored = (key: string) => path.join(server.dataDir, "store", key);

async function upload(file: string, name: string, as = attacker, extra: Record<string, unknown> = {}) {
  const uploaded = await tusUpload(base, as, file, { name, chunkSize: 4 * 1024 * 1024 });
  return api("POST", "/library", { media_file: uploaded.id, name, locale: "en-US", process: 1, has_speech: 0, ...extra }, as);
}

const write = (name: string, text: string) => {
  const file = path.join(work, name);
  fs.writeFileSync(file, text);
  return file;
};

const mediaRow = (id: number) => server.db.selectFrom("media_files").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

/** The library project of a file reaches Preview Ready (or the test fails with its failure). */
async function libraryReady(mediaId: number, as = attacker) {
  const project = await server.db.selectFrom("projects").select("id").where("library_media_file_id", "=", mediaId).executeTakeFirstOrThrow();
  return waitFor(async () => {
    const { body } = await api("GET", `/projects/${project.id}`, undefined, as);
    if (body.status === "Failed") throw new Error(`Failed: ${body.failure}`);
    return body.status === "Preview Ready" ? body : undefined;
  });
}

beforeAll(async () => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-crafted-"));
  server = await startTestServer();
  base = await listen(server);
  victim = (await server.signUp()).token;
  attacker = (await server.signUp()).token;
  const res = await upload(fixture("talk.mp4"), "private talk.mp4", victim);
  expect(res.status).toBe(201);
  const id = res.body.media_file.id as number;
  await waitFor(async () => ((await api("GET", `/library/${id}`, undefined, victim)).body.status === "ready" ? true : undefined));
  const row = await mediaRow(id);
  victimMedia = { id, userId: row.user_id, proxy: stored(row.proxy_key!), source: stored(row.storage_key) };
  expect(fs.existsSync(victimMedia.proxy)).toBe(true);
}, 120_000);

afterAll(async () => {
  await server.close();
  fs.rmSync(work, { recursive: true, force: true });
});

describe("crafted playlists and lists (issue 12 item 1)", () => {
  it("refuses an HLS playlist named holiday.mp4 that names another user's proxy, by relative or absolute path", async () => {
    const fromUploads = path.relative(path.join(server.dataDir, "uploads"), victimMedia.proxy);
    const fromStore = `../../${victimMedia.userId}/${victimMedia.id}/proxy.mp4`;
    for (const target of [fromUploads, fromStore, victimMedia.proxy, victimMedia.source]) {
      const res = await upload(write("holiday.mp4", hlsPlaylist(target)), "holiday.mp4");
      expect(res.status, target).toBe(415);
      expect(res.body).toEqual({ code: "unsupported_format", message: SPEC_MESSAGE });
    }
    // Nothing was filed, nothing of the victim's is reachable through the attacker's library.
    expect((await api("GET", "/library")).body.total).toBe(0);
    expect(await server.db.selectFrom("media_files").select("id").where("name", "=", "holiday.mp4").execute()).toEqual([]);
    expect(fs.readdirSync(path.join(server.dataDir, "uploads")).filter((f) => !f.endsWith(".json"))).toEqual([]);
  });

  it("refuses an ffconcat list naming another user's files", async () => {
    const fromUploads = path.relative(path.join(server.dataDir, "uploads"), victimMedia.proxy);
    for (const target of [fromUploads, victimMedia.proxy]) {
      const res = await upload(write("list.mp4", ffconcatList(target)), "list.mp4");
      expect(res.status, target).toBe(415);
      expect(res.body).toEqual({ code: "unsupported_format", message: SPEC_MESSAGE });
    }
    expect((await api("GET", "/library")).body.total).toBe(0);
  });

  it("never reads a stored playlist as one, even for a file stored before its container was kept", async () => {
    // A legacy row (no container) whose bytes are a playlist: the ingest refuses it, and makes nothing.
    const ok = await upload(fixture("voice.m4a"), "legacy.m4a");
    expect(ok.status).toBe(201);
    const id = ok.body.media_file.id as number;
    await libraryReady(id);
    const row = await mediaRow(id);
    fs.writeFileSync(stored(row.storage_key), hlsPlaylist(victimMedia.proxy));
    fs.rmSync(stored(row.proxy_key!));
    for (const container of [null, "mov"]) {
      await server.db.updateTable("media_files").set({ container, status: "processing", raw_preview_render: 0, proxy_key: null, analysis: null }).where("id", "=", id).execute();
      await server.queue.enqueue("ingest-media", { mediaFileId: id });
      await waitFor(async () => ((await api("GET", `/library/${id}`)).body.status === "failed" ? true : undefined));
      expect(fs.existsSync(stored(row.proxy_key!))).toBe(false);
    }
    // And every run names the demuxer: -f with an allowed one, or detection limited to them.
    await expect(probe(stored(row.storage_key))).rejects.toBeInstanceOf(UnsupportedMediaError);
    await expect(probe(stored(row.storage_key), { format: "mov" })).rejects.toBeInstanceOf(UnreadableMediaError);
    await expect(probe(stored(row.storage_key), { format: "hls" })).rejects.toThrow(/not allowed/);
  });

  it("keeps the container it found and files a good upload as before", async () => {
    const res = await upload(fixture("talk.mp4"), "mine.mp4");
    expect(res.status).toBe(201);
    expect((await mediaRow(res.body.media_file.id)).container).toBe("mov");
    await libraryReady(res.body.media_file.id);
  });
});

describe("lying durations (issue 12 item 5)", () => {
  let lying: string;
  beforeAll(async () => {
    lying = path.join(work, "lying.mp3");
    await lyingMp3(lying, work);
  }, 60_000);

  it("builds the issue's file: ~18 MB whose header says about 7.5 minutes", async () => {
    expect(fs.statSync(lying).size).toBeGreaterThan(17_000_000);
    const header = await probe(lying);
    expect(header.durationSeconds).toBeGreaterThan(400);
    expect(header.durationSeconds).toBeLessThan(500);
    const measured = await probe(lying, { measureUpTo: 6 * 3600 });
    expect(measured.durationSeconds).toBeGreaterThan(5 * 3600);
  });

  it("refuses it by its real length on a 10-minute-per-file plan", async () => {
    const res = await upload(lying, "song.mp3");
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("file_too_long");
  });

  it("never makes a proxy past the length it was given, whatever the file holds", async () => {
    const header = await probe(lying);
    const proxy = path.join(work, "lying-proxy.mp4");
    await makeProxy(lying, proxy, { info: header });
    const made = JSON.parse(await runFfprobe(["-print_format", "json", "-show_format", proxy])) as { format: { duration: string } };
    expect(Number(made.format.duration)).toBeLessThanOrEqual(lengthCap(header.durationSeconds) + 0.1);
  }, 60_000);

  it("charges an honest file its header's exact length", async () => {
    const res = await upload(fixture("voice.m4a"), "honest.m4a");
    expect(res.status).toBe(201);
    expect(res.body.media_file.duration).toBe((await probe(fixture("voice.m4a"))).durationSeconds);
  });
});

describe("Theora and APNG (issue 12 item 12)", () => {
  it("takes a Theora/Vorbis .ogv to Preview Ready with keyframe thumbnails", async () => {
    const ogv = path.join(work, "clip.ogv");
    await ffmpeg([...testPicture(4), ...testTone(4), "-shortest", "-c:v", "libtheora", "-q:v", "5", "-g", "15", "-c:a", "libvorbis", ogv]);
    const res = await upload(ogv, "clip.ogv");
    expect(res.status).toBe(201);
    expect(res.body.media_file).toMatchObject({ kind: "video" });
    await libraryReady(res.body.media_file.id);
    const row = await mediaRow(res.body.media_file.id);
    expect(row.container).toBe("ogg");
    expect(JSON.parse(row.analysis!).thumbnails.length).toBeGreaterThanOrEqual(2);
  });

  it("takes an APNG as an image", async () => {
    const apng = path.join(work, "anim.png");
    await ffmpeg([...testPicture(1, "64x48", 5), "-plays", "0", "-f", "apng", apng]);
    const res = await upload(apng, "anim.png");
    expect(res.status).toBe(201);
    expect(res.body.media_file).toMatchObject({ kind: "image", width: 64, height: 48 });
    await libraryReady(res.body.media_file.id);
  });
});

describe("huge declared pictures (issue 12 item 16)", () => {
  it("refuses a 16000×16000 PNG before decoding it", async () => {
    const png = path.join(work, "huge.png");
    await hugePng(png, 16_000, 16_000);
    expect(fs.statSync(png).size).toBeLessThan(2_000_000);
    const res = await upload(png, "huge.png");
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: "media_unreadable", message: SPEC_MESSAGE });
  });

  it("refuses video above 8K from its declared size, and never lets a decoder allocate past the cap", async () => {
    const big = path.join(work, "wide.mkv");
    // One small-to-store frame declaring 8704×4608 (40 MP).
    await ffmpeg(["-f", "lavfi", "-i", "color=c=black:s=8704x4608:d=0.2:r=5", "-c:v", "libx264", "-preset", "ultrafast", big]);
    await expect(probe(big)).rejects.toThrow(/picture too large/);
    const res = await upload(big, "wide.mkv");
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("media_unreadable");
    // The guard every run carries: a decode of a bigger picture fails instead of allocating it.
    const png = path.join(work, "over-cap.png");
    await hugePng(png, 8200, 8200);
    expect(8200 * 8200).toBeGreaterThan(MAX_DECODED_PIXELS);
    await expect(runFfmpeg({ inputs: [{ file: png, format: "png_pipe" }], outputOptions: ["-frames:v", "1", "-f", "null"], output: null })).rejects.toThrow();
  });
});

describe("verified outputs with their own temporary names (issue 12 item 4)", () => {
  it("checks an output's streams, length and decoding before it may be used", async () => {
    const good = path.join(work, "good.mp4");
    await ffmpeg([...testPicture(2), ...testTone(2), "-shortest", "-c:v", "libx264", "-c:a", "aac", good]);
    await verifyOutput(good, { format: "mov", video: true, audio: true, durationSeconds: 2, decode: true });
    await expect(verifyOutput(good, { format: "mov", video: true, durationSeconds: 10 })).rejects.toBeInstanceOf(OutputCheckError);
    // Garbage written over the middle of the picture data: the streams and length still look right.
    const bad = path.join(work, "bad.mp4");
    const bytes = fs.readFileSync(good);
    bytes.fill(0x5a, Math.floor(bytes.length * 0.3), Math.floor(bytes.length * 0.6));
    fs.writeFileSync(bad, bytes);
    await expect(verifyOutput(bad, { format: "mov", video: true, audio: true, durationSeconds: 2, decode: true })).rejects.toBeInstanceOf(OutputCheckError);
  });

  it("makes a clean proxy while a stale writer scribbles over the old shared temporary name", async () => {
    const res = await upload(fixture("talk.mp4"), "scribbled.mp4", attacker, { process: 0 });
    expect(res.status).toBe(201);
    const row = await mediaRow(res.body.media_file.id);
    const folder = path.dirname(stored(row.storage_key));
    // The killed server's orphan ffmpeg of the report: it keeps writing the name every attempt used to share.
    const shared = path.join(folder, "proxy.mp4.part.mp4");
    const junk = Buffer.alloc(4096, 0x5a);
    const scribbler = setInterval(() => {
      try {
        const size = fs.statSync(shared).size;
        if (size < junk.length * 2) return;
        const fd = fs.openSync(shared, "r+");
        fs.writeSync(fd, junk, 0, junk.length, Math.floor(Math.random() * (size - junk.length)));
        fs.closeSync(fd);
      } catch {
        // not there yet
      }
    }, 5);
    try {
      await server.db.updateTable("media_files").set({ status: "processing" }).where("id", "=", row.id).execute();
      await server.queue.enqueue("ingest-media", { mediaFileId: row.id });
      await waitFor(async () => ((await api("GET", `/library/${row.id}`)).body.status === "ready" ? true : undefined));
    } finally {
      clearInterval(scribbler);
    }
    const proxy = stored((await mediaRow(row.id)).proxy_key!);
    await verifyOutput(proxy, { format: "mov", video: true, audio: true, durationSeconds: row.duration_seconds, decode: true });
    // Every attempt wrote its own `proxy.mp4.<8 hex>.part.mp4`, and removed it.
    expect(fs.readdirSync(folder).filter((f) => /\.part\./.test(f) && f !== "proxy.mp4.part.mp4")).toEqual([]);
  });

  it("never moves an output into place when it fails its check", async () => {
    const res = await upload(fixture("talk.mp4"), "claims-more.mp4", attacker, { process: 0 });
    const row = await mediaRow(res.body.media_file.id);
    // The row says a minute; the file holds less: the proxy cannot have the length asked for.
    await server.db.updateTable("media_files").set({ status: "processing", duration_seconds: 60 }).where("id", "=", row.id).execute();
    await server.queue.enqueue("ingest-media", { mediaFileId: row.id });
    await waitFor(async () => ((await api("GET", `/library/${row.id}`)).body.status === "failed" ? true : undefined), 60_000);
    const folder = path.dirname(stored(row.storage_key));
    expect(fs.readdirSync(folder).filter((f) => f.startsWith("proxy.mp4"))).toEqual([]);
  }, 60_000);
});
