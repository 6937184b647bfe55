import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Fastify, { type FastifyRequest } from "fastify";
import { afterAll, beforeAll, expect, it } from "vitest";
import { migrate, type Db } from "../../server/db/index";
import { dropDatabase, openTestDatabase } from "./database";
import { eventRoutes } from "../../server/http/resources/events";
import { createProgressHub } from "../../server/services/progress-hub";

/** Issue 13: a quiet progress stream still sends a comment every heartbeat, so proxies keep it open. */
let dir: string;
let db: Db;
const app = Fastify();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-heartbeat-"));
  db = openTestDatabase(dir);
  await migrate(db);
  const hub = createProgressHub({ db, concurrency: 1 });
  app.addHook("preClose", () => hub.close());
  // The user is whoever the test says (the real route sits behind the bearer check, tested elsewhere).
  eventRoutes(app, { authenticate: async (request: FastifyRequest) => void (request.userId = 1) }, hub, 100);
  await app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await app.close();
  await db.destroy();
  await dropDatabase(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

it("sends its hello, then a keep-alive comment every heartbeat while nothing changes", async () => {
  const { port } = app.server.address() as { port: number };
  const controller = new AbortController();
  const response = await fetch(`http://127.0.0.1:${port}/events`, { signal: controller.signal });
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  expect(response.headers.get("cache-control")).toContain("no-cache");
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  const started = Date.now();
  while ((text.match(/: keep-alive/g) ?? []).length < 3 && Date.now() - started < 5_000) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  expect(text.startsWith('event: hello\ndata: {"heartbeat_ms":100}\n\n')).toBe(true);
  expect((text.match(/: keep-alive\n\n/g) ?? []).length).toBeGreaterThanOrEqual(3);
  expect(Date.now() - started).toBeLessThan(2_000);
  // Nothing busy: no project event was made up.
  expect(text).not.toContain("event: project");
});
