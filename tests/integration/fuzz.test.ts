/**
 * Fuzzing (issue 12, "Keep every promise as a suite"): thousands of generated requests over every route
 * of the contract, the hidden routes and the tus endpoint — wrong types, huge and deep bodies, unicode,
 * ±huge numbers, NaN-ish strings, missing and extra fields, lying content types, odd headers and
 * methods, malformed JSON and %-escapes, over-long path parameters — through `app.inject`, then a few
 * hundred over real HTTP and raw sockets for Node's parser. No answer may be a 5xx, every error body is
 * `{ message, code, fields? }`, and the server still answers afterwards.
 *
 * The seed is printed; FUZZ_SEED=<n> replays a run. CUTROOM_SOAK=1 runs ~50,000 requests.
 */
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { ErrorBody } from "../../api/errors";
import { API_BASE, type RouteDef } from "../../api/route";
import { routes } from "../../api/routes";
import { issueToken } from "../../server/db/tokens";
import { reportFigures, seededRandom, soakOr } from "../reliability";
import { bearer, jsonApi, listen, processedTalkProject, startTestServer, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const INJECTED = soakOr(10_000, 50_000);
const OVER_HTTP = soakOr(300, 1_500);
const RAW_SOCKETS = soakOr(120, 600);

const rand = seededRandom(SEED);

let server: TestServer;
let base: string;
const ids = { projects: [] as number[], media: [] as number[], scenes: [] as number[], uploads: [] as string[], users: [] as number[] };
let tokenA: string;
let tokenB: string;

const WEIRD_STRINGS = [
  "", " ", "a", "NaN", "nan", "Infinity", "-Infinity", "-0", "0x1F", "1e309", "-1e309", "1e-400", " 12 ", "12abc", "007", "true", "false", "null",
  "undefined", "[]", "{}", "[object Object]", "__proto__", "constructor", "😀", "👩‍👩‍👧‍👦", "\u0000", "\ud800", "\uffff", "مرحبا", "שלום", "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǵ̩̯̿o",
  "<script>alert(1)</script>", "' OR 1=1 --", "\"; DROP TABLE users; --", "../../etc/passwd", "..%2f..%2f", "%00", "%", "%zz", "\r\nX-Injected: 1",
  "en", "pt-BR", "en-US", "video", "audio", "image", "scenes", "intro", "outro", "main", "library", "16x9", "9x16", "1", "0", "-1", "99999999999999999999999",
];
const WEIRD_NUMBERS = [0, -0, 1, -1, 2, 1.5, -1.5, 0.1, 35, 36, 60, 61, 100, 101, 200, 201, 2 ** 31, -(2 ** 31), 2 ** 53, -(2 ** 53), 2 ** 64, 1e308, -1e308, Number.MIN_VALUE, Number.EPSILON];

function someId(): unknown {
  const pool = [...ids.projects, ...ids.media, ...ids.scenes];
  return rand.chance(0.6) && pool.length ? rand.pick(pool) : rand.pick(WEIRD_NUMBERS);
}

function anyValue(depth = 0): unknown {
  const roll = rand.int(100);
  if (roll < 22) return rand.pick(WEIRD_STRINGS);
  if (roll < 40) return rand.pick(WEIRD_NUMBERS);
  if (roll < 50) return someId();
  if (roll < 55) return rand.chance(0.5);
  if (roll < 60) return null;
  if (roll < 63) return "x".repeat(rand.pick([36, 141, 256, 2049, 70_000]));
  if (roll < 66) return rand.pick(WEIRD_STRINGS).repeat(rand.int(50) + 1);
  if (depth > 3) return rand.pick(WEIRD_STRINGS);
  if (roll < 80) return Array.from({ length: rand.pick([0, 1, 2, 3, 5, 201]) }, () => (rand.chance(0.5) ? someId() : anyValue(depth + 1)));
  if (roll < 95) {
    const object: Record<string, unknown> = {};
    for (let i = rand.int(4); i > 0; i--) object[rand.pick(["a", "id", "__proto__", "constructor", "scenesIds", "ids", "media", "line", "text", "value", rand.pick(WEIRD_STRINGS)])] = anyValue(depth + 1);
    return object;
  }
  return rand.pick([{}, [], [[]], { "": "" }]);
}

/** Any generated value as text ({__proto__: …} objects have no toString). */
const text = (value: unknown): string => {
  try {
    return String(value);
  } catch {
    return JSON.stringify(value) ?? "";
  }
};
/** encodeURIComponent, but a lone surrogate becomes the invalid escape it would be on the wire. */
const encode = (value: unknown): string => {
  try {
    return encodeURIComponent(text(value));
  } catch {
    return "%ED%A0%80";
  }
};

/** Keys of a zod object schema (the body or query of a route), if it is one. */
function keysOf(schema: z.ZodType | undefined): string[] {
  const shape = (schema as unknown as { shape?: Record<string, unknown> } | undefined)?.shape;
  return shape ? Object.keys(shape) : [];
}

const deepJson = (depth: number) => (rand.chance(0.5) ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth));

interface Generated {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  kind: string;
}

const pickId = (pool: number[]) => (pool.length && rand.chance(0.8) ? rand.pick(pool) : (rand.pick(WEIRD_NUMBERS) as number));
const idList = (pool: number[]) => Array.from({ length: rand.pick([1, 1, 2, 3]) }, () => pickId(pool));

/** A valid body per route, so one mutated field at a time reaches the services (repeated ids included). */
const SAMPLES: Record<string, () => Record<string, unknown>> = {
  "user.register": () => ({ locale: "en", first_name: "A", last_name: "B", email: `f${rand.int(1e9)}@example.com`, password: "secret123", password_confirmation: "secret123", terms: true, "g-recaptcha-response": "" }),
  "user.login": () => ({ email: "nobody@example.com", password: "wrong-password" }),
  "user.update": () => ({ first_name: "Ana", last_name: "Silva", locale: "en", render_notifications: 1 }),
  "user.rename": () => ({ first_name: "Ana", last_name: "Silva" }),
  "handoff.exchange": () => ({ code: "x".repeat(43) }),
  "library.create": () => ({ media_file: rand.pick(ids.uploads), name: `f${rand.int(1e6)}.m4a`, locale: "en-US", process: 1, has_speech: 1, role: "main" }),
  "projects.create": () => ({ name: "P", locale: "en-US", style: "video", media: idList(ids.media) }),
  "projects.update": () => ({ name: "Renamed", autobgm: 0, mute_videos: true }),
  "projects.recreateStoryboard": () => ({ autocutsilences: 1, smoothcuts: 0 }),
  "projects.render": () => ({ final: rand.chance(0.5), tier: 2, exportvideo: 1, aspect: "16x9" }),
  "projects.import": () => ({ order: 1, scenes: idList(ids.scenes), projects: rand.chance(0.3) ? idList(ids.projects) : [] }),
  "projects.importOverlay": () => ({ sceneid: pickId(ids.scenes), scenes: [pickId(ids.scenes)], overscene_type: "pip_br" }),
  "projects.cuts": () => ({ name: "Cuts", final: 1, scenes: idList(ids.scenes), aspect: "", autocrop: 1 }),
  "storyboard.get": () => ({ scenesIds: idList(ids.scenes) }),
  "scenes.update": () => ({ text: [], mediaAudio: undefined, crop: true }),
  "scenes.trim": () => ({ trim_start: rand.pick([0, 0.5, 1, -1, 1e9]), trim_end: rand.pick([1, 2, 0, 1e9]) }),
  "push.subscribe": () => ({ endpoint: "https://push.example.com/x", keys: { p256dh: "a".repeat(87), auth: "b".repeat(22) } }),
  "push.unsubscribe": () => ({ endpoint: "https://push.example.com/x" }),
};

/** A JSON-ish body for a route: its own fields with odd values, some missing, some extra; or something else entirely. */
function bodyFor(def: RouteDef | undefined, name?: string): { payload?: string | Buffer; contentType?: string; kind: string } {
  const roll = rand.int(100);
  const sample = name ? SAMPLES[name] : undefined;
  if (sample && roll < 30) {
    const object = sample();
    const keys = Object.keys(object);
    // 0, 1 or 2 fields changed: missing, odd, or an id of someone else.
    for (let n = rand.int(3); n > 0 && keys.length; n--) {
      const key = rand.pick(keys);
      if (rand.chance(0.2)) delete object[key];
      else object[key] = rand.chance(0.5) ? anyValue() : someId();
    }
    return { payload: JSON.stringify(object), contentType: "application/json", kind: "sample" };
  }
  if (roll < 55) {
    const object: Record<string, unknown> = {};
    for (const key of keysOf(def?.body)) if (!rand.chance(0.2)) object[key] = anyValue();
    if (rand.chance(0.3)) object[rand.pick(["extra", "id", "user_id", "__proto__", "admin", rand.pick(WEIRD_STRINGS)])] = anyValue();
    return { payload: JSON.stringify(object), contentType: "application/json", kind: "fields" };
  }
  if (roll < 65) return { payload: JSON.stringify(anyValue()), contentType: "application/json", kind: "json-value" };
  if (roll < 75) {
    const broken = rand.pick(['{"a":', "{'a':1}", "{a:1}", "[1,2", '{"a":1}}', "\u0000", "NaN", '{"a":NaN}', '{"a":Infinity}', '{"a":1e999}', '"\\ud800"', "{\"a\":\"\\x\"}", ",", "{}garbage", "\ufeff{}"]);
    return { payload: broken, contentType: "application/json", kind: "malformed-json" };
  }
  if (roll < 80) return { payload: deepJson(rand.pick([100, 1_000, 10_000, 100_000])), contentType: "application/json", kind: "deep" };
  if (roll < 82) return { payload: JSON.stringify({ [keysOf(def?.body)[0] ?? "a"]: "x".repeat(1_100_000) }), contentType: "application/json", kind: "huge" };
  if (roll < 92) {
    const object: Record<string, unknown> = {};
    for (const key of keysOf(def?.body)) object[key] = anyValue();
    const lie = rand.pick(["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=zz", "application/json; charset=utf-16", "application/octet-stream", "application/offset+octet-stream", "image/png", "application/json, text/plain", "application/jsonp", ";;;", "application/json; charset=latin1"]);
    return { payload: JSON.stringify(object), contentType: lie, kind: "content-type-lie" };
  }
  if (roll < 96) return { payload: Buffer.from(Array.from({ length: rand.int(512) }, () => rand.int(256))), contentType: rand.pick(["application/json", "text/plain", ""]), kind: "bytes" };
  return { kind: "no-body" };
}

/** A path parameter: a real id, an odd number, an odd string, an over-long one, or a bad escape. */
function paramValue(): string {
  const roll = rand.int(100);
  if (roll < 40) return text(someId());
  if (roll < 60) return encode(rand.pick(WEIRD_STRINGS)) || "x";
  if (roll < 70) return rand.pick(["%zz", "%", "%E0%A4%A", "%C0%AF", "%2e%2e", "%00", "..", "."]);
  if (roll < 80) return "9".repeat(rand.pick([20, 99, 100, 101, 300, 5000]));
  if (roll < 90) return text(rand.pick(WEIRD_NUMBERS));
  return encode(anyValue()) || "x";
}

function queryFor(def: RouteDef | undefined): string {
  const parts: string[] = [];
  for (const key of keysOf(def?.query)) if (rand.chance(0.7)) parts.push(`${key}=${encode(anyValue())}`);
  if (rand.chance(0.15)) parts.push(rand.pick(["page=1&page=2", "a[b]=1", "%%%", "x=%zz", "=", "&&", "count=1", `q=${"z".repeat(5000)}`, "__proto__[x]=1", "expires=1&signature=abc"]));
  return parts.length ? `?${parts.join("&")}` : "";
}

const ODD_METHODS = ["GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "HEAD", "PROPFIND", "TRACE", "SEARCH", "PURGE", "LOCK", "MKCOL", "COPY"];

function authHeader(): Record<string, string> {
  const roll = rand.int(100);
  if (roll < 80) return bearer(tokenA);
  if (roll < 86) return bearer(tokenB);
  if (roll < 92) return {};
  return { authorization: rand.pick(["Bearer ", "Bearer", "Basic abc", `Bearer ${"a".repeat(5000)}`, "bearer x y", `Bearer ${tokenA}x`, "Bearer \u00ff"]) };
}

function oddHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  if (rand.chance(0.08)) headers["idempotency-key"] = rand.pick(["", " ", "k", "x".repeat(256), "😀", `key-${rand.int(5)}`]);
  if (rand.chance(0.04)) headers["x-huge"] = "h".repeat(rand.pick([1_000, 8_000]));
  if (rand.chance(0.04)) headers["accept-language"] = rand.pick(WEIRD_STRINGS);
  if (rand.chance(0.03)) headers["x-cutroom-owner"] = String(rand.pick([1, 2, 999]));
  if (rand.chance(0.03)) headers["content-length"] = String(rand.pick([0, 1, 999999]));
  if (rand.chance(0.03)) headers["transfer-encoding"] = "chunked";
  return headers;
}

const routeList = Object.entries(routes) as [string, RouteDef][];
/** Routes outside the contract table, and the tus endpoint. */
const HIDDEN = ["/files/*", "/projects/:id/downloadrender", "/user/email/verify/:id", "/uploads", "/uploads/:upload", "/nope/:id"] as const;

function generate(): Generated {
  const roll = rand.int(100);
  if (roll < 12) return generateTus();
  let def: RouteDef | undefined;
  let name: string | undefined;
  let template: string;
  let method: string;
  if (roll < 90) {
    [name, def] = rand.pick(routeList);
    template = def.path;
    method = rand.chance(0.88) ? def.method : rand.pick(ODD_METHODS);
  } else {
    template = rand.pick(HIDDEN.filter((h) => !h.startsWith("/uploads")));
    method = rand.chance(0.8) ? "GET" : rand.pick(ODD_METHODS);
  }
  let url = API_BASE + template.replace(/:([A-Za-z_]+)/g, () => paramValue()).replace("*", () => rand.pick(["media/1/1/proxy.mp4", "../../etc/passwd", "%2e%2e/x", "a".repeat(300), text(someId())]));
  url += queryFor(def);
  if (template === "/files/*" && rand.chance(0.5)) url += `${url.includes("?") ? "&" : "?"}expires=${rand.pick([0, 9999999999, -1, "x"])}&signature=${rand.pick(["", "abc", "0".repeat(64), "%zz"])}`;
  const headers: Record<string, string> = { ...authHeader(), ...oddHeaders() };
  let payload: string | Buffer | undefined;
  let kind = "no-body";
  if (method !== "GET" && method !== "HEAD" && (def?.body || rand.chance(0.3))) {
    const body = bodyFor(def, name);
    payload = body.payload;
    kind = body.kind;
    if (body.contentType !== undefined) headers["content-type"] = body.contentType;
  }
  return { method, url, headers, payload, kind };
}

function generateTus(): Generated {
  const method = rand.pick(["POST", "POST", "HEAD", "PATCH", "PATCH", "DELETE", "GET", "OPTIONS", "PUT"]);
  const id = rand.pick([...ids.uploads, `${ids.users[0]}-x`, "abc", "%zz", `${ids.users[0]}-00000000-0000-4000-8000-000000000000`, "1".repeat(300), `${ids.users[0]}-x/${ids.uploads.at(-1)}`]);
  const url = `${API_BASE}/uploads${method === "POST" && rand.chance(0.85) ? "" : `/${id}`}${rand.chance(0.1) ? rand.pick(["?a=/b", `?y=/${ids.uploads[0]}`, "?%zz"]) : ""}`;
  const headers: Record<string, string> = { ...authHeader() };
  if (rand.chance(0.9)) headers["tus-resumable"] = rand.pick(["1.0.0", "1.0.0", "0.2.2", "", "x"]);
  if (rand.chance(0.7)) headers["upload-length"] = String(rand.pick([0, 1, 10, 100, 1024, -1, 2 ** 53, 1e21, "abc", "", "1.5", " 10"]));
  if (rand.chance(0.2)) headers["upload-defer-length"] = String(rand.pick([1, 0, "x"]));
  if (rand.chance(0.5)) headers["upload-offset"] = String(rand.pick([0, 0, 1, 5, -1, "x", 2 ** 53]));
  if (rand.chance(0.3)) headers["upload-metadata"] = rand.pick(["filename ZmlsZS5tcDQ=", "filename", "x !!!", "a YQ==,a YQ==", ",", "filename ZmlsZS5tcDQ=,filetype dmlkZW8vbXA0"]);
  if (rand.chance(0.1)) headers["upload-concat"] = rand.pick(["partial", "final;a b"]);
  if (rand.chance(0.1)) headers["upload-checksum"] = rand.pick(["sha1 abc", "md5 x", "x"]);
  if (rand.chance(0.7)) headers["content-type"] = rand.pick(["application/offset+octet-stream", "application/offset+octet-stream", "application/json", "text/plain"]);
  const payload = ["PATCH", "POST", "PUT"].includes(method) && rand.chance(0.7) ? Buffer.alloc(rand.pick([0, 1, 5, 10, 100, 2000]), rand.int(256)) : undefined;
  return { method, url, headers, payload, kind: "tus" };
}

interface Figures {
  requests: number;
  byStatus: Record<string, number>;
  fivexx: string[];
  badShape: string[];
  /** JSON answers of the API without Cache-Control: no-store. */
  cached: string[];
}
const figures: Figures = { requests: 0, byStatus: {}, fivexx: [], badShape: [], cached: [] };

/** Checks one answer: never 5xx, every error in the one shape. */
function check(request: Generated | string, status: number, contentType: string | undefined, body: string, method: string, cacheControl?: string) {
  figures.requests += 1;
  const bucket = `${Math.floor(status / 100)}xx`;
  figures.byStatus[status] = (figures.byStatus[status] ?? 0) + 1;
  figures.byStatus[bucket] = (figures.byStatus[bucket] ?? 0) + 1;
  const describe = typeof request === "string" ? request : `${request.method} ${request.url.slice(0, 200)} [${request.kind}] ${JSON.stringify(request.headers).slice(0, 200)} ${text(request.payload ?? "").slice(0, 200)}`;
  if (typeof request !== "string" && (contentType ?? "").startsWith("application/json") && cacheControl !== "no-store") {
    figures.cached.push(`${status} ${describe} → cache-control ${cacheControl}`);
  }
  if (status >= 500) figures.fivexx.push(`${status} ${describe} → ${body.slice(0, 300)}`);
  if (status >= 400 && method !== "HEAD") {
    let ok = false;
    try {
      ok = (contentType ?? "").startsWith("application/json") && ErrorBody.safeParse(JSON.parse(body)).success;
    } catch {
      ok = false;
    }
    if (!ok) figures.badShape.push(`${status} ${describe} → ${contentType} ${body.slice(0, 300)}`);
  }
}

beforeAll(async () => {
  console.log(`[fuzz] seed=${SEED} (FUZZ_SEED=${SEED} replays this run)`);
  server = await startTestServer({ RATE_LIMIT_UPLOADS: "1000000" });
  base = await listen(server);
  const a = await server.signUp();
  const b = await server.signUp();
  tokenA = a.token;
  tokenB = b.token;
  const api = jsonApi(() => base, () => tokenA);
  for (const token of [tokenA, tokenB]) {
    ids.users.push((await api("GET", "/user", undefined, token)).body.id);
    // A processed project with scenes, so scene and storyboard calls reach real rows.
    await processedTalkProject(base, token, "Processed");
    const uploaded = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/voice.m4a"), { name: "voice.m4a" });
    const media = (await api("POST", "/library", { media_file: uploaded.id, name: "voice.m4a", locale: "en-US", has_speech: 1 }, token)).body.media_file;
    ids.media.push(media.id);
    const project = await api("POST", "/createproject", { name: "Fuzzed", locale: "en-US", style: "video", media: [media.id] }, token);
    ids.projects.push(project.body.id);
    const pending = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/voice.m4a"), { name: "pending.m4a" });
    ids.uploads.push(pending.id);
  }
  // Fuzzed calls queue work; nothing runs it, so the run stays fast and only the HTTP layer is measured.
  await server.queue.stop();
  const scenes = await server.db.selectFrom("scenes").select("id").execute();
  ids.scenes.push(...scenes.map((s) => s.id));
  ids.projects.push(...(await server.db.selectFrom("projects").select("id").execute()).map((p) => p.id));
}, 240_000);
afterAll(async () => {
  await server?.close();
});

describe("fuzzing every route", () => {
  it(`answers ${INJECTED} generated requests (inject) without a 5xx, every error in the one shape`, async () => {
    for (let answered = 0; answered < INJECTED; ) {
      const request = generate();
      // Signing out revokes the token used: that call gets a token of its own.
      if (request.url.split("?")[0] === `${API_BASE}/user/logout` && request.headers.authorization === `Bearer ${tokenA}`) {
        request.headers.authorization = `Bearer ${await issueToken(server.db, ids.users[0]!)}`;
      }
      let res;
      try {
        res = await server.app.inject({ method: request.method as never, url: request.url, headers: request.headers, payload: request.payload });
      } catch (error) {
        // light-my-request refuses some requests before the server sees them (invalid header values).
        figures.byStatus.refusedByClient = (figures.byStatus.refusedByClient ?? 0) + 1;
        continue;
      }
      check(request, res.statusCode, res.headers["content-type"] as string | undefined, res.body, request.method, res.headers["cache-control"] as string | undefined);
      answered += 1;
    }
    console.log(`[fuzz] inject: ${JSON.stringify(figures.byStatus)}`);
    expect(figures.fivexx.slice(0, 10), `seed ${SEED}`).toEqual([]);
    expect(figures.badShape.slice(0, 10), `seed ${SEED}`).toEqual([]);
    expect(figures.cached.slice(0, 10), `seed ${SEED}`).toEqual([]);
  }, 240_000);

  it(`answers ${OVER_HTTP} requests over real HTTP the same way`, async () => {
    for (let i = 0; i < OVER_HTTP; i++) {
      const request = generate();
      if (request.url.split("?")[0] === `${API_BASE}/user/logout`) request.headers.authorization = `Bearer ${await issueToken(server.db, ids.users[0]!)}`;
      delete request.headers["content-length"];
      delete request.headers["transfer-encoding"];
      let res: Response;
      try {
        res = await fetch(`${base}${request.url}`, { method: request.method, headers: request.headers, body: ["GET", "HEAD"].includes(request.method) ? undefined : (request.payload as never) });
      } catch {
        figures.byStatus.refusedByClient = (figures.byStatus.refusedByClient ?? 0) + 1;
        continue;
      }
      check(request, res.status, res.headers.get("content-type") ?? undefined, await res.text(), request.method, res.headers.get("cache-control") ?? undefined);
    }
    expect(figures.fivexx.slice(0, 10), `seed ${SEED}`).toEqual([]);
    expect(figures.badShape.slice(0, 10), `seed ${SEED}`).toEqual([]);
    expect(figures.cached.slice(0, 10), `seed ${SEED}`).toEqual([]);
  }, 120_000);

  it(`answers ${RAW_SOCKETS} malformed requests on raw sockets with a JSON 4xx (or closes)`, async () => {
    const { port } = new URL(base);
    const target = () => rand.pick(["/api/v1/user", "/api/v1/projects/1", "/api/v1/uploads", "/", "/api/v1/%zz", `/api/v1/projects/${"9".repeat(200)}`]);
    const malformed = (): string | Buffer => {
      const t = target();
      const json = JSON.stringify({ first_name: "A", last_name: "B", email: "a@b.c", password: "x" });
      switch (rand.int(19)) {
        case 14: return `PUT /api/v1/user/rename HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokenA}\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\nIdempotency-Key: a\r\nIdempotency-Key: b\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`;
        case 15: return `GET /api/v1/user HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokenA}\r\nAuthorization: Bearer ${tokenB}\r\nConnection: close\r\n\r\n`;
        case 16: return `${rand.pick(["PROPFIND", "TRACE", "FOO", "CONNECT", "M-SEARCH", "PRI"])} ${t} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokenA}\r\nConnection: close\r\n\r\n`;
        case 17: return `POST /api/v1/user/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(json) + 10}\r\nConnection: close\r\n\r\n${json}`;
        case 18: return `POST ${API_BASE}/uploads HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokenA}\r\nTus-Resumable: 1.0.0\r\nUpload-Length: 10\r\nUpload-Length: 20\r\nConnection: close\r\n\r\n`;
        case 0: return "GARBAGE\r\n\r\n";
        case 1: return `GET ${t} HTTP/1.1 extra\r\nHost: x\r\n\r\n`;
        case 2: return Buffer.concat([Buffer.from(Array.from({ length: 64 }, () => rand.int(256))), Buffer.from("\r\n\r\n")]);
        case 3: return `GET ${t} HTTP/1.1\r\nHost x\r\n\r\n`;
        case 4: return `GET ${t} HTTP/1.1\r\nHost: x\r\nX-\u0001: a\r\n\r\n`;
        case 5: return `POST ${t} HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`;
        case 6: return `POST ${t} HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n`;
        case 7: return `POST ${t} HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n`;
        case 8: return `POST ${t} HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab`;
        case 9: return `GET ${t} HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(rand.pick([17_000, 70_000]))}\r\n\r\n`;
        case 10: return `GET /${"u".repeat(rand.pick([20_000, 90_000]))} HTTP/1.1\r\nHost: x\r\n\r\n`;
        case 11: return `get ${t} HTTP/1.1\r\nHost: x\r\n\r\n`;
        case 12: return `GET ${t} HTTP/7.7\r\nHost: x\r\n\r\n`;
        default: return `GET ${t}\u0000 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tokenA}\r\n\r\n`;
      }
    };
    let closedWithoutAnswer = 0;
    for (let i = 0; i < RAW_SOCKETS; i++) {
      const raw = malformed();
      const answer = await new Promise<Buffer>((resolve) => {
        const chunks: Buffer[] = [];
        const socket = net.connect(Number(port), "127.0.0.1", () => socket.end(raw));
        socket.on("data", (chunk) => chunks.push(chunk));
        socket.on("close", () => resolve(Buffer.concat(chunks)));
        socket.on("error", () => undefined);
        socket.setTimeout(3000, () => socket.destroy());
      });
      const text = answer.toString("latin1");
      if (!text) {
        closedWithoutAnswer += 1;
        continue;
      }
      const [head = "", ...rest] = text.split("\r\n\r\n");
      const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0);
      const contentType = /\r\ncontent-type: ([^\r\n]+)/i.exec(head)?.[1];
      const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? NaN);
      const body = Buffer.from(rest.join("\r\n\r\n"), "latin1").subarray(0, Number.isFinite(length) ? length : undefined).toString("utf8");
      check(`raw ${JSON.stringify(String(raw).slice(0, 120))}`, status || 599, contentType, body, "RAW");
    }
    figures.byStatus.closedWithoutAnswer = closedWithoutAnswer;
    expect(figures.fivexx.slice(0, 10), `seed ${SEED}`).toEqual([]);
    expect(figures.badShape.slice(0, 10), `seed ${SEED}`).toEqual([]);
  }, 120_000);

  it("still answers afterwards, and reports its figures", async () => {
    const res = await fetch(`${base}/api/v1/user`, { headers: bearer(tokenA) });
    expect(res.status).toBe(200);
    const counts = Object.fromEntries(Object.entries(figures.byStatus).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [`status_${k}`, v]));
    reportFigures("fuzz", { seed: SEED, requests: figures.requests, fivexx: figures.fivexx.length, badShape: figures.badShape.length, notNoStore: figures.cached.length, routes: routeList.length + HIDDEN.length, ...counts });
    expect(figures.requests).toBeGreaterThanOrEqual(INJECTED);
  });
});
