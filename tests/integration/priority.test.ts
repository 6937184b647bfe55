import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bearer, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

let server: TestServer;
let base: string;
beforeAll(async () => {
  server = await startTestServer({}, { startRunner: false });
  base = await listen(server);
});
afterAll(() => server.close());

async function projectFor(token: string, name: string) {
  const uploaded = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/voice.m4a"), { name: `${name}.m4a` });
  const add = await fetch(`${base}/api/v1/library`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify({ media_file: uploaded.id, name: `${name}.m4a`, locale: "en-US", has_speech: 1 }),
  }).then((r) => r.json());
  const created = await fetch(`${base}/api/v1/createproject`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify({ name, locale: "en-US", style: "video", media: [add.media_file.id] }),
  }).then((r) => r.json());
  return created.id as number;
}

describe("the queue order of projects", () => {
  it("runs a paid user's project before a free user's that was queued earlier, FIFO otherwise", async () => {
    const free = await server.signUp();
    const paid = await server.signUp();
    await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("email", "=", paid.email).execute();

    const freeFirst = await projectFor(free.token, "free-first");
    const freeSecond = await projectFor(free.token, "free-second");
    const paidLater = await projectFor(paid.token, "paid-later");
    await server.startRunner();

    const finished = async (id: number) => {
      const row = await server.db.selectFrom("projects").select(["status", "updated_at"]).where("id", "=", id).executeTakeFirstOrThrow();
      return row.status === "Preview Ready" ? row.updated_at : undefined;
    };
    const [a, b, c] = await Promise.all([waitFor(() => finished(freeFirst)), waitFor(() => finished(freeSecond)), waitFor(() => finished(paidLater))]);
    expect(c < a).toBe(true);
    expect(a < b).toBe(true);
  });

  it("takes turns between users of one priority: a user's later project does not wait for all of another's", async () => {
    await server.queue.stop();
    const busy = await server.signUp();
    const other = await server.signUp();
    const busyFirst = await projectFor(busy.token, "busy-1");
    const busySecond = await projectFor(busy.token, "busy-2");
    const busyThird = await projectFor(busy.token, "busy-3");
    const otherLater = await projectFor(other.token, "other-later");
    const queued = await server.db.selectFrom("jobs").select(["type", "owner"]).where("status", "=", "queued").execute();
    expect(queued.every((j) => j.owner !== null)).toBe(true);
    // The first test's projects may still have caption jobs queued (the runner was stopped): count these two users'.
    const ids = await server.db.selectFrom("users").select("id").where("email", "in", [busy.email, other.email]).execute();
    const owners = queued.filter((j) => ids.some((u) => String(u.id) === j.owner));
    expect(owners).toHaveLength(8); // an ingest and a create-project job per project, each with its user
    await server.startRunner();

    const finished = async (id: number) => {
      const row = await server.db.selectFrom("projects").select(["status", "updated_at"]).where("id", "=", id).executeTakeFirstOrThrow();
      return row.status === "Preview Ready" ? row.updated_at : undefined;
    };
    const [first, second, third, later] = await Promise.all([busyFirst, busySecond, busyThird, otherLater].map((id) => waitFor(() => finished(id))));
    expect(first! < second!).toBe(true);
    expect(second! < third!).toBe(true);
    expect(later! < second!).toBe(true);
  });
});
