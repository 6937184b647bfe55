/**
 * Timelines for desktop editors (issue 13) on a real processed project: the FCPXML, OTIO and EDL
 * the API answers parse, cut where the render cut (to the frame) and last as long as the rendered
 * preview (ffprobe, within a frame). The expected cuts are worked out here from the scene rows with
 * the render's rule (cumulative rounding of the shown scenes' lengths at 30 fps), not by the generators.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderPreview, runFfprobe } from "../../server/media";
import { probe } from "../../server/media/probe";
import { pictureChunks } from "../../server/media/render";
import { planRender, RENDER_DEFAULTS, type EditSegment } from "../../server/media/render-plan";
import { frameRate, rationalTime, renderSourceFrames, timelineOf, toEdl, toFcpxml } from "../../server/media/timelines";
import { parseEdl, parseFcpxml, parseOtio, type ParsedCut } from "../timeline-files";
import { jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";
import { frameNumbers, makeNumberedClip, NUMBERS } from "./numbered-clip";

const FPS = 30;
let server: TestServer;
let base: string;
let token: string;
let other: string;
let projectId: number;

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
  token = (await server.signUp()).token;
  other = (await server.signUp()).token;
  projectId = await processedTalkProject(base, token, "Talk: take/2 ✓");
}, 240_000);
afterAll(() => server?.close());

const get = (id: number, format: string, as = token) => fetch(`${base}/api/v1/projects/${id}/timeline?format=${format}`, { headers: { authorization: `Bearer ${as}` } });

/** The shown scenes in render order (intro first, outro last, hidden ones left out) and the render's frame edges. */
async function expectedCuts(): Promise<ParsedCut[]> {
  const rows = await server.db
    .selectFrom("scenes")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("parent_scene_id", "is", null)
    .where("visibility", "=", 1)
    .orderBy("order")
    .execute();
  const rank = (type: string) => (type === "intro" ? 0 : type === "outro" ? 2 : 1);
  const shown = [...rows].sort((a, b) => rank(a.type) - rank(b.type));
  const cuts: ParsedCut[] = [];
  let seconds = 0;
  let edge = 0;
  for (const scene of shown) {
    seconds += Math.max(0, scene.trim_end - scene.trim_start);
    const next = Math.round(seconds * FPS);
    if (next > edge) cuts.push({ name: "talk.mp4", recordIn: edge, sourceIn: Math.round(scene.trim_start * FPS), frames: next - edge });
    edge = next;
  }
  return cuts;
}

/**
 * Record in/out exactly the render's; the source in within a frame of the scene's trim start (which
 * frame exactly depends on how the render seeks its inputs: proven frame by frame on a numbered
 * clip below). The three files agree with each other exactly.
 */
function expectCuts(cuts: ParsedCut[], expected: ParsedCut[]) {
  expect(cuts.map(({ name, recordIn, frames }) => ({ name, recordIn, frames }))).toEqual(expected.map(({ name, recordIn, frames }) => ({ name, recordIn, frames })));
  cuts.forEach((cut, i) => expect(Math.abs(cut.sourceIn - expected[i]!.sourceIn)).toBeLessThanOrEqual(1));
}

async function renderedFrames(): Promise<{ frames: number; seconds: number }> {
  const row = await server.db.selectFrom("projects").select("export_key").where("id", "=", projectId).executeTakeFirstOrThrow();
  const file = path.join(server.config.storeDir, row.export_key!);
  const json = JSON.parse(await runFfprobe(["-v", "error", "-print_format", "json", "-count_frames", "-select_streams", "v:0", "-show_streams", file])) as { streams: { duration: string; nb_read_frames: string }[] };
  return { frames: Number(json.streams[0]!.nb_read_frames), seconds: Number(json.streams[0]!.duration) };
}

describe("timelines for desktop editors", () => {
  it("answers each format as a named attachment whose cuts are the render's, after a scene is hidden and the edit rendered again", async () => {
    const api = jsonApi(() => base, () => token);
    const scenes = await server.db.selectFrom("scenes").select(["id"]).where("project_id", "=", projectId).where("parent_scene_id", "is", null).orderBy("order").execute();
    expect(scenes.length).toBeGreaterThanOrEqual(2);
    // Hide the second scene and move the last one first, then render the preview again.
    expect((await api("GET", `/scenes/${scenes[1]!.id}/hide`)).status).toBe(200);
    expect((await api("GET", `/scenes/${scenes[scenes.length - 1]!.id}/order/1`)).status).toBe(200);
    const before = await server.db.selectFrom("projects").select("export_key").where("id", "=", projectId).executeTakeFirstOrThrow();
    expect((await api("POST", `/projects/${projectId}/render`, { final: false })).status).toBe(200);
    await waitFor(async () => {
      const row = await server.db.selectFrom("projects").select(["status", "export_key", "failure"]).where("id", "=", projectId).executeTakeFirstOrThrow();
      if (row.status === "Failed") throw new Error(`render failed: ${row.failure}`);
      return row.status === "Preview Ready" && row.export_key !== before.export_key ? true : undefined;
    });

    const expected = await expectedCuts();
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const total = expected.reduce((sum, c) => sum + c.frames, 0);
    const rendered = await renderedFrames();
    console.log(`timelines: ${expected.length} cuts, ${total} frames planned, preview ${rendered.frames} frames / ${rendered.seconds.toFixed(3)} s`, JSON.stringify(expected));
    // The render's own length: the timeline's total within one frame of what ffprobe reads.
    expect(Math.abs(rendered.frames - total)).toBeLessThanOrEqual(1);
    expect(Math.abs(rendered.seconds - total / FPS)).toBeLessThanOrEqual(1 / FPS + 1e-6);

    const fcpRes = await get(projectId, "fcpxml");
    expect(fcpRes.status).toBe(200);
    expect(fcpRes.headers.get("content-type")).toBe("application/xml; charset=utf-8");
    expect(fcpRes.headers.get("content-disposition")).toBe(`attachment; filename="Talk_ take_2 _.fcpxml"; filename*=UTF-8''Talk_%20take_2%20%E2%9C%93.fcpxml`);
    const fcpText = await fcpRes.text();
    const fcp = parseFcpxml(fcpText);
    expect(fcp.version).toBe("1.9");
    // The canvas is the footage's own size (320×240 here), not the preview's: an editor works from the originals.
    expect(fcpText).toMatch(/<format id="r1" [^>]*width="320" height="240"/);
    expect(fcp.fps).toEqual({ num: FPS, den: 1 });
    expectCuts(fcp.cuts, expected);
    expect(fcp.duration).toBe(total);
    expect(fcp.refs.map((asset) => asset?.getElementsByTagName("media-rep")[0]?.getAttribute("src"))).toEqual(expected.map(() => "file:./talk.mp4"));

    const otioRes = await get(projectId, "otio");
    expect(otioRes.status).toBe(200);
    expect(otioRes.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(otioRes.headers.get("content-disposition")).toContain(".otio");
    const otio = parseOtio(await otioRes.text());
    expect(otio.schema).toBe("Timeline.1");
    for (const track of otio.tracks) {
      expect(track.schema).toBe("Track.1");
      expect(track.cuts.map(({ name, recordIn, sourceIn, frames }) => ({ name, recordIn, sourceIn, frames }))).toEqual(fcp.cuts);
      expect(track.cuts.every((c) => c.url === "talk.mp4")).toBe(true);
      expect(track.frames).toBe(total);
    }
    expect(otio.tracks.map((t) => t.kind)).toEqual(["Video", "Audio"]);

    const edlRes = await get(projectId, "edl");
    expect(edlRes.status).toBe(200);
    expect(edlRes.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(edlRes.headers.get("content-disposition")).toContain(".edl");
    const edl = parseEdl(await edlRes.text(), FPS);
    expect(edl.fcm).toBe("NON-DROP FRAME");
    expect(edl.events.map(({ name, recordIn, sourceIn, frames }) => ({ name, recordIn, sourceIn, frames }))).toEqual(fcp.cuts);
    expect(edl.events.every((e) => e.reel === "AX" && e.track === "AA/V")).toBe(true);
  }, 240_000);

  it("is the owner's only, and refuses an unknown format", async () => {
    const theirs = await get(projectId, "fcpxml", other);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toMatchObject({ code: "not_found" });
    const bad = await get(projectId, "aaf");
    expect(bad.status).toBe(400);
    expect((await get(projectId, "edl", "nope")).status).toBe(401);
  });

  it("takes the canvas of the final render when there is one", async () => {
    await server.db.updateTable("projects").set({ final_render: 1, export_width: 160, export_height: 120 }).where("id", "=", projectId).execute();
    try {
      const text = await (await get(projectId, "fcpxml")).text();
      expect(text).toMatch(/<format id="r1" [^>]*width="160" height="120"/);
    } finally {
      await server.db.updateTable("projects").set({ final_render: 0, export_width: null, export_height: null }).where("id", "=", projectId).execute();
    }
  });

  it("has no timeline while the storyboard is being made, nor once every scene is removed", async () => {
    const row = await server.db.selectFrom("projects").select("status").where("id", "=", projectId).executeTakeFirstOrThrow();
    await server.db.updateTable("projects").set({ status: "Working" }).where("id", "=", projectId).execute();
    const building = await get(projectId, "otio");
    expect(building.status).toBe(409);
    expect(await building.json()).toMatchObject({ code: "project_busy" });
    await server.db.updateTable("projects").set({ status: row.status }).where("id", "=", projectId).execute();
    await server.db.updateTable("scenes").set({ visibility: 0 }).where("project_id", "=", projectId).execute();
    const empty = await get(projectId, "edl");
    expect(empty.status).toBe(422);
    expect(await empty.json()).toMatchObject({ code: "nothing_to_render" });
    // A render of it is refused the same way up front instead of failing in the queue.
    const render = await fetch(`${base}/api/v1/projects/${projectId}/render`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ final: 0 }),
    });
    expect(render.status).toBe(422);
    expect(await render.json()).toMatchObject({ code: "nothing_to_render" });
  });
});

describe("source frames: what the render shows is what the timeline says", () => {
  let work: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(os.tmpdir(), "cutroom-timelines-"));
  });
  afterAll(() => rm(work, { recursive: true, force: true }));

  // Off the frame grid, forwards within one input (one run) and backwards (a new run).
  const pieces = (clip: string): EditSegment[] => [
    { file: clip, kind: "video", start: 0.11, end: 0.62 },
    { file: clip, kind: "video", start: 0.752, end: 1.31 },
    { file: clip, kind: "video", start: 1.517, end: 2.05 },
    { file: clip, kind: "video", start: 4.049, end: 4.4 },
    { file: clip, kind: "video", start: 2.583, end: 3.01 },
    { file: clip, kind: "video", start: 3.05, end: 3.61 },
    { file: clip, kind: "video", start: 0.4, end: 0.9 },
  ];

  for (const [label, smoothCuts, maxInputsPerPass] of [
    ["hard cuts, one pass", false, undefined],
    ["smooth cuts, one pass", true, undefined],
    ["smooth cuts, in chunks", true, 2],
  ] as const) {
    it(`${label}: every frame of every clip is the source frame the timeline names`, async () => {
      const clip = path.join(work, "numbered.mp4");
      await makeNumberedClip(clip, FPS);
      const segments = pieces(clip);
      const output = path.join(work, `${label}.mp4`);
      const result = await renderPreview(segments, output, { smoothCuts, ...(maxInputsPerPass ? { maxInputsPerPass } : {}) });
      const plan = planRender(segments, new Map([[clip, await probe(clip)]]), {
        fps: FPS,
        sampleRate: RENDER_DEFAULTS.sampleRate,
        crossfadeSamples: smoothCuts ? Math.round(RENDER_DEFAULTS.crossfadeSeconds * RENDER_DEFAULTS.sampleRate) : 0,
        maxShortSide: RENDER_DEFAULTS.maxShortSide,
        maxLongSide: RENDER_DEFAULTS.maxLongSide,
      });
      const chunked = pictureChunks(plan, maxInputsPerPass ?? 16).length > 0;
      expect(chunked).toBe(result.chunks > 1);
      const timeline = timelineOf(plan, new Map([[clip, { name: "numbered.mp4", durationSeconds: 6 }]]), "Numbered", renderSourceFrames(plan, chunked));
      const shown = await frameNumbers(output);
      expect(shown.length).toBe(timeline.frames);
      const mismatches: string[] = [];
      let heldFirstFrames = 0;
      for (const c of timeline.clips) {
        for (let k = 0; k < c.frames; k++) {
          const want = (c.sourceIn + k) % NUMBERS;
          const got = shown[c.recordIn + k];
          if (got === want) continue;
          // Seeked between two source frames, ffmpeg's first decoded frame is the next one, which the render holds for its first output frame.
          if (k === 0 && got === (want + 1) % NUMBERS && shown[c.recordIn + 1] === got) {
            heldFirstFrames += 1;
            continue;
          }
          mismatches.push(`clip at ${c.recordIn} (source ${c.sourceIn}) frame ${k}: shows ${got}, timeline says ${want}`);
        }
      }
      console.log(`timelines ${label}: ${timeline.clips.length} clips, ${timeline.frames} frames, ${mismatches.length} frames differ, ${heldFirstFrames} held first frames`);
      expect(mismatches).toEqual([]);
      // And the files say the same: the EDL's source in of the second clip (in the middle of a run).
      const second = timeline.clips[1]!;
      expect(toEdl(timeline)).toContain(`002  AX       AA/V  C        00:00:00:${String(second.sourceIn).padStart(2, "0")}`);
      expect(toFcpxml(timeline)).toContain(`start="${rationalTime(second.sourceIn, frameRate(FPS))}"`);
    }, 120_000);
  }
});

