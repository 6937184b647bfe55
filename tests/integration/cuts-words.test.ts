import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureTalks, TALK_SPECS, type GeneratedTalk } from "../../bench/talks";
import { analyzeFile, type TimeRange } from "../../server/media/analyze";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { generateTalk, requireTool, type Talk } from "./spoken-talk";
import { startFakeStt } from "./stt-server";
import { tusUpload } from "./tus";

/**
 * Issue 14, cuts that respect words. (1) The silence cut on two short talks it was not tuned on (a brown
 * rumble and a reverberant pink room; `npm run bench:pipeline` runs all six, longer). (2) Filler words: a
 * talk with "Um." and "Uh." spoken by espeak-ng, recognised through the Whisper-compatible protocol (the
 * local stand-in answers one word per burst of sound, so it names the fillers; pocketsphinx's US English
 * model hears espeak's "um" as "bum" or "I'm" and never reports a filler). Recreating the storyboard with
 * the option on cuts each filler out as a hidden scene; off keeps it; showing the hidden scene restores it.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-cuts-"));

function overlap(a: readonly TimeRange[], b: readonly TimeRange[]): number {
  let total = 0;
  for (const x of a) for (const y of b) total += Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
  return total;
}

describe("the silence cut on talks it was not tuned on", () => {
  let talks: GeneratedTalk[];
  beforeAll(async () => {
    requireTool("espeak-ng", "espeak-ng");
    const short = (name: string) => ({ ...TALK_SPECS.find((s) => s.name === name)!, seconds: 40 });
    talks = await ensureTalks(dir, [short("fan"), short("hall")]);
  }, 120_000);

  it("keeps ≥ 99.5 % of the speech, removes ≥ 85 % of the silence and cuts every gap of 0.5 s or more", async () => {
    for (const talk of talks) {
      const analysis = await analyzeFile(talk.file);
      const gaps: TimeRange[] = [];
      let cursor = 0;
      for (const s of talk.speech) {
        if (s.start > cursor) gaps.push({ start: cursor, end: s.start });
        cursor = s.end;
      }
      gaps.push({ start: cursor, end: talk.duration });
      const speech = talk.speech.reduce((sum, s) => sum + s.end - s.start, 0);
      const silence = gaps.reduce((sum, g) => sum + g.end - g.start, 0);
      const long = gaps.slice(1, -1).filter((g) => g.end - g.start >= 0.5);
      const figures = {
        talk: talk.spec.name,
        kept: overlap(talk.speech, analysis.speech) / speech,
        removed: overlap(gaps, analysis.silences) / silence,
        uncut: long.filter((g) => overlap([g], analysis.silences) === 0).length,
      };
      expect(figures).toMatchObject({ talk: talk.spec.name, uncut: 0 });
      expect(figures.kept, talk.spec.name).toBeGreaterThanOrEqual(0.995);
      expect(figures.removed, talk.spec.name).toBeGreaterThanOrEqual(0.85);
    }
  });
});

interface SceneOut {
  id: number;
  visibility: number;
  trim_start: number;
  trim_end: number;
  text: { start: number; end: number; text: string }[];
}

describe("filler words", () => {
  const SCRIPT = ["Welcome back to the channel.", "Um.", "Today I want to show you the editor.", "Uh.", "See you next time."];
  const SAY = ["welcome", "um", "today", "uh", "see"];
  let talk: Talk;
  let stt: Awaited<ReturnType<typeof startFakeStt>>;
  let server: TestServer;
  let base: string;
  let token: string;
  let projectId: number;
  const api = jsonApi(() => base, () => token);
  const scenes = async () => (await api("POST", `/projects/${projectId}/storyboard`, {})).body.timeline.scenes as SceneOut[];
  const recreate = (removefillers: 0 | 1) => api("POST", `/projects/${projectId}/recreatestoryboard`, { autocutsilences: 0, smoothcuts: 1, removefillers });

  beforeAll(async () => {
    talk = generateTalk(dir, "fillers", SCRIPT, { gaps: 0.7, roomToneDb: -65 });
    const m4a = path.join(dir, "fillers.m4a");
    execFileSync("ffmpeg", ["-nostdin", "-loglevel", "error", "-y", "-i", talk.file, "-c:a", "aac", "-b:a", "96k", m4a]);
    stt = await startFakeStt({ say: (i) => SAY[i] ?? "speech" });
    server = await startTestServer({ STT: "on", STT_URL: stt.url });
    base = await listen(server);
    const me = await server.signUp();
    token = me.token;
    await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("email", "=", me.email).execute();
    const uploaded = await tusUpload(base, token, m4a, { name: "fillers.m4a" });
    const media = await api("POST", "/library", { media_file: uploaded.id, name: "fillers.m4a", locale: "en-US", has_speech: 1 });
    expect(media.status).toBe(201);
    const created = await api("POST", "/createproject", { name: "Fillers", locale: "en-US", style: "video", media: [media.body.media_file.id] });
    expect(created.status).toBe(201);
    projectId = created.body.id;
    await waitFor(async () => {
      const p = (await api("GET", `/projects/${projectId}`)).body;
      if (p.status === "Failed") throw new Error("the project failed");
      return p.status === "Preview Ready" && !p.subtitles_pending ? true : undefined;
    }, 120_000);
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await stt?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("once the words are known, no scene starts or ends inside one (word-safe margins)", async () => {
    const words = talk.sentences; // the stand-in answers one word per sentence, at its true edges
    for (const scene of await scenes()) {
      for (const edge of [scene.trim_start, scene.trim_end]) {
        expect(words.some((w) => w.start + 0.02 < edge && edge < w.end - 0.02), `edge ${edge}`).toBe(false);
      }
    }
  });

  it("cuts each filler out as a hidden scene with the option on, and keeps it with the option off", async () => {
    const on = await recreate(1);
    expect(on.status).toBe(200);
    expect(on.body.removefillers).toBe(1);
    const cut = await scenes();
    const hidden = cut.filter((s) => s.visibility === 0);
    expect(hidden).toHaveLength(2);
    // each hidden scene is where its filler was said, and the shown scenes meet it on both sides
    const [um, uh] = [talk.sentences[1]!, talk.sentences[3]!];
    for (const [scene, said] of [[hidden[0]!, um], [hidden[1]!, uh]] as const) {
      expect(scene.trim_start).toBeLessThanOrEqual(said.start + 0.05);
      expect(scene.trim_end).toBeGreaterThanOrEqual(said.end - 0.05);
      expect(scene.trim_end - scene.trim_start).toBeLessThan(said.end - said.start + 0.2);
      const i = cut.indexOf(scene);
      expect(cut[i - 1]).toMatchObject({ visibility: 1, trim_end: scene.trim_start });
      expect(cut[i + 1]).toMatchObject({ visibility: 1, trim_start: scene.trim_end });
    }
    // lines stay with the words they show: no filler in any line, every other word once
    const words = cut.flatMap((s) => s.text.map((l) => l.text.toLowerCase()));
    expect(words.join(" ")).not.toMatch(/\b(um|uh)\b/);
    expect(words.join(" ")).toMatch(/welcome.*today.*see/);
    expect(hidden.every((s) => s.text.length === 0)).toBe(true);

    const off = await recreate(0);
    expect(off.body.removefillers).toBe(0);
    const whole = await scenes();
    expect(whole.filter((s) => s.visibility === 0)).toHaveLength(0);
  });

  it("brings a filler back when its hidden scene is restored", async () => {
    await recreate(1);
    const hidden = (await scenes()).filter((s) => s.visibility === 0);
    const shown = await api("GET", `/scenes/${hidden[0]!.id}/show`);
    expect(shown.status).toBe(200);
    const after = await scenes();
    expect(after.find((s) => s.id === hidden[0]!.id)?.visibility).toBe(1);
    expect(after.filter((s) => s.visibility === 0).map((s) => s.id)).toEqual([hidden[1]!.id]);
  });
});
