/**
 * Issue 16, one-time purchases through checkout sessions (SPEC §2 Lifetime-deal purchase, §6, §7): a lifetime
 * deal bought end to end on the local gateway's hosted test page (its form POST → checkout.session.completed →
 * ltd_tier, show_wizard, lifetime limits and quotas), one project's watermark-free 1080p export (that project
 * only), the refusals (a second lifetime deal, a project already unlocked, a plan that needs none, another
 * user's project), replayed and forged webhooks, and the wizard toggle.
 */
import { createHmac } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PLAN_CATALOGUE } from "../../server/domain/plans";
import { FRESH_PROJECT, insertProject } from "../../server/db/projects";
import { signWebhook } from "../../server/payments/gateway";
import { BYTES_PER_GB } from "../../server/domain/quotas";
import { bearer, startTestServer, type TestServer } from "./helpers";

let server: TestServer;
const events: { raw: string; signature: string; type: string }[] = [];

async function call(token: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) {
  const res = await server.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

/** The hosted page's form, as the browser posts it. */
async function payOnPage(sessionUrl: string, number: string, expiry = "12 / 40") {
  const url = new URL(sessionUrl);
  return server.app.inject({
    method: "POST",
    url: url.pathname,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams({ name: "Ana Silva", number, expiry, cvc: "123" }).toString(),
  });
}

async function userId(token: string): Promise<number> {
  return (await call(token, "GET", "/user")).body.id as number;
}

/** A Preview Ready project with one shown scene (no runner: its render job only waits in the queue). */
async function readyProject(owner: number, name: string, on: TestServer = server): Promise<number> {
  const now = new Date().toISOString();
  const project = await insertProject(on.db, {
    ...FRESH_PROJECT,
    user_id: owner,
    name,
    title: null,
    locale: "en-US",
    type: "project",
    status: "Preview Ready",
    failure: null,
    is_new: 0,
    is_queued: 0,
    cuts_project: 0,
    audioonly: 0,
    thumbnail_key: null,
    duration_in_seconds: 10,
    total_filesize: 0,
    settings: "{}",
    created_at: now,
    updated_at: now,
  });
  await on.db
    .insertInto("scenes")
    .values({
      project_id: project.id,
      media_file_id: null,
      order: 1,
      type: "default",
      visibility: 1,
      start: 0,
      end: 5,
      trim_start: 0,
      trim_end: 5,
      trim_start_default: 0,
      trim_end_default: 5,
      trim_start_raw: 0,
      trim_end_raw: 5,
      thumbnail_key: null,
      text: "[]",
      media_audio: "standard",
      music_type: "bgmstandard",
      parent_scene_id: null,
      overscene_type: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return project.id;
}

/** The final render job queued for a project: its tier and watermark. */
async function renderJob(projectId: number) {
  const rows = await server.db.selectFrom("jobs").select(["payload"]).where("type", "=", "render").execute();
  const job = rows.map((r) => JSON.parse(r.payload)).find((p) => p.projectId === projectId && p.final);
  return job as { tier: number; watermark: boolean } | undefined;
}

/** The local gateway signs its events with a key derived from the app secret (server/main.ts). */
async function localWebhookSecret(): Promise<string> {
  const secret = (await server.db.selectFrom("settings").select("value").where("key", "=", "app_secret").executeTakeFirstOrThrow()).value;
  return createHmac("sha256", secret).update("local-gateway-webhooks").digest("hex");
}

const deliver = (raw: string, secret: string) =>
  server.app.inject({ method: "POST", url: "/api/v1/payment/webhook", headers: { "content-type": "application/json", "stripe-signature": signWebhook(secret, raw, Math.floor(Date.now() / 1000)) }, payload: raw });

beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_CARDS: "1000" }, { startRunner: false });
  // Every event the gateway sends, kept so the tests can deliver it again over HTTP.
  server.localGateway!.setWebhookSink(async (raw, signature) => {
    events.push({ raw, signature, type: JSON.parse(raw).type });
    await server.payments.handleWebhook(raw, signature);
  });
});
afterAll(async () => {
  await server?.close();
});

describe("offers", () => {
  it("lists the three lifetime tiers with the SPEC §9 limits and the one-project export's price, to anyone", async () => {
    const res = await server.app.inject({ method: "GET", url: "/api/v1/stripe/checkout/offers" });
    expect(res.statusCode).toBe(200);
    const offers = res.json();
    expect(offers.lifetime.map((p: { id: string }) => p.id)).toEqual(["ltd_tier1", "ltd_tier2", "ltd_tier3"]);
    for (const plan of offers.lifetime) {
      expect(plan.interval).toBeNull();
      expect(plan.metadata).toMatchObject({ upload_max_length_minutes: 90, upload_max_size_mb: 5120, storage_gb: 150, video_tier: 2 });
    }
    expect(offers.video_export.amount).toBe(900);
  });
});

describe("lifetime deal", () => {
  it("buys Tier 2 on the hosted test page: ltd_tier, show_wizard, lifetime limits and quotas follow", async () => {
    const { token } = await server.signUp();
    const before = await call(token, "GET", "/user/limits");
    expect(before.body.storage_gb).toBe(5);

    const session = await call(token, "GET", "/stripe/checkout/ltd?ltd_tier=tier2");
    expect(session.status).toBe(200);
    expect(session.body.id).toMatch(/^cs_test_local_/);
    expect(session.body.url).toMatch(new RegExp(`/local-gateway/checkout/${session.body.id}$`));

    // The page says TEST MODE, names what is sold and its price.
    const page = await server.app.inject({ method: "GET", url: new URL(session.body.url).pathname });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    expect(page.body).toContain("TEST MODE");
    expect(page.body).toContain("Lifetime - Tier 2");
    expect(page.body).toContain("US$ 98.00");

    // A declined card leaves everything as it was.
    const declined = await payOnPage(session.body.url, "4000 0000 0000 0002");
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain("Your card was declined.");
    expect((await call(token, "GET", "/user")).body.ltd_tier).toBeNull();

    const paid = await payOnPage(session.body.url, "4242 4242 4242 4242");
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toMatch(/\/congratulations$/);
    expect(events.filter((e) => e.type === "checkout.session.completed")).toHaveLength(1);

    const user = (await call(token, "GET", "/user")).body;
    expect(user).toMatchObject({ ltd_tier: "ltd_tier2", ltd_renew_at: null, show_wizard: 1, video_tier: 2, max_storage: 150 * BYTES_PER_GB });
    expect(user.features).toContain("no_watermark");
    const limits = (await call(token, "GET", "/user/limits")).body;
    expect(limits).toMatchObject({ plan: { id: "ltd_tier2" }, storage_gb: 150, upload_max_length_minutes: 90, upload_max_size_mb: 5120, video_tier: 2 });
    const quotas = (await call(token, "GET", "/user/quotas")).body;
    expect(quotas).toMatchObject({ uploadMaxSizeBytes: 5120 * 1024 * 1024, uploadMaxLengthMinutes: 90, storageBytes: 150 * BYTES_PER_GB });

    // The page of a paid session goes on to the success page; a second lifetime deal is refused.
    const again = await server.app.inject({ method: "GET", url: new URL(session.body.url).pathname });
    expect(again.statusCode).toBe(303);
    const second = await call(token, "GET", "/stripe/checkout/ltd?ltd_tier=tier3");
    expect(second).toMatchObject({ status: 409, body: { code: "lifetime_owned" } });
    // Nor a paid plan on top (no plan picker for lifetime users, SPEC §2): it would bill and change nothing.
    expect(await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month" })).toMatchObject({ status: 409, body: { code: "lifetime_owned" } });

    // The welcome modal's toggle (SPEC §7 PUT /user/wizard/toggle/{value}).
    const off = await call(token, "PUT", "/user/wizard/toggle/0");
    expect(off).toMatchObject({ status: 200, body: { show_wizard: 0, ltd_tier: "ltd_tier2" } });
    expect((await call(token, "PUT", "/user/wizard/toggle/2")).status).toBe(400);
  });

  it("refuses a replayed completion and a forged one", async () => {
    const { token } = await server.signUp();
    const session = await call(token, "GET", "/stripe/checkout/ltd?ltd_tier=tier1");
    await payOnPage(session.body.url, "4242424242424242");
    const completed = events.filter((e) => e.type === "checkout.session.completed").at(-1)!;
    expect(JSON.parse(completed.raw).data.object.id).toBe(session.body.id);

    // The same delivery again: acknowledged as a duplicate, nothing applied twice.
    const replay = await server.app.inject({ method: "POST", url: "/api/v1/payment/webhook", headers: { "content-type": "application/json", "stripe-signature": completed.signature }, payload: completed.raw });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({ received: true, duplicate: true });
    // The same session under a new, correctly signed event id: the session is complete already, nothing is applied again.
    await call(token, "PUT", "/user/wizard/toggle/0");
    const event = JSON.parse(completed.raw);
    const reissued = JSON.stringify({ ...event, id: `${event.id}_again` });
    const again = await deliver(reissued, await localWebhookSecret());
    expect(again.statusCode).toBe(200);
    expect((await call(token, "GET", "/user")).body).toMatchObject({ ltd_tier: "ltd_tier1", show_wizard: 0 });

    // Forged: a made-up session for a project the attacker never paid for, with a wrong signature.
    const { token: other } = await server.signUp();
    const otherId = await userId(other);
    const forged = JSON.stringify({
      id: "evt_forged_1",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "cs_test_local_forged", url: "", status: "complete", payment_status: "paid", amount_total: 1, customer: null, metadata: { user_id: String(otherId), kind: "ltd", plan: "ltd_tier3" } } },
    });
    const bad = await deliver(forged, "not-the-secret");
    expect(bad.statusCode).toBe(403);
    expect((await call(other, "GET", "/user")).body.ltd_tier).toBeNull();
    // Signed right, but for a session this server never opened: acknowledged and ignored.
    const unknown = forged.replace("evt_forged_1", "evt_forged_2");
    expect((await deliver(unknown, await localWebhookSecret())).statusCode).toBe(200);
    expect((await call(other, "GET", "/user")).body.ltd_tier).toBeNull();
  });

  it("asks for 3-D Secure on the page with 4000 0027 6000 3184 and completes once confirmed", async () => {
    const { token } = await server.signUp();
    const session = await call(token, "GET", "/stripe/checkout/ltd?ltd_tier=tier3");
    const step = await payOnPage(session.body.url, "4000 0027 6000 3184");
    expect(step.statusCode).toBe(200);
    expect(step.body).toContain("Complete authentication");
    expect((await call(token, "GET", "/user")).body.ltd_tier).toBeNull();
    const done = await server.app.inject({
      method: "POST",
      url: `${new URL(session.body.url).pathname}/authenticate`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "outcome=complete",
    });
    expect(done.statusCode).toBe(303);
    expect((await call(token, "GET", "/user")).body.ltd_tier).toBe("ltd_tier3");
  });

  it("refuses an unknown tier and anonymous callers", async () => {
    const { token } = await server.signUp();
    expect((await call(token, "GET", "/stripe/checkout/ltd?ltd_tier=tier9")).status).toBe(400);
    // The plan's own name is understood too (SPEC §3 Lifetime tiers: ltd_tier1…3).
    expect((await call(token, "GET", "/stripe/checkout/ltd?ltd_tier=ltd_tier1")).status).toBe(200);
    const anonymous = await server.app.inject({ method: "GET", url: "/api/v1/stripe/checkout/ltd?ltd_tier=tier1" });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe("one project's watermark-free 1080p export", () => {
  it("unlocks that project only: 1080p without the watermark, download allowed; the other project stays 720p with it", async () => {
    const { token } = await server.signUp();
    const owner = await userId(token);
    const bought = await readyProject(owner, "Bought talk");
    const other = await readyProject(owner, "Other talk");

    // Free plan: 1080p refused before the purchase.
    expect((await call(token, "POST", `/projects/${bought}/render`, { final: true, tier: 2 })).body.code).toBe("tier_not_allowed");

    const session = await call(token, "GET", `/stripe/checkout/video?project=${bought}`);
    expect(session.status).toBe(200);
    const page = await server.app.inject({ method: "GET", url: new URL(session.body.url).pathname });
    expect(page.body).toContain("US$ 9.00");
    const paid = await payOnPage(session.body.url, "4242 4242 4242 4242");
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toMatch(new RegExp(`/projects/${bought}/preview$`));

    expect((await call(token, "GET", `/projects/${bought}`)).body.export_unlocked).toBe(1);
    expect((await call(token, "GET", `/projects/${other}`)).body.export_unlocked).toBe(0);
    // The user's plan is unchanged.
    expect((await call(token, "GET", "/user")).body).toMatchObject({ video_tier: 0, ltd_tier: null });

    const render = await call(token, "POST", `/projects/${bought}/render`, { final: true, tier: 2 });
    expect(render.status).toBe(200);
    expect(await renderJob(bought)).toMatchObject({ tier: 2, watermark: false });
    expect((await call(token, "POST", `/projects/${other}/render`, { final: true, tier: 2 })).body.code).toBe("tier_not_allowed");
    await call(token, "POST", `/projects/${other}/render`, { final: true, tier: 1 });
    expect(await renderJob(other)).toMatchObject({ tier: 1, watermark: true });

    // Bought again: refused, clearly.
    expect(await call(token, "GET", `/stripe/checkout/video?project=${bought}`)).toMatchObject({ status: 409, body: { code: "export_unlocked" } });
  });

  it("answers another user's project 404, and a plan that already exports 1080p without the watermark a clear error", async () => {
    const { token: victim } = await server.signUp();
    const victimProject = await readyProject(await userId(victim), "Victim talk");
    const { token: attacker } = await server.signUp();
    const res = await call(attacker, "GET", `/stripe/checkout/video?project=${victimProject}`);
    expect(res).toMatchObject({ status: 404, body: { code: "not_found" } });
    expect(await server.db.selectFrom("checkout_sessions").select("id").where("project_id", "=", victimProject).execute()).toEqual([]);

    // A lifetime user (1080p, no watermark) needs no purchase.
    const { token: lifetime } = await server.signUp();
    const session = await call(lifetime, "GET", "/stripe/checkout/ltd?ltd_tier=tier1");
    await payOnPage(session.body.url, "4242 4242 4242 4242");
    const project = await readyProject(await userId(lifetime), "Lifetime talk");
    expect(await call(lifetime, "GET", `/stripe/checkout/video?project=${project}`)).toMatchObject({ status: 409, body: { code: "export_included" } });
  });
});

describe("Stripe adapter (a local server speaking Stripe's API)", () => {
  const SECRET_KEY = "sk_test_checkout_cutroom";
  const WEBHOOK_SECRET = "whsec_checkout_cutroom";
  type Obj = Record<string, any>;
  const requests: { method: string; path: string; body: Obj; idempotencyKey: string | null }[] = [];
  const answered = new Map<string, string>();
  let seq = 0;
  let stripe: TestServer;
  let plansDir = "";

  /** Stripe's form encoding: `line_items[0][price_data][unit_amount]=9800` → nested objects and arrays. */
  function parseForm(text: string): Obj {
    const root: Obj = {};
    for (const [key, value] of new URLSearchParams(text)) {
      const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
      let node: any = root;
      parts.forEach((part, i) => {
        if (i === parts.length - 1) node[part] = value;
        else node = node[part] ??= /^\d+$/.test(parts[i + 1]!) ? [] : {};
      });
    }
    return root;
  }

  const fake = http.createServer((req, res) => {
    let text = "";
    req.on("data", (chunk) => (text += chunk));
    req.on("end", () => {
      const body = parseForm(text);
      const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
      const pathname = new URL(req.url!, "http://stripe.local").pathname;
      requests.push({ method: req.method!, path: pathname, body, idempotencyKey: key });
      const send = (status: number, payload: string) => {
        res.writeHead(status, { "content-type": "application/json", "request-id": `req_${(seq += 1)}` });
        res.end(payload);
      };
      if (req.headers.authorization !== `Bearer ${SECRET_KEY}`) return send(401, JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } }));
      if (key && answered.has(key)) return send(200, answered.get(key)!);
      let answer: Obj;
      if (req.method === "POST" && pathname === "/v1/customers") answer = { id: `cus_${(seq += 1)}`, object: "customer", email: body.email, metadata: body.metadata ?? {} };
      else if (req.method === "POST" && pathname === "/v1/checkout/sessions") {
        const id = `cs_test_${(seq += 1)}abc`;
        const line = body.line_items[0];
        answer = {
          id,
          object: "checkout.session",
          mode: body.mode,
          url: `https://checkout.stripe.com/c/pay/${id}`,
          status: "open",
          payment_status: "unpaid",
          amount_total: line.price_data ? Number(line.price_data.unit_amount) : 1200,
          currency: "usd",
          customer: body.customer,
          client_reference_id: body.client_reference_id,
          metadata: body.metadata ?? {},
          success_url: body.success_url,
          cancel_url: body.cancel_url,
        };
      } else return send(404, JSON.stringify({ error: { type: "invalid_request_error", message: `Unrecognized request URL (${req.method}: ${pathname})` } }));
      const payload = JSON.stringify(answer);
      if (key) answered.set(key, payload);
      send(200, payload);
    });
  });

  const sign = (payload: string, secret = WEBHOOK_SECRET, t = Math.floor(Date.now() / 1000)) => `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex")}`;
  const deliverStripe = (event: Obj, signature?: string) => {
    const payload = JSON.stringify(event);
    return stripe.app.inject({ method: "POST", url: "/api/v1/payment/webhook", headers: { "content-type": "application/json", "stripe-signature": signature ?? sign(payload) }, payload });
  };
  const completedEvent = (session: Obj) => ({
    id: `evt_${(seq += 1)}`,
    object: "event",
    api_version: "2025-02-24.acacia",
    type: "checkout.session.completed",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    data: { object: { ...session, status: "complete", payment_status: "paid" } },
  });
  const stripeCall = async (token: string, url: string) => {
    const res = await stripe.app.inject({ method: "GET", url: `/api/v1${url}`, headers: bearer(token) });
    return { status: res.statusCode, body: res.json() };
  };

  beforeAll(async () => {
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    plansDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-checkout-plans-"));
    const file = path.join(plansDir, "plans.json");
    // The operator sells the one-project export through a Stripe price; the lifetime tiers by our amounts.
    fs.writeFileSync(file, JSON.stringify({ plans: PLAN_CATALOGUE, video_export: { amount: 1200, stripe_price: "price_video_1080" } }));
    stripe = await startTestServer(
      { PLANS_FILE: file, STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: "pk_test_checkout", STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` },
      { startRunner: false },
    );
  });
  afterAll(async () => {
    await stripe?.close();
    await new Promise((resolve) => fake.close(resolve));
    if (plansDir) fs.rmSync(plansDir, { recursive: true, force: true });
  });

  it("opens a Checkout session (mode payment, our amount, URLs, metadata, idempotency key); checkout.session.completed gives the lifetime deal once", async () => {
    const { token } = await stripe.signUp();
    const session = await stripeCall(token, "/stripe/checkout/ltd?ltd_tier=tier2");
    expect(session.status).toBe(200);
    expect(session.body.url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const sent = requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(sent.body).toMatchObject({
      mode: "payment",
      line_items: [{ price_data: { currency: "usd", unit_amount: "9800", product_data: { name: "Lifetime - Tier 2" } }, quantity: "1" }],
      metadata: { kind: "ltd", plan: "ltd_tier2" },
    });
    expect(sent.body.success_url).toMatch(/\/congratulations$/);
    expect(sent.body.cancel_url).toMatch(/\/ltd\/buy\/tier2$/);
    expect(sent.body.customer).toMatch(/^cus_/);
    expect(sent.idempotencyKey).toMatch(/^cutroom-checkout-\d+-ltd-ltd_tier2-/);
    const user = (await stripeCall(token, "/user")).body;
    expect(sent.body.metadata.user_id).toBe(String(user.id));

    const answer = JSON.parse(answered.get(sent.idempotencyKey!)!);
    // Not paid yet (an unpaid completion, e.g. a bank transfer still pending): nothing changes.
    const pending = completedEvent(answer);
    pending.data.object.payment_status = "unpaid";
    expect((await deliverStripe(pending)).statusCode).toBe(200);
    expect((await stripeCall(token, "/user")).body.ltd_tier).toBeNull();
    // Forged (another endpoint's secret): refused.
    const paid = completedEvent(answer);
    expect((await deliverStripe(paid, sign(JSON.stringify(paid), "whsec_forged"))).statusCode).toBe(403);
    expect((await stripeCall(token, "/user")).body.ltd_tier).toBeNull();
    // Paid: the lifetime deal; the same event again changes nothing.
    expect((await deliverStripe(paid)).json()).toMatchObject({ received: true, duplicate: false });
    expect((await stripeCall(token, "/user")).body).toMatchObject({ ltd_tier: "ltd_tier2", show_wizard: 1, video_tier: 2 });
    expect((await deliverStripe(paid)).json()).toMatchObject({ received: true, duplicate: true });
  });

  it("sells one project's export at the operator's Stripe price", async () => {
    const { token } = await stripe.signUp();
    const owner = (await stripeCall(token, "/user")).body.id as number;
    const project = await readyProject(owner, "Stripe talk", stripe);
    const session = await stripeCall(token, `/stripe/checkout/video?project=${project}`);
    expect(session.status).toBe(200);
    const sent = requests.filter((r) => r.path === "/v1/checkout/sessions").at(-1)!;
    expect(sent.body).toMatchObject({ mode: "payment", line_items: [{ price: "price_video_1080", quantity: "1" }], metadata: { kind: "video", project: String(project) } });
    expect(sent.body.success_url).toMatch(new RegExp(`/projects/${project}/preview$`));
    const answer = JSON.parse(answered.get(sent.idempotencyKey!)!);
    expect((await deliverStripe(completedEvent(answer))).statusCode).toBe(200);
    expect((await stripeCall(token, `/projects/${project}`)).body.export_unlocked).toBe(1);
  });
});
