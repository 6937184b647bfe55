/**
 * Timelines for desktop editors (issue 13) on a real processed project: the FCPXML, OTIO and EDL
 * the API answers parse, cut where the render cut (to the frame) and last as long as the rendered
 * preview (ffprobe, within a frame). The expected cuts are worked out here from the scene rows with
 * the render's rule (cumulative rounding of the shown scenes' lengths at 30 fps), not by the generators.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfprobe } from "../../server/media";
import { parseEdl, parseFcpxml, parseOtio, type ParsedCut } from "../timeline-files";
import { jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";

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
    const fcp = parseFcpxml(await fcpRes.text());
    expect(fcp.version).toBe("1.9");
    expect(fcp.fps).toEqual({ num: FPS, den: 1 });
    expect(fcp.cuts).toEqual(expected);
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
      expect(track.cuts.map(({ name, recordIn, sourceIn, frames }) => ({ name, recordIn, sourceIn, frames }))).toEqual(expected);
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
    expect(edl.events.map(({ name, recordIn, sourceIn, frames }) => ({ name, recordIn, sourceIn, frames }))).toEqual(expected);
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
});
