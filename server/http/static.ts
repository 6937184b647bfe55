import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { API_BASE } from "../../api/route";

/** Serves the built PWA; unknown non-API paths get index.html so deep links work. */
export async function registerStaticApp(app: FastifyInstance, staticDir: string) {
  const indexFile = path.join(staticDir, "index.html");
  const built = fs.existsSync(indexFile);
  if (built) {
    await app.register(fastifyStatic, {
      root: staticDir,
      wildcard: false,
      index: false,
      // dist/ holds .br and .gz copies written at build time (scripts/compress-dist.ts).
      preCompressed: true,
      setHeaders(res, filePath) {
        const rel = path.relative(staticDir, filePath);
        // Hashed bundles never change; the shell and the service worker must always be revalidated.
        if (rel.startsWith("assets" + path.sep)) res.header("cache-control", "public, max-age=31536000, immutable");
        else res.header("cache-control", "no-cache");
      },
    });
  }
  return function serveAppShell(url: string, method: string) {
    if (!built || (method !== "GET" && method !== "HEAD") || url.startsWith(API_BASE) || url.startsWith("/api/")) return undefined;
    return indexFile;
  };
}
