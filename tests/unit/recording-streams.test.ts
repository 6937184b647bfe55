// @vitest-environment node
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { Server as TusServer } from "@tus/server";
import { FileStore } from "@tus/file-store";
import type { HttpRequest, HttpResponse, HttpStack } from "tus-js-client";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { CutroomDb } from "../../src/db";
import { createRecordingStreams, GrowingSource, type ChunkStore } from "../../workers/recordings";

/** tus-js-client's Node stack cannot send Blobs; the browser's XHR can. This one sends them with fetch, and can be cut off. */
class FetchStack implements HttpStack {
  offline = false;
  requests: { method: string; headers: Record<string, string>; bytes: number }[] = [];
  getName = () => "fetch";
  createRequest(method: string, url: string): HttpRequest {
    const headers: Record<string, string> = {};
    const controller = new AbortController();
    const stack = this;
    return {
      getMethod: () => method,
      getURL: () => url,
      setHeader: (name, value) => void (headers[name] = value),
      getHeader: (name) => headers[name],
      setProgressHandler: () => undefined,
      async send(body?: Blob): Promise<HttpResponse> {
        if (stack.offline) throw new Error("offline");
        stack.requests.push({ method, headers: { ...headers }, bytes: body?.size ?? 0 });
        const res = await fetch(url, { method, headers, body: body ?? undefined, signal: controller.signal });
        const text = await res.text();
        return { getStatus: () => res.status, getHeader: (name) => res.headers.get(name) ?? undefined, getBody: () => text, getUnderlyingObject: () => res };
      },
      abort: async () => controller.abort(),
      getUnderlyingObject: () => controller,
    } as HttpRequest;
  }
}

let dir: string;
let server: http.Server;
let endpoint: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-rec-"));
  const tus = new TusServer({ path: "/files", datastore: new FileStore({ directory: dir }) });
  server = http.createServer((req, res) => void tus.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/files`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

let db: CutroomDb;
let stack: FetchStack;
beforeEach(async () => {
  db = new CutroomDb(`recordings-${Math.random()}`);
  stack = new FetchStack();
});

const bytesOf = (n: number, seed: number) => new Uint8Array(Array.from({ length: n }, (_, i) => (i * 7 + seed) % 256));
const serverFile = (url: string | undefined) => path.join(dir, url!.split("/").pop()!);
const serverInfo = (url: string | undefined) => JSON.parse(fs.readFileSync(`${serverFile(url)}.json`, "utf8")) as { size?: number };
const serverBytes = (url: string | undefined) => (url && fs.existsSync(serverFile(url)) ? fs.statSync(serverFile(url)).size : 0);
const streamsFor = () => createRecordingStreams(db, async () => "token", { endpoint, retryMs: 0, tusOptions: { httpStack: stack, retryDelays: [] } });
const recording = (id: string) => db.recordings.get(id);

async function until(check: () => Promise<boolean> | boolean, timeout = 5000) {
  const start = Date.now();
  while (!(await check())) {
    if (Date.now() - start > timeout) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe("GrowingSource (issue 17)", () => {
  it("answers as soon as there is anything past start, up to end, and says done once the recording ended and all is read", async () => {
    let state = { bytes: 0, ended: false };
    const data = bytesOf(100, 1);
    const store: ChunkStore = { state: async () => state, read: async (_id, start, end) => new Blob([data.slice(start, end)]) };
    const source = new GrowingSource(store, "r");
    let answered: { value: Blob; done: boolean } | undefined;
    const first = source.slice(0, 50).then((r) => (answered = r));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered).toBeUndefined();
    state = { bytes: 30, ended: false };
    source.wake();
    await first;
    expect(answered!.value.size).toBe(30);
    expect(answered!.done).toBe(false);
    state = { bytes: 100, ended: false };
    expect((await source.slice(30, 80)).value.size).toBe(50);
    state = { bytes: 100, ended: true };
    const last = await source.slice(80, 130);
    expect(last.value.size).toBe(20);
    expect(last.done).toBe(true);
    expect(new Uint8Array(await last.value.arrayBuffer())).toEqual(data.slice(80, 100));
    // Everything sent already: an empty last slice still declares the length.
    expect(await source.slice(100, 150)).toMatchObject({ done: true });
  });

  it("fails a waiting slice when closed, so an aborted stream sends nothing more", async () => {
    const source = new GrowingSource({ state: async () => ({ bytes: 0, ended: false }), read: async () => new Blob([]) }, "r");
    const waiting = source.slice(0, 10);
    source.close();
    await expect(waiting).rejects.toThrow("closed");
  });
});

describe("recording streams (issue 17)", () => {
  it("appends each chunk to the server as it comes, and declares the length when the recording stops", async () => {
    const streams = streamsFor();
    const id = await streams.beginRecording({ name: "Recording.webm", mime: "video/webm", mode: "camera" });
    const parts = [bytesOf(1000, 1), bytesOf(2500, 2), bytesOf(700, 3)];
    let sent = 0;
    for (const [seq, part] of parts.entries()) {
      await streams.appendRecording(id, seq, new Blob([part]), seq + 1);
      sent += part.length;
      // Each chunk reaches the server while the recording goes on.
      await until(async () => serverBytes((await recording(id))?.uploadUrl) === sent);
      expect((await recording(id))?.uploaded).toBe(false);
    }
    const row = await recording(id);
    expect(row).toMatchObject({ status: "recording", bytes: sent, durationSeconds: 3 });
    expect(serverInfo(row!.uploadUrl).size).toBeUndefined();
    expect(stack.requests[0]).toMatchObject({ method: "POST", headers: { "Upload-Defer-Length": "1" } });

    await streams.finishRecording(id, 3.2);
    await until(async () => (await recording(id))?.uploaded === true);
    expect(serverInfo(row!.uploadUrl).size).toBe(sent);
    expect(new Uint8Array(fs.readFileSync(serverFile(row!.uploadUrl)))).toEqual(new Uint8Array(Buffer.concat(parts)));
    // One creation, then one PATCH per chunk and one that declares the length.
    expect(stack.requests.filter((r) => r.method === "POST")).toHaveLength(1);
    expect(stack.requests.at(-1)!.headers["Upload-Length"]).toBe(String(sent));
    expect((await recording(id))?.durationSeconds).toBe(3.2);

    // Kept: the upload list takes over the server upload; the chunks here go.
    expect(await streams.adoptRecording(id)).toEqual({ uploadUrl: row!.uploadUrl });
    expect(await db.recordings.count()).toBe(0);
    expect(await db.recordingChunks.count()).toBe(0);
  });

  it("keeps chunks made offline and sends them, complete, when the connection is back", async () => {
    const streams = streamsFor();
    const id = await streams.beginRecording({ name: "Offline.webm", mime: "video/webm", mode: "screen" });
    const parts = [bytesOf(800, 4), bytesOf(900, 5), bytesOf(1200, 6), bytesOf(300, 7)];
    await streams.appendRecording(id, 0, new Blob([parts[0]!]), 1);
    await until(async () => serverBytes((await recording(id))?.uploadUrl) === 800);
    stack.offline = true;
    await streams.appendRecording(id, 1, new Blob([parts[1]!]), 2);
    await streams.appendRecording(id, 2, new Blob([parts[2]!]), 3);
    // A chunk sent twice (a retried call) is kept once.
    await streams.appendRecording(id, 2, new Blob([parts[2]!]), 3);
    await until(() => !streams.isStreaming(id));
    await streams.finishRecording(id, 3);
    expect(await recording(id)).toMatchObject({ bytes: 800 + 900 + 1200, uploaded: false });
    expect(serverBytes((await recording(id))!.uploadUrl)).toBe(800);

    stack.offline = false;
    await streams.resumeRecordings();
    await until(async () => (await recording(id))?.uploaded === true);
    const url = (await recording(id))!.uploadUrl;
    expect(new Uint8Array(fs.readFileSync(serverFile(url)))).toEqual(new Uint8Array(Buffer.concat(parts.slice(0, 3))));
    expect(serverInfo(url).size).toBe(2900);
    // Resumed where the server was, never from the start again.
    expect(stack.requests.filter((r) => r.method === "POST")).toHaveLength(1);
  });

  it("after a crash, a new worker resumes the same server upload from its offset with what IndexedDB kept", async () => {
    const before = streamsFor();
    const id = await before.beginRecording({ name: "Crash.webm", mime: "video/webm", mode: "screenCamera" });
    await before.appendRecording(id, 0, new Blob([bytesOf(1500, 8)]), 1);
    await until(async () => serverBytes((await recording(id))?.uploadUrl) === 1500);
    stack.offline = true;
    await before.appendRecording(id, 1, new Blob([bytesOf(600, 9)]), 2);
    await until(() => !before.isStreaming(id));

    // The tab is gone; a new page finds the recording, stops it and keeps streaming.
    stack.offline = false;
    const after = streamsFor();
    expect(await after.recordingBlob(id).then((b) => b?.size)).toBe(2100);
    await after.finishRecording(id);
    await until(async () => (await recording(id))?.uploaded === true);
    const url = (await recording(id))!.uploadUrl;
    expect(fs.readFileSync(serverFile(url)).subarray(1500)).toEqual(Buffer.from(bytesOf(600, 9)));
    expect(serverInfo(url).size).toBe(2100);
  });

  it("discarding stops the stream and removes the server's partial upload and the chunks", async () => {
    const streams = createRecordingStreams(db, async () => "token", { endpoint, retryMs: 0, tusOptions: { httpStack: stack, retryDelays: [] } });
    const id = await streams.beginRecording({ name: "Gone.webm", mime: "video/webm", mode: "camera" });
    await streams.appendRecording(id, 0, new Blob([bytesOf(400, 10)]), 1);
    await until(async () => serverBytes((await recording(id))?.uploadUrl) === 400);
    const url = (await recording(id))!.uploadUrl!;
    const deletes: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: string, init?: RequestInit) => {
      if (init?.method === "DELETE") deletes.push(String(input));
      return realFetch(input, init);
    }) as typeof fetch;
    try {
      await streams.discardRecording(id);
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(deletes).toEqual([url]);
    expect(fs.existsSync(serverFile(url))).toBe(false);
    expect(await db.recordings.count()).toBe(0);
    expect(await db.recordingChunks.count()).toBe(0);
  });

  it("stops for good when the server refuses the recording (over the limit)", async () => {
    const small = new TusServer({ path: "/small", datastore: new FileStore({ directory: dir }), maxSize: 1000 });
    const limited = http.createServer((req, res) => void small.handle(req, res));
    await new Promise<void>((resolve) => limited.listen(0, "127.0.0.1", resolve));
    try {
      const streams = createRecordingStreams(db, async () => "token", {
        endpoint: `http://127.0.0.1:${(limited.address() as AddressInfo).port}/small`,
        retryMs: 0,
        tusOptions: { httpStack: stack, retryDelays: [] },
      });
      const id = await streams.beginRecording({ name: "Big.webm", mime: "video/webm", mode: "camera" });
      await streams.appendRecording(id, 0, new Blob([bytesOf(1500, 11)]), 1);
      await until(async () => (await recording(id))?.error !== undefined);
      expect((await recording(id))?.error).toBe("file_too_big");
      // A refused recording does not try again.
      const before = stack.requests.length;
      await streams.appendRecording(id, 1, new Blob([bytesOf(10, 12)]), 2);
      await streams.resumeRecordings();
      expect(stack.requests.length).toBe(before);
    } finally {
      await new Promise((resolve) => limited.close(resolve));
    }
  });
});
