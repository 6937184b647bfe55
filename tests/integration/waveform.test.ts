/**
 * GET /media/{id}/waveform (issue 14, trim and split dialogs) on a real processed talk: one peak per 1/50 s
 * of the file, loud where the fixture speaks and quiet in its gaps (tests/fixtures/talk.truth.json), the
 * analysis' silences beside them, measured once by the pipeline and kept beside the file (or on the first
 * request for a file processed before), and nobody else's.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Waveform } from "../../api/subtitles";
import { jsonApi, listen, processedTalkProject, startTestServer, type TestServer } from "./helpers";

const truth = JSON.parse(fs.readFileSync(path.resolve(__dirname, "../fixtures/talk.truth.json"), "utf8")) as {
  duration: number;
  speech: { start: number; end: number }[];
};

let server: TestServer;
let base: string;
let token: string;
let other: string;
let mediaId: number;

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
  token = (await server.signUp()).token;
  other = (await server.signUp()).token;
  const projectId = await processedTalkProject(base, token, "Waveform talk");
  const scene = await server.db.selectFrom("scenes").select("media_file_id").where("project_id", "=", projectId).where("media_file_id", "is not", null).executeTakeFirstOrThrow();
  mediaId = scene.media_file_id!;
}, 240_000);
afterAll(() => server?.close());

/** Every file under a folder, recursively. */
const filesUnder = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)]));

describe("GET /media/{id}/waveform", () => {
  it("answers one peak per 1/50 s, loud in speech and quiet in the gaps, with the analysis' silences", async () => {
    // The pipeline measured it while processing the file (its waveform step), before anyone asked.
    expect(filesUnder(server.dataDir).filter((f) => f.endsWith(`/${mediaId}/waveform.json`))).toHaveLength(1);
    const api = jsonApi(() => base, () => token);
    const res = await api("GET", `/media/${mediaId}/waveform`);
    expect(res.status).toBe(200);
    const waveform = Waveform.parse(res.body);
    expect(waveform.media_file_id).toBe(mediaId);
    expect(waveform.per_second).toBe(50);
    expect(waveform.duration).toBeCloseTo(truth.duration, 0);
    expect(Math.abs(waveform.peaks.length - waveform.duration * waveform.per_second)).toBeLessThanOrEqual(2);
    expect(waveform.peaks.every((p) => p >= 0 && p <= 1)).toBe(true);

    const at = (seconds: number) => waveform.peaks[Math.floor(seconds * waveform.per_second)]!;
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const inside = (range: { start: number; end: number }, margin: number) => {
      const values: number[] = [];
      for (let t = range.start + margin; t < range.end - margin; t += 1 / waveform.per_second) values.push(at(t));
      return values;
    };
    const speech = truth.speech.flatMap((s) => inside(s, 0.1));
    const gaps = truth.speech.slice(1).flatMap((s, i) => inside({ start: truth.speech[i]!.end, end: s.start }, 0.08));
    expect(gaps.length).toBeGreaterThan(50);
    expect(mean(speech)).toBeGreaterThan(mean(gaps) * 4);
    // The 2 s gap of the fixture (11.92–13.92 s) is quieter throughout than the median of speech.
    const sortedSpeech = [...speech].sort((a, b) => a - b);
    const longGap = inside({ start: 11.92, end: 13.92 }, 0.15);
    expect(Math.max(...longGap)).toBeLessThan(sortedSpeech[Math.floor(sortedSpeech.length / 2)]!);

    // Silences for snapping: the long gap lies inside one of them.
    expect(waveform.silences).toBeDefined();
    expect(waveform.silences!.some((s) => s.start <= 12.3 && s.end >= 13.5)).toBe(true);
    expect(waveform.silences!.every((s) => s.end > s.start && s.start >= 0 && s.end <= waveform.duration + 0.05)).toBe(true);
  });

  it("is measured once and kept beside the file: the stored copy answers the next call", async () => {
    const stored = filesUnder(server.dataDir).filter((f) => f.endsWith(`/${mediaId}/waveform.json`));
    expect(stored).toHaveLength(1);
    expect(filesUnder(path.dirname(stored[0]!)).some((f) => f.includes(".part."))).toBe(false);
    const kept = JSON.parse(fs.readFileSync(stored[0]!, "utf8")) as { peaks: number[] };
    // A marker in the stored copy shows that the second answer is read from it, not measured again.
    fs.writeFileSync(stored[0]!, JSON.stringify({ ...kept, peaks: kept.peaks.map((p, i) => (i === 0 ? 0.999 : p)) }));
    const again = await jsonApi(() => base, () => token)("GET", `/media/${mediaId}/waveform`);
    expect(again.status).toBe(200);
    expect(again.body.peaks[0]).toBe(0.999);
    expect(again.body.peaks.length).toBe(kept.peaks.length);
  });

  it("measures a file processed before the waveform step on its first request, and stores it", async () => {
    const stored = filesUnder(server.dataDir).find((f) => f.endsWith(`/${mediaId}/waveform.json`))!;
    fs.rmSync(stored);
    const res = await jsonApi(() => base, () => token)("GET", `/media/${mediaId}/waveform`);
    expect(res.status).toBe(200);
    expect(res.body.peaks[0]).not.toBe(0.999);
    expect(Math.abs(res.body.peaks.length - res.body.duration * 50)).toBeLessThanOrEqual(2);
    expect(fs.existsSync(stored)).toBe(true);
  });

  it("is 404 for another user's file and for an unknown id, 401 without a token", async () => {
    const api = jsonApi(() => base, () => token);
    const theirs = await api("GET", `/media/${mediaId}/waveform`, undefined, other);
    expect(theirs.status).toBe(404);
    expect(theirs.body.code).toBe("not_found");
    expect(JSON.stringify(theirs.body)).not.toContain("peaks");
    expect((await api("GET", `/media/999999/waveform`)).status).toBe(404);
    expect((await fetch(`${base}/api/v1/media/${mediaId}/waveform`)).status).toBe(401);
  });
});
