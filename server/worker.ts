import { compileServerCatalogsIfNeeded } from "./build";
import { loadConfig } from "./config";
import { createServer } from "./main";

/**
 * `npm run worker` (issue 19): a runner-only process. It opens the same database, store and queue as
 * `npm start` and runs the same job handlers, but serves no HTTP. With REDIS_URL, any number of these
 * (on this machine or others) share the BullMQ queue with API processes started with RUNNER=off;
 * without it they share the jobs table of the same database. SIGTERM or SIGINT: takes no new job, gives
 * the running ones back to the queue (bounded) and exits.
 */
const config = loadConfig({ ...process.env, RUNNER: "on" });
try {
  compileServerCatalogsIfNeeded();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
const server = await createServer(config).catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
const { log } = server.app;
log.info(`Cutroom worker running jobs (up to ${config.jobs.concurrency} at once) from ${config.redis ? "the Redis queue" : "the database's jobs table"}; no HTTP`);

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  log.info(`${signal} received, stopping the worker`);
  const force = setTimeout(() => process.exit(1), 15_000).unref();
  try {
    await server.close();
  } catch (error) {
    log.error({ error: String(error) }, "worker shutdown failed");
  }
  clearTimeout(force);
  process.exit(0);
};
process.once("SIGINT", () => void stop("SIGINT"));
process.once("SIGTERM", () => void stop("SIGTERM"));
