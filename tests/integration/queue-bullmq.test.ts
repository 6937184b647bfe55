import { describe, expect, it } from "vitest";
import { JOB_TYPES, type Handlers } from "../../server/jobs/types";
import { BullQueue } from "../../server/jobs/bullmq";
import { queueContract } from "./queue.contract";
import { dropRedisPrefix, redisReachable, testRedisPrefix, testRedisUrl } from "./redis";

/** The same contract as the local adapter (issue 19), on the Redis these machines run: each test its own key prefix. */
const redis = await redisReachable();
if (redis.ok) {
  queueContract("bullmq (Redis)", async () => {
    const url = testRedisUrl();
    const prefix = testRedisPrefix();
    const live = new Set<BullQueue>();
    const open = () => {
      const queue = new BullQueue({ url, prefix });
      live.add(queue);
      return queue;
    };
    return {
      queue: open(),
      another: async () => open(),
      crash: async (queue) => {
        await (queue as BullQueue).abandon();
      },
      close: async () => {
        await Promise.all([...live].map((queue) => queue.close()));
        await dropRedisPrefix(url, prefix);
      },
    };
  });
  describe("bullmq cancel by owner (an account that goes)", () => {
    it("cancels the owner's queued jobs and leaves another owner's", async () => {
      const url = testRedisUrl();
      const prefix = testRedisPrefix();
      const queue = new BullQueue({ url, prefix });
      try {
        const mine = [await queue.enqueue("ingest-media", { mediaFileId: 1 }, { owner: "7" }), await queue.enqueue("render-raw", { projectId: 1 }, { owner: "7", group: "project:1" })];
        const theirs = await queue.enqueue("ingest-media", { mediaFileId: 2 }, { owner: "8" });
        expect(await queue.cancelOwner("7")).toBe(2);
        expect(await queue.cancelOwner("7")).toBe(0);
        for (const job of mine) expect((await queue.get(job.id))?.status).toBe("cancelled");
        expect((await queue.get(theirs.id))?.status).toBe("queued");
        expect(await queue.cancelGroup("project:1")).toBe(0);
      } finally {
        await queue.close();
        await dropRedisPrefix(url, prefix);
      }
    });
  });

  describe("bullmq queue snapshot (queue positions and time left, issue 13)", () => {
    it("lists running jobs and waiting ones in the order they will run, with typical durations of finished ones", async () => {
      const url = testRedisUrl();
      const prefix = testRedisPrefix();
      const queue = new BullQueue({ url, prefix });
      try {
        let release!: () => void;
        const gate = new Promise<void>((resolve) => (release = resolve));
        const started: number[] = [];
        const handlers = Object.fromEntries(JOB_TYPES.map((type) => [type, async (payload: { projectId: number }) => {
          started.push(payload.projectId);
          if (payload.projectId === 1) await gate;
        }])) as unknown as Handlers;
        await queue.enqueue("render-raw", { projectId: 1 }, { owner: "A", group: "project:1" });
        await queue.start(handlers, { concurrency: 1, leaseMs: 2_000 });
        while (started.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
        for (const projectId of [2, 3]) await queue.enqueue("render-raw", { projectId }, { owner: "A", group: `project:${projectId}` });
        await queue.enqueue("render-raw", { projectId: 4 }, { owner: "B", group: "project:4" });
        const busy = await queue.snapshot();
        expect(busy.running.map((j) => [j.group_key, j.owner, j.status])).toEqual([["project:1", "A", "running"]]);
        // B's first job before A's second and third (turns between owners), as the runner will take them
        expect(busy.order.map((j) => j.group_key)).toEqual(["project:4", "project:2", "project:3"]);
        release();
        while (started.length < 4) await new Promise((resolve) => setTimeout(resolve, 10));
        await new Promise((resolve) => setTimeout(resolve, 100));
        const idle = await queue.snapshot();
        expect(idle.running).toEqual([]);
        expect(idle.order).toEqual([]);
        expect(idle.typical.get("render-raw")).toBeGreaterThanOrEqual(0);
      } finally {
        await queue.close();
        await dropRedisPrefix(url, prefix);
      }
    });
  });
} else {
  describe("Queue contract: bullmq (Redis)", () => {
    it.skip(`skipped: ${redis.reason}`, () => {});
  });
}
