import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFfprobe, streamFfmpeg } from "../../server/media";
import { bearer, jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";

/**
 * Issue 13, Sharing (SPEC §6 "private, public or unlisted"): a finished project's watch page by an unguessable link,
 * private to its signed-in owner by default, revocable, never showing anything of the owner; and the export form's
 * crop, video name, description and privacy reaching the server and the output.
 */
const NAME = "Café talk: part 1";
const DESCRIPTION = "Why coffee tastes better on Tuesdays.";

async function videoSize(file: string) {
  const json = JSON.parse(await runFfprobe(["-print_format", "json", "-show_streams", file])) as { streams: { codec_type: string; width?: number; height?: number }[] };
  const video = json.streams.find((s) => s.codec_type === "video");
  return { width: video?.width ?? 0, height: video?.height ?? 0 };
}

/** Mean grey level of the right-most `columns` columns of the render's middle frame. */
async function rightEdgeLevel(file: string, columns: number): Promise<number> {
  const { width, height } = await videoSize(file);
  const run = streamFfmpeg({ inputs: [{ file, options: ["-ss", "1"] }], outputOptions: ["-map", "0:v:0", "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray"], output: "-" });
  const chunks: Buffer[] = [];
  for await (const chunk of run.stdout as AsyncIterable<Buffer>) chunks.push(chunk);
  await run.done;
  const pixels = Buffer.concat(chunks);
  let sum = 0;
  for (let y = 0; y < height; y++) for (let x = width - columns; x < width; x++) sum += pixels[y * width + x]!;
  return sum / (height * columns);
}

describe("share pages", () => {
  let server: TestServer;
  let base = "";
  let owner = { token: "", email: "" };
  let other = { token: "", email: "" };
  let projectId = 0;
  const api = jsonApi(() => base, () => owner.token);
  const projectRow = (id: number) => server.db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
  const page = (token: string, as?: string) => fetch(`${base}/api/v1/share/${token}`, { headers: as ? bearer(as) : {} });

  async function finalRender(body: Record<string, unknown>) {
    const res = await api("POST", `/projects/${projectId}/render`, { final: 1, tier: 1, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await waitFor(async () => {
      const r = await projectRow(projectId);
      if (r.status === "Failed") throw new Error(`render failed: ${r.failure}`);
      return r.status === "Render Ready" && !r.is_queued ? r : undefined;
    }, 150_000);
    return { row, file: path.join(server.config.storeDir, row.export_key!) };
  }

  beforeAll(async () => {
    server = await startTestServer();
    base = await listen(server);
    owner = await server.signUp();
    other = await server.signUp();
    await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("email", "=", owner.email).execute();
    projectId = await processedTalkProject(base, owner.token, "Weekly talk");
    // One short scene, no automatic crop or punch-in: the export's own choices decide the framing.
    const scenes = await server.db.selectFrom("scenes").select(["id"]).where("project_id", "=", projectId).where("parent_scene_id", "is", null).orderBy("order").execute();
    await server.db.updateTable("scenes").set({ visibility: 0 }).where("project_id", "=", projectId).execute();
    await server.db.updateTable("scenes").set({ visibility: 1, trim_start: 5, trim_end: 7, punch_in: 0, crop: 0 }).where("id", "=", scenes[0]!.id).execute();
    const row = await projectRow(projectId);
    await server.db.updateTable("projects").set({ settings: JSON.stringify({ ...JSON.parse(row.settings), autopunchin: 0, autocrop: 0, aspect: "" }) }).where("id", "=", projectId).execute();
  }, 180_000);
  afterAll(async () => server?.close());

  it("is private with no link until the owner shares; the export's name, description and privacy are kept", async () => {
    const before = (await api("GET", `/projects/${projectId}`)).body;
    expect(before).toMatchObject({ privacy: "private", share_token: null, video_name: null, description: "" });

    // Crop on with an aspect: the 4:3 source fills 16:9 by cropping (top and bottom go), nothing is padded, so the
    // right edge shows the bright wall of the footage (a padded render has a black bar there, see below).
    const cropped = await finalRender({ aspect: "16x9", crop: 1, name: NAME, description: DESCRIPTION, privacy: "unlisted" });
    expect(await videoSize(cropped.file)).toEqual({ width: 426, height: 240 });
    expect(await rightEdgeLevel(cropped.file, 8)).toBeGreaterThan(60);

    const project = (await api("GET", `/projects/${projectId}`)).body;
    expect(project).toMatchObject({ privacy: "unlisted", video_name: NAME, description: DESCRIPTION });
    expect(project.share_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The database keeps a nonce and the token's hash, never the token.
    const row = await projectRow(projectId);
    expect(JSON.stringify(row)).not.toContain(project.share_token);

    // The download is named after the video.
    const link = await fetch(`${base}/api/v1/projects/${projectId}/downloadrender`, { headers: { ...bearer(owner.token), accept: "application/json" } });
    expect(((await link.json()) as { filename: string }).filename).toBe("Café talk_ part 1.mp4");
  }, 200_000);

  it("shows an unlisted page to anyone with the link, with only what the page needs and a playable video", async () => {
    const token = (await api("GET", `/projects/${projectId}`)).body.share_token as string;
    for (const as of [undefined, other.token, owner.token]) {
      const res = await page(token, as);
      expect(res.status).toBe(200);
      expect(res.headers.get("x-robots-tag")).toBe("noindex, nofollow");
      expect(res.headers.get("cache-control")).toBe("no-store");
    }
    const body = await (await page(token)).json();
    expect(body).toMatchObject({ name: NAME, description: DESCRIPTION, privacy: "unlisted", tracks: [], video: { width: 426, height: 240 } });
    expect(Object.keys(body).sort()).toEqual(["description", "name", "poster", "privacy", "tracks", "video"]);
    // Nothing of the owner: no api token, email, user or project id, storage key or other project.
    const text = JSON.stringify(body);
    for (const secret of [owner.token, owner.email, "Weekly talk", "projects/", "media/", `"${projectId}"`]) expect(text).not.toContain(secret);
    expect(body.video.url).toMatch(new RegExp(`^/api/v1/share/${token}/video\\?expires=\\d+&signature=[\\w-]+$`));

    // The video plays without a bearer header, seekable by Range.
    const video = await fetch(`${base}${body.video.url}`);
    expect(video.status).toBe(200);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    const bytes = Buffer.from(await video.arrayBuffer());
    const range = await fetch(`${base}${body.video.url}`, { headers: { range: "bytes=0-99" } });
    expect(range.status).toBe(206);
    expect(range.headers.get("content-range")).toBe(`bytes 0-99/${bytes.length}`);
    const poster = await fetch(`${base}${body.poster}`);
    expect(poster.status).toBe(200);
    // A forged or altered media link is not found.
    expect((await fetch(`${base}${body.video.url.replace(/signature=[\w-]+/, "signature=AAAA")}`)).status).toBe(404);
    expect((await fetch(`${base}${body.video.url.replace("/video?", "/poster?")}`)).status).toBe(404);
  });

  it("answers 404 to a made-up, malformed or someone else's link, and to another user's project id", async () => {
    expect((await page("A".repeat(43))).status).toBe(404);
    expect((await page("not-a-token")).status).toBe(404);
    const otherApi = jsonApi(() => base, () => other.token);
    expect((await otherApi("PUT", `/projects/${projectId}/share`, { privacy: "public" })).status).toBe(404);
    expect((await otherApi("DELETE", `/projects/${projectId}/share`)).status).toBe(404);
    expect((await api("PUT", `/projects/999999/share`, { privacy: "public" })).status).toBe(404);
    expect((await api("PUT", `/projects/${projectId}/share`, { privacy: "everyone" })).status).toBe(422);
    expect((await api("PUT", `/projects/${projectId}/share`, { privacy: "public", name: "x".repeat(141) })).status).toBe(422);
    // Signed out, the owner's calls need a sign-in.
    expect((await fetch(`${base}/api/v1/projects/${projectId}/share`, { method: "DELETE" })).status).toBe(401);
  });

  it("keeps a private page to its signed-in owner: signed-out visitors and other users get 404, old media links stop", async () => {
    const token = (await api("GET", `/projects/${projectId}`)).body.share_token as string;
    const unlistedVideo = ((await (await page(token)).json()) as { video: { url: string } }).video.url;
    const res = await api("PUT", `/projects/${projectId}/share`, { privacy: "private" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ privacy: "private", share_token: token });
    expect((await page(token)).status).toBe(404);
    expect((await page(token, other.token)).status).toBe(404);
    // A stale or bad sign-in is a visitor, not an error.
    expect((await page(token, "not-a-real-token")).status).toBe(404);
    const mine = await page(token, owner.token);
    expect(mine.status).toBe(200);
    const ownVideo = ((await mine.json()) as { video: { url: string } }).video.url;
    expect((await fetch(`${base}${ownVideo}`)).status).toBe(200);
    // The link a visitor got while it was unlisted no longer plays.
    expect((await fetch(`${base}${unlistedVideo}`)).status).toBe(404);
  });

  it("lets search engines index only a public page", async () => {
    const token = (await api("GET", `/projects/${projectId}`)).body.share_token as string;
    expect((await fetch(`${base}/watch/${token}`)).headers.get("x-robots-tag")).toBe("noindex, nofollow");
    const res = await api("PUT", `/projects/${projectId}/share`, { privacy: "public", name: "Public title", description: "Now for everyone" });
    expect(res.body).toMatchObject({ privacy: "public", video_name: "Public title", share_token: token });
    const shown = await page(token);
    expect(shown.status).toBe(200);
    expect(await shown.json()).toMatchObject({ name: "Public title", description: "Now for everyone", privacy: "public" });
    expect((await fetch(`${base}/watch/${token}`)).headers.get("x-robots-tag")).toBeNull();
    expect((await fetch(`${base}/watch/${"B".repeat(43)}`)).headers.get("x-robots-tag")).toBe("noindex, nofollow");
  });

  it("takes the page down on reopen and shows the next export at the same link; crop off pads to the aspect", async () => {
    const token = (await api("GET", `/projects/${projectId}`)).body.share_token as string;
    expect((await api("GET", `/projects/${projectId}/reopen`)).status).toBe(200);
    expect((await page(token)).status).toBe(404);
    // Crop off with an aspect: the whole 4:3 picture fits 16:9 with bars at the sides.
    const padded = await finalRender({ aspect: "16x9", crop: 0 });
    expect(await videoSize(padded.file)).toEqual({ width: 426, height: 240 });
    expect(await rightEdgeLevel(padded.file, 8)).toBeLessThan(25);
    const again = await page(token);
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ video: { width: 426, height: 240 } });
  }, 200_000);

  it("revokes: the old link and its media are not found, a new share makes a new link", async () => {
    const token = (await api("GET", `/projects/${projectId}`)).body.share_token as string;
    const video = ((await (await page(token)).json()) as { video: { url: string } }).video.url;
    const revoked = await api("DELETE", `/projects/${projectId}/share`);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ privacy: "private", share_token: null });
    expect((await page(token)).status).toBe(404);
    expect((await page(token, owner.token)).status).toBe(404);
    expect((await fetch(`${base}${video}`)).status).toBe(404);
    const shared = await api("PUT", `/projects/${projectId}/share`, { privacy: "unlisted" });
    expect(shared.body.share_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(shared.body.share_token).not.toBe(token);
    expect((await page(shared.body.share_token)).status).toBe(200);
    expect((await page(token)).status).toBe(404);
  });

  it("kills the page when the project is deleted", async () => {
    const token = (await api("GET", `/projects/${projectId}`)).body.share_token as string;
    expect((await api("DELETE", `/projects/${projectId}`)).status).toBe(200);
    expect((await page(token)).status).toBe(404);
    expect((await page(token, owner.token)).status).toBe(404);
  });
});
