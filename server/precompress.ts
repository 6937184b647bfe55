/**
 * After `vite build` (npm run build, and npm start's own build): writes a brotli (.br) and a gzip (.gz) copy next to every text asset of dist/, so the
 * server sends them precompressed (issue 18: the app shell was sent uncompressed). A copy is kept only when it
 * is smaller than the original; source maps are left alone (they are never sent to users' browsers).
 */
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml|wasm)$/i;
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

export async function compressDist(dist: string) {
  let original = 0;
  let brotliTotal = 0;
  let count = 0;
  for (const file of files(dist)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const data = fs.readFileSync(file);
    if (data.length < MIN_BYTES) continue;
    const [br, gz] = await Promise.all([
      brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
      gzip(data, { level: 9 }),
    ]);
    if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
    if (gz.length < data.length) fs.writeFileSync(`${file}.gz`, gz);
    original += data.length;
    brotliTotal += Math.min(br.length, data.length);
    count++;
  }
  return { count, original, brotli: brotliTotal };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dist = path.resolve(process.argv[2] ?? "dist");
  const { count, original, brotli: br } = await compressDist(dist);
  console.log(`compressed ${count} files: ${(original / 1024).toFixed(0)} KB → ${(br / 1024).toFixed(0)} KB brotli`);
}
