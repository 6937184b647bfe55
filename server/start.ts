import { buildIfNeeded } from "./build";
import { loadConfig } from "./config";
import { run } from "./main";

const config = loadConfig();
try {
  await buildIfNeeded(config.staticDir);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
await run(config);
