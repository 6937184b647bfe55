import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobId } from "../../server/jobs/queue";
import { probe } from "../../server/media/probe";
import { bearer, jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

const fixture = (name: string) => path.resolve(__dirname, "../fixtures", name);
const truth = JSON.parse(fs.readFileSync(fixture("talk.truth.json"), "utf8")) as { speech: { start: number; end: number }[]; duration: number };

let server: TestServer;
let base: string;
let token: string;

const api = jsonApi(() => base, () => token);

const addToLibrary = async (file: string, name: string, extra: Record<string, unknown> = {}, as = token) => {
  const uploaded = await tusUpload(base, as, fixture(file), { name });
  return api("POST", "/library", { media_file: uploaded.id, name, locale: "en-US", process: 1, has_speech: 1, ...extra }, as);
};

const uploadsLeft = () => fs.readdirSync(path.join(server.dataDir, "uploads")).filter((f) => !f.endsWith(".json"));

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
  token = (await server.signUp()).token;
});
afterAll(() => server.close());

describe("uploads and the media library", () => {
  it("takes a tus upload, decides the kind from the content and files it in the library", async () => {
    const res = await addToLibrary("talk.mp4", "My talk.mp4");
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "success", media_file: { name: "My talk.mp4", kind: "video", language: "en-US", has_speech: 1 } });
    expect(res.body.media_file.duration).toBeCloseTo(truth.duration, 0);

    // A PNG called .mp4 is still an image; the name does not decide.
    const still = await addToLibrary("still.png", "cover.mp4", { has_speech: 0, locale: null });
    expect(still.body.media_file.kind).toBe("image");
    const voice = await addToLibrary("voice.m4a", "voice.m4a");
    expect(voice.body.media_file.kind).toBe("audio");
    expect(uploadsLeft()).toEqual([]);
  });

  it("refuses a duplicate name with 'double file' and removes the upload", async () => {
    await addToLibrary("voice.m4a", "same-name.m4a");
    const again = await addToLibrary("voice.m4a", "same-name.m4a");
    expect(again.status).toBe(409);
    expect(again.body.code).toBe("duplicate_name");
    expect(uploadsLeft()).toEqual([]);
  });

  it.each([
    ["random bytes", "corrupt.mp4"],
    ["a text file named .mp4", "fake.mp4"],
  ])("refuses %s with a clear error, removes it, and loses nothing else", async (_label, file) => {
    const before = (await api("GET", "/library")).body.total;
    const res = await addToLibrary(file, `bad-${file}`);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "media_unreadable", message: "Uploaded file may be corrupted or not be compatible" });
    expect(uploadsLeft()).toEqual([]);
    expect((await api("GET", "/library")).body.total).toBe(before);
  });

  it("resumes an interrupted upload from where it stopped", async () => {
    const size = fs.statSync(fixture("talk.mp4")).size;
    const stopped = await tusUpload(base, token, fixture("talk.mp4"), { name: "resume.mp4", stopAfterBytes: size / 3, chunkSize: 16 * 1024 }).catch((e) => e);
    expect(stopped.url).toBeTruthy();
    const head = await fetch(stopped.url, { method: "HEAD", headers: { ...bearer(token), "tus-resumable": "1.0.0" } });
    const offset = Number(head.headers.get("upload-offset"));
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(size);
    const done = await tusUpload(base, token, fixture("talk.mp4"), { name: "resume.mp4", uploadUrl: stopped.url });
    const res = await api("POST", "/library", { media_file: done.id, name: "resume.mp4", locale: "en-US", has_speech: 1 });
    expect(res.status).toBe(201);
  });

  it("keeps other users out of an upload and a library file (404, never their data)", async () => {
    const other = (await server.signUp()).token;
    const uploaded = await tusUpload(base, token, fixture("voice.m4a"), { name: "mine.m4a" });
    const theirs = await fetch(uploaded.url, { method: "HEAD", headers: { ...bearer(other), "tus-resumable": "1.0.0" } });
    expect(theirs.status).toBe(404);
    const claim = await api("POST", "/library", { media_file: uploaded.id, name: "stolen.m4a", locale: null, has_speech: 0 }, other);
    expect(claim.status).toBe(404);
    const mine = await api("POST", "/library", { media_file: uploaded.id, name: "mine.m4a", locale: null, has_speech: 0 });
    expect((await api("GET", `/library/${mine.body.media_file.id}`, undefined, other)).status).toBe(404);
    const anonymous = await fetch(`${base}/api/v1/uploads`, { method: "POST", headers: { "tus-resumable": "1.0.0", "upload-length": "10" } });
    expect(anonymous.status).toBe(401);
  });
});

describe("quotas", () => {
  it("refuse a file over the single-file size, and over the processing minutes, with their messages", async () => {
    const limited = await server.signUp();
    const setLimits = async (limits: Record<string, number>) => {
      const plan = await server.db.selectFrom("plans").selectAll().where("id", "=", "free").executeTakeFirstOrThrow();
      await server.db.insertInto("plans").values({ ...plan, id: "tiny", nickname: "Tiny", metadata: JSON.stringify({ ...JSON.parse(plan.metadata), ...limits }) }).onConflict((oc) => oc.column("id").doUpdateSet({ metadata: JSON.stringify({ ...JSON.parse(plan.metadata), ...limits }) })).execute();
      await server.db.updateTable("users").set({ plan_id: "tiny" }).where("email", "=", limited.email).execute();
    };
    await setLimits({ upload_max_size_mb: 0.1 });
    // tus refuses at creation: the file would exceed the single-file limit.
    const tooBig = await tusUpload(base, limited.token, fixture("talk.mp4"), { name: "big.mp4" }).catch((e) => e);
    expect(tooBig.originalResponse?.getStatus()).toBe(413);

    await setLimits({ upload_max_size_mb: 100, monthly_minutes: 0.1 });
    const res = await addToLibrary("talk.mp4", "long.mp4", {}, limited.token);
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("not_enough_minutes");

    await setLimits({ upload_max_size_mb: 100, monthly_minutes: 30, upload_max_length_minutes: 0.1 });
    expect((await addToLibrary("talk.mp4", "long.mp4", {}, limited.token)).body.code).toBe("file_too_long");
    expect(uploadsLeft()).toEqual([]);
  });
});

describe("automatic project creation", () => {
  let projectId: number;

  it("cuts the silences into scenes that match the known speech and reaches Preview Ready", async () => {
    const media = await addToLibrary("talk.mp4", "Interview.mp4");
    const created = await api("POST", "/createproject", { name: "Interview", locale: "en-US", style: "video", media: [media.body.media_file.id] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: "new", is_queued: 1 });
    projectId = created.body.id;

    const seen = new Set<string>();
    const ready = await waitFor(async () => {
      const { body } = await api("GET", `/projects/${projectId}`);
      seen.add(body.status);
      if (body.status === "Failed") throw new Error(body.failure);
      return body.status === "Preview Ready" ? body : undefined;
    });
    expect(seen.has("Preview Ready")).toBe(true);
    expect(ready).toMatchObject({ working_progress: 100, working_progress_raw: 100, raw_preview_render: 1, is_queued: 0 });

    // Every stretch of speech is inside a scene (within the padding); every gap of 0.5 s or more is cut.
    const scenes = await server.db.selectFrom("scenes").selectAll().where("project_id", "=", projectId).orderBy("order").execute();
    const PADDING = 0.3;
    for (const speech of truth.speech) {
      expect(scenes.some((s) => s.start <= speech.start + 0.05 && s.end >= speech.end - 0.05), `speech ${speech.start}-${speech.end} kept`).toBe(true);
    }
    for (const scene of scenes) {
      expect(truth.speech.some((sp) => scene.start >= sp.start - PADDING - 0.5 && scene.start <= sp.start + 0.05)).toBe(true);
    }
    const gaps = truth.speech.slice(1).map((s, i) => ({ start: truth.speech[i]!.end, end: s.start }));
    for (const gap of gaps.filter((g) => g.end - g.start >= 0.5)) {
      const covered = scenes.some((s) => s.start <= gap.start + 0.01 && s.end >= gap.end - 0.01);
      expect(covered, `gap ${gap.start}-${gap.end} cut`).toBe(false);
    }
    expect(scenes.map((s) => s.order)).toEqual(scenes.map((_, i) => i + 1));
    expect(scenes.every((s) => s.trim_start === s.trim_start_default && s.trim_end === s.trim_end_default && s.thumbnail_key)).toBe(true);

    const highlights = await api("GET", `/projects/${projectId}/highlights`);
    expect(highlights.body.jumpCutsCreated).toBe(scenes.length - 1);
    expect(highlights.body.removedLength).toBeGreaterThan(2);
    expect(highlights.body.subtitlesLinesCount).toBe(0);
    expect(ready.duration_out_seconds).toBeCloseTo(truth.duration - highlights.body.removedLength, 1);
  });

  it("serves the preview by a signed link with Range, in sync", async () => {
    const { body: project } = await api("GET", `/projects/${projectId}`);
    expect(project.export_url).toMatch(/^\/api\/v1\/files\/projects\/.+\?expires=\d+&signature=/);
    const partial = await fetch(`${base}${project.export_url}`, { headers: { range: "bytes=0-99" } });
    expect(partial.status).toBe(206);
    expect((await partial.arrayBuffer()).byteLength).toBe(100);
    const tampered = await fetch(`${base}${project.export_url.replace(/signature=[^&]+/, "signature=x")}`);
    expect(tampered.status).toBe(404);

    const file = path.join(server.dataDir, "store", decodeURIComponent(project.export_url.split("/api/v1/files/")[1].split("?")[0]));
    const info = await probe(file);
    expect(info.kind).toBe("video");
    expect(info.durationSeconds).toBeCloseTo(project.duration_out_seconds, 0);
    // In sync: audio and video streams within one frame of each other.
    const streams = JSON.parse(
      execFileSync("ffprobe", ["-v", "error", "-show_entries", "stream=codec_type,duration,r_frame_rate", "-of", "json", file], { encoding: "utf8" }),
    ).streams as { codec_type: string; duration: string; r_frame_rate: string }[];
    const video = streams.find((s) => s.codec_type === "video")!;
    const audio = streams.find((s) => s.codec_type === "audio")!;
    const [num, den] = video.r_frame_rate.split("/").map(Number);
    expect(Math.abs(Number(video.duration) - Number(audio.duration))).toBeLessThanOrEqual(den! / num! + 1e-3);
    const download = await fetch(`${base}/api/v1/projects/${projectId}/downloadrender`, { headers: bearer(token), redirect: "manual" });
    // A preview is not a finished video: nothing to download yet (downloads.test.ts covers the final render).
    expect(download.status).toBe(409);
    expect((await download.json()).code).toBe("render_not_ready");
  });

  it("lists projects newest first, counts them, and answers 404 for another user's project", async () => {
    const list = await api("GET", "/projects?page=1");
    expect(list.body).toMatchObject({ current_page: 1, last_page: 1 });
    expect(list.body.data[0].id).toBe(projectId);
    expect((await api("GET", "/projects?count=1")).body.count).toBeGreaterThanOrEqual(1);
    const other = (await server.signUp()).token;
    for (const url of [`/projects/${projectId}`, `/projects/${projectId}/highlights`]) {
      const res = await api("GET", url, undefined, other);
      expect(res.status).toBe(404);
      expect(JSON.stringify(res.body)).not.toContain("Interview");
    }
    expect((await api("DELETE", `/projects/${projectId}`, undefined, other)).status).toBe(404);
    expect((await api("GET", "/projects/abc")).status).toBe(400);
  });

  it("renders again on request and returns to Preview Ready", async () => {
    const res = await api("POST", `/projects/${projectId}/render`, { final: false });
    expect(res.body.status).toBe("Rendering");
    expect((await api("POST", `/projects/${projectId}/render`, { final: false })).status).toBe(409);
    await waitFor(async () => ((await api("GET", `/projects/${projectId}`)).body.status === "Preview Ready" ? true : undefined));
  });

  it("cancels noise and boosts the voice when asked, and the highlights say so (and nothing more)", async () => {
    const media = await addToLibrary("voice.m4a", "Enhanced.m4a");
    const created = await api("POST", "/createproject", {
      name: "Enhanced",
      locale: "en-US",
      style: "video",
      autobgm: 1,
      audio_preprocessor: 1,
      voice_booster: 1,
      media: [media.body.media_file.id],
    });
    await waitFor(async () => ((await api("GET", `/projects/${created.body.id}`)).body.status === "Preview Ready" ? true : undefined));
    const highlights = (await api("GET", `/projects/${created.body.id}/highlights`)).body;
    // Issue 15: the flags say what ran. voice.m4a is a clean recording (speech ~50 dB over its floor),
    // so RNNoise measured the room and left it alone; the voice booster (the enhancer) ran; automatic music
    // chose a song from the shipped catalogue and ducked it under the voice.
    expect(highlights).toMatchObject({ noiseCancelling: false, audioEnhancer: true, music: true, autoduck: true, autoPunchIn: false });
    expect((await api("GET", `/projects/${created.body.id}`)).body.bgm_id).toEqual(expect.any(Number));
  });

  it("a file that breaks during processing ends Failed with the message", async () => {
    const media = await addToLibrary("talk.mp4", "Broken later.mp4");
    const row = await server.db.selectFrom("media_files").selectAll().where("id", "=", media.body.media_file.id).executeTakeFirstOrThrow();
    // The disk copy goes bad after the upload was accepted.
    fs.writeFileSync(path.join(server.dataDir, "store", row.storage_key), Buffer.alloc(4096, 7));
    await server.db.updateTable("media_files").set({ status: "processing", raw_preview_render: 0, proxy_key: null, analysis: null }).where("id", "=", row.id).execute();
    fs.rmSync(path.join(server.dataDir, "store", `media/${row.user_id}/${row.id}/proxy.mp4`), { force: true });
    const created = await api("POST", "/createproject", { name: "Broken", locale: "en-US", style: "video", media: [row.id] });
    const failed = await waitFor(async () => {
      const { body } = await api("GET", `/projects/${created.body.id}`);
      return body.status === "Failed" ? body : undefined;
    });
    expect(failed.failure).toBe("Uploaded file may be corrupted or not be compatible");
  });

  it("takes a queued project out of the queue, restarts it, and deletes it", async () => {
    const media = await addToLibrary("voice.m4a", "Queue me.m4a");
    await server.queue.stop();
    const created = await api("POST", "/createproject", { name: "Queued", locale: "en-US", style: "video", media: [media.body.media_file.id] });
    const out = await api("DELETE", `/projects/${created.body.id}/queue`);
    expect(out.body).toMatchObject({ status: "Not Started", is_queued: 0 });
    const again = await api("POST", `/projects/${created.body.id}/restart`);
    expect(again.body).toMatchObject({ status: "new", is_queued: 1 });
    const removed = await api("DELETE", `/projects/${created.body.id}`);
    expect(removed.body.deleted_at).toBeTruthy();
    const job = await server.queue.get(jobId("create-project", { projectId: created.body.id }));
    expect(job?.status).toBe("cancelled");
  });
});
