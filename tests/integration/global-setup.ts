import { execFileSync } from "node:child_process";
import path from "node:path";

/** The server's emails read compiled catalogs; compile them once for the run. */
export default function setup() {
  const root = path.resolve(__dirname, "../..");
  execFileSync(path.join(root, "node_modules/.bin/lingui"), ["compile", "--namespace", "json"], { cwd: root, stdio: "ignore" });
}
