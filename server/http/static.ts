import fs from "node:fs";
import zlib from "node:zlib";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import fastifyStatic from "@fastify/static";
import { API_BASE } from "../../api/route";
import { pageConfigScript } from "../../api/page-config";

/** Set by helmet on every answer, read by browsers only on documents and workers. nosniff and the resource policy stay. */
const DOCUMENT_ONLY_HEADERS = [
  "content-security-policy",
  "cross-origin-opener-policy",
  "origin-agent-cluster",
  "referrer-policy",
  "x-dns-prefetch-control",
  "x-download-options",
  "x-frame-options",
  "x-permitted-cross-domain-policies",
  "x-xss-protection",
];

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
        if (rel.startsWith("assets" + path.sep)) {
          res.header("cache-control", "public, max-age=31536000, immutable");
          // Issue 18: a script, style or image the page loads ignores the headers that govern a document
          // (its policy, framing, referrer, opener); ~0.7 KB of them on each of a first load's 17 scripts.
          // A worker's script keeps them: its own policy is the one it runs under.
          if (!/\.worker-[^/\\]*\.js(\.br|\.gz)?$/.test(rel)) for (const name of DOCUMENT_ONLY_HEADERS) res.removeHeader(name);
        } else res.header("cache-control", "no-cache");
      },
    });
  }
  return function serveAppShell(url: string, method: string) {
    if (!built || (method !== "GET" && method !== "HEAD") || url.startsWith(API_BASE) || url.startsWith("/api/")) return undefined;
    return indexFile;
  };
}

let shell: { file: string; mtimeMs: number; head: string; tail: string } | undefined;

/**
 * The app shell with the server's public set-up written into its <head> (issue 18): a first visit
 * renders the sign-in page without waiting for the sync worker to fetch `/config`. The built file is
 * read again only when a rebuild changed it.
 */
export async function appShellHtml(indexFile: string, config: unknown): Promise<string> {
  const { mtimeMs } = await fs.promises.stat(indexFile);
  if (shell?.file !== indexFile || shell.mtimeMs !== mtimeMs) {
    const html = await fs.promises.readFile(indexFile, "utf8");
    const at = html.indexOf("</head>");
    shell = { file: indexFile, mtimeMs, head: at < 0 ? html : html.slice(0, at), tail: at < 0 ? "" : html.slice(at) };
  }
  return `${shell.head}${pageConfigScript(config)}\n  ${shell.tail}`;
}

let packed: { html: string; br: Buffer; gzip: Buffer } | undefined;

/** The shell for this browser: brotli or gzip when it takes them (kept while the page is unchanged), plain otherwise. */
export function encodeShell(html: string, acceptEncoding: string | undefined): { body: string | Buffer; encoding?: "br" | "gzip" } {
  const accepts = (name: string) => new RegExp(`(^|,)\\s*${name}\\s*(;\\s*q=(?!0(\\.0*)?\\s*(,|$))[\\d.]+)?\\s*(,|$)`).test(acceptEncoding ?? "");
  const encoding = accepts("br") ? "br" : accepts("gzip") ? "gzip" : undefined;
  if (!encoding) return { body: html };
  if (packed?.html !== html) {
    packed = {
      html,
      br: zlib.brotliCompressSync(html, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }),
      gzip: zlib.gzipSync(html, { level: 9 }),
    };
  }
  return { body: packed[encoding], encoding };
}
