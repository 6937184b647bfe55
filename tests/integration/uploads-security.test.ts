import { createHash } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ErrorBody } from "../../api/errors";
import { uploadIdOfUrl } from "../../server/http/uploads";
import { bearer, jsonApi, listen, startTestServer, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

const fixture = (name: string) => path.resolve(__dirname, "../fixtures", name);

let server: TestServer;
let base: string;
let me: { token: string; id: number };
let them: { token: string; id: number };
let theirs: { id: string; url: string };

const api = jsonApi(() => base, () => me.token);
const uploadsDir = () => path.join(server.dataDir, "uploads");
const digest = (file: string) => (fs.existsSync(file) ? createHash("sha256").update(fs.readFileSync(file)).digest("hex") : "missing");
/** Their upload's bytes and tus metadata, to compare before and after. */
const snapshot = (id: string) => ({ bytes: digest(path.join(uploadsDir(), id)), meta: digest(path.join(uploadsDir(), `${id}.json`)) });

const tus = (method: string, url: string, token: string | undefined, headers: Record<string, string> = {}, body?: Uint8Array) =>
  fetch(url.startsWith("http") ? url : `${base}${url}`, {
    method,
    headers: { ...(token ? bearer(token) : {}), "tus-resumable": "1.0.0", ...headers },
    body: body as never,
  });

/** Creates an upload without sending bytes; answers its id. */
const create = async (token: string, length: number, headers: Record<string, string> = {}) => {
  const res = await tus("POST", "/api/v1/uploads", token, { "upload-length": String(length), ...headers });
  return { res, id: res.headers.get("location")?.split("/").pop() };
};

const userOf = async (token: string) => ((await api("GET", "/user", undefined, token)).body as { id: number }).id;

const expectErrorShape = async (res: Response) => {
  expect(res.headers.get("content-type")).toContain("application/json");
  const body = await res.json();
  expect(ErrorBody.safeParse(body).success, JSON.stringify(body)).toBe(true);
  return body as ErrorBody;
};

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
  const a = await server.signUp();
  const b = await server.signUp();
  me = { token: a.token, id: await userOf(a.token) };
  them = { token: b.token, id: await userOf(b.token) };
  theirs = await tusUpload(base, them.token, fixture("voice.m4a"), { name: "theirs.m4a" });
});
afterAll(() => server.close());

describe("tus owner check (issue 12 item 2)", () => {
  it("reads the upload id from the path alone, and only in the minted form", () => {
    const id = "7-0a1b2c3d-4e5f-4a6b-9c7d-8e9f0a1b2c3d";
    expect(uploadIdOfUrl(`/api/v1/uploads/${id}`)).toBe(id);
    expect(uploadIdOfUrl(`http://h/api/v1/uploads/${id}?a=b`)).toBe(id);
    expect(uploadIdOfUrl(`/api/v1/uploads/1-x/${id}`)).toBeUndefined();
    expect(uploadIdOfUrl(`/api/v1/uploads/1-x?y=/${id}`)).toBeUndefined();
    expect(uploadIdOfUrl(`/api/v1/uploads/${id}/`)).toBeUndefined();
    expect(uploadIdOfUrl(`/api/v1/uploads/${id.toUpperCase()}`)).toBeUndefined();
    expect(uploadIdOfUrl(`/api/v1/uploads/../uploads/${id}`)).toBeUndefined();
  });

  const variants = ["HEAD", "GET", "PATCH", "DELETE"].flatMap((method) => [
    [method, "nested path", (their: string) => `/api/v1/uploads/${me.id}-x/${their}`],
    [method, "id in the query", (their: string) => `/api/v1/uploads/${me.id}-x?y=/${their}`],
  ]) as [string, string, (their: string) => string][];

  it.each(variants)("%s with another user's id behind my prefix (%s) answers 404 and leaves their upload untouched", async (method, _label, url) => {
    const before = snapshot(theirs.id);
    expect(before.bytes).not.toBe("missing");
    const headers: Record<string, string> =
      method === "PATCH" ? { "upload-offset": "0", "content-type": "application/offset+octet-stream" } : {};
    const res = await tus(method, url(theirs.id), me.token, headers, method === "PATCH" ? new Uint8Array(64).fill(7) : undefined);
    expect(res.status).toBe(404);
    if (method !== "HEAD") {
      const body = await expectErrorShape(res);
      expect(body.code).toBe("not_found");
      expect(JSON.stringify(body)).not.toContain(theirs.id);
    }
    expect(snapshot(theirs.id)).toEqual(before);
    // Still theirs and complete.
    const head = await tus("HEAD", theirs.url, them.token);
    expect(head.status).toBe(200);
    expect(head.headers.get("upload-offset")).toBe(String(fs.statSync(fixture("voice.m4a")).size));
  });

  it("keeps a direct request for another user's upload out too (all methods)", async () => {
    const before = snapshot(theirs.id);
    for (const method of ["HEAD", "GET", "PATCH", "DELETE", "POST"]) {
      const res = await tus(method, theirs.url, me.token, method === "PATCH" ? { "upload-offset": "0", "content-type": "application/offset+octet-stream" } : {});
      expect(res.status, method).toBe(404);
    }
    expect(snapshot(theirs.id)).toEqual(before);
  });
});

describe("tus owner check against a crafted Host", () => {
  it("never lets the Host header pick the upload tus works on", async () => {
    const mine = await create(me.token, 10);
    const before = snapshot(theirs.id);
    for (const host of [`x/api/v1/uploads/${theirs.id}?`, `x${`/api/v1/uploads/${theirs.id}`}#`, "a b"]) {
      for (const method of ["HEAD", "PATCH", "DELETE"]) {
        const res = await server.app.inject({
          method: method as never,
          url: `/api/v1/uploads/${mine.id}`,
          headers: { ...bearer(me.token), "tus-resumable": "1.0.0", host, "upload-offset": "0", "content-type": "application/offset+octet-stream" },
          payload: method === "PATCH" ? Buffer.alloc(4, 9) : undefined,
        });
        expect(res.statusCode, `${method} ${host}`).toBeLessThan(500);
      }
    }
    expect(snapshot(theirs.id)).toEqual(before);
  });
});

describe("POST /library media_file (issue 12 item 3)", () => {
  it.each([
    ["a name I already have", "dup.m4a"],
    ["a new name", "brand-new.m4a"],
  ])("refuses a path through my prefix to their upload with %s, and their upload stays", async (_label, name) => {
    const mine = await tusUpload(base, me.token, fixture("voice.m4a"), { name: "dup.m4a" });
    if (name === "dup.m4a") expect((await api("POST", "/library", { media_file: mine.id, name, locale: null, has_speech: 0 })).status).toBe(201);
    const before = snapshot(theirs.id);
    for (const media_file of [`${me.id}-x/../${theirs.id}`, `${me.id}-${theirs.id}`, `../${theirs.id}`, `${theirs.id}/.`, `${me.id}-a/../../uploads/${theirs.id}`]) {
      const res = await api("POST", "/library", { media_file, name, locale: null, has_speech: 0 });
      expect(res.status, media_file).toBeGreaterThanOrEqual(400);
      expect(res.status, media_file).toBeLessThan(500);
      expect(ErrorBody.safeParse(res.body).success).toBe(true);
    }
    expect(snapshot(theirs.id)).toEqual(before);
    expect((await tus("HEAD", theirs.url, them.token)).status).toBe(200);
  });
});

describe("tus answers in the one error shape (issue 12 items 10, 11)", () => {
  it("answers a CORS preflight / discovery OPTIONS with 204 and the tus headers, never 500", async () => {
    for (const url of ["/api/v1/uploads", `/api/v1/uploads/${theirs.id}`]) {
      const res = await fetch(`${base}${url}`, { method: "OPTIONS", headers: { origin: "http://example.com", "access-control-request-method": "POST" } });
      expect(res.status).toBe(204);
      expect(res.headers.get("tus-version")).toBe("1.0.0");
      // Discovery tells no user's limits.
      expect(res.headers.get("tus-max-size")).toBeNull();
    }
    const odd = await fetch(`${base}/api/v1/uploads/nope/x`, { method: "OPTIONS" });
    expect(odd.status).toBe(404);
    await expectErrorShape(odd);
  });

  it("turns tus's plain-text errors into JSON and keeps the protocol headers", async () => {
    const { id } = await create(me.token, 100);
    // Wrong offset.
    const conflict = await tus("PATCH", `/api/v1/uploads/${id}`, me.token, { "upload-offset": "5", "content-type": "application/offset+octet-stream" }, new Uint8Array(5));
    expect(conflict.status).toBe(409);
    expect(conflict.headers.get("tus-resumable")).toBe("1.0.0");
    expect((await expectErrorShape(conflict)).code).toBe("upload_conflict");
    // No Tus-Resumable.
    const precondition = await fetch(`${base}/api/v1/uploads/${id}`, { method: "PATCH", headers: { ...bearer(me.token), "upload-offset": "0", "content-type": "application/offset+octet-stream" }, body: new Uint8Array(1) });
    expect(precondition.status).toBe(412);
    expect((await expectErrorShape(precondition)).code).toBe("bad_request");
    // Missing content type on PATCH (tus says 403, which would sign the app out).
    const noType = await tus("PATCH", `/api/v1/uploads/${id}`, me.token, { "upload-offset": "0" }, new Uint8Array(1));
    expect(noType.status).toBe(400);
    await expectErrorShape(noType);
    // More than the declared length.
    const over = await tus("PATCH", `/api/v1/uploads/${id}`, me.token, { "upload-offset": "0", "content-type": "application/offset+octet-stream" }, new Uint8Array(200));
    expect(over.status).toBe(413);
    expect((await expectErrorShape(over)).code).toBe("payload_too_large");
    // Invalid header values and metadata.
    const bad = await tus("POST", "/api/v1/uploads", me.token, { "upload-length": "10", "upload-metadata": "not base64!!" });
    expect(bad.status).toBe(400);
    await expectErrorShape(bad);
    // No length at all, or a deferred one of another value than 1.
    for (const headers of [{}, { "upload-defer-length": "2" }] as Record<string, string>[]) {
      const res = await tus("POST", "/api/v1/uploads", me.token, headers);
      expect(res.status).toBe(400);
      expect((await expectErrorShape(res)).code).toBe("bad_request");
    }
    // A method tus does not have.
    const put = await tus("PUT", `/api/v1/uploads/${id}`, me.token);
    expect(put.status).toBe(404);
    await expectErrorShape(put);
    // Anonymous.
    const anonymous = await tus("HEAD", `/api/v1/uploads/${id}`, undefined);
    expect(anonymous.status).toBe(401);
    await tus("DELETE", `/api/v1/uploads/${id}`, me.token);
  });

  it("answers every tus call with Cache-Control: no-store", async () => {
    const { res, id } = await create(me.token, 10);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect((await tus("HEAD", `/api/v1/uploads/${id}`, me.token)).headers.get("cache-control")).toBe("no-store");
    expect((await tus("HEAD", `/api/v1/uploads/${theirs.id}`, me.token)).headers.get("cache-control")).toBe("no-store");
    await tus("DELETE", `/api/v1/uploads/${id}`, me.token);
  });
});

describe("storage, expiry and creation rate of uploads (issue 12 item 7)", () => {
  let limited: { token: string; email: string; id: number };
  const setPlan = async (limits: Record<string, number>) => {
    const plan = await server.db.selectFrom("plans").selectAll().where("id", "=", "free").executeTakeFirstOrThrow();
    const metadata = JSON.stringify({ ...JSON.parse(plan.metadata), ...limits });
    await server.db.insertInto("plans").values({ ...plan, id: "up-tiny", nickname: "Tiny", metadata }).onConflict((oc) => oc.column("id").doUpdateSet({ metadata })).execute();
    await server.db.updateTable("users").set({ plan_id: "up-tiny" }).where("email", "=", limited.email).execute();
  };

  beforeAll(async () => {
    const account = await server.signUp();
    limited = { ...account, id: await userOf(account.token) };
  });

  it("refuses a file over the single-file limit at creation with 413 file_too_big and SPEC's text", async () => {
    await setPlan({ upload_max_size_mb: 1, storage_gb: 5 });
    const { res } = await create(limited.token, 2 * 1024 * 1024);
    expect(res.status).toBe(413);
    expect(await expectErrorShape(res)).toEqual({ code: "file_too_big", message: "One or more files exceed the single-file size limit" });
    // tus-js-client's way too: the app's worker reads the 413 and its code.
    await setPlan({ upload_max_size_mb: 0.1, storage_gb: 5 });
    const viaClient = await tusUpload(base, limited.token, fixture("talk.mp4"), { name: "big.mp4" }).catch((e) => e);
    expect(viaClient.originalResponse?.getStatus()).toBe(413);
    expect(JSON.parse(viaClient.originalResponse.getBody()).code).toBe("file_too_big");
    expect(await server.uploads.pendingBytes(limited.id)).toBe(0);
  });

  it("counts unfinished and unadopted uploads against the storage left", async () => {
    // 1 MiB of storage, files up to 100 MB.
    await setPlan({ upload_max_size_mb: 100, storage_gb: 1 / 1024 });
    const first = await create(limited.token, 700 * 1024);
    expect(first.res.status).toBe(201);
    const second = await create(limited.token, 700 * 1024);
    expect(second.res.status).toBe(422);
    expect((await expectErrorShape(second.res)).code).toBe("not_enough_storage");
    // What is left still fits.
    const small = await create(limited.token, 200 * 1024);
    expect(small.res.status).toBe(201);
    // Terminating the first frees its room.
    expect((await tus("DELETE", `/api/v1/uploads/${first.id}`, limited.token)).status).toBe(204);
    expect((await create(limited.token, 700 * 1024)).res.status).toBe(201);
    // Another user's uploads never count against this one.
    expect(await server.uploads.pendingBytes(them.id)).toBe(fs.statSync(fixture("voice.m4a")).size);
  });

  it("takes a recording streamed with its length deferred, holds each chunk to what is left, and adopts it once the length is declared (issue 17)", async () => {
    for (const name of fs.readdirSync(uploadsDir())) {
      if (name.startsWith(`${limited.id}-`) && !name.endsWith(".json")) await tus("DELETE", `/api/v1/uploads/${name}`, limited.token);
    }
    await setPlan({ upload_max_size_mb: 100, storage_gb: 5 });
    const bytes = fs.readFileSync(fixture("voice.m4a"));
    const deferred = await tus("POST", "/api/v1/uploads", limited.token, { "upload-defer-length": "1" });
    expect(deferred.status).toBe(201);
    const url = deferred.headers.get("location")!;
    const id = url.split("/").pop()!;
    const patch = (offset: number, body: Uint8Array, headers: Record<string, string> = {}) =>
      tus("PATCH", url, limited.token, { "upload-offset": String(offset), "content-type": "application/offset+octet-stream", ...headers }, body);
    // Chunks as they come; no length yet, so the library will not take it.
    const half = Math.floor(bytes.length / 2);
    expect((await patch(0, bytes.subarray(0, 1000))).status).toBe(204);
    expect((await patch(1000, bytes.subarray(1000, half))).status).toBe(204);
    const head = await tus("HEAD", url, limited.token);
    expect(head.headers.get("upload-offset")).toBe(String(half));
    expect(head.headers.get("upload-defer-length")).toBe("1");
    // What it holds so far counts against the storage left.
    expect(await server.uploads.pendingBytes(limited.id)).toBe(half);
    const early = await api("POST", "/library", { media_file: id, name: "early.m4a", locale: null, has_speech: 0 }, limited.token);
    expect((early.body as ErrorBody).code).toBe("upload_incomplete");
    // The last chunk declares the length; declaring the same length again (a resumed last chunk) is harmless.
    const last = await patch(half, bytes.subarray(half, bytes.length - 10), { "upload-length": String(bytes.length) });
    expect(last.status).toBe(204);
    expect((await patch(bytes.length - 10, bytes.subarray(bytes.length - 10), { "upload-length": String(bytes.length) })).status).toBe(204);
    expect(digest(path.join(uploadsDir(), id))).toBe(createHash("sha256").update(bytes).digest("hex"));
    const adopted = await api("POST", "/library", { media_file: id, name: "streamed.m4a", locale: null, has_speech: 0 }, limited.token);
    expect(adopted.status).toBe(201);

    // With 1 MiB left, a deferred upload may start but no chunk takes it past what is left.
    await setPlan({ upload_max_size_mb: 100, storage_gb: 1 / 1024 });
    const room = await tus("POST", "/api/v1/uploads", limited.token, { "upload-defer-length": "1" });
    expect(room.status).toBe(201);
    const roomUrl = room.headers.get("location")!;
    const over = await tus("PATCH", roomUrl, limited.token, { "upload-offset": "0", "content-type": "application/offset+octet-stream" }, new Uint8Array(2 * 1024 * 1024));
    expect(over.status).toBe(413);
    await expectErrorShape(over);
    await tus("DELETE", roomUrl, limited.token);
    // Nothing left: refused at creation.
    await setPlan({ upload_max_size_mb: 100, storage_gb: 0 });
    const none = await tus("POST", "/api/v1/uploads", limited.token, { "upload-defer-length": "1" });
    expect(none.status).toBe(422);
    expect((await expectErrorShape(none)).code).toBe("not_enough_storage");
  });

  it("lets only what fits through when several uploads start at once", async () => {
    for (const name of fs.readdirSync(uploadsDir())) {
      if (name.startsWith(`${limited.id}-`) && !name.endsWith(".json")) await tus("DELETE", `/api/v1/uploads/${name}`, limited.token);
    }
    await setPlan({ upload_max_size_mb: 100, storage_gb: 1 / 1024 });
    const statuses = (await Promise.all(Array.from({ length: 4 }, () => create(limited.token, 600 * 1024)))).map((c) => c.res.status).sort();
    expect(statuses).toEqual([201, 422, 422, 422]);
    expect(await server.uploads.pendingBytes(limited.id)).toBe(600 * 1024);
  });

  it("expires uploads not added to the library: tus says so (410) and the sweep removes them, finished or not", async () => {
    await setPlan({ upload_max_size_mb: 100, storage_gb: 5 });
    const { res, id } = await create(limited.token, 100);
    expect(res.headers.get("upload-expires")).toBeTruthy();
    const finished = await tusUpload(base, limited.token, fixture("voice.m4a"), { name: "never-adopted.m4a" });
    const age = (uploadId: string, hours: number) => {
      const file = path.join(uploadsDir(), `${uploadId}.json`);
      const meta = JSON.parse(fs.readFileSync(file, "utf8"));
      meta.creation_date = new Date(Date.now() - hours * 3600_000).toISOString();
      fs.writeFileSync(file, JSON.stringify(meta));
    };
    age(id!, 25);
    age(finished.id, 25);
    const late = await tus("PATCH", `/api/v1/uploads/${id}`, limited.token, { "upload-offset": "0", "content-type": "application/offset+octet-stream" }, new Uint8Array(10));
    expect(late.status).toBe(410);
    expect((await expectErrorShape(late)).code).toBe("upload_expired");

    const young = await create(limited.token, 100);
    await server.uploads.removeExpired();
    for (const gone of [id!, finished.id]) {
      expect(fs.existsSync(path.join(uploadsDir(), gone))).toBe(false);
      expect(fs.existsSync(path.join(uploadsDir(), `${gone}.json`))).toBe(false);
    }
    expect(fs.existsSync(path.join(uploadsDir(), `${young.id}.json`))).toBe(true);
    expect(fs.existsSync(path.join(uploadsDir(), theirs.id))).toBe(true);
    const adopt = await api("POST", "/library", { media_file: finished.id, name: "late.m4a", locale: null, has_speech: 0 }, limited.token);
    expect(adopt.status).toBe(404);
  });
});

describe("rate limit of upload creation", () => {
  it("answers 429 in the error shape past RATE_LIMIT_UPLOADS creations a minute, per user", async () => {
    const limitedServer = await startTestServer({ RATE_LIMIT_UPLOADS: "3" });
    try {
      const url = await listen(limitedServer);
      const a = await limitedServer.signUp();
      const b = await limitedServer.signUp();
      const post = (token: string) => fetch(`${url}/api/v1/uploads`, { method: "POST", headers: { ...bearer(token), "tus-resumable": "1.0.0", "upload-length": "10" } });
      for (let i = 0; i < 3; i++) expect((await post(a.token)).status).toBe(201);
      const fourth = await post(a.token);
      expect(fourth.status).toBe(429);
      expect((await expectErrorShape(fourth)).code).toBe("rate_limited");
      expect((await post(b.token)).status).toBe(201);
    } finally {
      await limitedServer.close();
    }
  });
});

describe("Fastify's and Node's own refusals (issue 12 item 11)", () => {
  it("answers a bad %-escape and an over-long path parameter in the error shape", async () => {
    for (const url of ["/api/v1/projects/%E0%A4%A", "/api/v1/projects/%zz", `/api/v1/projects/${"9".repeat(150)}`, `/api/v1/scenes/${"a".repeat(300)}/type/intro`]) {
      const res = await server.app.inject({ method: "GET", url, headers: bearer(me.token) });
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, url).toBeLessThan(500);
      expect(ErrorBody.safeParse(res.json()).success, `${url} ${res.body}`).toBe(true);
    }
  });

  it("answers requests Node's parser refuses with a JSON 400", async () => {
    const { port } = new URL(base);
    for (const raw of ["GARBAGE\r\n\r\n", "GET /api/v1/user HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", "GET / HTTP/9.9\r\n\r\n", `GET /${"a".repeat(10)} HTTP/1.1\r\nX: ${"b".repeat(20_000)}\r\n\r\n`]) {
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), "127.0.0.1", () => socket.write(raw));
        let data = "";
        socket.on("data", (chunk) => (data += chunk.toString()));
        socket.on("close", () => resolve(data));
        socket.on("error", reject);
        socket.setTimeout(5000, () => socket.destroy());
      });
      const [head, body] = answer.split("\r\n\r\n");
      expect(head, raw.slice(0, 30)).toMatch(/^HTTP\/1\.1 4\d\d /);
      expect(head).toMatch(/content-type: application\/json/i);
      expect(ErrorBody.safeParse(JSON.parse(body!)).success).toBe(true);
    }
  });
});

describe("POST /createproject with a repeated media id (issue 12 item 10)", () => {
  it("is a 422 validation failure, not a 500", async () => {
    const res = await api("POST", "/createproject", { name: "Twice", locale: "en-US", style: "video", media: [1, 1] });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: "validation_failed", fields: { media: "invalid" } });
  });
});

describe("Cache-Control: no-store (issue 12 item 16)", () => {
  it("is on every JSON answer of the API, errors and sign-in included (signed files keep theirs: authz-matrix)", async () => {
    for (const [method, url, token] of [
      ["GET", "/api/v1/user", me.token],
      ["GET", "/api/v1/projects/999999", me.token],
      ["GET", "/api/v1/user", undefined],
      ["PUT", "/api/v1/scenes/1/trim", me.token],
      ["GET", "/api/v1/projects/1/downloadrender", undefined],
      ["POST", "/api/v1/uploads", undefined],
      ["POST", "/api/v1/user/login", undefined],
      ["GET", "/api/v1/nope", me.token],
      ["GET", "/api/v1/payment/freeplan", undefined],
    ] as const) {
      const res = await server.app.inject({ method, url, headers: { ...(token ? bearer(token) : {}), "tus-resumable": "1.0.0" } });
      expect(res.headers["content-type"], `${method} ${url}`).toContain("application/json");
      expect(res.headers["cache-control"], `${method} ${url}`).toBe("no-store");
    }
  });
});
