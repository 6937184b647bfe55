import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { routes } from "../../api/routes";
import { runFfmpeg, runFfprobe, streamFfmpeg } from "../../server/media";
import { watermarkBox } from "../../server/media/watermark";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

/**
 * Issue 13, Render: a final render by resolution tier within the plan (never above the source),
 * the free plan's watermark, and Render Ready as a finished, read-only project until reopened.
 */
const fixture = (name: string) => path.resolve(__dirname, "../fixtures", name);
/** talk.mp4 is 320×240 at 30 fps. */
const TALK = { width: 320, height: 240 };
const FPS = 30;

async function collect(run: ReturnType<typeof streamFfmpeg>): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of run.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await run.done;
  return Buffer.concat(chunks);
}

/** Frame `n` (or the frame at `seconds` of a source file) as 8-bit grey, width × height. */
async function grey(file: string, select: { frame: number } | { seconds: number }, width: number): Promise<{ pixels: Buffer; width: number }> {
  const options = "frame" in select ? ["-vf", `trim=start_frame=${select.frame}`] : [];
  const inputOptions = "seconds" in select ? ["-ss", String(select.seconds)] : [];
  const pixels = await collect(streamFfmpeg({ inputs: [{ file, options: inputOptions }], outputOptions: ["-map", "0:v:0", ...options, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray"], output: "-" }));
  return { pixels, width };
}

/** Mean absolute difference of two grey frames over [x0, x1) × [y0, y1), optionally leaving out a rectangle. */
function meanDiff(a: { pixels: Buffer; width: number }, b: { pixels: Buffer; width: number }, rect: [number, number, number, number], except?: [number, number, number, number]): number {
  const [x0, y0, x1, y1] = rect;
  let sum = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) {
    for (let x = x0; x < x1; x++) {
      if (except && x >= except[0] && x < except[2] && y >= except[1] && y < except[3]) continue;
      sum += Math.abs((a.pixels[y * a.width + x] ?? 0) - (b.pixels[y * b.width + x] ?? 0));
      n++;
    }
  }
  return sum / n;
}

async function videoSize(file: string) {
  const json = JSON.parse(await runFfprobe(["-print_format", "json", "-show_streams", file])) as { streams: { codec_type: string; width?: number; height?: number }[] };
  const video = json.streams.find((s) => s.codec_type === "video");
  return { width: video?.width, height: video?.height };
}

describe("final render by tier, the watermark, and read-only Render Ready", () => {
  let server: TestServer;
  let base: string;
  let tmp: string;
  const users = {} as Record<"free" | "paid" | "pro", { token: string; api: ReturnType<typeof jsonApi>; project: number }>;

  async function setUp(which: "free" | "paid" | "pro", plan: string, file: string, hasSpeech: 0 | 1) {
    const { token, email } = await server.signUp();
    await server.db.updateTable("users").set({ plan_id: plan }).where("email", "=", email).execute();
    const api = jsonApi(() => base, () => token);
    const uploaded = await tusUpload(base, token, file, { name: path.basename(file) });
    const media = (await api("POST", "/library", { media_file: uploaded.id, name: path.basename(file), locale: hasSpeech ? "en-US" : null, has_speech: hasSpeech })).body.media_file.id as number;
    const project = (await api("POST", "/createproject", { name: `Final ${which}`, locale: "en-US", style: "video", media: [media] })).body.id as number;
    users[which] = { token, api, project };
  }

  const projectRow = (id: number) => server.db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  async function untilStatus(id: number, status: string) {
    return waitFor(async () => {
      const row = await projectRow(id);
      if (row.status === "Failed") throw new Error(`render failed: ${row.failure}`);
      return row.status === status && !row.is_queued ? row : undefined;
    }, 180_000);
  }

  /** The same edit for every project: seconds 5–7 of its footage, one shown scene. */
  async function sameEdit(id: number, from = 5, to = 7) {
    const scenes = await server.db.selectFrom("scenes").select(["id"]).where("project_id", "=", id).where("parent_scene_id", "is", null).orderBy("order").execute();
    await server.db.updateTable("scenes").set({ visibility: 0 }).where("project_id", "=", id).execute();
    await server.db.updateTable("scenes").set({ visibility: 1, trim_start: from, trim_end: to, punch_in: 0, crop: 0 }).where("id", "=", scenes[0]!.id).execute();
    const row = await projectRow(id);
    await server.db.updateTable("projects").set({ settings: JSON.stringify({ ...JSON.parse(row.settings), autopunchin: 0, autocrop: 0, aspect: "" }) }).where("id", "=", id).execute();
  }

  async function finalRender(which: "free" | "paid" | "pro", body: Record<string, unknown>) {
    const { api, project } = users[which];
    const res = await api("POST", `/projects/${project}/render`, { final: 1, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.needs_render).toBe(0);
    const row = await untilStatus(project, "Render Ready");
    return { row, file: path.join(server.config.storeDir, row.export_key!) };
  }

  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), "cutroom-final-"));
    // A 1080p source (3 s, a moving test pattern with a tone) to show the tiers' sizes.
    const big = path.join(tmp, "big.mp4");
    await runFfmpeg({
      inputs: [
        { file: "testsrc2=size=1920x1080:rate=30", lavfi: true, options: ["-t", "3"] },
        { file: "sine=frequency=440:sample_rate=48000", lavfi: true, options: ["-t", "3"] },
      ],
      outputOptions: ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-c:a", "aac", "-shortest", "-f", "mp4"],
      output: big,
    });
    server = await startTestServer();
    base = await listen(server);
    await setUp("free", "free", fixture("talk.mp4"), 1);
    await setUp("paid", "standard_month", fixture("talk.mp4"), 1);
    await setUp("pro", "standard_month", big, 0);
    for (const which of ["free", "paid", "pro"] as const) await untilStatus(users[which].project, "Preview Ready");
  }, 300_000);
  afterAll(async () => {
    await server?.close();
    await rm(tmp, { recursive: true, force: true });
  });

  it("refuses a tier above the plan with tier_not_allowed (422): 1080p to a free user, 4k to a 1080p plan", async () => {
    const free = await users.free.api("POST", `/projects/${users.free.project}/render`, { final: 1, tier: 2 });
    expect(free.status).toBe(422);
    expect(free.body.code).toBe("tier_not_allowed");
    const fourK = await users.pro.api("POST", `/projects/${users.pro.project}/render`, { final: 1, tier: 4 });
    expect(fourK.status).toBe(422);
    expect(fourK.body).toMatchObject({ code: "tier_not_allowed", message: expect.stringContaining("4k") });
    // Nothing was started or changed by a refusal.
    expect((await projectRow(users.pro.project)).status).toBe("Preview Ready");
    // exportvideo 0 (finish without a new video): an export always makes the video; subtitles download beside it.
    const noVideo = await users.pro.api("POST", `/projects/${users.pro.project}/render`, { final: 1, tier: 2, exportvideo: 0 });
    expect(noVideo.status).toBe(422);
    expect(noVideo.body.code).toBe("nothing_to_export");
    expect((await projectRow(users.pro.project)).status).toBe("Preview Ready");
    // Tiers are 1, 2 and 4 only: anything else is a validation error of the field.
    const three = await users.pro.api("POST", `/projects/${users.pro.project}/render`, { final: 1, tier: 3 });
    expect(three.status).toBe(422);
    expect(three.body.fields).toHaveProperty("tier");
  });

  it("renders a final render at its tier's size, and a preview at 720p", async () => {
    await sameEdit(users.pro.project, 0.5, 2);
    const fullHd = await finalRender("pro", { tier: 2 });
    expect(await videoSize(fullHd.file)).toEqual({ width: 1920, height: 1080 });
    expect(fullHd.row).toMatchObject({ export_width: 1920, export_height: 1080 });
    expect((await users.pro.api("GET", `/projects/${users.pro.project}`)).body).toMatchObject({ export_width: 1920, export_height: 1080, final_render: 1 });
    // The aspect of the request (square, padded or cropped) at the tier: the short side stays 1080.
    expect((await users.pro.api("GET", `/projects/${users.pro.project}/reopen`)).status).toBe(200);
    const square = await finalRender("pro", { tier: 2, aspect: "1x1" });
    expect(await videoSize(square.file)).toEqual({ width: 1080, height: 1080 });
    expect((await users.pro.api("GET", `/projects/${users.pro.project}/reopen`)).status).toBe(200);
    const hd = await finalRender("pro", { tier: 1 });
    expect(await videoSize(hd.file)).toEqual({ width: 1280, height: 720 });
    expect((await users.pro.api("GET", `/projects/${users.pro.project}/reopen`)).status).toBe(200);
    expect((await users.pro.api("POST", `/projects/${users.pro.project}/render`, { final: 0 })).status).toBe(200);
    const preview = await untilStatus(users.pro.project, "Preview Ready");
    expect(await videoSize(path.join(server.config.storeDir, preview.export_key!))).toEqual({ width: 1280, height: 720 });
  });

  it("watermarks a free user's final render in its corner only; a paid user's (same edit, never upscaled) has none", async () => {
    await sameEdit(users.free.project);
    await sameEdit(users.paid.project);
    const free = await finalRender("free", {});
    const paid = await finalRender("paid", {});
    // Never above the source: 1080p asked (the default for a 1080p plan) of a 320×240 source stays 320×240.
    expect(await videoSize(paid.file)).toEqual(TALK);
    expect(await videoSize(free.file)).toEqual(TALK);
    expect(paid.row).toMatchObject({ export_width: TALK.width, export_height: TALK.height });

    const box = watermarkBox(TALK.width, TALK.height);
    const corner: [number, number, number, number] = [box.x, box.y, box.x + box.size, box.y + box.size];
    const whole: [number, number, number, number] = [0, 0, TALK.width, TALK.height];
    // The plate plus a few pixels of chroma/encoder bleed around it.
    const around: [number, number, number, number] = [box.x - 4, box.y - 4, TALK.width, TALK.height];
    for (const n of [0, FPS, 2 * FPS - 1]) {
      const source = await grey(fixture("talk.mp4"), { seconds: 5 + n / FPS }, TALK.width);
      const freeFrame = await grey(free.file, { frame: n }, TALK.width);
      const paidFrame = await grey(paid.file, { frame: n }, TALK.width);
      // The corner differs from the source only in the free render…
      expect(meanDiff(freeFrame, source, corner)).toBeGreaterThan(25);
      expect(meanDiff(paidFrame, source, corner)).toBeLessThan(6);
      // …and the rest of the picture is the same in both.
      expect(meanDiff(freeFrame, paidFrame, whole, around)).toBeLessThan(2);
      expect(meanDiff(paidFrame, source, whole)).toBeLessThan(6);
    }
  });

  it("keeps a Render Ready project read-only (project_finished, 409) until reopened; a rename stays allowed", async () => {
    const { api, project } = users.free;
    expect((await projectRow(project)).status).toBe("Render Ready");
    const scene = (await server.db.selectFrom("scenes").select(["id", "trim_start", "trim_end"]).where("project_id", "=", project).where("parent_scene_id", "is", null).where("visibility", "=", 1).executeTakeFirstOrThrow());
    const before = await server.db.selectFrom("scenes").selectAll().where("project_id", "=", project).orderBy("id").execute();

    // Every scene mutation the contract has (a new one must be listed here).
    const calls: Record<string, [string, string, unknown?]> = {
      "scenes.update": ["PUT", `/scenes/${scene.id}`, { mediaAudio: "low" }],
      "scenes.removeLines": ["POST", `/scenes/${scene.id}/removelines`],
      "scenes.splitByLine": ["POST", `/scenes/${scene.id}/splitbyline/1`],
      "scenes.splitByPosition": ["POST", `/scenes/${scene.id}/splitbyposition/1`],
      "scenes.mergeNext": ["POST", `/scenes/${scene.id}/mergenextscene`],
      "scenes.show": ["GET", `/scenes/${scene.id}/show`],
      "scenes.hide": ["GET", `/scenes/${scene.id}/hide`],
      "scenes.order": ["GET", `/scenes/${scene.id}/order/1`],
      "scenes.typeDefault": ["GET", `/scenes/${scene.id}/type`],
      "scenes.type": ["GET", `/scenes/${scene.id}/type/intro`],
      "scenes.trim": ["PUT", `/scenes/${scene.id}/trim`, { trim_start: scene.trim_start + 0.1, trim_end: scene.trim_end }],
      "scenes.removeOverlay": ["DELETE", `/scenes/${scene.id}/overscene`],
      "scenes.duplicate": ["POST", `/scenes/${scene.id}/duplicate`],
      "scenes.cutRange": ["POST", `/scenes/${scene.id}/cutrange`, { from: scene.trim_start + 0.1, to: scene.trim_start + 0.3 }],
    };
    const mutations = Object.entries(routes)
      .filter(([name, r]) => name.startsWith("scenes.") && (r.method !== "GET" || ("mutation" in r && r.mutation)))
      .map(([name]) => name);
    expect(Object.keys(calls).sort()).toEqual(mutations.sort());
    for (const [name, [method, url, body]] of Object.entries(calls)) {
      const res = await api(method, url, body);
      expect({ name, status: res.status, code: res.body.code }).toEqual({ name, status: 409, code: "project_finished" });
    }
    // Settings, the storyboard's other edits and imports: refused too.
    for (const [method, url, body] of [
      ["PUT", `/projects/${project}`, { autobgm: 1 }],
      ["PUT", `/projects/${project}`, { name: "Renamed", aspect: "9x16" }],
      ["GET", `/projects/${project}/reset/volumes?autoduck=true`],
      ["POST", `/projects/${project}/recreatestoryboard`, { autocutsilences: 1, smoothcuts: 0 }],
      ["POST", `/projects/${project}/library/import`, { order: 1, scenes: [scene.id] }],
    ] as [string, string, unknown?][]) {
      const res = await api(method, url, body);
      expect({ url, status: res.status, code: res.body.code }).toEqual({ url, status: 409, code: "project_finished" });
    }
    // Nothing changed, and the flag was not raised.
    expect(await server.db.selectFrom("scenes").selectAll().where("project_id", "=", project).orderBy("id").execute()).toEqual(before);
    const row = await projectRow(project);
    expect(row).toMatchObject({ status: "Render Ready", needs_render: 0, name: "Final free" });
    expect(JSON.parse(row.settings).aspect).toBe("");
    // A rename is not an Option (SPEC §4): allowed.
    const renamed = await api("PUT", `/projects/${project}`, { name: "Final free, renamed" });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: "Final free, renamed", status: "Render Ready", needs_render: 0 });

    // Reopen: back to Preview Ready, and edits work again (and raise the flag).
    const reopened = await api("GET", `/projects/${project}/reopen`);
    expect(reopened.status).toBe(200);
    expect(reopened.body).toMatchObject({ status: "Preview Ready", final_render: 0 });
    const hidden = await api("PUT", `/scenes/${scene.id}`, { mediaAudio: "low" });
    expect(hidden.status).toBe(200);
    expect((await api("PUT", `/projects/${project}`, { autobgm: 0 })).status).toBe(200);
    expect((await projectRow(project)).needs_render).toBe(1);
  });

  it("clears needs_render on a render request, and sets it when a render leaves a shown scene without a thumbnail", async () => {
    const { api, project } = users.paid;
    await api("GET", `/projects/${project}/reopen`);
    await sameEdit(project);
    await server.db.updateTable("projects").set({ needs_render: 1 }).where("id", "=", project).execute();
    const asked = await api("POST", `/projects/${project}/render`, { final: 0 });
    expect(asked.body.needs_render).toBe(0);
    expect((await untilStatus(project, "Preview Ready")).needs_render).toBe(0);
    // A shown scene without its thumbnail: the render is done, but the storyboard still needs one.
    await server.db.updateTable("scenes").set({ thumbnail_key: null }).where("project_id", "=", project).where("visibility", "=", 1).execute();
    expect((await api("POST", `/projects/${project}/render`, { final: 0 })).body.needs_render).toBe(0);
    expect((await untilStatus(project, "Preview Ready")).needs_render).toBe(1);
  });
});
