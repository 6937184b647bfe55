/**
 * Authorisation matrix (issue 12, "Keep every promise as a suite"), generated from the route table in
 * api/routes.ts: two users, each with a real processed project and its scenes, a library item, a media
 * file, an unfinished upload and a push subscription. Every route that takes an id in its path, and
 * every id inside a body, is called by the other user with the victim's ids: 404 (or, for the few calls
 * that filter by owner, an answer without anything of theirs), nothing of theirs in the body, and none
 * of their rows, uploads or stored files changed; anonymous calls answer 401. The tus endpoint (every
 * method) and the signed-file links are included. A route added later with an id parameter or an id in
 * its body fails this suite until it has a fixture below.
 */
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { ErrorBody } from "../../api/errors";
import { API_BASE, buildPath, type RouteDef } from "../../api/route";
import { routes, type RouteName } from "../../api/routes";
import { reportFigures } from "../reliability";
import { bearer, jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";
import { fixtureCatalogue } from "./music-fixtures";

interface Party {
  token: string;
  email: string;
  userId: number;
  /** A processed project and one of its scenes. */
  project: number;
  scene: number;
  /** A media file in the library, its library project and one of that project's scenes. */
  media: number;
  libraryProject: number;
  libraryScene: number;
  mediaName: string;
  projectName: string;
  /** An upload not added to the library. */
  upload: string;
  endpoint: string;
  /** A signed link to the media file's proxy. */
  fileLink: string;
  /** The project's original subtitle set and the key of its line (issue 14). */
  subtitleSet: number;
  subtitleKey: string;
  /** A saved card (issue 16), by its gateway id. */
  paymentMethod: string;
}

/** What a call needs: path parameters, query, body. */
interface Call {
  params?: Record<string, unknown>;
  query?: Record<string, unknown>;
  body?: unknown;
}

interface Fixture {
  /** The call with every id of `owner` (path and body). */
  own: (owner: Party) => Call;
  /** Calls on the attacker's own path with the victim's ids in the body. */
  bodyIds?: (attacker: Party, victim: Party) => Call[];
  /** The service filters by owner instead of refusing: a 2xx without anything of the victim's is right too. */
  filters?: boolean;
  /** The owner's own call may also be a 404 (a render link before any render). */
  ownMay404?: boolean;
  /** The path id names something every user sees (a song): a 2xx without anything of the victim's is right too. */
  sharedPath?: boolean;
}

/** Path parameters that are not ids of anything a user owns. */
// A share token is a link anyone holding it may open (share.test.ts: unknown, revoked, private → 404).
const NOT_ID_PARAMS = new Set(["locale", "value", "line", "position", "order", "type", "token"]);
/** Body fields that name something a user owns. */
const ID_FIELD = /(^|_)ids?$|Ids$|^sceneid$|^media$|^scenes$|^projects$|^media_file$|^endpoint$/;
/** Body fields that look like ids but name nothing a user owns. */
const NOT_OWNED_FIELDS = new Set(["projects.update:bgm_id", "projects.create:bgm_id"]);

/** A song of the catalogue (issue 15): no user's, every user's to list and pick for their own projects. */
let songId = 0;

const FIXTURES: Partial<Record<RouteName, Fixture>> = {
  "bgms.get": { own: () => ({ params: { id: songId } }), sharedPath: true },
  "bgms.pick": {
    own: (p) => ({ params: { id: songId }, body: { project_id: p.project } }),
    bodyIds: (_a, v) => [{ params: { id: songId }, body: { project_id: v.project } }],
  },
  "library.scenes": { own: (p) => ({ params: { id: p.libraryProject } }) },
  "library.searchScenes": { own: (p) => ({ params: { id: p.libraryProject } }) },
  "library.get": { own: (p) => ({ params: { id: p.media } }) },
  "media.waveform": { own: (p) => ({ params: { id: p.media } }) },
  "library.create": {
    own: (p) => ({ body: { media_file: p.upload, name: `own-${randomUUID()}.m4a`, locale: null, process: 0, has_speech: 0 } }),
    bodyIds: (_a, v) => [{ body: { media_file: v.upload, name: `stolen-${randomUUID()}.m4a`, locale: null, process: 0, has_speech: 0 } }],
  },
  "projects.create": {
    own: (p) => ({ body: { name: "Own", locale: "en-US", style: "video", media: [p.media] } }),
    bodyIds: (a, v) => [
      { body: { name: "Theirs", locale: "en-US", style: "video", media: [v.media] } },
      { body: { name: "Mixed", locale: "en-US", style: "video", media: [a.media, v.media] } },
    ],
  },
  "projects.get": { own: (p) => ({ params: { id: p.project } }) },
  "projects.highlights": { own: (p) => ({ params: { id: p.project } }) },
  "projects.update": { own: (p) => ({ params: { id: p.project }, body: { name: "Renamed by owner" } }) },
  "projects.recreateStoryboard": { own: (p) => ({ params: { id: p.project }, body: { autocutsilences: 1, smoothcuts: 1 } }) },
  "projects.resetVolumes": { own: (p) => ({ params: { id: p.project }, query: { autoduck: "1" } }) },
  "projects.delete": { own: (p) => ({ params: { id: p.project } }) },
  "projects.dequeue": { own: (p) => ({ params: { id: p.project } }) },
  "projects.restart": { own: (p) => ({ params: { id: p.project } }) },
  "projects.render": { own: (p) => ({ params: { id: p.project }, body: { final: false } }) },
  "projects.renderRaw": { own: (p) => ({ params: { id: p.project } }) },
  "projects.import": {
    own: (p) => ({ params: { id: p.project }, body: { order: 1, scenes: [p.libraryScene] } }),
    bodyIds: (a, v) => [
      { params: { id: a.project }, body: { order: 1, scenes: [v.libraryScene] } },
      { params: { id: a.project }, body: { order: 1, scenes: [v.scene] } },
      { params: { id: a.project }, body: { order: 1, projects: [v.project] } },
      { params: { id: a.project }, body: { order: 1, projects: [v.libraryProject] } },
    ],
  },
  "projects.importOverlay": {
    own: (p) => ({ params: { id: p.project }, body: { sceneid: p.scene, scenes: [p.libraryScene] } }),
    bodyIds: (a, v) => [
      { params: { id: a.project }, body: { sceneid: a.scene, scenes: [v.libraryScene] } },
      { params: { id: a.project }, body: { sceneid: v.scene, scenes: [a.libraryScene] } },
    ],
  },
  "projects.cuts": {
    own: (p) => ({ params: { id: p.project }, body: { name: "Cuts", scenes: [p.scene] } }),
    bodyIds: (a, v) => [{ params: { id: a.project }, body: { name: "Cuts", scenes: [v.scene] } }],
  },
  "projects.reopen": { own: (p) => ({ params: { id: p.project } }) },
  "projects.share": { own: (p) => ({ params: { id: p.project }, body: { privacy: "public", name: "Shared by owner" } }) },
  "projects.unshare": { own: (p) => ({ params: { id: p.project } }) },
  "projects.timeline": { own: (p) => ({ params: { id: p.project }, query: { format: "fcpxml" } }) },
  "projects.shareYoutube": { own: (p) => ({ params: { id: p.project }, body: { title: "Talk", description: "A talk", privacy: "private" } }) },
  "storyboard.get": {
    own: (p) => ({ params: { id: p.project }, body: {} }),
    bodyIds: (a, v) => [{ params: { id: a.project }, body: { scenesIds: [v.scene, v.libraryScene] } }],
    // Asking for scene ids that are not the project's answers only the project's scenes.
    filters: true,
  },
  "scenes.get": { own: (p) => ({ params: { id: p.scene } }) },
  "scenes.update": { own: (p) => ({ params: { id: p.scene }, body: { crop: true } }) },
  "scenes.removeLines": { own: (p) => ({ params: { id: p.scene } }) },
  "scenes.splitByLine": { own: (p) => ({ params: { id: p.scene, line: 2 } }) },
  "scenes.splitByPosition": { own: (p) => ({ params: { id: p.scene, position: 0.5 } }) },
  "scenes.mergeNext": { own: (p) => ({ params: { id: p.scene } }) },
  "scenes.show": { own: (p) => ({ params: { id: p.scene } }) },
  "scenes.hide": { own: (p) => ({ params: { id: p.scene } }) },
  "scenes.order": { own: (p) => ({ params: { id: p.scene, order: 1 } }) },
  "scenes.typeDefault": { own: (p) => ({ params: { id: p.scene } }) },
  "scenes.type": { own: (p) => ({ params: { id: p.scene, type: "intro" } }) },
  "scenes.trim": { own: (p) => ({ params: { id: p.scene }, body: { trim_start: 0, trim_end: 1 } }) },
  "scenes.removeOverlay": { own: (p) => ({ params: { id: p.scene } }) },
  "scenes.duplicate": { own: (p) => ({ params: { id: p.scene } }) },
  "projects.words": { own: (p) => ({ params: { id: p.project } }) },
  "scenes.cutRange": { own: (p) => ({ params: { id: p.scene }, body: { from: 0, to: 0.5 } }) },
  "subtitles.list": { own: (p) => ({ params: { id: p.project } }) },
  "subtitles.options": { own: (p) => ({ params: { id: p.project } }) },
  "subtitles.translate": { own: (p) => ({ params: { id: p.project }, body: { locale: "es-ES" } }) },
  "subtitles.update": { own: (p) => ({ params: { id: p.subtitleSet }, body: { lines: [{ key: p.subtitleKey, text: "Edited by owner" }] } }) },
  "push.subscribe": {
    own: (p) => ({ body: { endpoint: p.endpoint, keys: { p256dh: "BOr".padEnd(87, "A"), auth: "a".repeat(22) } } }),
    // Subscribing with someone else's endpoint must not take their subscription over.
    bodyIds: (_a, v) => [{ body: { endpoint: v.endpoint, keys: { p256dh: "BOr".padEnd(87, "B"), auth: "b".repeat(22) } } }],
    filters: true,
  },
  "push.unsubscribe": {
    own: (p) => ({ body: { endpoint: p.endpoint } }),
    bodyIds: (_a, v) => [{ body: { endpoint: v.endpoint } }],
    // Forgetting an endpoint that is not yours forgets nothing ({ removed: 0 }).
    filters: true,
  },
  // Cards and subscriptions (issue 16): another user's card neither pays, nor is saved, nor removed.
  "paymentMethods.remove": { own: (p) => ({ params: { id: p.paymentMethod } }) },
  "paymentMethods.add": { own: (p) => ({ body: { payment_method: p.paymentMethod } }), bodyIds: (_a, v) => [{ body: { payment_method: v.paymentMethod } }] },
  "subscription.update": { own: (p) => ({ body: { plan: "starter_month", payment: p.paymentMethod } }), bodyIds: (_a, v) => [{ body: { plan: "starter_month", payment: v.paymentMethod } }] },
  // One project's watermark-free export (issue 16): the project id is in the query; another user's project is a 404 and opens no session.
  "checkout.video": { own: (p) => ({ query: { project: p.project } }), bodyIds: (_a, v) => [{ query: { project: v.project } }] },
};

/** zod object keys, through defaults, optionals and pipes. */
function keysOf(schema: z.ZodType | undefined): string[] {
  let current = schema as unknown as { shape?: Record<string, unknown>; _zod?: { def: { innerType?: unknown; in?: unknown } } } | undefined;
  for (let i = 0; i < 5 && current && !current.shape; i++) current = (current._zod?.def.innerType ?? current._zod?.def.in) as typeof current;
  return current?.shape ? Object.keys(current.shape) : [];
}
const pathParams = (def: RouteDef) => [...def.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
const idParams = (def: RouteDef) => pathParams(def).filter((p) => !NOT_ID_PARAMS.has(p));
const idFields = (name: string, def: RouteDef) => keysOf(def.body).filter((k) => ID_FIELD.test(k) && !NOT_OWNED_FIELDS.has(`${name}:${k}`));

/** Routes outside the contract table that this suite calls explicitly (below). */
const HIDDEN_COVERED = new Set([`${API_BASE}/uploads/*`, `${API_BASE}/projects/:id/downloadrender`, `${API_BASE}/projects/:id/subtitles`, `${API_BASE}/files/*`, `${API_BASE}/user/email/verify/:id`, `${API_BASE}/user/export/:id`, `${API_BASE}/share/:token/:file`,
  // A song's demo file belongs to no user (music.test.ts: catalogue demos are public, MUSIC_DIR ones by signed link).
  `${API_BASE}/bgms/:id/demo`]);

/** Every path the server registered, read from Fastify's route tree. */
function registeredPaths(): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of server.app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^(.*?)[├└]── (.*) \([^)]*\)$/.exec(line);
    if (!match) continue;
    const depth = [...match[1]!].length / 4;
    const parent = depth > 0 ? stack[depth - 1]! : "";
    // The tree prints a wildcard child without its slash.
    const full = parent + (match[2] === "*" && parent && !parent.endsWith("/") ? "/*" : match[2]!);
    stack[depth] = full;
    paths.push(full);
  }
  return paths;
}

let server: TestServer;
let base: string;
let catalogueDir = "";
let attacker: Party;
let victim: Party;
const figures = { routes: 0, calls: 0, denied: 0, filtered: 0, anonymous: 0, leaks: 0, changed: 0, ownerChecks: 0 };
const leaks: string[] = [];

const fixture = (name: string) => path.resolve(__dirname, "../fixtures", name);

async function makeParty(label: string): Promise<Party> {
  const { token, email } = await server.signUp();
  const api = jsonApi(() => base, () => token);
  const userId = (await api("GET", "/user")).body.id as number;
  const projectName = `${label}-project-${randomUUID()}`;
  const project = await processedTalkProject(base, token, projectName);
  const scenes = await server.db.selectFrom("scenes").select("id").where("project_id", "=", project).orderBy("id").execute();
  // A text line on a shown scene, so the project has its original subtitle set (issue 14).
  const shown = await server.db.selectFrom("scenes").select(["id", "trim_start", "trim_end"]).where("project_id", "=", project).where("visibility", "=", 1).orderBy("order").executeTakeFirstOrThrow();
  const lined = await api("PUT", `/scenes/${shown.id}`, { text: [{ start: shown.trim_start, end: shown.trim_end, text: `${label} line` }] });
  expect(lined.status).toBe(200);
  const original = (await api("GET", `/projects/${project}/autosubtitles`)).body.data[0] as { id: number; lines: { key: string }[] };
  // A media file of its own name, with its library project and scenes.
  const mediaName = `${label}-media-${randomUUID()}.m4a`;
  const uploaded = await tusUpload(base, token, fixture("voice.m4a"), { name: mediaName });
  const media = (await api("POST", "/library", { media_file: uploaded.id, name: mediaName, locale: "en-US", has_speech: 1 })).body.media_file;
  const libraryProject = await waitFor(async () => {
    const row = await server.db.selectFrom("projects").select(["id", "status"]).where("library_media_file_id", "=", media.id).executeTakeFirst();
    return row?.status === "Preview Ready" ? row.id : undefined;
  });
  const libraryScene = (await server.db.selectFrom("scenes").select("id").where("project_id", "=", libraryProject).orderBy("id").executeTakeFirstOrThrow()).id;
  const upload = (await tusUpload(base, token, fixture("voice.m4a"), { name: "pending.m4a" })).id;
  const endpoint = `https://push.example.com/${label}-${randomUUID()}`;
  const subscribed = await api("POST", "/push/subscriptions", { endpoint, keys: { p256dh: "BOr".padEnd(87, "C"), auth: "c".repeat(22) } });
  expect(subscribed.status).toBe(201);
  const fileLink = (await api("GET", `/library/${media.id}`)).body.preview_url as string;
  expect(fileLink).toContain("/files/");
  // A card saved through the local gateway, as the card form does (issue 16).
  const intent = (await api("GET", "/user/payment/setupintent")).body.client_secret as string;
  const confirmed = await server.app.inject({ method: "POST", url: "/local-gateway/v1/setup_intents/confirm", payload: { client_secret: intent, card: { number: "4242424242424242", exp_month: 12, exp_year: new Date().getUTCFullYear() + 2, cvc: "123" } } });
  const paymentMethod = (await api("POST", "/user/payment/methods", { payment_method: confirmed.json().payment_method })).body.id as string;
  return { token, email, userId, project, scene: scenes[1]?.id ?? scenes[0]!.id, media: media.id, libraryProject, libraryScene, mediaName, projectName, upload, endpoint, fileLink, subtitleSet: original.id, subtitleKey: original.lines[0]!.key, paymentMethod };
}

/** Every row, upload and stored file of a user, to compare before and after the other user's calls. */
async function snapshotOf(party: Party) {
  const db = server.db;
  const projects = await db.selectFrom("projects").selectAll().where("user_id", "=", party.userId).orderBy("id").execute();
  const projectIds = projects.map((p) => p.id);
  const none = [-1];
  const files: Record<string, string> = {};
  const walk = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.relative(server.dataDir, full)] = createHash("sha256").update(fs.readFileSync(full)).digest("hex");
    }
  };
  walk(path.join(server.dataDir, "store", "media", String(party.userId)));
  walk(path.join(server.dataDir, "store", "projects", String(party.userId)));
  for (const name of fs.readdirSync(path.join(server.dataDir, "uploads"))) {
    if (name.startsWith(`${party.userId}-`)) files[`uploads/${name}`] = createHash("sha256").update(fs.readFileSync(path.join(server.dataDir, "uploads", name))).digest("hex");
  }
  return {
    user: await db.selectFrom("users").selectAll().where("id", "=", party.userId).execute(),
    tokens: await db.selectFrom("api_tokens").selectAll().where("user_id", "=", party.userId).execute(),
    media: await db.selectFrom("media_files").selectAll().where("user_id", "=", party.userId).orderBy("id").execute(),
    projects,
    projectMedia: await db.selectFrom("project_media").selectAll().where("project_id", "in", projectIds.length ? projectIds : none).execute(),
    scenes: await db.selectFrom("scenes").selectAll().where("project_id", "in", projectIds.length ? projectIds : none).orderBy("id").execute(),
    push: await db.selectFrom("push_subscriptions").selectAll().where("user_id", "=", party.userId).execute(),
    subtitleSets: await db.selectFrom("subtitle_sets").selectAll().where("project_id", "in", projectIds.length ? projectIds : none).orderBy("id").execute(),
    handoff: await db.selectFrom("handoff_codes").selectAll().where("user_id", "=", party.userId).execute(),
    paymentMethods: await db.selectFrom("payment_methods").selectAll().where("user_id", "=", party.userId).execute(),
    subscriptions: await db.selectFrom("subscriptions").selectAll().where("user_id", "=", party.userId).execute(),
    files,
  };
}

/** Strings of the victim's that must never appear in the attacker's answers. */
const secretsOf = (p: Party) => [p.email, p.token, p.projectName, p.mediaName, p.upload, p.endpoint, `media/${p.userId}/`, p.fileLink.split("?")[1]!, p.paymentMethod];

function inspect(label: string, status: number, body: string, victimParty: Party, filtered: boolean) {
  figures.calls += 1;
  for (const secret of secretsOf(victimParty)) {
    if (body.includes(secret)) {
      figures.leaks += 1;
      leaks.push(`${label}: answer holds ${secret.slice(0, 40)} (${status})`);
    }
  }
  for (const id of [victimParty.scene, victimParty.libraryScene, victimParty.project, victimParty.libraryProject, victimParty.media]) {
    if (new RegExp(`"id":${id}[,}]`).test(body) && status < 400) {
      figures.leaks += 1;
      leaks.push(`${label}: answer holds the victim's id ${id} (${status})`);
    }
  }
  if (status === 404 || status === 401) {
    let shaped = false;
    try {
      shaped = ErrorBody.safeParse(JSON.parse(body)).success;
    } catch {
      shaped = false;
    }
    if (!shaped) leaks.push(`${label}: ${status} not in the error shape: ${body.slice(0, 200)}`);
    figures.denied += 1;
    return;
  }
  if (filtered && status < 300) {
    figures.filtered += 1;
    return;
  }
  leaks.push(`${label}: answered ${status} ${body.slice(0, 200)}`);
}

const callRoute = (def: RouteDef, call: Call, token: string | undefined) =>
  server.app.inject({
    method: def.method,
    url: API_BASE + buildPath(def.path, call.params as Record<string, unknown>, call.query as Record<string, unknown>),
    headers: { ...(token ? bearer(token) : {}), ...(call.body === undefined ? {} : { "content-type": "application/json" }) },
    payload: call.body === undefined ? undefined : JSON.stringify(call.body),
  });

beforeAll(async () => {
  catalogueDir = fixtureCatalogue();
  server = await startTestServer({ PUSH: "outbox", RATE_LIMIT_UPLOADS: "1000", MUSIC_CATALOGUE_DIR: catalogueDir });
  await server.musicCatalogue.sync();
  songId = (await server.db.selectFrom("songs").select("id").where("available", "=", 1).orderBy("id").executeTakeFirstOrThrow()).id;
  base = await listen(server);
  attacker = await makeParty("attacker");
  victim = await makeParty("victim");
  // Nothing runs in the background from here on: the victim's rows change only if a call changes them.
  await server.queue.stop();
}, 240_000);
afterAll(async () => {
  await server?.close();
  if (catalogueDir) fs.rmSync(catalogueDir, { recursive: true, force: true });
});

describe("authorisation matrix", () => {
  const table = Object.entries(routes) as [RouteName, RouteDef][];

  it("has a fixture for every route with an id in its path or body (new routes are covered or this fails)", () => {
    const missing = table.filter(([name, def]) => (idParams(def).length > 0 || idFields(name, def).length > 0) && !FIXTURES[name]).map(([name]) => name);
    expect(missing).toEqual([]);
    const noBodyIds = table.filter(([name, def]) => idFields(name, def).length > 0 && !FIXTURES[name]?.bodyIds).map(([name]) => name);
    expect(noBodyIds).toEqual([]);
    // Routes registered outside the table with a parameter are covered by the calls below, or this fails.
    expect(registeredPaths()).toEqual(expect.arrayContaining([`${API_BASE}/projects/:id/downloadrender`, `${API_BASE}/scenes/:id/type/:type`, `${API_BASE}/uploads/*`]));
    const inTable = new Set(table.map(([, def]) => API_BASE + def.path));
    const outside = registeredPaths().filter((p) => p.startsWith(API_BASE) && /[:*]/.test(p) && !inTable.has(p) && !HIDDEN_COVERED.has(p));
    expect(outside).toEqual([]);
  });

  it("answers the other user's ids with 404 and nothing of theirs, and changes nothing of theirs", async () => {
    const before = await snapshotOf(victim);
    for (const [name, def] of table) {
      const entry = FIXTURES[name];
      if (!entry) continue;
      figures.routes += 1;
      // Their ids in the path (and in the body): the whole call is theirs.
      if (idParams(def).length) {
        const res = await callRoute(def, entry.own(victim), attacker.token);
        inspect(`${name} with their path id`, res.statusCode, res.body, victim, entry.sharedPath ?? false);
      }
      // Their ids in the body of a call on my own path.
      for (const call of entry.bodyIds?.(attacker, victim) ?? []) {
        const res = await callRoute(def, call, attacker.token);
        inspect(`${name} with their id in the body ${JSON.stringify(call.body)}`, res.statusCode, res.body, victim, entry.filters ?? false);
      }
    }
    // The routes outside the table: tus (every method, and the id behind my prefix), signed files, the render link.
    const tus = (method: string, url: string, token?: string, headers: Record<string, string> = {}) =>
      server.app.inject({ method: method as never, url, headers: { ...(token ? bearer(token) : {}), "tus-resumable": "1.0.0", ...headers }, payload: method === "PATCH" ? Buffer.alloc(16, 1) : undefined });
    const patchHeaders = { "upload-offset": "0", "content-type": "application/offset+octet-stream" };
    for (const url of [`${API_BASE}/uploads/${victim.upload}`, `${API_BASE}/uploads/${attacker.userId}-x/${victim.upload}`, `${API_BASE}/uploads/${attacker.userId}-x?y=/${victim.upload}`]) {
      for (const method of ["HEAD", "GET", "PATCH", "DELETE", "POST"]) {
        const res = await tus(method, url, attacker.token, method === "PATCH" ? patchHeaders : {});
        if (method === "HEAD") {
          figures.calls += 1;
          if (res.statusCode === 404) figures.denied += 1;
          else leaks.push(`tus HEAD ${url}: ${res.statusCode}`);
        } else inspect(`tus ${method} ${url}`, res.statusCode, res.body, victim, false);
      }
    }
    for (const link of ["downloadrender", "subtitles"]) {
      const direct = await server.app.inject({ method: "GET", url: `${API_BASE}/projects/${victim.project}/${link}`, headers: bearer(attacker.token) });
      inspect(`projects.${link} with their id`, direct.statusCode, direct.body, victim, false);
    }
    // My verification link's signature does not verify their address.
    const myLink = new URL(server.mails.filter((m) => m.to === attacker.email).at(-1)!.links![0]!);
    const verify = await server.app.inject({ method: "GET", url: `${API_BASE}/user/email/verify/${victim.userId}${myLink.search}` });
    figures.calls += 1;
    if (verify.statusCode === 303 && verify.headers.location === "/verify-email?status=invalid") figures.denied += 1;
    else leaks.push(`email verify with their id: ${verify.statusCode} ${verify.headers.location}`);
    // Issue 16: my data-export link's signature does not open their zip; without a signature nothing opens.
    const myExport = new URL((await callRoute(routes["user.exportData"], {}, attacker.token)).json().url as string, base);
    for (const url of [`${API_BASE}/user/export/${victim.userId}${myExport.search}`, `${API_BASE}/user/export/${victim.userId}`]) {
      const res = await server.app.inject({ method: "GET", url });
      inspect(`data export ${url.slice(0, 60)}`, res.statusCode, res.body, victim, false);
    }
    // A link signed for my key does not open theirs; a tampered or expired one opens nothing.
    const mine = new URL(attacker.fileLink, base);
    const theirKey = new URL(victim.fileLink, base).pathname;
    const signedLinks = [
      `${theirKey}${mine.search}`,
      `${mine.pathname}${mine.search.replace(/signature=([^&]+)/, (_m, s: string) => `signature=${s.slice(0, -2)}${s.endsWith("aa") ? "bb" : "aa"}`)}`,
      `${mine.pathname}${mine.search.replace(/expires=\d+/, "expires=1")}`,
      `${mine.pathname}`,
    ];
    for (const link of signedLinks) {
      const res = await server.app.inject({ method: "GET", url: link });
      inspect(`signed file ${link.slice(0, 80)}`, res.statusCode, res.body, victim, false);
    }
    // My own link still opens my file: the refusals above are about the key and signature.
    expect((await server.app.inject({ method: "GET", url: `${mine.pathname}${mine.search}` })).statusCode).toBe(200);

    const after = await snapshotOf(victim);
    figures.changed = JSON.stringify(after) === JSON.stringify(before) ? 0 : 1;
    expect(after).toEqual(before);
    expect(leaks).toEqual([]);
  }, 120_000);

  it("answers anonymous calls with 401 (every user route, tus included)", async () => {
    for (const [name, def] of table) {
      if (def.auth !== "user") continue;
      const call = FIXTURES[name]?.own(victim) ?? { params: Object.fromEntries(pathParams(def).map((p) => [p, p === "locale" ? "en" : p === "value" ? "1" : "1"])) };
      const res = await callRoute(def, call, undefined);
      figures.anonymous += 1;
      expect(res.statusCode, name).toBe(401);
      inspect(`${name} anonymous`, res.statusCode, res.body, victim, false);
    }
    for (const method of ["HEAD", "GET", "PATCH", "DELETE", "POST"]) {
      const url = method === "POST" ? `${API_BASE}/uploads` : `${API_BASE}/uploads/${victim.upload}`;
      const res = await server.app.inject({ method: method as never, url, headers: { "tus-resumable": "1.0.0", "upload-length": "10" } });
      figures.anonymous += 1;
      expect(res.statusCode, `tus ${method}`).toBe(401);
    }
    for (const link of ["downloadrender", "subtitles"]) {
      const direct = await server.app.inject({ method: "GET", url: `${API_BASE}/projects/${victim.project}/${link}` });
      expect(direct.statusCode, link).toBe(401);
    }
    expect(leaks).toEqual([]);
  });

  it("lets the owner make the same calls (so the 404s above are about ownership), then reports", async () => {
    // Scene calls before the project calls that rebuild the scenes; destructive calls last.
    const order = (name: string) =>
      name === "projects.delete" || name === "paymentMethods.remove" ? 4 : name === "projects.recreateStoryboard" ? 3 : name === "push.unsubscribe" ? 2 : name.startsWith("scenes.") || name === "storyboard.get" ? 0 : 1;
    const head = await server.app.inject({ method: "HEAD", url: `${API_BASE}/uploads/${victim.upload}`, headers: { ...bearer(victim.token), "tus-resumable": "1.0.0" } });
    expect(head.statusCode).toBe(200);
    const sorted = table.filter(([name]) => FIXTURES[name]).sort(([a], [b]) => order(a) - order(b));
    const refusedOwner: string[] = [];
    for (const [name, def] of sorted) {
      if (!idParams(def).length && !FIXTURES[name]!.bodyIds) continue;
      const res = await callRoute(def, FIXTURES[name]!.own(victim), victim.token);
      figures.ownerChecks += 1;
      if (res.statusCode >= 500 || res.statusCode === 401 || (res.statusCode === 404 && !FIXTURES[name]!.ownMay404)) refusedOwner.push(`${name}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(refusedOwner).toEqual([]);
    const file = await server.app.inject({ method: "GET", url: new URL(victim.fileLink, base).pathname + new URL(victim.fileLink, base).search, headers: bearer(victim.token) });
    expect(file.statusCode).toBe(200);
    // Signed files keep their own caching, even when the request carries a token (issue 12 item 16).
    expect(file.headers["cache-control"]).toMatch(/max-age=\d+/);
    reportFigures("authz-matrix", figures);
    expect(figures.leaks).toBe(0);
  });
});
