import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { createServer } from "../../server/main";
import { bearer, jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";
import { startFakeYoutube, type FakeYoutube } from "./youtube-server";
import { databaseDump, databaseEnv, onPostgres } from "./database";

// Issue 13, video-site export: OAuth 2 with PKCE and the YouTube resumable upload, against a local server
// speaking Google's protocols (tests/integration/youtube-server.ts).
const SECRET = "youtube-test-secret-0123456789abcdef";

describe("exporting a finished video to YouTube", () => {
  let fake: FakeYoutube;
  let server: TestServer;
  let base = "";
  let owner = { token: "", email: "" };
  let other = { token: "", email: "" };
  let projectId = 0;
  const api = jsonApi(() => base, () => owner.token);
  const project = async () => (await api("GET", `/projects/${projectId}`)).body;
  const exportBody = { title: "Entrevista com a Ana", description: "A talk about cafés.\nSecond line.", privacy: "unlisted" };

  /** Connect as a person would: open the consent link, press Allow, land on the callback page. */
  async function connect(token = owner.token) {
    const link = await api("GET", "/user/youtube/connect", undefined, token);
    expect(link.status).toBe(200);
    const consent = await fetch(link.body.url);
    expect(consent.status).toBe(200);
    const allow = /href="([^"]+decision=allow)"/.exec(await consent.text())![1]!.replace(/&amp;/g, "&");
    const decided = await fetch(new URL(allow, fake.url), { redirect: "manual" });
    expect(decided.status).toBe(302);
    const back = new URL(decided.headers.get("location")!);
    const callback = await fetch(`${base}${back.pathname}${back.search}`);
    return { callback, html: await callback.text(), back };
  }

  const waitExport = (until: (p: any) => boolean) =>
    waitFor(async () => {
      const p = await project();
      return until(p) ? p : undefined;
    }, 60_000);

  const renderFile = async () => {
    const row = await server.db.selectFrom("projects").select("export_key").where("id", "=", projectId).executeTakeFirstOrThrow();
    return fs.readFileSync(path.join(server.dataDir, "store", row.export_key!));
  };

  beforeAll(async () => {
    fake = await startFakeYoutube();
    server = await startTestServer({ APP_SECRET: SECRET, ...fake.env() });
    base = await listen(server);
    owner = await server.signUp(undefined, "pt-BR");
    other = await server.signUp();
    projectId = await processedTalkProject(base, owner.token, "Entrevista");
    expect((await api("POST", `/projects/${projectId}/render`, { final: 1, tier: 1 })).status).toBe(200);
    await waitFor(async () => {
      const { body } = await api("GET", `/projects/${projectId}`);
      if (body.status === "Failed") throw new Error(`render failed: ${body.failure}`);
      return body.status === "Render Ready" ? true : undefined;
    }, 150_000);
  }, 240_000);
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it("says it is available, and a server without YouTube credentials says it is not", async () => {
    expect((await fetch(`${base}/api/v1/config`).then((r) => r.json())).youtube).toEqual({ available: true });
    expect((await api("GET", "/user/youtube")).body).toEqual({ available: true, connected: false, channel: null });
    const bare = await startTestServer();
    try {
      const { token } = await bare.signUp();
      expect((await bare.app.inject({ method: "GET", url: "/api/v1/config" })).json().youtube).toEqual({ available: false });
      const status = await bare.app.inject({ method: "GET", url: "/api/v1/user/youtube", headers: bearer(token) });
      expect(status.json()).toEqual({ available: false, connected: false, channel: null });
      const connect = await bare.app.inject({ method: "GET", url: "/api/v1/user/youtube/connect", headers: bearer(token) });
      expect(connect.statusCode).toBe(409);
      expect(connect.json().code).toBe("youtube_unavailable");
    } finally {
      await bare.close();
    }
  });

  it("refuses an export before the account is connected", async () => {
    const res = await api("POST", `/projects/${projectId}/share/youtube`, exportBody);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("youtube_not_connected");
  });

  it("connects with an authorization code bound to the user by state and PKCE S256, tokens sealed at rest", async () => {
    const link = await api("GET", "/user/youtube/connect");
    const url = new URL(link.body.url);
    expect(url.origin + url.pathname).toBe(`${fake.url}/o/oauth2/v2/auth`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("state")).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get("access_type")).toBe("offline");
    expect(url.searchParams.get("redirect_uri")).toMatch(/\/api\/v1\/user\/youtube\/callback$/);
    expect(link.body.url).not.toContain(fake.clientSecret);

    const { callback, html, back } = await connect();
    expect(callback.status).toBe(200);
    // The page speaks the user's language (pt-BR) when the catalogs are compiled, English otherwise.
    expect(html).toMatch(/<html lang="pt-BR">/);
    expect(fake.log.grants).toContain("authorization_code");
    expect((await api("GET", "/user/youtube")).body).toEqual({ available: true, connected: true, channel: "Rui's channel" });

    // The tokens are not stored in the clear, nor the state.
    const row = await server.db.selectFrom("youtube_connections").selectAll().executeTakeFirstOrThrow();
    for (const token of fake.liveRefreshTokens()) expect(row.tokens).not.toContain(token);
    expect(row.tokens).toMatch(/^v1\./);
    // Nor anywhere in the database: on SQLite its files (the write-ahead log included), on PostgreSQL every row.
    if (!onPostgres) expect(fs.readdirSync(server.dataDir)).toContain("cutroom.sqlite-wal");
    const dump = await databaseDump(server.dataDir);
    expect(dump).toContain(row.tokens);
    for (const token of fake.liveRefreshTokens()) expect(dump.includes(token)).toBe(false);

    // The answer is single use: the same callback again is refused, and connects nobody else.
    const replay = await fetch(`${base}${back.pathname}${back.search}`);
    expect(replay.status).toBe(400);
    expect((await api("GET", "/user/youtube", undefined, other.token)).body.connected).toBe(false);
  });

  it("refuses a consent that was denied, or a state nobody asked for", async () => {
    const link = await api("GET", "/user/youtube/connect", undefined, other.token);
    const consent = await (await fetch(link.body.url)).text();
    const deny = /href="([^"]+decision=deny)"/.exec(consent)![1]!.replace(/&amp;/g, "&");
    const back = new URL((await fetch(new URL(deny, fake.url), { redirect: "manual" })).headers.get("location")!);
    expect(back.searchParams.get("error")).toBe("access_denied");
    const page = await fetch(`${base}${back.pathname}${back.search}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("did not allow");
    const forged = await fetch(`${base}/api/v1/user/youtube/callback?code=4/abc&state=forged-state`);
    expect(forged.status).toBe(400);
    expect((await api("GET", "/user/youtube", undefined, other.token)).body.connected).toBe(false);
  });

  it("validates title, description and privacy, all required", async () => {
    const post = (body: unknown) => api("POST", `/projects/${projectId}/share/youtube`, body);
    const empty = await post({ title: " ", description: "", privacy: "public" });
    expect(empty.status).toBe(422);
    expect(empty.body.fields).toMatchObject({ title: "required", description: "required" });
    expect((await post({ title: "A", description: "B" })).body.fields).toMatchObject({ privacy: "required" });
    expect((await post({ title: "A", description: "B", privacy: "friends" })).body.fields).toMatchObject({ privacy: "required" });
    expect((await post({ title: "x".repeat(101), description: "B", privacy: "public" })).body.fields).toMatchObject({ title: "too_long" });
    expect((await post({ title: "<b>A</b>", description: "B", privacy: "public" })).body.fields).toMatchObject({ title: "invalid" });
    expect((await project()).youtube_export).toBeNull();
  });

  it("answers 404 for another user's project", async () => {
    const res = await api("POST", `/projects/${projectId}/share/youtube`, exportBody, other.token);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect((await project()).youtube_export).toBeNull();
  });

  it("ends a first export refused for YouTube's quota back at null, with the reason", async () => {
    fake.failNextUpload("quotaExceeded");
    expect((await api("POST", `/projects/${projectId}/share/youtube`, exportBody)).status).toBe(200);
    const ended = await waitExport((p) => p.youtube_export !== "exporting");
    expect(ended).toMatchObject({ youtube_export: null, youtubeUrl: null, youtube_error: "youtube_quota", status: "Render Ready" });
  }, 60_000);

  it("uploads the final render by the resumable protocol, resuming after a cut connection; the bytes equal the file", async () => {
    const file = await renderFile();
    fake.cutNextUploadAfter(100_000);
    const started = await api("POST", `/projects/${projectId}/share/youtube`, exportBody);
    expect(started.status).toBe(200);
    expect(started.body.youtube_export).toBe("exporting");
    const done = await waitExport((p) => p.youtube_export !== "exporting");
    expect(done.youtube_error).toBeNull();
    expect(done.youtube_export).toBe("done");
    const id = /^https:\/\/www\.youtube\.com\/watch\?v=([\w-]+)$/.exec(done.youtubeUrl)![1]!;
    const video = fake.videos.get(id)!;
    expect(video.bytes.length).toBe(file.length);
    expect(video.bytes.equals(file)).toBe(true);
    expect(video.snippet).toEqual({ title: exportBody.title, description: exportBody.description });
    expect(video.status.privacyStatus).toBe("unlisted");
    expect(fake.log.cuts).toBe(1);
    expect(fake.log.statusQueries).toBeGreaterThanOrEqual(1);
    // Sent in 256 KiB chunks, and after the cut from where the session said it stood (not from 0 again).
    expect(fake.log.chunks.length).toBeGreaterThanOrEqual(2);
    expect(fake.log.chunks.some((c) => c.start > 0)).toBe(true);
    // The session address is forgotten once done.
    expect((await server.db.selectFrom("projects").select("youtube_upload").where("id", "=", projectId).executeTakeFirstOrThrow()).youtube_upload).toBeNull();
  }, 90_000);

  it("refreshes an access token Google no longer accepts, and exports again", async () => {
    const refreshes = fake.log.grants.filter((g) => g === "refresh_token").length;
    const refused = fake.log.unauthorized;
    fake.expireAccessTokens();
    const again = await api("POST", `/projects/${projectId}/share/youtube`, { ...exportBody, title: "Second take", privacy: "private" });
    expect(again.status).toBe(200);
    const done = await waitExport((p) => p.youtube_export !== "exporting");
    expect(done.youtube_export).toBe("done");
    expect(fake.log.unauthorized).toBeGreaterThan(refused);
    expect(fake.log.grants.filter((g) => g === "refresh_token").length).toBe(refreshes + 1);
    const id = new URL(done.youtubeUrl).searchParams.get("v")!;
    expect(fake.videos.get(id)!.snippet.title).toBe("Second take");
    expect(fake.videos.get(id)!.bytes.equals(await renderFile())).toBe(true);
  }, 90_000);

  it("ends the export with youtube_quota when YouTube's quota is spent; the project stays finished, the earlier video exported", async () => {
    fake.failNextUpload("quotaExceeded");
    const before = fake.videos.size;
    const earlier = (await project()).youtubeUrl;
    expect((await api("POST", `/projects/${projectId}/share/youtube`, exportBody)).status).toBe(200);
    const ended = await waitExport((p) => p.youtube_export !== "exporting");
    expect(ended.youtube_export).toBe("done");
    expect(ended.youtubeUrl).toBe(earlier);
    expect(ended.youtube_error).toBe("youtube_quota");
    expect(ended.status).toBe("Render Ready");
    expect(fake.videos.size).toBe(before);
  }, 60_000);

  it("ends the export with youtube_not_connected when access was revoked at Google, and forgets the tokens", async () => {
    for (const token of fake.liveRefreshTokens()) await fetch(`${fake.url}/revoke`, { method: "POST", body: new URLSearchParams({ token }) });
    fake.expireAccessTokens();
    expect((await api("POST", `/projects/${projectId}/share/youtube`, exportBody)).status).toBe(200);
    const ended = await waitExport((p) => p.youtube_export !== "exporting");
    expect(ended.youtube_error).toBe("youtube_not_connected");
    expect((await api("GET", "/user/youtube")).body.connected).toBe(false);
  }, 60_000);

  it("disconnects: revokes the refresh token at Google and deletes the tokens", async () => {
    await connect();
    expect((await api("GET", "/user/youtube")).body.connected).toBe(true);
    const [live] = fake.liveRefreshTokens();
    const res = await api("GET", "/user/youtube/disconnect");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ available: true, connected: false, channel: null });
    expect(fake.refreshTokenValid(live!)).toBe(false);
    expect(await server.db.selectFrom("youtube_connections").selectAll().execute()).toEqual([]);
    expect((await api("POST", `/projects/${projectId}/share/youtube`, exportBody)).body.code).toBe("youtube_not_connected");
  });

  it("a server stopped mid-upload resumes the same YouTube session after its restart, from the bytes YouTube holds", async () => {
    await connect();
    const file = await renderFile();
    const sessionsBefore = fake.log.chunks.filter((c) => c.start === 0).length;
    const videosBefore = fake.videos.size;
    const chunksAtStart = fake.log.chunks.length;
    fake.slowUploads(1_500);
    expect((await api("POST", `/projects/${projectId}/share/youtube`, { ...exportBody, title: "After a restart" })).status).toBe(200);
    // The first 256 KiB are in; the server goes down during the second request.
    await waitFor(async () => (fake.log.chunks.slice(chunksAtStart).some((c) => c.start > 0) ? true : undefined), 30_000, 50);
    await server.app.close();
    await server.queue.stop();
    await server.db.destroy();
    expect(fake.videos.size).toBe(videosBefore);
    const queriesBefore = fake.log.statusQueries;
    const row = () => server.db.selectFrom("projects").select(["youtube_export", "youtube_upload"]).where("id", "=", projectId).executeTakeFirstOrThrow();

    const dataDir = server.dataDir;
    const restarted = await createServer(loadConfig({ ...databaseEnv(dataDir), DATA_DIR: dataDir, LOG_LEVEL: "silent", STATIC_DIR: path.join(dataDir, "no-app"), APP_SECRET: SECRET, ...fake.env() }), { mailer: { send: async () => {} } });
    server = { ...restarted, dataDir, close: async () => { await restarted.close(); fs.rmSync(dataDir, { recursive: true, force: true }); } } as unknown as TestServer;
    base = await listen(server);
    expect((await row()).youtube_upload).not.toBeNull();
    fake.slowUploads(0);
    const done = await waitExport((p) => p.youtube_export !== "exporting");
    expect(done).toMatchObject({ youtube_export: "done", youtube_error: null });
    const video = fake.videos.get(new URL(done.youtubeUrl).searchParams.get("v")!)!;
    expect(video.snippet.title).toBe("After a restart");
    expect(video.bytes.equals(file)).toBe(true);
    // One session for this export (no new one opened after the restart), asked where it stood.
    expect(fake.log.chunks.filter((c) => c.start === 0).length).toBe(sessionsBefore + 1);
    expect(fake.log.statusQueries).toBeGreaterThan(queriesBefore);
  }, 90_000);

  it("exports only a finished project with its final render", async () => {
    await connect();
    expect((await api("GET", `/projects/${projectId}/reopen`)).status).toBe(200);
    const res = await api("POST", `/projects/${projectId}/share/youtube`, exportBody);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("render_not_ready");
  });
});
