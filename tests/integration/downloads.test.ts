import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FREE_PLAN_ID } from "../../server/domain/plans";
import { fileLinks } from "../../server/services/file-links";
import { bearer, jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";

// Issue 13: a finished render is downloaded by a plain browser link — signed, short-lived, named, resumable.
const SECRET = "downloads-test-secret-0123456789abcdef";
const NAME = "Entrevista: café/été";
const FILENAME = "Entrevista_ café_été.mp4";

describe("downloading a final render", () => {
  let server: TestServer;
  let base = "";
  let owner = { token: "", email: "" };
  let projectId = 0;
  const api = jsonApi(() => base, () => owner.token);
  const downloadrender = (id: number, token: string | undefined, accept?: string) =>
    fetch(`${base}/api/v1/projects/${id}/downloadrender`, { redirect: "manual", headers: { ...(token ? bearer(token) : {}), ...(accept ? { accept } : {}) } });
  const setPlan = (email: string, plan: string) => server.db.updateTable("users").set({ plan_id: plan }).where("email", "=", email).execute();

  beforeAll(async () => {
    server = await startTestServer({ APP_SECRET: SECRET });
    base = await listen(server);
    owner = await server.signUp();
    await setPlan(owner.email, "starter_month");
    projectId = await processedTalkProject(base, owner.token, NAME);
  }, 180_000);
  afterAll(async () => server?.close());

  it("has nothing to download before the final render (render_not_ready), then redirects the owner to a signed link", async () => {
    const before = await downloadrender(projectId, owner.token);
    expect(before.status).toBe(409);
    expect(await before.json()).toMatchObject({ code: "render_not_ready" });

    expect((await api("POST", `/projects/${projectId}/render`, { final: 1, tier: 1 })).status).toBe(200);
    await waitFor(async () => {
      const { body } = await api("GET", `/projects/${projectId}`);
      if (body.status === "Failed") throw new Error(`render failed: ${body.failure}`);
      return body.status === "Render Ready" ? true : undefined;
    }, 150_000);

    const res = await downloadrender(projectId, owner.token);
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    const location = res.headers.get("location")!;
    expect(location).toMatch(/^\/api\/v1\/files\/projects\/.+\.mp4\?expires=\d+&download=[^&]+&signature=[\w-]+$/);
    expect(location).not.toContain(owner.token);
    // The sync worker asks for JSON: the same link, its file name and when it expires (within the hour).
    const json = await downloadrender(projectId, owner.token, "application/json");
    expect(json.status).toBe(200);
    const body = (await json.json()) as { url: string; filename: string; expires_at: string };
    expect(body.filename).toBe(FILENAME);
    expect(body.url).toMatch(/^\/api\/v1\/files\//);
    const left = Date.parse(body.expires_at) - Date.now();
    expect(left).toBeGreaterThan(50 * 60_000);
    expect(left).toBeLessThanOrEqual(3600_000);
  }, 200_000);

  it("serves the file without a bearer header, as an attachment with its real name, resumable by Range", async () => {
    const { url } = (await (await downloadrender(projectId, owner.token, "application/json")).json()) as { url: string };
    const key = decodeURIComponent(new URL(url, base).pathname.replace("/api/v1/files/", ""));
    const file = fs.readFileSync(path.join(server.dataDir, "store", key));

    const whole = await fetch(`${base}${url}`);
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-disposition")).toBe(
      `attachment; filename="Entrevista_ caf___t_.mp4"; filename*=UTF-8''${encodeURIComponent(FILENAME)}`,
    );
    expect(whole.headers.get("accept-ranges")).toBe("bytes");
    expect(whole.headers.get("content-type")).toBe("video/mp4");
    expect(Number(whole.headers.get("content-length"))).toBe(file.length);
    expect(Buffer.from(await whole.arrayBuffer()).equals(file)).toBe(true);

    // A download that stopped after 1000 bytes resumes from there, and the two parts are the file.
    const head = await fetch(`${base}${url}`, { headers: { range: "bytes=0-999" } });
    expect(head.status).toBe(206);
    expect(head.headers.get("content-range")).toBe(`bytes 0-999/${file.length}`);
    expect(head.headers.get("content-disposition")).toContain("attachment;");
    const rest = await fetch(`${base}${url}`, { headers: { range: "bytes=1000-" } });
    expect(rest.status).toBe(206);
    expect(rest.headers.get("content-range")).toBe(`bytes 1000-${file.length - 1}/${file.length}`);
    const joined = Buffer.concat([Buffer.from(await head.arrayBuffer()), Buffer.from(await rest.arrayBuffer())]);
    expect(joined.equals(file)).toBe(true);

    // A range past the end: 416 in the error shape, with the size to resume from.
    const beyond = await fetch(`${base}${url}`, { headers: { range: `bytes=${file.length + 10}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get("content-range")).toBe(`bytes */${file.length}`);
    expect(await beyond.json()).toEqual({ message: expect.any(String), code: "range_not_satisfiable" });
  });

  it("refuses a tampered, renamed or expired link with a 404", async () => {
    const { url } = (await (await downloadrender(projectId, owner.token, "application/json")).json()) as { url: string };
    const link = new URL(url, base);
    const key = decodeURIComponent(link.pathname.replace("/api/v1/files/", ""));
    const variants: URL[] = [];
    const withParam = (name: string, value: string) => {
      const copy = new URL(link);
      copy.searchParams.set(name, value);
      variants.push(copy);
    };
    const signature = link.searchParams.get("signature")!;
    withParam("signature", `${signature.slice(0, -2)}${signature.endsWith("AA") ? "BB" : "AA"}`);
    withParam("download", "other.exe");
    withParam("expires", String(Number(link.searchParams.get("expires")) + 3600));
    const withoutName = new URL(link);
    withoutName.searchParams.delete("download"); // a download signature is not a media link's
    variants.push(withoutName);
    // Signed with the server's own secret, but an hour past its expiry.
    const links = fileLinks(SECRET);
    const expired = links.downloadUrl(key, FILENAME, Date.now() - 2 * 3600_000).url;
    variants.push(new URL(expired, base));
    for (const variant of variants) {
      const res = await fetch(variant);
      expect(res.status, variant.search).toBe(404);
      expect(await res.json()).toMatchObject({ code: "not_found" });
    }
    // The same forge signed now opens: the refusal above is the expiry, not a wrong secret.
    const fresh = await fetch(new URL(links.downloadUrl(key, FILENAME).url, base));
    expect(fresh.status).toBe(200);
    await fresh.arrayBuffer();
  });

  it("answers 404 to another user and 401 without a bearer, leaking nothing", async () => {
    const other = await server.signUp();
    await setPlan(other.email, "starter_month");
    const res = await downloadrender(projectId, other.token);
    expect(res.status).toBe(404);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ code: "not_found" });
    expect(text).not.toContain("Entrevista");
    expect(res.headers.get("location")).toBeNull();
    expect((await downloadrender(projectId, undefined)).status).toBe(401);
    expect((await downloadrender(999_999, owner.token)).status).toBe(404);
  });

  it("answers the subtitles link (SPEC §7) with no_subtitles for the owner's project without subtitles, 404 to others", async () => {
    const subtitles = (id: number, token: string | undefined) =>
      fetch(`${base}/api/v1/projects/${id}/subtitles`, { redirect: "manual", headers: { accept: "application/json", ...(token ? bearer(token) : {}) } });
    const own = await subtitles(projectId, owner.token);
    expect(own.status).toBe(404);
    expect(await own.json()).toMatchObject({ code: "no_subtitles" });
    const other = await server.signUp();
    const theirs = await subtitles(projectId, other.token);
    expect(theirs.status).toBe(404);
    expect(await theirs.json()).toMatchObject({ code: "not_found" });
    expect((await subtitles(projectId, undefined)).status).toBe(401);
  });

  it("refuses a free plan with upgrade_required (402, not a 403 that would sign out)", async () => {
    await setPlan(owner.email, FREE_PLAN_ID);
    try {
      for (const accept of [undefined, "application/json"]) {
        const res = await downloadrender(projectId, owner.token, accept);
        expect(res.status).toBe(402);
        expect(res.headers.get("location")).toBeNull();
        expect(await res.json()).toEqual({ message: expect.any(String), code: "upgrade_required" });
      }
    } finally {
      await setPlan(owner.email, "starter_month");
    }
    expect((await downloadrender(projectId, owner.token)).status).toBe(302);
  });
});
