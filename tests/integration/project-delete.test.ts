import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";

/** Issue 12 item 8: a deleted project's renders leave the disk and its signed links stop serving them. */

let server: TestServer;
let base: string;
let token: string;
const api = jsonApi(() => base, () => token);

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
});
afterAll(() => server.close());

const filesUnder = (dir: string): string[] =>
  fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(path.join(dir, e.name)) : [path.join(dir, e.name)])) : [];

describe("a project's render folder", () => {
  it("keeps only the render the project links to: one a killed render finished but never recorded goes", async () => {
    token = (await server.signUp()).token;
    const projectId = await processedTalkProject(base, token, "Killed after rename");
    const row = await server.db.selectFrom("projects").select(["user_id", "export_key"]).where("id", "=", projectId).executeTakeFirstOrThrow();
    const folder = path.join(server.config.storeDir, "projects", String(row.user_id), String(projectId));
    // what a render killed between its rename and its row update leaves: a whole file nobody links to
    fs.copyFileSync(server.config.storeDir + "/" + row.export_key, path.join(folder, "export-1700000000000.mp4"));
    expect(fs.readdirSync(folder)).toHaveLength(2);

    expect((await api("POST", `/projects/${projectId}/render`, { final: true })).status).toBe(200);
    await waitFor(async () => ((await api("GET", `/projects/${projectId}`)).body.status === "Render Ready" ? true : undefined));
    const after = await server.db.selectFrom("projects").select("export_key").where("id", "=", projectId).executeTakeFirstOrThrow();
    expect(fs.readdirSync(folder)).toEqual([path.basename(after.export_key!)]);
  });
});

describe("deleting a project", () => {
  it("removes its previews and renders from disk, and an old signed link answers 404 in the error shape", async () => {
    token = (await server.signUp()).token;
    const projectId = await processedTalkProject(base, token, "To delete");
    const before = (await api("GET", `/projects/${projectId}`)).body;
    const user = (await server.db.selectFrom("projects").select("user_id").where("id", "=", projectId).executeTakeFirstOrThrow()).user_id;
    const folder = path.join(server.config.storeDir, "projects", String(user), String(projectId));
    expect(filesUnder(folder).length).toBeGreaterThan(0);
    const link = `${base}${before.export_url}`;
    expect((await fetch(link)).status).toBe(200);

    const removed = await api("DELETE", `/projects/${projectId}`);
    expect(removed.status).toBe(200);
    expect(removed.body.deleted_at).toBeTruthy();
    expect(removed.body.export_url).toBeNull();

    expect(fs.existsSync(folder)).toBe(false);
    const res = await fetch(link);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ message: expect.any(String), code: "not_found" });
    // the library file it was made from stays, with its own preview
    const library = (await api("GET", "/library")).body;
    expect(library.data).toHaveLength(1);
    expect((await fetch(`${base}${library.data[0].preview_url}`)).status).toBe(200);
  });

  it("cancels its queued render, and the start-up sweep removes files written for it afterwards", async () => {
    token = (await server.signUp()).token; // each test its own user: the library holds one talk.mp4 per user
    const projectId = await processedTalkProject(base, token, "Rendering when deleted");
    await server.queue.stop(); // hold the runner so the render stays queued
    expect((await api("POST", `/projects/${projectId}/render`, { final: true })).status).toBe(200);
    expect((await server.queue.get(`render:${projectId}`))?.status).toBe("queued");

    expect((await api("DELETE", `/projects/${projectId}`)).status).toBe(200);
    expect((await server.queue.get(`render:${projectId}`))?.status).toBe("cancelled");
    const user = (await server.db.selectFrom("projects").select("user_id").where("id", "=", projectId).executeTakeFirstOrThrow()).user_id;
    const folder = path.join(server.config.storeDir, "projects", String(user), String(projectId));
    // as a render in another process that heard of the delete late would leave it
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, "export-1.mp4"), "late");
    await server.startRunner(); // its start-up sweep removes a deleted project's files
    // the runner is back and idle: the cancelled render never ran
    await waitFor(async () => ((await server.db.selectFrom("jobs").select("id").where("status", "in", ["queued", "running"]).execute()).length === 0 ? true : undefined), 10_000);
    expect(fs.existsSync(folder)).toBe(false);
  });
});
