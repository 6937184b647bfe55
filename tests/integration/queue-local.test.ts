import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, type Db } from "../../server/db/index";
import { LocalQueue } from "../../server/jobs/local";
import { queueContract } from "./queue.contract";
import { databaseKind, dropDatabase, openTestDatabase } from "./database";

/**
 * Each harness is a fresh database (a SQLite file, or a PostgreSQL database in project integration-pg); every
 * instance opens its own connection, like a separate process.
 */
queueContract(`local (${databaseKind})`, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-queue-"));
  const dbs: Db[] = [];
  const live = new Set<LocalQueue>();
  const open = () => {
    const db = openTestDatabase(dir);
    dbs.push(db);
    const queue = new LocalQueue(db);
    live.add(queue);
    return queue;
  };
  const first = open();
  await migrate(dbs[0]!);
  return {
    queue: first,
    another: async () => open(),
    crash: async (queue) => {
      (queue as LocalQueue).abandon();
      live.delete(queue as LocalQueue);
    },
    close: async () => {
      await Promise.all([...live].map((queue) => queue.stop()));
      await Promise.all(dbs.map((db) => db.destroy()));
      await dropDatabase(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
