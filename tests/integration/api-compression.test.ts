import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fileLinks } from "../../server/services/file-links";
import { bearer, listen, startTestServer, type TestServer } from "./helpers";

/**
 * Issue 18 "First load": JSON answers over 1 KB go out brotli- or gzip-compressed and decode to the same
 * JSON; the progress stream, media by Range and small answers are sent as they are.
 */
describe("API answer compression", () => {
  const secret = "api-compression-test-secret-0123456789";
  let server: TestServer;
  let base: string;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer({ APP_SECRET: secret });
    base = await listen(server);
    token = (await server.signUp()).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it("sends a large JSON answer (the plans) as brotli, or gzip, decoding to the same JSON", async () => {
    const plain = await server.app.inject({ method: "GET", url: "/api/v1/payment/plans", headers: { "accept-encoding": "identity" } });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(Buffer.byteLength(plain.body)).toBeGreaterThan(1024);
    const expected = plain.json();

    const br = await server.app.inject({ method: "GET", url: "/api/v1/payment/plans", headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(br.statusCode).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["vary"]).toMatch(/accept-encoding/i);
    expect(br.headers["content-type"]).toMatch(/^application\/json/);
    expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.body));
    expect(JSON.parse(zlib.brotliDecompressSync(br.rawPayload).toString())).toEqual(expected);

    const gz = await server.app.inject({ method: "GET", url: "/api/v1/payment/plans", headers: { "accept-encoding": "gzip" } });
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(zlib.gunzipSync(gz.rawPayload).toString())).toEqual(expected);
  });

  it("compresses over real HTTP too: fetch decodes it to the same JSON", async () => {
    const res = await fetch(`${base}/api/v1/payment/plans`, { headers: { "accept-encoding": "br" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-encoding")).toBe("br");
    const direct = await server.app.inject({ method: "GET", url: "/api/v1/payment/plans" });
    expect(await res.json()).toEqual(direct.json());
  });

  it("leaves answers under 1 KB as they are", async () => {
    const res = await server.app.inject({ method: "GET", url: "/api/v1/payment/freeplan", headers: { "accept-encoding": "br" } });
    expect(res.statusCode).toBe(200);
    if (Buffer.byteLength(res.body) < 1024) {
      expect(res.headers["content-encoding"]).toBeUndefined();
      expect(res.json()).toHaveProperty("id");
    } else {
      expect(res.headers["content-encoding"]).toBe("br");
    }
  });

  it("never compresses the progress stream: events still arrive one by one", async () => {
    const controller = new AbortController();
    const res = await fetch(`${base}/api/v1/events`, { headers: { ...bearer(token), accept: "text/event-stream", "accept-encoding": "gzip, deflate, br" }, signal: controller.signal });
    try {
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
      expect(res.headers.get("content-encoding")).toBeNull();
      // The hello event is flushed at once, while the stream stays open.
      const reader = res.body!.getReader();
      let text = "";
      const until = Date.now() + 10_000;
      while (!text.includes("\n\n") && Date.now() < until) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      expect(text).toMatch(/^event: hello\ndata: \{.*"heartbeat_ms"/);
    } finally {
      controller.abort();
    }
  });

  it("sends media by Range untouched (partial content of the file's own bytes), and whole media uncompressed", async () => {
    // A text-like payload that compression would shrink a lot, stored as a media file.
    const bytes = Buffer.from("0123456789abcdef".repeat(4096));
    const key = "compression-test/clip.mp4";
    fs.mkdirSync(path.join(server.config.storeDir, "compression-test"), { recursive: true });
    fs.writeFileSync(path.join(server.config.storeDir, key), bytes);
    const url = fileLinks(secret).url(key);

    const partial = await server.app.inject({ method: "GET", url, headers: { range: "bytes=100-4195", "accept-encoding": "gzip, deflate, br" } });
    expect(partial.statusCode).toBe(206);
    expect(partial.headers["content-encoding"]).toBeUndefined();
    expect(partial.headers["content-range"]).toBe(`bytes 100-4195/${bytes.length}`);
    expect(partial.rawPayload.equals(bytes.subarray(100, 4196))).toBe(true);

    const whole = await server.app.inject({ method: "GET", url, headers: { "accept-encoding": "gzip, deflate, br" } });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers["content-encoding"]).toBeUndefined();
    expect(Number(whole.headers["content-length"])).toBe(bytes.length);
    expect(whole.rawPayload.equals(bytes)).toBe(true);
  });
});
