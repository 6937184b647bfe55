import fs from "node:fs";
import path from "node:path";
import { HeadBucketCommand } from "@aws-sdk/client-s3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonApi, listen, processedTalkProject, startTestServer, type TestServer } from "./helpers";
import { startTestS3, type TestS3 } from "./s3-server";
import { tusUpload } from "./tus";

/** Every file under a folder (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

const TALK = path.resolve(__dirname, "../fixtures/talk.mp4");

/** Issue 19: STORAGE=s3 against a real S3-compatible server (Ceph's radosgw, from Debian). */
describe("STORAGE=s3", () => {
  let s3: TestS3;
  let server: TestServer;
  let base: string;
  let token: string;
  let userId: number;
  let projectId: number;

  beforeAll(async () => {
    s3 = await startTestS3();
    server = await startTestServer(s3.env({ S3_CACHE_MB: "16", S3_PRESIGN_SECONDS: "120" }));
    base = await listen(server);
    token = (await server.signUp()).token;
    userId = (await jsonApi(() => base, () => token)("GET", "/user")).body.id;
  }, 180_000);

  afterAll(async () => {
    await server?.close();
    await s3?.stop();
  });

  it("uploads through tus into the bucket, processes the project to Preview Ready and keeps nothing on the machine", async () => {
    projectId = await processedTalkProject(base, token, "From the bucket");
    const keys = await s3.keys();
    // The original, its proxy and thumbnails, the preview render: all in the bucket.
    expect(keys.filter((k) => k.startsWith(`media/${userId}/`) && k.endsWith("/source.mp4"))).toHaveLength(1);
    expect(keys.some((k) => k.startsWith(`media/${userId}/`) && k.endsWith("/proxy.mp4"))).toBe(true);
    expect(keys.some((k) => k.startsWith(`media/${userId}/`) && k.includes("/thumbs/"))).toBe(true);
    expect(keys.some((k) => k.startsWith(`projects/${userId}/${projectId}/preview-`) && k.endsWith(".mp4"))).toBe(true);
    // The tus upload was adopted by a server-side copy and removed (object, .info, incomplete part).
    expect(keys.filter((k) => k.startsWith(`${userId}-`))).toEqual([]);
    // Nothing in the local store; the cache was emptied when each job ended.
    expect(filesUnder(server.config.storeDir)).toEqual([]);
    expect(filesUnder(path.join(server.config.dataDir, "s3-cache"))).toEqual([]);
  }, 120_000);

  it("answers a media link with a presigned GET that serves ranges, and a forged link with 404", async () => {
    const project = (await jsonApi(() => base, () => token)("GET", `/projects/${projectId}`)).body;
    expect(project.export_url).toMatch(/^\/api\/v1\/files\/projects\//);
    const res = await fetch(`${base}${project.export_url}`, { redirect: "manual" });
    expect(res.status).toBe(302);
    expect(res.headers.get("cache-control")).toContain("no-store");
    const location = new URL(res.headers.get("location")!);
    expect(location.origin).toBe(s3.endpoint);
    expect(location.searchParams.get("X-Amz-Expires")).toBe("120");
    expect(location.searchParams.get("X-Amz-Signature")).toMatch(/^[0-9a-f]{64}$/);
    // The secret key never travels; only the access key id is part of a presigned URL.
    expect(location.href).not.toContain(s3.secretAccessKey);
    const part = await fetch(location, { headers: { range: "bytes=0-99" } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
    const whole = Buffer.from(await (await fetch(location)).arrayBuffer());
    expect(whole.subarray(4, 8).toString("latin1")).toBe("ftyp");
    const forged = await fetch(`${base}${project.export_url.replace(/signature=[^&]+/, "signature=AAAA")}`, { redirect: "manual" });
    expect(forged.status).toBe(404);
  });

  it("POST /signeds3 answers a presigned POST the bucket accepts, for the user's own key only", async () => {
    const api = jsonApi(() => base, () => token);
    const signed = await api("POST", "/signeds3", { extension: "mp4" });
    expect(signed.status).toBe(200);
    const { postEndpoint, signature } = signed.body as { postEndpoint: string; signature: Record<string, string> };
    expect(signature.key).toMatch(new RegExp(`^${userId}-[0-9a-f-]{36}$`));
    expect(signature.Policy ?? signature.policy).toBeTruthy();
    const post = (fields: Record<string, string>, bytes: Buffer) => {
      const form = new FormData();
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append("file", new Blob([new Uint8Array(bytes)]), "talk.mp4");
      return fetch(postEndpoint, { method: "POST", body: form });
    };
    // Another key than the one signed (another user's upload id) is refused by the server itself.
    const other = await signUpOther();
    const crossUser = await post({ ...signature, key: `${other.id}-${signature.key!.split("-").slice(1).join("-")}` }, fs.readFileSync(TALK));
    expect(crossUser.status).toBe(403);
    expect(await crossUser.text()).toContain("AccessDenied");
    const accepted = await post(signature, fs.readFileSync(TALK));
    expect([200, 201, 204]).toContain(accepted.status);
    // Another user cannot add it to their library; its owner can, as with a tus upload.
    const stolen = await api("POST", "/library", { media_file: signature.key, name: "stolen.mp4", locale: "en-US", has_speech: 0, process: 0 }, other.token);
    expect(stolen.status).toBe(404);
    const added = await api("POST", "/library", { media_file: signature.key, name: "posted.mp4", locale: "en-US", has_speech: 0, process: 0 });
    expect(added.status).toBe(201);
    expect(added.body.media_file.size).toBe(fs.statSync(TALK).size);
    const keys = await s3.keys();
    expect(keys).not.toContain(signature.key);
    expect(keys.filter((k) => k.startsWith(`media/${userId}/${added.body.media_file.id}/`))).toEqual([`media/${userId}/${added.body.media_file.id}/source.mp4`]);
  });

  it("refuses another user's tus upload and presigned POST object", async () => {
    const uploaded = await tusUpload(base, token, TALK, { name: "mine.mp4", chunkSize: 8 * 1_048_576 });
    const other = await signUpOther();
    const head = await fetch(`${base}/api/v1/uploads/${uploaded.id}`, { method: "HEAD", headers: { authorization: `Bearer ${other.token}`, "tus-resumable": "1.0.0" } });
    expect(head.status).toBe(404);
    const api = jsonApi(() => base, () => other.token);
    expect((await api("POST", "/library", { media_file: uploaded.id, name: "x.mp4", locale: "en-US", has_speech: 0, process: 0 })).status).toBe(404);
    // Still there for its owner.
    expect(await s3.keys(uploaded.id)).toEqual([uploaded.id, `${uploaded.id}.info`]);
  });

  it("removes a deleted account's files and unadopted uploads from the bucket", async () => {
    const gone = await signUpOther();
    const uploaded = await tusUpload(base, gone.token, TALK, { name: "left.mp4", chunkSize: 8 * 1_048_576 });
    const signed = (await jsonApi(() => base, () => gone.token)("POST", "/signeds3", { extension: "mp4" })).body as { postEndpoint: string; signature: Record<string, string> };
    const form = new FormData();
    for (const [k, v] of Object.entries(signed.signature)) form.append(k, v);
    form.append("file", new Blob([new Uint8Array(fs.readFileSync(TALK))]), "posted.mp4");
    expect((await fetch(signed.postEndpoint, { method: "POST", body: form })).ok).toBe(true);
    expect((await s3.keys(`${gone.id}-`)).length).toBe(3);
    const deleted = await jsonApi(() => base, () => gone.token)("POST", "/user/delete", { password: "secret123" });
    expect(deleted.status).toBe(200);
    expect(await s3.keys(`${gone.id}-`)).toEqual([]);
    expect(await s3.keys(uploaded.id)).toEqual([]);
  });

  it("makes its bucket at start when there is none, and refuses to start with keys the store does not know", async () => {
    const bucket = `${s3.bucket}-made`;
    const made = await startTestServer(s3.env({ S3_BUCKET: bucket }));
    try {
      expect(made.config.s3?.bucket).toBe(bucket);
      await s3.client.send(new HeadBucketCommand({ Bucket: bucket }));
    } finally {
      await made.close();
    }
    await expect(startTestServer(s3.env({ S3_SECRET_ACCESS_KEY: "not-the-secret" }))).rejects.toThrow(/not reachable \(HTTP 403\)/);
  });

  async function signUpOther() {
    const other = await server.signUp();
    const id = (await jsonApi(() => base, () => other.token)("GET", "/user")).body.id as number;
    return { token: other.token, id };
  }
});

describe("STORAGE=local", () => {
  it("answers POST /signeds3 with 404: direct uploads need a bucket", async () => {
    const server = await startTestServer();
    try {
      const token = (await server.signUp()).token;
      const res = await server.app.inject({ method: "POST", url: "/api/v1/signeds3", headers: { authorization: `Bearer ${token}` }, payload: { extension: "mp4" } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: "not_found" });
    } finally {
      await server.close();
    }
  });
});
