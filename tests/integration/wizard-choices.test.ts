import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jsonApi, listen, processedTalkProject, startTestServer, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

let server: TestServer;
let base = "";
let token = "";
let other = "";
let mediaId = 0;
const api = jsonApi(() => base, () => token);

beforeAll(async () => {
  server = await startTestServer();
  base = await listen(server);
  token = (await server.signUp()).token;
  other = (await server.signUp()).token;
  const uploaded = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/talk.mp4"), { name: "talk.mp4" });
  mediaId = (await api("POST", "/library", { media_file: uploaded.id, name: "talk.mp4", locale: "en-US", has_speech: 1 })).body.media_file.id;
}, 120_000);
afterAll(async () => server?.close());

describe("the wizard's privacy (SPEC §3)", () => {
  it("is kept on the project, private when not chosen, and only public, unlisted or private", async () => {
    const unlisted = await api("POST", "/createproject", { name: "Unlisted talk", locale: "en-US", style: "video", privacy: "unlisted", media: [mediaId] });
    expect(unlisted.status, JSON.stringify(unlisted.body)).toBe(201);
    expect(unlisted.body.privacy).toBe("unlisted");
    expect((await api("GET", `/projects/${unlisted.body.id}`)).body.privacy).toBe("unlisted");
    const row = await server.db.selectFrom("projects").select(["privacy", "share_token_hash"]).where("id", "=", unlisted.body.id).executeTakeFirstOrThrow();
    // Chosen, not yet shared: no link exists until the owner shares.
    expect(row).toEqual({ privacy: "unlisted", share_token_hash: null });

    const plain = await api("POST", "/createproject", { name: "Plain talk", locale: "en-US", style: "video", media: [mediaId] });
    expect(plain.body.privacy).toBe("private");

    const wrong = await api("POST", "/createproject", { name: "Odd talk", locale: "en-US", style: "video", privacy: "everyone", media: [mediaId] });
    expect(wrong.status).toBe(422);
    expect(wrong.body.fields).toHaveProperty("privacy");

    // Another user never reads it.
    expect((await api("GET", `/projects/${unlisted.body.id}`, undefined, other)).status).toBe(404);
  });
});

describe("the project's footage volume (issue 17 audit)", () => {
  it("moves the scenes that follow it and leaves a scene with its own level alone; a reset brings both back to standard", async () => {
    // A user of its own: the first one's projects above fill its queue.
    const own = (await server.signUp()).token;
    const projectId = await processedTalkProject(base, own, "Volumes");
    const api = jsonApi(() => base, () => own);
    const scenes = async () => (await api("POST", `/projects/${projectId}/storyboard?offset=0&limit=250`, {})).body.timeline.scenes as { id: number; mediaAudio: string }[];
    const [first, ...rest] = await scenes();
    expect(rest.length).toBeGreaterThan(0);
    expect((await api("PUT", `/scenes/${first!.id}`, { mediaAudio: "loud" })).status).toBe(200);

    const updated = await api("PUT", `/projects/${projectId}`, { mediaAudio: "low" });
    expect(updated.body.mediaAudio).toBe("low");
    const after = await scenes();
    expect(after.find((s) => s.id === first!.id)!.mediaAudio).toBe("loud");
    for (const scene of after.filter((s) => s.id !== first!.id)) expect(scene.mediaAudio).toBe("low");

    // Back to standard: the scenes at the project's level follow again.
    await api("PUT", `/projects/${projectId}`, { mediaAudio: "standard" });
    for (const scene of (await scenes()).filter((s) => s.id !== first!.id)) expect(scene.mediaAudio).toBe("standard");

    await api("PUT", `/projects/${projectId}`, { mediaAudio: "extraloud" });
    const reset = await api("GET", `/projects/${projectId}/reset/volumes?autoduck=1`);
    expect(reset.body.mediaAudio).toBe("standard");
    for (const scene of await scenes()) expect(scene.mediaAudio).toBe("standard");
  }, 150_000);
});
