import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";

/** The Redis the scale-mode tests use (issue 19): TEST_REDIS_URL, else the one these machines run. */
export const testRedisUrl = () => process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A key prefix no other test (or deployment) on the same Redis uses. */
export const testRedisPrefix = () => `cutroom-test-${randomBytes(6).toString("hex")}`;

/**
 * Whether Redis answers; without it the scale-mode tests say why they were skipped — except on CI,
 * where a missing Redis is a failure (the check throws).
 */
export async function redisReachable(url = testRedisUrl()): Promise<{ ok: true } | { ok: false; reason: string }> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2_000 });
  client.on("error", () => undefined);
  try {
    await client.connect();
    await client.ping();
    return { ok: true };
  } catch (error) {
    const reason = `no Redis at ${new URL(url).host} (${(error as Error).message}); set TEST_REDIS_URL`;
    if (process.env.CI) throw new Error(`Scale-mode tests need Redis on CI: ${reason}`);
    return { ok: false, reason };
  } finally {
    client.disconnect();
  }
}

/** Deletes every key under the prefix. */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = "0";
    do {
      const [next, keys] = await client.scan(cursor, "MATCH", `${prefix}:*`, "COUNT", 1000);
      cursor = next;
      if (keys.length) await client.unlink(...keys);
    } while (cursor !== "0");
  } finally {
    client.disconnect();
  }
}
