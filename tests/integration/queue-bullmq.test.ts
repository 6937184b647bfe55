import { describe, it } from "vitest";
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
} else {
  describe("Queue contract: bullmq (Redis)", () => {
    it.skip(`skipped: ${redis.reason}`, () => {});
  });
}
