/**
 * Seeding for `bench:storyboard`: a real Cutroom server in this process, one user, one project made
 * by the real pipeline from tests/fixtures/talk.mp4 (so real thumbnails exist), and copies of it with
 * any number of scenes written straight to SQLite — big storyboards without ffmpeg's cost.
 */
import path from "node:path";
import type { Insertable } from "kysely";
import { loadConfig } from "../server/config";
import { createServer, type Server } from "../server/main";
import type { Mail } from "../server/notify/mail";
import type { ScenesTable } from "../server/db/schema";
import { tusUpload } from "../tests/integration/tus";

export const BENCH_PASSWORD = "bench-password";
const TALK = path.resolve("tests/fixtures/talk.mp4");
const POLL_PROJECT_MS = 250;
const PIPELINE_TIMEOUT_MS = 180_000;
/** SQLite caps the bound parameters of one statement; scenes have ~35 columns. */
const INSERT_CHUNK = 200;
/** Every n-th copied scene is hidden, so the list shows removed scenes too. */
const HIDDEN_EVERY = 13;
/** Trims vary in steps of this share of the scene, up to TRIM_STEPS steps from each end. */
const TRIM_STEP_SHARE = 0.04;
const TRIM_STEPS = 4;

export interface BenchServer {
  server: Server;
  base: string;
  email: string;
  token: string;
}

/** Starts the server on a free loopback port, serving the app from `staticDir`; signs up one verified user. */
export async function startBenchServer(dataDir: string, staticDir: string): Promise<BenchServer> {
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: "silent", CAPTCHA: "off", PORT: "0", STATIC_DIR: staticDir, RATE_LIMIT_LOGIN: "1000" });
  const mails: Mail[] = [];
  const server = await createServer(config, { mailer: { send: async (mail) => void mails.push(mail) } });
  try {
    const base = await server.app.listen({ port: 0, host: "127.0.0.1" });
    const email = "storyboard-bench@example.com";
    const register = await server.app.inject({
      method: "POST",
      url: "/api/v1/register",
      payload: { locale: "en", first_name: "Bench", last_name: "Mark", email, password: BENCH_PASSWORD, password_confirmation: BENCH_PASSWORD, terms: true, "g-recaptcha-response": "" },
    });
    if (register.statusCode !== 201) throw new Error(`register failed: ${register.body}`);
    const link = new URL(mails.find((m) => m.to === email)?.links?.[0] ?? "");
    await server.app.inject({ method: "GET", url: link.pathname + link.search });
    const login = await server.app.inject({ method: "POST", url: "/api/v1/user/login", payload: { email, password: BENCH_PASSWORD } });
    const token = login.json().api_token as string | undefined;
    if (!token) throw new Error(`login failed: ${login.body}`);
    return { server, base, email, token };
  } catch (error) {
    await server.close();
    throw error;
  }
}

async function api(bench: BenchServer, method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(`${bench.base}/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${bench.token}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} → ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Uploads the talk over tus and lets the real pipeline make a project of it; answers its id once Preview Ready. */
export async function processedProject(bench: BenchServer): Promise<number> {
  const uploaded = await tusUpload(bench.base, bench.token, TALK, { name: "talk.mp4" });
  const media = await api(bench, "POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 });
  const project = await api(bench, "POST", "/createproject", { name: "Talk", locale: "en-US", style: "video", media: [media.media_file.id] });
  const until = Date.now() + PIPELINE_TIMEOUT_MS;
  for (;;) {
    const p = await api(bench, "GET", `/projects/${project.id}`);
    if (p.status === "Failed") throw new Error(`the pipeline failed: ${p.failure}`);
    if (p.status === "Preview Ready") return project.id as number;
    if (Date.now() > until) throw new Error(`the project was not ready after ${PIPELINE_TIMEOUT_MS / 1000} s (status ${p.status})`);
    await new Promise((resolve) => setTimeout(resolve, POLL_PROJECT_MS));
  }
}

/**
 * A copy of a processed project with exactly `count` main scenes: the source's scenes repeated in
 * orders 1…count, trims varied, every HIDDEN_EVERY-th hidden, all on the same file and thumbnail.
 */
export async function copyProject(bench: BenchServer, sourceId: number, count: number, name: string): Promise<number> {
  const { db } = bench.server;
  return db.transaction().execute(async (trx) => {
    const { id: _id, ...project } = await trx.selectFrom("projects").selectAll().where("id", "=", sourceId).executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    const inserted = await trx
      .insertInto("projects")
      .values({ ...project, name, scenes_count: count, created_at: now, updated_at: now })
      .returning("id")
      .executeTakeFirstOrThrow();
    const projectId = inserted.id;
    const media = await trx.selectFrom("project_media").selectAll().where("project_id", "=", sourceId).execute();
    if (media.length) await trx.insertInto("project_media").values(media.map((m) => ({ ...m, project_id: projectId }))).execute();

    const sources = await trx.selectFrom("scenes").selectAll().where("project_id", "=", sourceId).where("parent_scene_id", "is", null).orderBy("order").execute();
    if (!sources.length) throw new Error(`project ${sourceId} has no scenes to copy`);
    const rows: Insertable<ScenesTable>[] = [];
    for (let order = 1; order <= count; order++) {
      const { id: _sceneId, ...s } = sources[(order - 1) % sources.length]!;
      const span = s.trim_end_default - s.trim_start_default;
      const step = span * TRIM_STEP_SHARE;
      const trimStart = s.trim_start_default + (order % TRIM_STEPS) * step;
      const trimEnd = s.trim_end_default - ((order >> 2) % TRIM_STEPS) * step;
      rows.push({
        ...s,
        project_id: projectId,
        order,
        visibility: order % HIDDEN_EVERY === 0 ? 0 : 1,
        trim_start: Math.min(trimStart, trimEnd),
        trim_end: Math.max(trimStart, trimEnd),
        created_at: now,
        updated_at: now,
      });
    }
    for (let i = 0; i < rows.length; i += INSERT_CHUNK) await trx.insertInto("scenes").values(rows.slice(i, i + INSERT_CHUNK)).execute();
    return projectId;
  });
}
