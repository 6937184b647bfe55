import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Insertable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScenesTable } from "../../server/db/schema";
import { renderPreview, runFfprobe, streamFfmpeg, type EditSegment } from "../../server/media";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";
import { frameNumbers, makeNumberedClip, NUMBERS } from "./numbered-clip";

const fixture = (name: string) => path.resolve(__dirname, "../fixtures", name);
const FPS = 30;
/** talk.mp4 is 320×240; its speech (talk.truth.json) runs 0.60–2.22 s, 2.52–4.61 s and 7.92–9.53 s. */
const WIDTH = 320;
const HEIGHT = 240;
/** Limited-range black is 16; a picture region darker than this is black. */
const BLACK = 28;

// ---------------------------------------------------------------------------------------------
// Reading renders back: a grey frame, a region's mean, the sound level of a stretch
// ---------------------------------------------------------------------------------------------

async function collect(run: ReturnType<typeof streamFfmpeg>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of run.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await run.done;
  return Buffer.concat(chunks);
}

interface Frame {
  pixels: Buffer;
  width: number;
}

/** Output frame `n` as 8-bit grey. */
async function frameAt(file: string, n: number, width = WIDTH): Promise<Frame> {
  const pixels = await collect(
    streamFfmpeg({ inputs: [{ file }], outputOptions: ["-map", "0:v:0", "-vf", `trim=start_frame=${n}`, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray"], output: "-" }),
  );
  return { pixels, width };
}

/** Mean grey of [x0, x1) × [y0, y1). */
function mean(frame: Frame, x0: number, y0: number, x1: number, y1: number): number {
  let sum = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) sum += frame.pixels[y * frame.width + x] ?? 0;
  return sum / ((x1 - x0) * (y1 - y0));
}

/** RMS level (dBFS) of the rendered sound over [start, start + seconds). */
async function rmsDb(file: string, start: number, seconds: number): Promise<number> {
  const pcm = await collect(
    streamFfmpeg({ inputs: [{ file, options: ["-ss", String(start), "-t", String(seconds)] }], outputOptions: ["-map", "0:a:0", "-ac", "1", "-ar", "48000", "-f", "f32le"], output: "-" }),
  );
  const samples = new Float32Array(pcm.buffer, pcm.byteOffset, Math.floor(pcm.length / 4));
  let sum = 0;
  for (const s of samples) sum += s * s;
  return 10 * Math.log10(sum / Math.max(1, samples.length) + 1e-20);
}

async function pcm(file: string): Promise<Float32Array> {
  const bytes = await collect(streamFfmpeg({ inputs: [{ file }], outputOptions: ["-map", "0:a:0", "-ac", "1", "-f", "f32le"], output: "-" }));
  return new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4));
}

async function streams(file: string) {
  const json = JSON.parse(await runFfprobe(["-print_format", "json", "-show_streams", file])) as { streams: { codec_type: string; width?: number; height?: number; duration: string; nb_frames?: string }[] };
  const video = json.streams.find((s) => s.codec_type === "video");
  const audio = json.streams.find((s) => s.codec_type === "audio");
  return { video, audio, videoSeconds: Number(video?.duration), audioSeconds: Number(audio?.duration) };
}

// ---------------------------------------------------------------------------------------------
// The render job, from scene rows the storyboard editor stores
// ---------------------------------------------------------------------------------------------

describe("the render honours the storyboard's edits", () => {
  let server: TestServer;
  let base: string;
  let token: string;
  let projectId: number;
  let talk: number;
  let still: number;
  const api = jsonApi(() => base, () => token);

  const addToLibrary = async (file: string, hasSpeech: 0 | 1) => {
    const uploaded = await tusUpload(base, token, fixture(file), { name: file });
    return (await api("POST", "/library", { media_file: uploaded.id, name: file, locale: hasSpeech ? "en-US" : null, has_speech: hasSpeech })).body.media_file.id as number;
  };

  beforeAll(async () => {
    server = await startTestServer();
    base = await listen(server);
    token = (await server.signUp()).token;
    talk = await addToLibrary("talk.mp4", 1);
    still = await addToLibrary("still.png", 0);
    projectId = (await api("POST", "/createproject", { name: "Edits", locale: "en-US", style: "video", media: [talk] })).body.id;
    await waitFor(async () => ((await api("GET", `/projects/${projectId}`)).body.status === "Preview Ready" ? true : undefined));
  });
  afterAll(() => server.close());

  type SceneSpec = Partial<Insertable<ScenesTable>> & { media_file_id: number; trim_start: number; trim_end: number; overlay?: Partial<Insertable<ScenesTable>> & { media_file_id: number } };

  /** Replaces the project's storyboard with these main scenes (in this order) and their overlays. */
  async function storyboard(specs: SceneSpec[]) {
    const db = server.db;
    const now = new Date().toISOString();
    await db.deleteFrom("scenes").where("project_id", "=", projectId).execute();
    for (const [i, { overlay, ...spec }] of specs.entries()) {
      const row = (t: Partial<Insertable<ScenesTable>> & { media_file_id: number }): Insertable<ScenesTable> => ({
        project_id: projectId,
        order: i + 1,
        type: "default",
        visibility: 1,
        start: t.trim_start ?? 0,
        end: t.trim_end ?? 0,
        trim_start: 0,
        trim_end: 0,
        trim_start_default: t.trim_start ?? 0,
        trim_end_default: t.trim_end ?? 0,
        trim_start_raw: t.trim_start ?? 0,
        trim_end_raw: t.trim_end ?? 0,
        text: "[]",
        media_audio: "standard",
        music_type: "bgmstandard",
        punch_in: 0,
        created_at: now,
        updated_at: now,
        ...t,
      });
      const main = await db.insertInto("scenes").values(row(spec)).returning("id").executeTakeFirstOrThrow();
      if (overlay) await db.insertInto("scenes").values(row({ trim_start: 0, trim_end: 2, ...overlay, type: "overscene", parent_scene_id: main.id })).execute();
    }
  }

  /** Each visible main scene's punch_in_status, in storyboard order. */
  async function punchInStatuses(): Promise<number[]> {
    const rows = await server.db
      .selectFrom("scenes")
      .select(["punch_in_status"])
      .where("project_id", "=", projectId)
      .where("visibility", "=", 1)
      .where("type", "!=", "overscene")
      .orderBy("order")
      .execute();
    return rows.map((r) => Number(r.punch_in_status));
  }

  /** Renders through the API with these project settings and answers the preview file. */
  async function render(settings: Record<string, unknown> = {}): Promise<string> {
    const before = await server.db.selectFrom("projects").select(["settings", "export_key"]).where("id", "=", projectId).executeTakeFirstOrThrow();
    const merged = { ...JSON.parse(before.settings), smoothcuts: 1, mute_videos: 0, autopunchin: 0, autocrop: 0, aspect: "", ...settings };
    await server.db.updateTable("projects").set({ settings: JSON.stringify(merged) }).where("id", "=", projectId).execute();
    expect((await api("POST", `/projects/${projectId}/render`, { final: false })).status).toBe(200);
    const key = await waitFor(async () => {
      const row = await server.db.selectFrom("projects").select(["status", "export_key", "failure"]).where("id", "=", projectId).executeTakeFirstOrThrow();
      if (row.status === "Failed") throw new Error(`render failed: ${row.failure}`);
      return row.status === "Preview Ready" && row.export_key && row.export_key !== before.export_key ? row.export_key : undefined;
    });
    return path.join(server.config.storeDir, key);
  }

  it("puts a picture-in-picture in its corner, fading in, and leaves the rest of the picture alone", async () => {
    // The same two seconds twice; the second time with the still fading in at the bottom-right corner.
    await storyboard([
      { media_file_id: talk, trim_start: 5, trim_end: 7 },
      { media_file_id: talk, trim_start: 5, trim_end: 7, overscene_type: "pip_br", overscene_bg: 0, overscene_fade: 1, overlay: { media_file_id: still } },
    ]);
    const file = await render();
    const [plain, covered, plainStart, fadingIn] = await Promise.all([FPS, 3 * FPS, 0, 2 * FPS].map((n) => frameAt(file, n)));
    // The corner: a third of the width (106 px) with a 2 % margin (6 px) from the right and bottom.
    const corner = [WIDTH - 6 - 100, HEIGHT - 6 - 130, WIDTH - 8, HEIGHT - 8] as const;
    expect(Math.abs(mean(covered!, ...corner) - mean(plain!, ...corner))).toBeGreaterThan(15);
    const topLeft = [0, 0, 150, 90] as const;
    expect(Math.abs(mean(covered!, ...topLeft) - mean(plain!, ...topLeft))).toBeLessThan(3);
    // Its first frame is still fully transparent.
    expect(Math.abs(mean(fadingIn!, ...corner) - mean(plainStart!, ...corner))).toBeLessThan(3);
    expect((await streams(file)).video).toMatchObject({ width: WIDTH, height: HEIGHT });
  });

  it("hides the main picture behind a full-screen overlay, and overflows into the next scene", async () => {
    // The portrait still fitted into the landscape frame leaves bars where only black may show.
    await storyboard([
      { media_file_id: talk, trim_start: 5, trim_end: 6, overscene_type: "fullscrn", overscene_bg: 1, overscene_overflow: 1, overlay: { media_file_id: still, trim_start: 0, trim_end: 2 } },
      { media_file_id: talk, trim_start: 6, trim_end: 8 },
    ]);
    const file = await render();
    const leftBar = [5, 0, 60, HEIGHT] as const;
    expect(mean(await frameAt(file, 15), ...leftBar)).toBeLessThan(BLACK);
    // Overflow: still over the second scene until the overlay's 2 s end…
    expect(mean(await frameAt(file, 45), ...leftBar)).toBeLessThan(BLACK);
    // …then the main picture again.
    expect(mean(await frameAt(file, 75), ...leftBar)).toBeGreaterThan(60);
  });

  it("silences a muted scene (and never mixes in an overlay's sound) while a standard one plays", async () => {
    await storyboard([
      // Speech under both, and a talking overlay over the muted one.
      { media_file_id: talk, trim_start: 0.6, trim_end: 2.2, media_audio: "mute", overscene_type: "pip_tl", overlay: { media_file_id: talk, trim_start: 8, trim_end: 9.5 } },
      { media_file_id: talk, trim_start: 2.5, trim_end: 4.6, media_audio: "standard" },
    ]);
    const file = await render();
    // Clear of the 0.06 s crossfade at the cut (1.6 s).
    expect(await rmsDb(file, 0.05, 1.45)).toBeLessThan(-70);
    expect(await rmsDb(file, 1.75, 1.8)).toBeGreaterThan(-40);
    const { videoSeconds, audioSeconds } = await streams(file);
    expect(Math.abs(audioSeconds - videoSeconds)).toBeLessThanOrEqual(1 / FPS);
  });

  it("plays a louder level louder, and mutes everything with mute_videos", async () => {
    await storyboard([
      { media_file_id: talk, trim_start: 0.6, trim_end: 2.2, media_audio: "low" },
      { media_file_id: talk, trim_start: 0.6, trim_end: 2.2, media_audio: "extraloud" },
    ]);
    const file = await render();
    const low = await rmsDb(file, 0.1, 1.4);
    const loud = await rmsDb(file, 1.7, 1.4);
    // 0.5 → 2.2 is +12.9 dB (AAC and the crossfade blur it a little).
    expect(loud - low).toBeGreaterThan(11);
    expect(loud - low).toBeLessThan(14.5);
    const muted = await render({ mute_videos: 1 });
    expect(await rmsDb(muted, 0.1, 3)).toBeLessThan(-70);
  });

  it("moves intro scenes first", async () => {
    await storyboard([
      { media_file_id: talk, trim_start: 5, trim_end: 7 },
      { media_file_id: still, trim_start: 0, trim_end: 1, type: "intro" },
    ]);
    const file = await render();
    const leftBar = [5, 0, 60, HEIGHT] as const;
    // The pillarboxed portrait still first, then the talk.
    expect(mean(await frameAt(file, 10), ...leftBar)).toBeLessThan(BLACK);
    expect(mean(await frameAt(file, 45), ...leftBar)).toBeGreaterThan(60);
    expect(Number((await streams(file)).videoSeconds)).toBeCloseTo(3, 1);
  });

  it("renders the project's aspect at the render height: cropped with autocrop, padded without", async () => {
    await storyboard([{ media_file_id: talk, trim_start: 5, trim_end: 6.5 }]);
    const cropped = await render({ aspect: "9x16", autocrop: 1 });
    expect((await streams(cropped)).video).toMatchObject({ width: 136, height: 240 });
    const top = [0, 0, 136, 40] as const;
    expect(mean(await frameAt(cropped, 20, 136), ...top)).toBeGreaterThan(60);
    const padded = await render({ aspect: "9x16", autocrop: 0 });
    expect((await streams(padded)).video).toMatchObject({ width: 136, height: 240 });
    expect(mean(await frameAt(padded, 20, 136), ...top)).toBeLessThan(BLACK);
  });

  it("punches in on a forced scene, centred on its shown face", async () => {
    const face = JSON.stringify([{ BoundingBox: { Left: 0.8, Top: 0.7, Width: 0.15, Height: 0.2 }, visibility: 1 }]);
    await storyboard([
      { media_file_id: talk, trim_start: 5, trim_end: 6 },
      { media_file_id: talk, trim_start: 5, trim_end: 6, punch_in: 2, selected_faces: face },
    ]);
    const file = await render();
    const plain = await frameAt(file, 10);
    const zoomed = await frameAt(file, 40);
    // A zoom towards the bottom-right corner keeps that corner and moves everything else.
    expect(Math.abs(mean(zoomed, 0, 0, 100, 80) - mean(plain, 0, 0, 100, 80))).toBeGreaterThan(5);
    expect(Math.abs(mean(zoomed, WIDTH - 10, HEIGHT - 10, WIDTH, HEIGHT) - mean(plain, WIDTH - 10, HEIGHT - 10, WIDTH, HEIGHT))).toBeLessThan(12);
    expect((await api("GET", `/projects/${projectId}/highlights`)).body.autoPunchIn).toBe(false);
    // SPEC §3 punch_in_status records what the render did (issue 17): the forced scene was zoomed, the other not.
    expect(await punchInStatuses()).toEqual([0, 1]);
  });

  it("punches in on every other jump cut with automatic punch-in, and the highlights say so", async () => {
    await storyboard([
      { media_file_id: talk, trim_start: 5, trim_end: 6, punch_in: 1 },
      { media_file_id: talk, trim_start: 5, trim_end: 6, punch_in: 1 },
      { media_file_id: talk, trim_start: 5, trim_end: 6, punch_in: 1 },
    ]);
    const file = await render({ autopunchin: 1 });
    const [first, second, third] = await Promise.all([10, 40, 70].map((n) => frameAt(file, n)));
    const topLeft = [0, 0, 100, 80] as const;
    expect(Math.abs(mean(second!, ...topLeft) - mean(first!, ...topLeft))).toBeGreaterThan(5);
    expect(Math.abs(mean(third!, ...topLeft) - mean(first!, ...topLeft))).toBeLessThan(3);
    expect((await api("GET", `/projects/${projectId}/highlights`)).body.autoPunchIn).toBe(true);
    expect(await punchInStatuses()).toEqual([0, 1, 0]);
  });
});

// ---------------------------------------------------------------------------------------------
// A long reordered storyboard in chunks
// ---------------------------------------------------------------------------------------------


describe("a render in chunks", () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "cutroom-edits-"));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  it("shows exactly each segment's frames and keeps the sound sample-exact across chunk edges", async () => {
    const clip = path.join(work, "numbered.mp4");
    await makeNumberedClip(clip, FPS);
    // Every piece jumps backwards: one input each, so two inputs per pass make several chunks.
    const pieces: EditSegment[] = [
      { file: clip, kind: "video", start: 4.0, end: 4.9 },
      { file: clip, kind: "video", start: 2.6, end: 3.7 },
      { file: clip, kind: "video", start: 1.4, end: 2.4, volume: 0 },
      { file: clip, kind: "video", start: 0.9, end: 1.3 },
      { file: clip, kind: "video", start: 0.1, end: 0.6 },
    ];
    const output = path.join(work, "chunked.mp4");
    const seen: number[] = [];
    const result = await renderPreview(pieces, output, { smoothCuts: true, maxInputsPerPass: 2, onProgress: (f) => seen.push(f) });
    expect(result.chunks).toBe(3);
    expect(seen.at(-1)).toBe(1);
    expect(seen.every((f, i) => i === 0 || f >= (seen[i - 1] ?? 0))).toBe(true);

    const shown = await frameNumbers(output);
    const expected = pieces.flatMap((p) => Array.from({ length: Math.round((p.end - p.start) * FPS) }, (_, k) => (Math.round(p.start * FPS) + k) % NUMBERS));
    expect(shown).toEqual(expected);

    const { videoSeconds, audioSeconds } = await streams(output);
    const seconds = expected.length / FPS;
    expect(Math.abs(videoSeconds - seconds)).toBeLessThanOrEqual(1 / FPS);
    expect(Math.abs(audioSeconds - seconds)).toBeLessThanOrEqual(1 / FPS);
    // The muted piece (2.0–3.0 s of the output) is silent; its neighbours carry the tone (about −21 dBFS).
    expect(await rmsDb(output, 2.05, 0.9)).toBeLessThan(-70);
    expect(await rmsDb(output, 0.95, 1.0)).toBeGreaterThan(-30);
    expect(await rmsDb(output, 3.05, 0.3)).toBeGreaterThan(-30);

    // The same sound as one pass makes, crossfades at the chunk edges included (the joined PCM is
    // identical; AAC may round a tone a little differently, a lost or moved piece differs by ~0.13).
    const whole = path.join(work, "whole.mp4");
    expect((await renderPreview(pieces, whole, { smoothCuts: true })).chunks).toBe(1);
    const [a, b] = await Promise.all([pcm(output), pcm(whole)]);
    expect(a.length).toBe(b.length);
    let worst = 0;
    for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
    expect(worst).toBeLessThan(0.01);
  });
});
