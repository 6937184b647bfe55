import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compressDist } from "../../server/precompress";
import { startTestServer, type TestServer } from "./helpers";

/** Issue 18: the built app is sent precompressed (brotli, else gzip), never changed in meaning. */
describe("precompressed app assets", () => {
  let server: TestServer;
  let staticDir: string;
  const bundle = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 37}`))};\n`;
  const html = `<!doctype html><html><head><title>Cutroom</title></head><body>${"<div id=app></div>".repeat(100)}</body></html>`;

  beforeAll(async () => {
    staticDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-static-"));
    fs.mkdirSync(path.join(staticDir, "assets"));
    fs.writeFileSync(path.join(staticDir, "index.html"), html);
    fs.writeFileSync(path.join(staticDir, "assets", "main-abc123.js"), bundle);
    fs.writeFileSync(path.join(staticDir, "assets", "tiny-abc123.js"), "export {};\n");
    fs.writeFileSync(path.join(staticDir, "assets", "main-abc123.js.map"), "{}".padEnd(4000, " "));
    const result = await compressDist(staticDir);
    expect(result.count).toBe(2); // index.html and main; tiny files and source maps are left alone
    expect(result.brotli).toBeLessThan(result.original / 4);
    server = await startTestServer({ STATIC_DIR: staticDir });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(staticDir, { recursive: true, force: true });
  });

  it("sends brotli to browsers that accept it, and the bytes decode to the built file", async () => {
    const res = await server.app.inject({ method: "GET", url: "/assets/main-abc123.js", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["vary"]).toMatch(/accept-encoding/i);
    expect(res.headers["cache-control"]).toContain("immutable");
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(bundle) / 4);
    expect(zlib.brotliDecompressSync(res.rawPayload).toString()).toBe(bundle);
  });

  it("sends gzip when brotli is not accepted, and the plain file when nothing is", async () => {
    const gz = await server.app.inject({ method: "GET", url: "/assets/main-abc123.js", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(bundle);
    const plain = await server.app.inject({ method: "GET", url: "/assets/main-abc123.js", headers: { "accept-encoding": "identity" } });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(bundle);
  });

  it("sends the app shell of a deep link compressed, still revalidated", async () => {
    const res = await server.app.inject({ method: "GET", url: "/projects/12/storyboard", headers: { "accept-encoding": "br" } });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-encoding"]).toBe("br");
    expect(res.headers["cache-control"]).toBe("no-cache");
    // The built shell, with the server's public set-up written into its head for a first visit (issue 18).
    const shell = zlib.brotliDecompressSync(res.rawPayload).toString();
    expect(shell.replace(/<script id="cutroom-config" type="application\/json">.*?<\/script>\n  /, "")).toBe(html);
    const setUp = JSON.parse(shell.match(/<script id="cutroom-config" type="application\/json">(.*?)<\/script>/)![1]!);
    expect(setUp.captcha.provider).toBeTruthy();
    expect(setUp.links).toBeTypeOf("object");
    const plain = await server.app.inject({ method: "GET", url: "/projects/12/storyboard" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(shell);
  });

  it("never serves the compressed copies under their own names to a browser that cannot read them", async () => {
    const res = await server.app.inject({ method: "GET", url: "/assets/tiny-abc123.js", headers: { "accept-encoding": "br" } });
    expect(res.headers["content-encoding"]).toBeUndefined();
    expect(res.body).toBe("export {};\n");
  });
});
