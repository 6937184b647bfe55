import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyticsPath } from "../../server/services/analytics";
import { listen, startTestServer, waitFor, type TestServer } from "./helpers";

/** A local server speaking Plausible's Events API: POST /api/event with a JSON body, answers 202 "ok". */
let sink: http.Server;
let sinkUrl = "";
const received: { path: string; headers: http.IncomingHttpHeaders; body: any }[] = [];

beforeAll(async () => {
  sink = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/api/event" || req.headers["content-type"] !== "application/json") return void res.writeHead(404).end();
      received.push({ path: req.url, headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(202, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => sink.listen(0, "127.0.0.1", resolve));
  sinkUrl = `http://127.0.0.1:${(sink.address() as { port: number }).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => sink.close(resolve));
});

const post = (base: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${base}/api/v1/analytics/events`, { method: "POST", headers: { "content-type": "application/json", "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/120", ...headers }, body: JSON.stringify(body) });

describe("analytics, off (the default)", () => {
  let server: TestServer;
  let base = "";
  beforeAll(async () => {
    server = await startTestServer({});
    base = await listen(server);
  });
  afterAll(async () => server?.close());

  it("accepts nothing and sends nothing anywhere", async () => {
    const res = await post(base, { name: "Project Opened", path: "/open" });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: false });
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toHaveLength(0);
  });
});

describe("analytics with ANALYTICS_URL (a Plausible-compatible server)", () => {
  let server: TestServer;
  let base = "";
  beforeAll(async () => {
    server = await startTestServer({ ANALYTICS_URL: `${sinkUrl}/`, PUBLIC_URL: "https://app.cutroom.example", TRUST_PROXY: "1" });
    base = await listen(server);
  });
  afterAll(async () => server?.close());

  it("passes each SPEC §7 event to /api/event with the page's path (ids removed), the site's domain and the visitor's agent and address", async () => {
    received.length = 0;
    const res = await post(base, { name: "Project Preview Opened", path: "/projects/4711/preview?token=SECRET#x" }, { "x-forwarded-for": "203.0.113.9" });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: true });
    const [event] = await waitFor(async () => (received.length ? received : undefined), 5_000);
    expect(event!.body).toEqual({ name: "Project Preview Opened", url: "https://app.cutroom.example/projects/:id/preview", domain: "app.cutroom.example" });
    expect(event!.headers["user-agent"]).toBe("Mozilla/5.0 (X11; Linux x86_64) Chrome/120");
    expect(event!.headers["x-forwarded-for"]).toBe("203.0.113.9");
    expect(JSON.stringify(event)).not.toContain("SECRET");
  });

  it("sends the closed list of properties, and refuses unknown events and properties", async () => {
    received.length = 0;
    expect((await post(base, { name: "Lifetime Deal Buy Now Clicked", path: "/lifetime", props: { tier: "ltd_tier2" } })).status).toBe(202);
    expect((await post(base, { name: "Project Scene Split", path: "/projects/12/storyboard", props: { split: "line" } })).status).toBe(202);
    expect((await post(base, { name: "Sign Up", path: "/register", props: { method: "email", referred: true } })).status).toBe(202);
    expect((await post(base, { name: "Registration Conversion", path: "/register" })).status).toBe(202);
    const events = await waitFor(async () => (received.length === 4 ? received : undefined), 5_000);
    expect(events.map((e) => [e.body.name, e.body.props])).toEqual(
      expect.arrayContaining([
        ["Lifetime Deal Buy Now Clicked", { tier: "ltd_tier2" }],
        ["Project Scene Split", { split: "line" }],
        ["Sign Up", { method: "email", referred: true }],
        ["Registration Conversion", undefined],
      ]),
    );

    expect((await post(base, { name: "Page Scrolled", path: "/" })).status).toBe(422);
    expect((await post(base, { name: "Project Opened", path: "/open", props: { email: "ana@example.com" } })).status).toBe(422);
    expect((await post(base, { name: "Project Opened", path: "https://evil.example/" })).status).toBe(422);
    await new Promise((r) => setTimeout(r, 200));
    expect(received).toHaveLength(4);
  });

  it("answers at once even when the sink is down", async () => {
    const down = await startTestServer({ ANALYTICS_URL: "http://127.0.0.1:9" });
    const downBase = await listen(down);
    const res = await post(downBase, { name: "Project Opened", path: "/open" });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ accepted: true });
    await down.close();
  });
});

describe("the path analytics sees", () => {
  it("drops the query and fragment and replaces ids and tokens", () => {
    expect(analyticsPath("/projects/12/storyboard?x=1")).toBe("/projects/:id/storyboard");
    expect(analyticsPath("/watch/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789_-abcde")).toBe("/watch/:id");
    expect(analyticsPath("/reset-password#token")).toBe("/reset-password");
    expect(analyticsPath("/")).toBe("/");
  });
});
