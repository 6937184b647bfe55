import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import https from "node:https";
import { execFileSync } from "node:child_process";
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadServerI18n } from "../../server/notify/i18n";
import { loadVapidKeys, outboxPushSender, webPushSender } from "../../server/notify/push";
import { createPush } from "../../server/services/push";
import { jsonApi, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

/** What a push service received. */
interface Received {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A browser's side of a subscription: the P-256 key pair and the 16-byte auth secret. */
interface Browser {
  ecdh: ECDH;
  auth: Buffer;
  endpoint: string;
}

let certDir: string;
let receiver: https.Server;
let origin: string;
const received: Received[] = [];
/** Answers of the fake push service by path; 201 Created otherwise. */
const answers = new Map<string, number>();

let server: TestServer;
let base: string;
let token: string;
let other: string;
let projectId: number;
let vapidPublicKey: string;
let agent: https.Agent;

const api = jsonApi(() => base, () => token);
const b64 = (buffer: Buffer) => buffer.toString("base64url");

function newBrowser(pathname: string): Browser {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  return { ecdh, auth: randomBytes(16), endpoint: `${origin}${pathname}` };
}
const subscription = (browser: Browser, device = "test browser") => ({
  endpoint: browser.endpoint,
  expirationTime: null,
  keys: { p256dh: b64(browser.ecdh.getPublicKey()), auth: b64(browser.auth) },
  device,
});

/** RFC 8291 + RFC 8188 (aes128gcm), one record: what the browser does with a push message. */
function decrypt(browser: Browser, body: Buffer): unknown {
  const salt = body.subarray(0, 16);
  const idLength = body.readUInt8(20);
  const senderPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = browser.ecdh.computeSecret(senderPublic);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), browser.ecdh.getPublicKey(), senderPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", shared, browser.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
  // The last record ends with the delimiter 0x02, then zero padding.
  let end = padded.length - 1;
  while (padded[end] === 0) end -= 1;
  expect(padded[end]).toBe(2);
  return JSON.parse(padded.subarray(0, end).toString("utf8"));
}

/** What a push service checks (RFC 8292): an ES256 JWT for its own origin, signed by the key in `k`. */
function verifyVapid(request: Received) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(request.headers.authorization));
  expect(match, String(request.headers.authorization)).not.toBeNull();
  const [, jwt, k] = match!;
  expect(k).toBe(vapidPublicKey);
  const [header, claims, signature] = jwt!.split(".");
  expect(JSON.parse(Buffer.from(header!, "base64url").toString())).toMatchObject({ alg: "ES256", typ: "JWT" });
  const point = Buffer.from(k!, "base64url");
  const key = createPublicKey({ key: { kty: "EC", crv: "P-256", x: b64(point.subarray(1, 33)), y: b64(point.subarray(33, 65)) }, format: "jwk" });
  const signed = verify("sha256", Buffer.from(`${header}.${claims}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature!, "base64url"));
  expect(signed).toBe(true);
  const payload = JSON.parse(Buffer.from(claims!, "base64url").toString());
  expect(payload.aud).toBe(origin);
  expect(payload.sub).toMatch(/^mailto:/);
  const now = Date.now() / 1000;
  expect(payload.exp).toBeGreaterThan(now);
  expect(payload.exp).toBeLessThanOrEqual(now + 24 * 3600);
}

const pushesTo = (browser: Browser) => received.filter((r) => r.path === new URL(browser.endpoint).pathname);
/** The project's one render job (its id is `render:<project>`), finished after `since`. */
const renderDoneSince = async (since: string) => {
  const job = await server.db.selectFrom("jobs").select(["status", "updated_at"]).where("id", "=", `render:${projectId}`).executeTakeFirst();
  return job?.status === "done" && job.updated_at > since ? true : undefined;
};
const projectStatus = async () => (await api("GET", `/projects/${projectId}`)).body.status as string;

/** Renders and waits until the job (and so its notification) is over. */
async function render(final: boolean) {
  const since = new Date().toISOString();
  const res = await api("POST", `/projects/${projectId}/render`, { final });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  await waitFor(() => renderDoneSince(since), 50_000);
  expect(await projectStatus()).toBe(final ? "Render Ready" : "Preview Ready");
}

let browser: Browser;

beforeAll(async () => {
  certDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-push-"));
  const keyFile = path.join(certDir, "key.pem");
  const certFile = path.join(certDir, "cert.pem");
  execFileSync("openssl", [
    "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
    "-keyout", keyFile, "-out", certFile, "-subj", "/CN=localhost", "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
  ], { stdio: "ignore" });
  const cert = fs.readFileSync(certFile);
  receiver = https.createServer({ key: fs.readFileSync(keyFile), cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(answers.get(req.url ?? "") ?? 201).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "localhost", resolve));
  origin = `https://localhost:${(receiver.address() as { port: number }).port}`;
  // Trusts only this test's certificate; TLS checks stay on everywhere.
  agent = new https.Agent({ ca: cert });

  server = await startTestServer({ PUSH_PRIVATE_ENDPOINTS: "1" }, { pushAgent: agent });
  base = await listen(server);
  token = (await server.signUp()).token;
  other = (await server.signUp()).token;
  const me = (await api("GET", "/user")).body;
  // SPEC §6: render notifications are a feature of paid plans.
  await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("id", "=", me.id).execute();
  vapidPublicKey = (await api("GET", "/config")).body.push.vapidPublicKey;

  browser = newBrowser("/push/abc");
  expect((await api("POST", "/push/subscriptions", subscription(browser))).status).toBe(201);
  const uploaded = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/talk.mp4"), { name: "talk.mp4" });
  const media = await api("POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 });
  projectId = (await api("POST", "/createproject", { name: "Push me", locale: "en-US", style: "video", media: [media.body.media_file.id] })).body.id;
  await waitFor(async () => ((await projectStatus()) === "Preview Ready" ? true : undefined));
  await waitFor(async () => (pushesTo(browser).length > 0 ? true : undefined), 15_000);
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => receiver?.close(resolve));
  agent?.destroy();
  fs.rmSync(certDir, { recursive: true, force: true });
});

describe("VAPID keys", () => {
  it("are made on first start, kept in the database and served in /config", async () => {
    const stored = await server.db.selectFrom("settings").select("value").where("key", "=", "vapid_keys").executeTakeFirstOrThrow();
    expect(JSON.parse(stored.value).publicKey).toBe(vapidPublicKey);
    expect(Buffer.from(vapidPublicKey, "base64url")).toHaveLength(65);
    expect((await loadVapidKeys(server.db)).publicKey).toBe(vapidPublicKey);
  });

  it("are not served when PUSH=off", async () => {
    const off = await startTestServer({ PUSH: "off" }, { startRunner: false });
    try {
      const res = await off.app.inject({ method: "GET", url: "/api/v1/config" });
      expect(res.json().push).toEqual({ vapidPublicKey: null });
    } finally {
      await off.close();
    }
  });
});

describe("subscriptions", () => {
  it("refuse endpoints on this machine or the private network unless the server allows them", async () => {
    const guarded = await startTestServer({}, { startRunner: false });
    try {
      const { token } = await guarded.signUp();
      const probe = newBrowser("/push/private");
      for (const endpoint of ["https://localhost:9/push", "https://127.0.0.1/push", "https://10.1.2.3/push", "https://192.168.0.4/push", "https://[::1]/push", "https://169.254.169.254/latest"]) {
        const res = await guarded.app.inject({ method: "POST", url: "/api/v1/push/subscriptions", headers: { authorization: `Bearer ${token}` }, payload: { ...subscription(probe), endpoint } });
        expect(res.statusCode, endpoint).toBe(422);
        expect(res.json().fields, endpoint).toHaveProperty("endpoint");
      }
      const publicHost = await guarded.app.inject({ method: "POST", url: "/api/v1/push/subscriptions", headers: { authorization: `Bearer ${token}` }, payload: { ...subscription(probe), endpoint: "https://fcm.googleapis.com/fcm/send/abc" } });
      expect(publicHost.statusCode).toBe(201);
    } finally {
      await guarded.close();
    }
  });

  it("are refused when they could never be delivered: not https, or keys that are not a P-256 point and a 16-byte secret", async () => {
    const probe = newBrowser("/push/refused");
    const plain = await api("POST", "/push/subscriptions", { ...subscription(probe), endpoint: "http://localhost/push/x" });
    expect(plain.status).toBe(422);
    expect(plain.body.fields).toHaveProperty("endpoint");
    const badKey = await api("POST", "/push/subscriptions", { ...subscription(probe), keys: { p256dh: b64(randomBytes(65)), auth: b64(probe.auth) } });
    expect(badKey.body).toMatchObject({ code: "validation_failed", fields: { "keys.p256dh": "invalid" } });
    const badAuth = await api("POST", "/push/subscriptions", { ...subscription(probe), keys: { p256dh: b64(probe.ecdh.getPublicKey()), auth: b64(randomBytes(8)) } });
    expect(badAuth.body).toMatchObject({ code: "validation_failed", fields: { "keys.auth": "invalid" } });
    expect((await api("POST", "/push/subscriptions", { ...subscription(probe), endpoint: `https://x.example/${"a".repeat(2048)}` })).status).toBe(422);
  });

  it("belong to whoever subscribed last on that browser; unsubscribing touches only the caller's", async () => {
    const shared = newBrowser("/push/shared");
    const rows = () => server.db.selectFrom("push_subscriptions").selectAll().where("endpoint", "=", shared.endpoint).execute();
    const mine = await api("POST", "/push/subscriptions", subscription(shared, "Phone"));
    expect(mine.body).toMatchObject({ endpoint: shared.endpoint, device: "Phone" });
    expect((await api("POST", "/push/subscriptions", subscription(shared, "Phone"), other)).status).toBe(201);
    const [row] = await rows();
    const otherId = (await api("GET", "/user", undefined, other)).body.id;
    expect(row!.user_id).toBe(otherId);
    expect(await rows()).toHaveLength(1);

    expect((await api("DELETE", "/push/subscriptions", { endpoint: shared.endpoint })).body).toEqual({ removed: false });
    expect(await rows()).toHaveLength(1);
    expect((await api("DELETE", "/push/subscriptions", { endpoint: shared.endpoint }, other)).body).toEqual({ removed: true });
    expect(await rows()).toHaveLength(0);
  });

  it("are not taken over by another user who knows only the endpoint (other keys): 404, the owner's row stays", async () => {
    const victim = newBrowser("/push/victim");
    expect((await api("POST", "/push/subscriptions", subscription(victim, "Victim"))).status).toBe(201);
    const before = await server.db.selectFrom("push_subscriptions").selectAll().where("endpoint", "=", victim.endpoint).execute();
    const forged = { ...subscription(newBrowser("/push/attacker"), "Attacker"), endpoint: victim.endpoint };
    const res = await api("POST", "/push/subscriptions", forged, other);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe("not_found");
    expect(await server.db.selectFrom("push_subscriptions").selectAll().where("endpoint", "=", victim.endpoint).execute()).toEqual(before);
    // The owner may still renew it with new keys.
    expect((await api("POST", "/push/subscriptions", { ...subscription(newBrowser("/push/renewed"), "Victim"), endpoint: victim.endpoint })).status).toBe(201);
    expect((await api("DELETE", "/push/subscriptions", { endpoint: victim.endpoint })).body).toEqual({ removed: true });
  });
});

describe("a render notification", () => {
  it("is a Web Push for a finished preview: VAPID-signed, aes128gcm-encrypted, with the storyboard link", async () => {
    const [push] = pushesTo(browser);
    expect(push!.headers["content-encoding"]).toBe("aes128gcm");
    expect(push!.headers.ttl).toBe("86400");
    expect(push!.headers.topic).toBe(`project-${projectId}`);
    verifyVapid(push!);
    expect(decrypt(browser, push!.body)).toEqual({
      title: "Preview ready",
      body: "“Push me” is ready to watch.",
      url: `/projects/${projectId}/storyboard`,
      projectId,
      kind: "preview_ready",
      tag: `project-${projectId}`,
    });
    // The library upload's own project never notifies.
    expect(received).toHaveLength(1);
  });

  it("links a final render to the share view", async () => {
    const before = pushesTo(browser).length;
    await render(true);
    const pushes = pushesTo(browser);
    expect(pushes).toHaveLength(before + 1);
    verifyVapid(pushes.at(-1)!);
    expect(decrypt(browser, pushes.at(-1)!.body)).toMatchObject({ kind: "render_ready", url: `/projects/${projectId}/share`, title: "Render ready", projectId });
  });

  it("is not sent when the user's toggle, the project's toggle or the plan says no", async () => {
    const me = (await api("GET", "/user")).body;
    const count = received.length;
    expect((await api("POST", "/user/settings/notifications/render/0")).body.render_notifications).toBe(0);
    await render(false);
    expect(received).toHaveLength(count);
    await api("POST", "/user/settings/notifications/render/1");

    expect((await api("PUT", `/projects/${projectId}`, { render_notifications: false })).body.render_notifications).toBe(0);
    await render(false);
    expect(received).toHaveLength(count);
    await api("PUT", `/projects/${projectId}`, { render_notifications: true });

    await server.db.updateTable("users").set({ plan_id: "free" }).where("id", "=", me.id).execute();
    await render(false);
    expect(received).toHaveLength(count);
    await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("id", "=", me.id).execute();

    await render(false);
    expect(received).toHaveLength(count + 1);
  });

  it("forgets a subscription the push service calls gone (410), and keeps one that failed for another reason", async () => {
    const gone = newBrowser("/push/gone");
    const flaky = newBrowser("/push/flaky");
    answers.set("/push/gone", 410);
    answers.set("/push/flaky", 500);
    await api("POST", "/push/subscriptions", subscription(gone));
    await api("POST", "/push/subscriptions", subscription(flaky));
    const endpoints = async () => (await server.db.selectFrom("push_subscriptions").select("endpoint").execute()).map((r) => r.endpoint).sort();
    expect(await endpoints()).toEqual([browser.endpoint, flaky.endpoint, gone.endpoint].sort());

    const before = pushesTo(browser).length;
    await render(false);
    expect(pushesTo(gone)).toHaveLength(1);
    expect(pushesTo(flaky)).toHaveLength(1);
    expect(pushesTo(browser)).toHaveLength(before + 1);
    expect(await endpoints()).toEqual([browser.endpoint, flaky.endpoint].sort());
    expect(await projectStatus()).toBe("Preview Ready");
    await api("DELETE", "/push/subscriptions", { endpoint: flaky.endpoint });
  });

  it("tells of a failed render with the storyboard link, and never comes from a library item", async () => {
    const log = { info: () => {}, warn: () => {} };
    const push = createPush({
      db: server.db,
      sender: webPushSender({ vapid: await loadVapidKeys(server.db), subject: "mailto:test@example.com", agent }),
      i18n: loadServerI18n(),
      log,
    });
    const project = await server.db.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirstOrThrow();
    const before = pushesTo(browser).length;
    await push.notifyRender({ ...project, status: "Failed" }, false);
    const pushes = pushesTo(browser);
    expect(pushes).toHaveLength(before + 1);
    expect(decrypt(browser, pushes.at(-1)!.body)).toMatchObject({ kind: "render_failed", url: `/projects/${projectId}/storyboard`, title: "Render failed" });

    const library = await server.db.selectFrom("projects").selectAll().where("type", "=", "library").where("user_id", "=", project.user_id).executeTakeFirstOrThrow();
    await push.notifyRender(library, true);
    expect(pushesTo(browser)).toHaveLength(before + 1);
  });

  it("is written to DATA_DIR/push-outbox/ as JSON when PUSH=outbox", async () => {
    const dir = path.join(certDir, "push-outbox");
    const lines: string[] = [];
    const push = createPush({ db: server.db, sender: outboxPushSender(dir, { info: (_f, m) => void lines.push(m), warn: () => {} }), i18n: loadServerI18n(), log: { info: () => {}, warn: () => {} } });
    const project = await server.db.selectFrom("projects").selectAll().where("id", "=", projectId).executeTakeFirstOrThrow();
    const before = received.length;
    await push.notifyRender({ ...project, final_render: 1 }, true);
    const files = fs.readdirSync(dir);
    expect(files).toHaveLength(1);
    const written = JSON.parse(fs.readFileSync(path.join(dir, files[0]!), "utf8"));
    expect(written).toMatchObject({ endpoint: browser.endpoint, ttlSeconds: 86400, payload: { kind: "render_ready", url: `/projects/${projectId}/share`, projectId } });
    expect(lines).toEqual(["push written to outbox: Render ready"]);
    expect(received).toHaveLength(before);
  });
});
