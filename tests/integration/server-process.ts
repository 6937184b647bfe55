import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { databaseEnv } from "./database";

const root = path.resolve(__dirname, "../..");

export interface ServerProcessOptions {
  port: number;
  dataDir: string;
  /** Added to (and overriding) the defaults below. */
  env?: Record<string, string>;
  /** Where stdout and stderr go: a log file (appended), or nowhere. */
  logFile?: string;
}

/**
 * The real server as ONE node process (no npx or tsx wrapper), so SIGKILL of its PID kills the whole
 * server as a crash would. No app build is served (STATIC_DIR points at nothing).
 */
export function spawnServer(options: ServerProcessOptions): ChildProcess {
  const log = options.logFile ? fs.openSync(options.logFile, "a") : undefined;
  const child = spawn(process.execPath, ["--import", "tsx", "server/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(options.port),
      HOST: "127.0.0.1",
      DATA_DIR: options.dataDir,
      CAPTCHA: "off",
      LOG_LEVEL: "silent",
      STATIC_DIR: path.join(options.dataDir, "no-app"),
      // Speech recognition is covered by subtitles.test.ts; elsewhere it would only slow the pipeline down.
      STT: "off",
      // SQLite in the data folder, or (project integration-pg) this data folder's PostgreSQL database.
      ...databaseEnv(options.dataDir),
      ...options.env,
    },
    stdio: log === undefined ? "ignore" : ["ignore", log, log],
  });
  if (log !== undefined) fs.closeSync(log);
  return child;
}
