import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { waitFor } from "./helpers";
import { spawnServer } from "./server-process";
import { tusUpload } from "./tus";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-resume-"));
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
const children: ChildProcess[] = [];

/** A real server process (one node process, so killing its PID kills the runner). */
function startServer(): ChildProcess {
  const child = spawnServer({ port, dataDir, env: { JOB_LEASE_MS: "2000" } });
  children.push(child);
  return child;
}

const up = () => waitFor(async () => (await fetch(`${base}/api/v1/config`).then((r) => r.ok).catch(() => false)) || undefined, 30_000);
const json = async (res: Response) => res.json() as Promise<any>;
const post = (url: string, body: unknown, token?: string) =>
  fetch(`${base}/api/v1${url}`, { method: "POST", headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

afterAll(() => {
  for (const child of children) child.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("a killed runner", () => {
  it("leaves its job to the next start, which finishes the project", async () => {
    const first = startServer();
    await up();
    const email = "resume@example.com";
    const password = "secret123";
    await post("/register", { locale: "en", first_name: "Kay", last_name: "Lee", email, password, password_confirmation: password, terms: true });
    const outbox = path.join(dataDir, "outbox");
    const mail = JSON.parse(fs.readFileSync(path.join(outbox, fs.readdirSync(outbox)[0]!), "utf8"));
    await fetch(mail.links[0].replace(/^http:\/\/localhost:\d+/, base), { redirect: "manual" });
    const token = (await json(await post("/user/login", { email, password }))).api_token as string;

    const uploaded = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/talk.mp4"), { name: "talk.mp4" });
    const media = await json(await post("/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 }, token));
    const project = await json(await post("/createproject", { name: "Survives", locale: "en-US", style: "video", media: [media.media_file.id] }, token));
    const get = async () => json(await fetch(`${base}/api/v1/projects/${project.id}`, { headers: { authorization: `Bearer ${token}` } }));

    // Kill it mid-work: no goodbye, the lease is simply never renewed.
    await waitFor(async () => ((await get()).status === "Working" ? true : undefined), 30_000, 50);
    first.kill("SIGKILL");
    await new Promise((resolve) => first.once("exit", resolve));

    startServer();
    await up();
    const done = await waitFor(async () => {
      const p = await get();
      if (p.status === "Failed") throw new Error(p.failure);
      return p.status === "Preview Ready" ? p : undefined;
    }, 90_000);
    expect(done.scenes_count).toBeGreaterThan(1);
    expect(done.export_url).toBeTruthy();
  });
});
