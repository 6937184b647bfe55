import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrate, openSqlite, type Db } from "../../server/db/index";
import { LocalQueue } from "../../server/jobs/local";
import { queueContract } from "./queue.contract";

/** Each harness is a fresh SQLite file; every instance opens its own connection, like a separate process. */
queueContract("local (SQLite)", async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-queue-"));
  const file = path.join(dir, "cutroom.sqlite");
  const dbs: Db[] = [];
  const live = new Set<LocalQueue>();
  const open = () => {
    const db = openSqlite(file);
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
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
