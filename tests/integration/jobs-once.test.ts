import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";

/**
 * Exactly once (issue 12, crash recovery): a server killed after a job's last write to the project
 * but before the job was marked done runs the job again on the next start. That run must not redo
 * the work: the project would flip back to Working, be rendered again, and a create-project run
 * would rebuild the storyboard over the user's edits. Here the job is queued again by hand, as the
 * lease expiry after such a kill would.
 */

let server: TestServer;
let base: string;
let token: string;
const api = jsonApi(() => base, () => token);

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
});
afterAll(() => server.close());

const row = (id: number) => server.db.selectFrom("projects").selectAll().where("id", "=", id).executeTakeFirstOrThrow();
const sceneIds = async (id: number) => (await server.db.selectFrom("scenes").select(["id", "visibility"]).where("project_id", "=", id).orderBy("id").execute());
const jobDone = (id: string) => waitFor(async () => ((await server.queue.get(id))?.status === "done" ? true : undefined), 30_000, 50);

describe("a finished job run again", () => {
  it("create-project leaves the edited storyboard and the preview as they are", async () => {
    token = (await server.signUp()).token;
    const projectId = await processedTalkProject(base, token, "Once");
    const first = (await server.db.selectFrom("scenes").select("id").where("project_id", "=", projectId).orderBy("id").executeTakeFirstOrThrow()).id;
    await server.db.updateTable("scenes").set({ visibility: 0 }).where("id", "=", first).execute(); // the user's edit
    const before = await row(projectId);
    const scenes = await sceneIds(projectId);

    const job = await server.queue.enqueue("create-project", { projectId }, { group: `project:${projectId}`, owner: String(before.user_id) });
    expect(job.created).toBe(true);
    await jobDone(job.id);

    const after = await row(projectId);
    expect(after.status).toBe("Preview Ready");
    expect(after.export_key).toBe(before.export_key);
    expect(await sceneIds(projectId)).toEqual(scenes);
    expect(fs.readdirSync(path.dirname(path.join(server.config.storeDir, after.export_key!)))).toEqual([path.basename(after.export_key!)]);
  });

  it("render keeps the final render it made, and removes one a kill left unlinked", async () => {
    token = (await server.signUp()).token;
    const projectId = await processedTalkProject(base, token, "Once rendered");
    expect((await api("POST", `/projects/${projectId}/render`, { final: true })).status).toBe(200);
    await waitFor(async () => ((await row(projectId)).status === "Render Ready" ? true : undefined));
    const before = await row(projectId);
    const folder = path.dirname(path.join(server.config.storeDir, before.export_key!));
    fs.copyFileSync(path.join(server.config.storeDir, before.export_key!), path.join(folder, "preview-1700000000000.mp4")); // the one the preview render left

    const job = await server.queue.enqueue("render", { projectId, final: true }, { id: `render:${projectId}`, group: `project:${projectId}`, owner: String(before.user_id) });
    await jobDone(job.id);
    const after = await row(projectId);
    expect(after.status).toBe("Render Ready");
    expect(after.export_key).toBe(before.export_key);
    expect(fs.readdirSync(folder)).toEqual([path.basename(before.export_key!)]);
  });
});
