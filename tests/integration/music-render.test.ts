import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import type { Insertable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ScenesTable } from "../../server/db/schema";
import { findProjectById } from "../../server/db/projects";
import type { BedSettings, SceneMusic } from "../../server/domain/music";
import { analyzeFile, planRender, probe, streamFfmpeg, type TimeRange } from "../../server/media";
import { musicBed, type BedOutcome } from "../../server/media/music-bed";
import { renderProject } from "../../server/jobs/steps/render";
import { localFileStore } from "../../server/storage/local";
import type { JobContext } from "../../server/jobs/types";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

/**
 * Issue 15 on real media: the music bed made from a rendered speech track (the fixture talk, whose
 * speech runs 0.60–2.22, 2.52–4.61, 5.21–6.72, 7.92–9.53, 9.98–11.92, 13.92–16.24, 16.74–18.06 s) and
 * songs generated here, then whole renders of a project with automatic music.
 */
const TALK = path.resolve(__dirname, "../fixtures/talk.mp4");
const SR = 48_000;
const FPS = 30;
let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-music-"));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/**
 * A song of integer-Hz sines (one in the 2–4 kHz presence band) with a gentle 0.5 Hz tremolo, so it
 * repeats exactly every 2 s; with `tailFrom` it dies away from there (a song's ending, never to be looped into).
 */
function makeSong(name: string, seconds: number, tailFrom?: number): string {
  const file = path.join(dir, `${name}.opus`);
  const tail = tailFrom === undefined ? "1" : `if(lt(t,${tailFrom}),1,max(0,1-(t-${tailFrom})/1.5))`;
  const voice = `(0.25*sin(2*PI*220*t)+0.2*sin(2*PI*275*t)+0.15*sin(2*PI*330*t)+0.1*sin(2*PI*2750*t))*(0.9+0.1*cos(PI*t))*${tail}`;
  execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", `aevalsrc='${voice}|${voice}':s=${SR}:d=${seconds}`, "-c:a", "libopus", "-b:a", "128k", file]);
  return file;
}

/** The mean of the two channels (ffmpeg's -ac 1 would add 3 dB to sound that is the same in both). */
async function pcm(file: string, filter?: string): Promise<Float32Array> {
  const run = streamFfmpeg({ inputs: [{ file }], outputOptions: ["-map", "0:a:0", "-af", `${filter ? `${filter},` : ""}pan=mono|c0=0.5*c0+0.5*c1`, "-ar", String(SR), "-f", "f32le"], output: "-" });
  const chunks: Buffer[] = [];
  for await (const chunk of run.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await run.done;
  const bytes = Buffer.concat(chunks);
  return new Float32Array(bytes.buffer, bytes.byteOffset, Math.floor(bytes.length / 4));
}

/** RMS (dBFS) over windows [start, end) in seconds, taken together. */
function rmsDb(samples: Float32Array, windows: readonly TimeRange[]): number {
  let sum = 0;
  let n = 0;
  for (const w of windows) {
    for (let i = Math.max(0, Math.round(w.start * SR)); i < Math.min(samples.length, Math.round(w.end * SR)); i++) {
      sum += samples[i]! * samples[i]!;
      n++;
    }
  }
  return 10 * Math.log10(sum / Math.max(1, n) + 1e-20);
}

/** The inside of the speech stretches, and the middle of the pauses long enough for the music to come back. */
function speechAndPauses(speech: readonly TimeRange[], duration: number) {
  const inside = speech.filter((r) => r.end - r.start > 0.4).map((r) => ({ start: r.start + 0.15, end: r.end - 0.15 }));
  const pauses: TimeRange[] = [];
  let last = 0;
  for (const r of [...speech, { start: duration, end: duration }]) {
    // The release takes 0.4 s after speech, the attack starts 0.08 s before it.
    if (r.start - last > 1) pauses.push({ start: last + 0.45, end: r.start - 0.12 });
    last = r.end;
  }
  return { inside, pauses };
}

/** The talk's pieces joined as the render's speech track (48 kHz stereo FLAC) and the plan of that edit. */
async function speechTrack(name: string, pieces: readonly [number, number][]) {
  const info = await probe(TALK);
  const segments = pieces.map(([start, end]) => ({ file: TALK, kind: "video" as const, start, end }));
  const plan = planRender(segments, new Map([[TALK, info]]), { fps: FPS, sampleRate: SR, crossfadeSamples: 0, maxShortSide: 720, maxLongSide: 1280 });
  const totalSamples = plan.segments.reduce((sum, s) => sum + s.samples, 0);
  const file = path.join(dir, `${name}.flac`);
  const graph = pieces.map(([s, e], i) => `[0:a]atrim=start=${s}:end=${e},asetpts=N/SR/TB[p${i}]`).join(";");
  const concat = `${pieces.map((_, i) => `[p${i}]`).join("")}concat=n=${pieces.length}:v=0:a=1,aresample=${SR},apad=whole_len=${totalSamples},atrim=end_sample=${totalSamples}[out]`;
  execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", TALK, "-filter_complex", `${graph};${concat}`, "-map", "[out]", "-ac", "2", "-c:a", "flac", file]);
  return { file, plan, totalSamples };
}

const SETTINGS: BedSettings = { musicType: "bgmstandard", style: "video", autoduck: true, intro_mode: "", outro_mode: "" };
const SONG_12S = { durationMs: 12_000, loopStartMs: 2_000, loopEndMs: 10_000 };

async function makeBed(name: string, pieces: readonly [number, number][], scenes: readonly Omit<SceneMusic, "seconds">[], settings: Partial<BedSettings>, song: { file: string; durationMs: number; loopStartMs: number | null; loopEndMs: number | null }) {
  const speech = await speechTrack(name, pieces);
  const outcome: BedOutcome = { mixed: false, ducked: false };
  const scratch = fs.mkdtempSync(path.join(dir, `${name}-`));
  const factory = musicBed({ song, scenes: scenes.map((s, i) => ({ ...s, seconds: pieces[i]![1] - pieces[i]![0] })), settings: { ...SETTINGS, ...settings }, outcome });
  const started = Date.now();
  const bed = await factory({ speech: speech.file, totalSamples: speech.totalSamples, sampleRate: SR, plan: speech.plan, scratch });
  const ms = Date.now() - started;
  expect(bed).not.toBeNull();
  const samples = await pcm(bed!.file);
  expect(samples.length).toBe(speech.totalSamples);
  return { ...speech, samples, outcome, bedFile: bed!.file, ms };
}

describe("the music bed of a rendered edit", () => {
  let song12: string;
  let song40: string;
  beforeAll(() => {
    song12 = makeSong("loop12", 12, 10.5);
    song40 = makeSong("long40", 40);
  });

  it("plays in the pauses and ducks at least 10 dB under the speech the analysis finds, its 2–4 kHz cut further", async () => {
    const bed = await makeBed("duck", [[0, 18.7]], [{ type: "default", musicType: "bgmstandard" }], {}, { file: song12, ...SONG_12S });
    const analysis = await analyzeFile(bed.file);
    const { inside, pauses } = speechAndPauses(analysis.speech, analysis.duration);
    expect(inside.length).toBeGreaterThanOrEqual(5);
    expect(pauses.length).toBeGreaterThanOrEqual(2);
    const inPauses = rmsDb(bed.samples, pauses);
    const underSpeech = rmsDb(bed.samples, inside);
    const presence = await pcm(bed.bedFile, "bandpass=f=2750:width_type=q:w=8");
    const presenceDrop = rmsDb(presence, pauses) - rmsDb(presence, inside);
    console.info(`music bed: pauses ${inPauses.toFixed(1)} dBFS, under speech ${underSpeech.toFixed(1)} dBFS, presence band drop ${presenceDrop.toFixed(1)} dB; voice ${bed.outcome.voiceDb?.toFixed(1)} dB, song ${bed.outcome.songDb?.toFixed(1)} dB`);
    // The bed follows the voice (this talk is quiet, −30 dB); the render's loudness normalisation lifts both.
    expect(inPauses).toBeGreaterThan(-50);
    expect(inPauses - underSpeech).toBeGreaterThanOrEqual(10);
    expect(inPauses - underSpeech).toBeLessThan(20);
    // Standard music sits 12 dB under the voice in pauses (±3 dB: the tremolo, the song's level measure).
    expect(Math.abs(inPauses - (bed.outcome.voiceDb! - 12))).toBeLessThan(3);
    expect(presenceDrop).toBeGreaterThan(inPauses - underSpeech + 3);
    expect(bed.outcome).toMatchObject({ mixed: true, ducked: true });
  });

  it("loops over the song's loop points for an edit longer than the song: no gap, no click at the joins", async () => {
    // 28.7 s from a 12 s song (loop 2–10 s): joins at 10, 18 and 26 s. Without ducking the level stays put.
    const bed = await makeBed("loop", [[0, 18.7], [0, 10]], [{ type: "default", musicType: "bgmstandard" }, { type: "default", musicType: "bgmstandard" }], { autoduck: false }, { file: song12, ...SONG_12S });
    expect(bed.outcome.ducked).toBe(false);
    const windows: number[] = [];
    for (let t = 1.5; t < 28.7 - 3; t += 0.05) windows.push(rmsDb(bed.samples, [{ start: t, end: t + 0.05 }]));
    const sorted = [...windows].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    expect(sorted[0]!).toBeGreaterThan(median - 3);
    const maxStep = (from: number, to: number) => {
      let max = 0;
      for (let i = Math.round(from * SR) + 1; i < Math.round(to * SR); i++) max = Math.max(max, Math.abs(bed.samples[i]! - bed.samples[i - 1]!));
      return max;
    };
    const steady = maxStep(4, 6);
    for (const join of [10, 18, 26]) expect(maxStep(join - 0.03, join + 0.03)).toBeLessThan(steady * 1.3);
    console.info(`loop: 50 ms levels ${sorted[0]!.toFixed(1)}…${sorted.at(-1)!.toFixed(1)} dBFS (median ${median.toFixed(1)}), bed of ${(bed.totalSamples / SR).toFixed(1)} s made in ${bed.ms} ms`);
  });

  it("fades in at the start and out at the end when the song outlasts the edit", async () => {
    const bed = await makeBed("fade", [[2.5, 9.5]], [{ type: "default", musicType: "bgmstandard" }], { autoduck: false }, { file: song40, durationMs: 40_000, loopStartMs: null, loopEndMs: null });
    const middle = rmsDb(bed.samples, [{ start: 2.5, end: 4.5 }]);
    expect(rmsDb(bed.samples, [{ start: 0, end: 0.1 }])).toBeLessThan(middle - 12);
    expect(rmsDb(bed.samples, [{ start: 6.85, end: 7 }])).toBeLessThan(middle - 20);
    // Halfway through the fade-out (7 s / 3 long) the music is at about half its amplitude (sin²).
    expect(rmsDb(bed.samples, [{ start: 7 - 7 / 6 - 0.05, end: 7 - 7 / 6 + 0.05 }]) - middle).toBeGreaterThan(-9);
  });

  it("is silent in a muted scene and as loud as the voice, not ducked, in a main-music scene", async () => {
    const bed = await makeBed(
      "levels",
      [[0.6, 4.6], [5.2, 6.7], [7.9, 11.9]],
      [
        { type: "default", musicType: "bgmstandard" },
        { type: "default", musicType: "bgmmute" },
        { type: "default", musicType: "mainmusic" },
      ],
      {},
      { file: song12, ...SONG_12S },
    );
    const voice = bed.outcome.voiceDb!;
    // Scenes: 0–4 s standard, 4–5.5 s mute, 5.5–9.5 s main music (with speech all along).
    expect(rmsDb(bed.samples, [{ start: 4.2, end: 5.3 }])).toBeLessThan(-90);
    const main = rmsDb(bed.samples, [{ start: 5.8, end: 7.5 }]);
    expect(Math.abs(main - voice)).toBeLessThan(3);
    const standardUnderSpeech = rmsDb(bed.samples, [{ start: 1.2, end: 1.5 }]);
    expect(standardUnderSpeech).toBeLessThan(voice - 22);
  });

  it("plays the intro's music at full level with intro_mode music and none in the outro with outro_mode silent", async () => {
    const pieces: [number, number][] = [[0, 2.3], [2.5, 4.6], [7.9, 9.5]];
    const scenes = [
      { type: "intro", musicType: "bgmstandard" },
      { type: "default", musicType: "bgmstandard" },
      { type: "outro", musicType: "bgmstandard" },
    ];
    const bed = await makeBed("intro", pieces, scenes, { intro_mode: "music", outro_mode: "silent" }, { file: song12, ...SONG_12S });
    const voice = bed.outcome.voiceDb!;
    expect(Math.abs(rmsDb(bed.samples, [{ start: 1.1, end: 2.1 }]) - voice)).toBeLessThan(3);
    expect(rmsDb(bed.samples, [{ start: 4.6, end: 6 }])).toBeLessThan(-90);
    // Without a mode the intro is a scene like the others: ducked under its speech.
    const plain = await makeBed("intro-plain", pieces, scenes, {}, { file: song12, ...SONG_12S });
    expect(rmsDb(plain.samples, [{ start: 1.1, end: 2.1 }])).toBeLessThan(voice - 22);
  });

  it("makes the bed of a 10-minute edit in a few seconds", async () => {
    const long = path.join(dir, "long.flac");
    const totalSamples = 600 * SR;
    execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-stream_loop", "40", "-i", TALK, "-vn", "-af", `aresample=${SR},atrim=end_sample=${totalSamples}`, "-ac", "2", "-c:a", "flac", long]);
    const scratch = fs.mkdtempSync(path.join(dir, "long-"));
    const factory = musicBed({ song: { file: song12, ...SONG_12S }, scenes: [{ type: "default", musicType: "bgmstandard", seconds: 600 }], settings: SETTINGS });
    const started = Date.now();
    const bed = await factory({ speech: long, totalSamples, sampleRate: SR, plan: { fps: FPS, sampleRate: SR } as never, scratch });
    const ms = Date.now() - started;
    console.info(`10-minute bed in ${ms} ms`);
    expect(bed).not.toBeNull();
    expect(ms).toBeLessThan(15_000);
    expect((await probe(bed!.file)).durationSeconds).toBeCloseTo(600, 1);
  }, 60_000);
});

describe("renders of a project with automatic music", () => {
  let server: TestServer;
  let base: string;
  let token: string;
  let talk: number;
  let songIds: number[];
  const api = jsonApi(() => base, () => token);
  const musicDir = () => path.join(dir, "library");

  beforeAll(async () => {
    fs.mkdirSync(path.join(dir, "library"), { recursive: true });
    // No shipped catalogue here: only this test's songs.
    fs.mkdirSync(path.join(dir, "catalogue"), { recursive: true });
    server = await startTestServer({ MUSIC_CATALOGUE_DIR: path.join(dir, "catalogue") });
    base = await listen(server);
    token = (await server.signUp()).token;
    const uploaded = await tusUpload(base, token, TALK, { name: "talk.mp4" });
    talk = (await api("POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 })).body.media_file.id;
    // Only this test's songs: two calm ones that suit a talk.
    await server.db.updateTable("songs").set({ available: 0 }).execute();
    const now = new Date().toISOString();
    songIds = [];
    for (const name of ["calm-a", "calm-b"]) {
      fs.copyFileSync(makeSong(name, 12, 10.5), path.join(musicDir(), `${name}.opus`));
      const row = await server.db
        .insertInto("songs")
        .values({ source: "library", key: `${name}.opus`, title: name, author: "Tests", genre_tags: "[]", instrument_tags: "[]", video_theme_tags: "[]", licence_id: "CC0-1.0", attribution: null, duration_ms: 12_000, loop_start_ms: 2_000, loop_end_ms: 10_000, energy: 1, tempo: 85, available: 1, created_at: now, updated_at: now })
        .returning("id")
        .executeTakeFirstOrThrow();
      songIds.push(Number(row.id));
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  async function project(name: string, settings: Record<string, unknown>): Promise<number> {
    const id = (await api("POST", "/createproject", { name, locale: "en-US", style: "video", autocutsilences: 0, media: [talk] })).body.id as number;
    await waitFor(async () => ((await api("GET", `/projects/${id}`)).body.status === "Preview Ready" ? true : undefined));
    const row = await server.db.selectFrom("projects").select("settings").where("id", "=", id).executeTakeFirstOrThrow();
    await server.db.updateTable("projects").set({ settings: JSON.stringify({ ...JSON.parse(row.settings), ...settings }) }).where("id", "=", id).execute();
    return id;
  }

  /** The whole talk as one scene (plus these fields), rendered by the render step with this test's music folder. */
  async function render(id: number, scene: Partial<Insertable<ScenesTable>> = {}, final = false): Promise<Float32Array> {
    const now = new Date().toISOString();
    await server.db.deleteFrom("scenes").where("project_id", "=", id).execute();
    await server.db
      .insertInto("scenes")
      .values({ project_id: id, order: 1, type: "default", visibility: 1, media_file_id: talk, start: 0, end: 18.7, trim_start: 0, trim_end: 18.7, trim_start_default: 0, trim_end_default: 18.7, trim_start_raw: 0, trim_end_raw: 18.7, text: "[]", media_audio: "standard", music_type: "bgmstandard", punch_in: 0, created_at: now, updated_at: now, ...scene })
      .execute();
    const store = localFileStore(server.config.storeDir);
    const ctx = { jobId: `music-${id}-${Date.now()}`, attempt: 1, signal: new AbortController().signal, heartbeat: async () => {} } as JobContext;
    const deps = { db: server.db, store, log: pino({ level: "silent" }), music: { catalogueDir: path.join(dir, "catalogue"), musicDir: musicDir() } };
    const done = await renderProject(deps, (await findProjectById(server.db, id))!, ctx, final, {}, async () => {});
    return pcm(store.pathOf(done.export_key!));
  }

  it("mixes the chosen song under the talk, records it as the project's song and reports music and auto-duck", async () => {
    const first = await project("Music", { autobgm: 1, autoduck: 1, bgm_id: null });
    const samples = await render(first);
    // The pause 11.92–13.92 s: the music (room tone alone is far below −60 dBFS).
    const pause = rmsDb(samples, [{ start: 12.4, end: 13.8 }]);
    console.info(`preview: music in a pause ${pause.toFixed(1)} dBFS, speech with music ${rmsDb(samples, [{ start: 14.1, end: 16 }]).toFixed(1)} dBFS`);
    expect(pause).toBeGreaterThan(-40);
    const settings = JSON.parse((await server.db.selectFrom("projects").select(["settings", "applied_features"]).where("id", "=", first).executeTakeFirstOrThrow()).settings);
    expect(songIds).toContain(settings.bgm_id);
    const applied = JSON.parse((await server.db.selectFrom("projects").select("applied_features").where("id", "=", first).executeTakeFirstOrThrow()).applied_features);
    expect(applied.music_song_id).toBe(settings.bgm_id);
    expect((await api("GET", `/projects/${first}/highlights`)).body).toMatchObject({ music: true, autoduck: true });
    expect((await api("GET", `/projects/${first}`)).body.bgm_id).toBe(settings.bgm_id);

    // The user's next project gets the other song (never the last project's while another fits).
    const second = await project("Music 2", { autobgm: 1, autoduck: 0, bgm_id: null });
    await render(second);
    const next = JSON.parse((await server.db.selectFrom("projects").select("settings").where("id", "=", second).executeTakeFirstOrThrow()).settings);
    expect(next.bgm_id).not.toBe(settings.bgm_id);
    expect(songIds).toContain(next.bgm_id);
    // Auto-duck off: music, no ducking reported.
    expect((await api("GET", `/projects/${second}/highlights`)).body).toMatchObject({ music: true, autoduck: false });

    // A later render keeps the recorded song.
    await render(first);
    expect(JSON.parse((await server.db.selectFrom("projects").select("settings").where("id", "=", first).executeTakeFirstOrThrow()).settings).bgm_id).toBe(settings.bgm_id);

    // The final render (smart: copied picture stretches) carries the same bed.
    const exported = await render(first, {}, true);
    expect(rmsDb(exported, [{ start: 12.4, end: 13.8 }])).toBeGreaterThan(-40);
    expect((await api("GET", `/projects/${first}/highlights`)).body).toMatchObject({ music: true, autoduck: true });
  });

  it("plays no music with automatic music off, or in a scene set to mute, and says so in the highlights", async () => {
    const off = await project("No music", { autobgm: 0, autoduck: 1 });
    const quiet = rmsDb(await render(off), [{ start: 12.4, end: 13.8 }]);
    expect(quiet).toBeLessThan(-55);
    expect((await api("GET", `/projects/${off}/highlights`)).body).toMatchObject({ music: false, autoduck: false });
    const muted = await project("Muted music", { autobgm: 1 });
    expect(rmsDb(await render(muted, { music_type: "bgmmute" }), [{ start: 12.4, end: 13.8 }])).toBeLessThan(-55);
    expect((await api("GET", `/projects/${muted}/highlights`)).body).toMatchObject({ music: false, autoduck: false });
  });

  it("resets every scene's volumes and the project's music level, with auto-duck as asked", async () => {
    const id = await project("Reset", { autobgm: 1, musicType: "bgmloud", autoduck: 1 });
    await server.db.updateTable("scenes").set({ music_type: "mainmusic", media_audio: "loud" }).where("project_id", "=", id).execute();
    const reset = await api("GET", `/projects/${id}/reset/volumes?autoduck=false`);
    expect(reset.status).toBe(200);
    expect(reset.body).toMatchObject({ autoduck: 0, musicType: "bgmstandard" });
    const scenes = await server.db.selectFrom("scenes").select(["music_type", "media_audio"]).where("project_id", "=", id).execute();
    expect(scenes.every((s) => s.music_type === "bgmstandard" && s.media_audio === "standard")).toBe(true);
  });
});
