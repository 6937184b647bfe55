import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHomeFeed } from "../../server/services/home-feed";
import { jsonApi, listen, startTestServer } from "./helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-feed-"));
const feedFile = path.join(dir, "feed.json");
const FEED = {
  entries: [
    {
      id: "captions",
      kind: "tip",
      title: { en: "Check your subtitles", de: "Prüfe deine Untertitel" },
      body: { en: "Edit any line from the storyboard.", de: "Bearbeite jede Zeile im Storyboard." },
      url: "https://help.example/subtitles",
    },
    { id: "release", kind: "update", title: "Cutroom 2.1", body: "Overlays fade in and out." },
  ],
};

let feedServer: http.Server;
let feedUrl = "";
let feedHits = 0;
let feedBody = JSON.stringify(FEED);

beforeAll(async () => {
  fs.writeFileSync(feedFile, JSON.stringify(FEED));
  feedServer = http.createServer((_req, res) => {
    feedHits += 1;
    res.writeHead(200, { "content-type": "application/json" }).end(feedBody);
  });
  await new Promise<void>((resolve) => feedServer.listen(0, "127.0.0.1", resolve));
  feedUrl = `http://127.0.0.1:${(feedServer.address() as { port: number }).port}/feed.json?key=s3cr3t`;
});
afterAll(async () => {
  await new Promise((resolve) => feedServer.close(resolve));
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A server with this HOME_FEED, a German-speaking user and an English one. */
async function serverWith(env: Record<string, string>) {
  const server = await startTestServer(env);
  const base = await listen(server);
  const de = (await server.signUp(undefined, "de")).token;
  const en = (await server.signUp(undefined, "en")).token;
  return { server, as: (token: string) => jsonApi(() => base, () => token), de, en, base };
}

describe("home's tips feed (GET /home/feed)", () => {
  let s: Awaited<ReturnType<typeof serverWith>> | undefined;
  afterAll(async () => s?.server.close());

  it("answers no entries by default, so the app shows the tips it ships, and needs a signed-in user", async () => {
    s = await serverWith({});
    expect((await s.as(s.en)("GET", "/home/feed")).body).toEqual({ entries: null });
    const anonymous = await fetch(`${s.base}/api/v1/home/feed`);
    expect(anonymous.status).toBe(401);
    await s.server.close();
    s = undefined;
  });

  it("serves the operator's JSON file in each user's language, English when a language is missing", async () => {
    s = await serverWith({ HOME_FEED: feedFile });
    const german = (await s.as(s.de)("GET", "/home/feed")).body;
    expect(german.entries).toEqual([
      { id: "captions", kind: "tip", title: "Prüfe deine Untertitel", body: "Bearbeite jede Zeile im Storyboard.", url: "https://help.example/subtitles" },
      { id: "release", kind: "update", title: "Cutroom 2.1", body: "Overlays fade in and out.", url: null },
    ]);
    const english = (await s.as(s.en)("GET", "/home/feed")).body;
    expect(english.entries[0]).toMatchObject({ title: "Check your subtitles", body: "Edit any line from the storyboard." });
    await s.server.close();
    s = undefined;
  });

  it("reads a feed URL on the server, and again only once the refresh time has passed", async () => {
    s = await serverWith({ HOME_FEED: feedUrl, HOME_FEED_REFRESH_MINUTES: "60" });
    const before = feedHits;
    expect((await s.as(s.en)("GET", "/home/feed")).body.entries).toHaveLength(2);
    expect((await s.as(s.de)("GET", "/home/feed")).body.entries).toHaveLength(2);
    expect(feedHits - before).toBe(1);
    await s.server.close();
    s = undefined;
  });
});

describe("a feed that cannot be used", () => {
  const cases: [string, () => string][] = [
    ["not JSON", () => "<html>oops</html>"],
    ["an entry without its English text", () => JSON.stringify({ entries: [{ id: "a", kind: "tip", title: { de: "Nur Deutsch" }, body: "x" }] })],
    ["a link that is not https", () => JSON.stringify({ entries: [{ id: "a", kind: "tip", title: "T", body: "B", url: "javascript:alert(1)" }] })],
    ["a kind the app does not know", () => JSON.stringify({ entries: [{ id: "a", kind: "ad", title: "T", body: "B" }] })],
    ["no entries", () => JSON.stringify({ entries: [] })],
  ];
  for (const [what, body] of cases) {
    it(`falls back to the shipped tips with a log line naming the problem: ${what}`, async () => {
      feedBody = body();
      const warnings: { fields: Record<string, unknown>; message: string }[] = [];
      let clock = 0;
      const feed = createHomeFeed({ config: { source: feedUrl, refreshMs: 1000 }, log: { warn: (fields, message) => void warnings.push({ fields, message }) }, now: () => clock });
      expect(await feed.entries("en")).toEqual({ entries: null });
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toBe("home feed not usable; showing the shipped tips");
      expect(String(warnings[0]!.fields.reason).length).toBeGreaterThan(0);
      // The URL's query (where a key may travel) never reaches the log.
      expect(warnings[0]!.fields.feed).toBe(feedUrl.split("?")[0]);
      expect(JSON.stringify(warnings)).not.toContain("s3cr3t");
      // A fixed feed is picked up at the next refresh.
      feedBody = JSON.stringify(FEED);
      clock += 1001;
      expect((await feed.entries("en")).entries).toHaveLength(2);
    });
  }

  it("falls back when the file is missing or the server answers an error", async () => {
    const warnings: string[] = [];
    const missing = createHomeFeed({ config: { source: path.join(dir, "nope.json"), refreshMs: 1000 }, log: { warn: (fields) => void warnings.push(String(fields.reason)) } });
    expect(await missing.entries("de")).toEqual({ entries: null });
    const down = http.createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((resolve) => down.listen(0, "127.0.0.1", resolve));
    const erroring = createHomeFeed({
      config: { source: `http://127.0.0.1:${(down.address() as { port: number }).port}/feed.json`, refreshMs: 1000 },
      log: { warn: (fields) => void warnings.push(String(fields.reason)) },
    });
    expect(await erroring.entries("de")).toEqual({ entries: null });
    await new Promise((resolve) => down.close(resolve));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatch(/ENOENT/);
    expect(warnings[1]).toBe("answered 503");
  });
});
