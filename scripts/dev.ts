/**
 * `npm run dev`: the API (restarted on server changes) on PORT (default 8080) and Vite with hot
 * reload on 5173, proxying /api to it. Ctrl-C stops both.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

spawnSync(bin("lingui"), ["compile", "--namespace", "json"], { cwd: root, stdio: "inherit" });
const children: ChildProcess[] = [
  spawn(bin("tsx"), ["watch", "--clear-screen=false", "server/main.ts"], { cwd: root, stdio: "inherit", env: { ...process.env, PUBLIC_URL: process.env.PUBLIC_URL ?? "http://localhost:5173" } }),
  spawn(bin("vite"), [], { cwd: root, stdio: "inherit" }),
];
const stop = () => {
  for (const child of children) child.kill("SIGTERM");
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
for (const child of children) child.on("exit", (code) => code && stop());
