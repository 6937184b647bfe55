import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_QUEUED_PROJECTS } from "../../server/domain/quotas";
import { jsonApi, listen, startTestServer, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

/**
 * Issue 12 item 6: a project is charged the minutes it processes (one upload can no longer feed any
 * number of projects), and a user's queued projects are capped. The runner is held, so every project
 * stays queued.
 */

let server: TestServer;
let base: string;
let token: string;
const api = jsonApi(() => base, () => token);

beforeAll(async () => {
  server = await startTestServer({}, { startRunner: false });
  base = await listen(server);
});
afterAll(() => server.close());

async function addToLibrary(fixture: string, name: string): Promise<number> {
  const uploaded = await tusUpload(base, token, path.resolve(__dirname, "../fixtures", fixture), { name });
  const res = await api("POST", "/library", { media_file: uploaded.id, name, locale: "en-US", has_speech: 1 });
  expect(res.status).toBe(201);
  return res.body.media_file.id as number;
}

const createProject = (name: string, media: number[]) => api("POST", "/createproject", { name, locale: "en-US", style: "video", media });
const minutesLeft = async () => (await api("GET", "/user/quotas")).body.processingMinutes as number;

describe("processing minutes of projects", () => {
  it("charges every project after a file's first, and refuses one the minutes left cannot cover", async () => {
    token = (await server.signUp()).token;
    const mediaId = await addToLibrary("talk.mp4", "talk.mp4");
    // a 9-minute file on the free plan's 30 minutes
    await server.db.updateTable("media_files").set({ duration_seconds: 540 }).where("id", "=", mediaId).execute();
    expect(await minutesLeft()).toBeCloseTo(21, 5);

    // its first project was paid for by the upload (the wizard's upload-then-project: charged once)
    expect((await createProject("first", [mediaId])).status).toBe(201);
    expect(await minutesLeft()).toBeCloseTo(21, 5);
    // each further one processes the file again: 9 minutes each
    expect((await createProject("second", [mediaId])).status).toBe(201);
    expect(await minutesLeft()).toBeCloseTo(12, 5);
    const third = await createProject("third", [mediaId]);
    expect(third.status).toBe(201);
    expect(await minutesLeft()).toBeCloseTo(3, 5);
    // deleting a project does not give its minutes back
    expect((await api("DELETE", `/projects/${third.body.id}`)).status).toBe(200);
    expect(await minutesLeft()).toBeCloseTo(3, 5);

    const refused = await createProject("fourth", [mediaId]);
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: "Not enough processing minutes", code: "not_enough_minutes" });
    expect((await api("GET", "/projects?count=1")).body.count).toBe(3);
  });

  it("charges no minutes for pictures", async () => {
    token = (await server.signUp()).token;
    const still = await addToLibrary("still.png", "still.png");
    const before = await minutesLeft();
    for (const name of ["a", "b", "c"]) expect((await createProject(name, [still])).status).toBe(201);
    expect(await minutesLeft()).toBe(before);
  });
});

describe("queued projects per user", () => {
  it(`caps a free user's queued and processing projects at ${MAX_QUEUED_PROJECTS.free}, with room again once one leaves the queue`, async () => {
    token = (await server.signUp()).token;
    const still = await addToLibrary("still.png", "still.png");
    const ids: number[] = [];
    for (let n = 1; n <= MAX_QUEUED_PROJECTS.free; n++) {
      const res = await createProject(`p${n}`, [still]);
      expect(res.status).toBe(201);
      ids.push(res.body.id);
    }
    const refused = await createProject("one too many", [still]);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe("too_many_queued");
    expect(Object.keys(refused.body).sort()).toEqual(["code", "message"]);

    // another user is not held back by this one's queue
    const mine = token;
    token = (await server.signUp()).token;
    const theirs = await addToLibrary("still.png", "still.png");
    expect((await createProject("someone else", [theirs])).status).toBe(201);
    token = mine;

    // out of the queue: room for one more, and a restart needs room too
    expect((await api("DELETE", `/projects/${ids[0]}/queue`)).status).toBe(200);
    expect((await createProject("now it fits", [still])).status).toBe(201);
    const restart = await api("POST", `/projects/${ids[0]}/restart`);
    expect(restart.status).toBe(409);
    expect(restart.body.code).toBe("too_many_queued");
  });
});
