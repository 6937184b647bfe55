import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { detectFaces } from "../../server/media/faces";
import { expand, trackFaces } from "../../server/domain/faces";
import { faceAt, makeFaceClip, type FaceClip } from "./face-clip";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

/**
 * Issue 17: a clip of a real face (scikit-image's astronaut portrait) walking across the frame, uploaded and made
 * into a project: the faces step finds it, the storyboard lists it with its picture, and a 9:16 crop that follows
 * it keeps it in the rendered file (checked by detecting faces in the render again).
 */
describe("face detection drives the framing", () => {
  let server: TestServer;
  let base: string;
  let token: string;
  let projectId: number;
  let mediaId: number;
  const api = jsonApi(() => base, () => token);
  const clip: FaceClip = { width: 640, height: 360, seconds: 8, photo: 300, path: [{ t: 0, x: 0, y: 10 }, { t: 1, x: 0, y: 10 }, { t: 7, x: 340, y: 30 }, { t: 8, x: 340, y: 30 }] };

  beforeAll(async () => {
    server = await startTestServer({ FACE_DETECTION: "on" });
    base = await listen(server);
    token = (await server.signUp()).token;
    const file = path.join(server.config.dataDir, "walk.mp4");
    makeFaceClip(file, clip);
    const uploaded = await tusUpload(base, token, file, { name: "walk.mp4" });
    mediaId = (await api("POST", "/library", { media_file: uploaded.id, name: "walk.mp4", locale: null, has_speech: 0 })).body.media_file.id as number;
    projectId = (await api("POST", "/createproject", { name: "Faces", locale: "en-US", style: "video", media: [mediaId] })).body.id;
    await waitFor(async () => ((await api("GET", `/projects/${projectId}`)).body.status === "Preview Ready" ? true : undefined), 240_000);
  }, 300_000);
  afterAll(() => server?.close());

  it("finds the face on every sample and follows it as one track that moves right", async () => {
    const row = await server.db.selectFrom("media_faces").selectAll().where("media_file_id", "=", mediaId).executeTakeFirstOrThrow();
    const tracks = expand(row.tracks);
    expect(row.sample_fps).toBe(2);
    expect(tracks).toHaveLength(1);
    const points = tracks[0]!.points;
    expect(points.length).toBeGreaterThanOrEqual(15);
    // Each found box covers the face where the clip put it.
    for (const p of points) {
      const truth = faceAt(clip, p.t);
      expect(Math.abs(p.x + p.w / 2 - (truth.x + truth.w / 2))).toBeLessThan(0.05);
    }
    expect(points[points.length - 1]!.x - points[0]!.x).toBeGreaterThan(0.4);
  });

  it("lists the face in its scene with a picture cut from the frame", async () => {
    const board = (await api("POST", `/projects/${projectId}/storyboard?offset=0&limit=25`, {})).body;
    const scene = board.timeline.scenes[0];
    expect(scene.faces).toHaveLength(1);
    const face = scene.faces[0];
    expect(face.presence).toBeGreaterThan(0.8);
    expect(face.BoundingBox.Width).toBeGreaterThan(0.05);
    const picture = await fetch(new URL(face.thumbnail, base));
    expect(picture.status).toBe(200);
    expect(picture.headers.get("content-type")).toContain("image/jpeg");
    expect((await picture.arrayBuffer()).byteLength).toBeGreaterThan(500);
  });

  it("crops 9:16 around the picked face as it walks: the render keeps it in the picture", async () => {
    const board = (await api("POST", `/projects/${projectId}/storyboard?offset=0&limit=25`, {})).body;
    const scene = board.timeline.scenes[0];
    const picked = { BoundingBox: scene.faces[0].BoundingBox, visibility: 1, track: scene.faces[0].track };
    expect((await api("PUT", `/scenes/${scene.id}`, { selected_faces: [picked] })).status).toBe(200);
    const before = await server.db.selectFrom("projects").select(["settings", "export_key"]).where("id", "=", projectId).executeTakeFirstOrThrow();
    const settings = { ...JSON.parse(before.settings), aspect: "9x16", autocrop: 1, autopunchin: 0 };
    await server.db.updateTable("projects").set({ settings: JSON.stringify(settings) }).where("id", "=", projectId).execute();
    expect((await api("POST", `/projects/${projectId}/render`, { final: false })).status).toBe(200);
    const key = await waitFor(async () => {
      const row = await server.db.selectFrom("projects").select(["status", "export_key", "failure"]).where("id", "=", projectId).executeTakeFirstOrThrow();
      if (row.status === "Failed") throw new Error(`render failed: ${row.failure}`);
      return row.status === "Preview Ready" && row.export_key && row.export_key !== before.export_key ? row.export_key : undefined;
    }, 240_000);
    const rendered = path.join(server.config.storeDir, key);
    expect(fs.existsSync(rendered)).toBe(true);
    // A second detection on the render: a portrait picture with the whole face in it on every sample.
    const again = await detectFaces(rendered, { width: 202, height: 360, fps: 2, internal: true, format: "mov" });
    expect(again.length).toBeGreaterThanOrEqual(15);
    const seen = again.filter((s) => s.faces.some((f) => f.x > 0.01 && f.x + f.w < 0.99));
    expect(seen.length / again.length).toBeGreaterThanOrEqual(0.9);
    // Where a centred crop would have lost it: at the start the face is at the left edge, at the end at the right.
    const start = faceAt(clip, 0.5);
    const end = faceAt(clip, 7.5);
    expect(start.x + start.w).toBeLessThan(0.34);
    expect(end.x).toBeGreaterThan(0.5);
    expect(trackFaces(again).length).toBeGreaterThanOrEqual(1);
  });
});
