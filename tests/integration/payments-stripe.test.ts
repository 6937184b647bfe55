/**
 * Issue 16, the Stripe adapter: the official SDK against a local HTTP server that speaks Stripe's API for
 * the calls the adapter makes (form bodies in Stripe's bracket notation, Idempotency-Key honoured,
 * Stripe's error JSON), and webhooks signed with the real Stripe-Signature scheme over real HTTP.
 */
import { createHmac, randomBytes } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { PLAN_CATALOGUE } from "../../server/domain/plans";
import { CARD_MESSAGES } from "../../server/payments/local-gateway";
import { createStripeGateway } from "../../server/payments/stripe-gateway";
import type { ChildProcess } from "node:child_process";
import { bearer, listen, startTestServer, waitFor, type TestServer } from "./helpers";
import { spawnServer } from "./server-process";

const SECRET_KEY = `sk_test_${randomBytes(12).toString("hex")}`;
const PUBLISHABLE_KEY = "pk_test_cutroom";
const WEBHOOK_SECRET = `whsec_${randomBytes(12).toString("hex")}`;
/** Standard is sold through the plans file's stripe_price; Professional through its lookup key. */
const PRICES: Record<string, { id: string; plan: string; amount: number; interval: "month" | "year"; lookup_key: string | null }> = {
  price_std_m: { id: "price_std_m", plan: "standard_month", amount: 3900, interval: "month", lookup_key: null },
  price_pro_m: { id: "price_pro_m", plan: "professional_month", amount: 7900, interval: "month", lookup_key: "professional_month" },
  price_pro_y: { id: "price_pro_y", plan: "professional_year", amount: 70800, interval: "year", lookup_key: "professional_year" },
};

// ---- A server speaking Stripe's API (the part the adapter uses) ----

type Obj = Record<string, any>;
interface Recorded {
  method: string;
  url: string;
  body: Obj;
  idempotencyKey: string | null;
  authorization: string | null;
}
const requests: Recorded[] = [];
const objects = new Map<string, Obj>();
const idempotent = new Map<string, { status: number; body: string }>();
let dropAnswerTo: string | null = null;
/** Stripe having a bad moment: every call to this path answers 500 (the SDK's retries included). */
let failAnswersTo: string | null = null;
let seq = 0;
const newId = (prefix: string) => `${prefix}_${(seq += 1).toString().padStart(6, "0")}${randomBytes(4).toString("hex")}`;
const nowS = () => Math.floor(Date.now() / 1000);

/** Stripe's form encoding: `items[0][price]=x&expand[0]=y` → { items: [{ price: "x" }], expand: ["y"] }. */
function parseForm(text: string): Obj {
  const root: Obj = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p) => p !== "");
    let node: any = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]!);
      if (last) node[part] = value;
      else node = node[part] ??= nextIsIndex ? [] : {};
    });
  }
  return root;
}

const priceObject = (id: string) => {
  const p = PRICES[id]!;
  return { id: p.id, object: "price", unit_amount: p.amount, currency: "usd", lookup_key: p.lookup_key, recurring: { interval: p.interval, interval_count: 1 }, active: true };
};

function expanded(object: Obj, expand: string[]): Obj {
  const out = structuredClone(object);
  for (const pathSpec of expand) {
    const [first, second] = pathSpec.split(".");
    if (first && typeof out[first] === "string" && objects.has(out[first])) {
      out[first] = structuredClone(objects.get(out[first])!);
      if (second && typeof out[first][second] === "string" && objects.has(out[first][second])) out[first][second] = structuredClone(objects.get(out[first][second])!);
    }
  }
  return out;
}

const stripeError = (status: number, error: Obj) => ({ status, body: { error } });
const missing = (id: string) => stripeError(404, { type: "invalid_request_error", code: "resource_missing", message: `No such object: '${id}'`, param: "id" });

/** An invoice with its payment (Stripe: the payment intent's outcome is on the intent). */
function makeInvoice(sub: Obj, amount: number, reason: string, outcome: "paid" | "declined" | "action" | "none"): Obj {
  const invoice: Obj = {
    id: newId("in"),
    object: "invoice",
    subscription: sub.id,
    customer: sub.customer,
    amount_due: amount,
    billing_reason: reason,
    discount: null,
    lines: { object: "list", data: [{ id: newId("il"), object: "line_item", price: sub.items.data[0].price }] },
    status: outcome === "paid" ? "paid" : "open",
    payment_intent: null,
  };
  if (outcome !== "none") {
    const intent = {
      id: newId("pi"),
      object: "payment_intent",
      amount,
      status: outcome === "paid" ? "succeeded" : outcome === "action" ? "requires_action" : "requires_payment_method",
      client_secret: `pi_secret_${randomBytes(6).toString("hex")}`,
      last_payment_error: outcome === "declined" ? { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." } : null,
    };
    objects.set(intent.id, intent);
    invoice.payment_intent = intent.id;
  }
  objects.set(invoice.id, invoice);
  return invoice;
}

function route(method: string, pathname: string, body: Obj, query: Obj): { status: number; body: Obj } {
  const expand = ([] as string[]).concat(body.expand ?? query.expand ?? []);
  let m: RegExpMatchArray | null;
  if (method === "POST" && pathname === "/v1/customers") {
    const customer = { id: newId("cus"), object: "customer", email: body.email, name: body.name, metadata: body.metadata ?? {} };
    objects.set(customer.id, customer);
    return { status: 200, body: customer };
  }
  if (method === "POST" && (m = pathname.match(/^\/v1\/customers\/(cus_\w+)$/))) {
    const customer = objects.get(m[1]!);
    if (!customer) return missing(m[1]!);
    if (body.email !== undefined) customer.email = body.email;
    return { status: 200, body: customer };
  }
  if (method === "POST" && pathname === "/v1/setup_intents") {
    if (!objects.has(body.customer)) return missing(body.customer);
    const id = newId("seti");
    const intent = { id, object: "setup_intent", customer: body.customer, usage: body.usage, status: "requires_payment_method", client_secret: `${id}_secret_${randomBytes(8).toString("hex")}`, payment_method: null };
    objects.set(id, intent);
    return { status: 200, body: intent };
  }
  if (method === "GET" && (m = pathname.match(/^\/v1\/payment_methods\/([\w]+)$/))) {
    return objects.has(m[1]!) ? { status: 200, body: objects.get(m[1]!)! } : missing(m[1]!);
  }
  if (method === "POST" && (m = pathname.match(/^\/v1\/payment_methods\/([\w]+)\/detach$/))) {
    const pm = objects.get(m[1]!);
    if (!pm) return missing(m[1]!);
    pm.customer = null;
    return { status: 200, body: pm };
  }
  if (method === "GET" && pathname === "/v1/prices") {
    const keys = ([] as string[]).concat(query.lookup_keys ?? []);
    return { status: 200, body: { object: "list", has_more: false, data: Object.keys(PRICES).filter((id) => keys.includes(PRICES[id]!.lookup_key ?? "")).map(priceObject) } };
  }
  if (method === "POST" && pathname === "/v1/subscriptions") {
    const priceId = body.items?.[0]?.price;
    if (!PRICES[priceId]) return stripeError(400, { type: "invalid_request_error", code: "resource_missing", message: `No such price: '${priceId}'`, param: "items[0][price]" });
    const pm = objects.get(body.default_payment_method);
    if (!pm || pm.customer !== body.customer) return missing(body.default_payment_method);
    const trialDays = Number(body.trial_period_days ?? 0);
    const start = nowS();
    const sub: Obj = {
      id: newId("sub"),
      object: "subscription",
      customer: body.customer,
      status: trialDays ? "trialing" : "active",
      items: { object: "list", data: [{ id: newId("si"), object: "subscription_item", price: priceObject(priceId) }] },
      trial_end: trialDays ? start + trialDays * 86_400 : null,
      current_period_start: start,
      current_period_end: trialDays ? start + trialDays * 86_400 : start + 30 * 86_400,
      cancel_at_period_end: false,
      default_payment_method: pm.id,
      discount: null,
      metadata: body.metadata ?? {},
      schedule: null,
      latest_invoice: null,
      created: start,
    };
    const declines = pm.card_behaviour === "charge_declines";
    const invoice = makeInvoice(sub, trialDays ? 0 : PRICES[priceId]!.amount, "subscription_create", trialDays ? "none" : declines ? "declined" : "paid");
    if (trialDays) invoice.status = "paid";
    if (!trialDays && declines) sub.status = "incomplete";
    sub.latest_invoice = invoice.id;
    objects.set(sub.id, sub);
    return { status: 200, body: expanded(sub, expand) };
  }
  if ((m = pathname.match(/^\/v1\/subscriptions\/([\w]+)$/))) {
    const sub = objects.get(m[1]!);
    if (!sub) return missing(m[1]!);
    if (method === "POST") {
      if (body.default_payment_method) sub.default_payment_method = body.default_payment_method;
      const newPrice = body.items?.[0]?.price;
      if (newPrice) {
        if (!PRICES[newPrice] || body.items[0].id !== sub.items.data[0].id) return stripeError(400, { type: "invalid_request_error", message: "Invalid items", param: "items" });
        const pm = objects.get(sub.default_payment_method);
        const old = sub.items.data[0].price;
        const declines = pm?.card_behaviour === "charge_declines";
        // always_invoice: the difference is charged now; pending_if_incomplete: a declined upgrade changes nothing.
        const invoice = makeInvoice({ ...sub, items: { data: [{ price: priceObject(newPrice) }] } }, Math.max(0, PRICES[newPrice]!.amount - old.unit_amount), "subscription_update", declines ? "declined" : "paid");
        if (!declines || body.payment_behavior !== "pending_if_incomplete") sub.items.data[0].price = priceObject(newPrice);
        sub.latest_invoice = invoice.id;
      }
      if (body.cancel_at_period_end !== undefined) sub.cancel_at_period_end = body.cancel_at_period_end === "true";
      if (body.metadata) {
        sub.metadata = { ...sub.metadata, ...body.metadata };
        for (const [k, v] of Object.entries(body.metadata)) if (v === "") delete sub.metadata[k];
      }
    }
    return { status: 200, body: expanded(sub, expand) };
  }
  if (method === "POST" && pathname === "/v1/subscription_schedules") {
    const sub = objects.get(body.from_subscription);
    if (!sub) return missing(body.from_subscription);
    if (sub.schedule) return stripeError(400, { type: "invalid_request_error", message: "You cannot migrate a subscription that is already attached to a schedule" });
    const schedule = { id: newId("sub_sched"), object: "subscription_schedule", subscription: sub.id, status: "active", phases: [], end_behavior: "release" };
    objects.set(schedule.id, schedule);
    sub.schedule = schedule.id;
    return { status: 200, body: schedule };
  }
  if (method === "POST" && (m = pathname.match(/^\/v1\/subscription_schedules\/([\w]+)(\/release)?$/))) {
    const schedule = objects.get(m[1]!);
    if (!schedule) return missing(m[1]!);
    if (m[2]) {
      objects.get(schedule.subscription)!.schedule = null;
      schedule.status = "released";
    } else Object.assign(schedule, { phases: body.phases, end_behavior: body.end_behavior });
    return { status: 200, body: schedule };
  }
  if (method === "GET" && (m = pathname.match(/^\/v1\/invoices\/([\w]+)$/))) {
    return objects.has(m[1]!) ? { status: 200, body: expanded(objects.get(m[1]!)!, expand) } : missing(m[1]!);
  }
  if (method === "POST" && (m = pathname.match(/^\/v1\/invoices\/([\w]+)\/pay$/))) {
    const invoice = objects.get(m[1]!);
    if (!invoice) return missing(m[1]!);
    const pm = objects.get(body.payment_method);
    const intent = objects.get(invoice.payment_intent)!;
    if (pm?.card_behaviour === "charge_declines") {
      intent.status = "requires_payment_method";
      intent.last_payment_error = { type: "card_error", code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds." };
      return stripeError(402, { type: "card_error", code: "card_declined", decline_code: "insufficient_funds", message: "Your card has insufficient funds.", payment_intent: intent });
    }
    intent.status = "succeeded";
    intent.last_payment_error = null;
    invoice.status = "paid";
    return { status: 200, body: invoice };
  }
  return stripeError(404, { type: "invalid_request_error", message: `Unrecognized request URL (${method}: ${pathname})` });
}

const fake = http.createServer((req, res) => {
  let text = "";
  req.on("data", (chunk) => (text += chunk));
  req.on("end", () => {
    const url = new URL(req.url!, "http://stripe.local");
    const body = req.method === "POST" ? parseForm(text) : {};
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    requests.push({ method: req.method!, url: req.url!, body, idempotencyKey: key, authorization: (req.headers.authorization as string | undefined) ?? null });
    const send = (status: number, payload: string) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": newId("req") });
      res.end(payload);
    };
    if (req.headers.authorization !== `Bearer ${SECRET_KEY}`) return send(401, JSON.stringify({ error: { type: "invalid_request_error", message: "Invalid API Key provided" } }));
    // Stripe answers a repeated idempotency key with the first answer (and runs nothing again).
    if (key && idempotent.has(key)) {
      const first = idempotent.get(key)!;
      return send(first.status, first.body);
    }
    const answer =
      failAnswersTo === `${req.method} ${url.pathname}`
        ? stripeError(500, { type: "api_error", message: "An unknown error occurred" })
        : route(req.method!, url.pathname, body, parseForm(url.search.slice(1)));
    const payload = JSON.stringify(answer.body);
    if (key && req.method === "POST") idempotent.set(key, { status: answer.status, body: payload });
    // A lost answer (the work was done): the SDK must retry with the same key and get the first result.
    if (dropAnswerTo === `${req.method} ${url.pathname}`) {
      dropAnswerTo = null;
      req.socket.destroy();
      return;
    }
    send(answer.status, payload);
  });
});

/** What Stripe.js does in the browser: confirms the setup intent with a card, which attaches it to the customer. */
function confirmWithStripeJs(clientSecret: string, card: { brand: string; last4: string; behaviour?: "charge_declines" }): string {
  const intent = [...objects.values()].find((o) => o.object === "setup_intent" && o.client_secret === clientSecret)!;
  const pm = { id: newId("pm"), object: "payment_method", customer: intent.customer, type: "card", card: { brand: card.brand, last4: card.last4, exp_month: 12, exp_year: 2031 }, billing_details: { name: "Ana Silva" }, card_behaviour: card.behaviour ?? "succeeds" };
  objects.set(pm.id, pm);
  intent.status = "succeeded";
  intent.payment_method = pm.id;
  return pm.id;
}

// ---- Cutroom with STRIPE_* set ----

let server: TestServer;
let base = "";
let plansDir = "";

function writePlansFile(): string {
  plansDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-stripe-plans-"));
  const plans = PLAN_CATALOGUE.map((p) => (p.id === "standard_month" ? { ...p, stripe_price: "price_std_m" } : p));
  const file = path.join(plansDir, "plans.json");
  fs.writeFileSync(file, JSON.stringify({ plans }));
  return file;
}

async function call(token: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) {
  const res = await server.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}
const userByEmail = (email: string) => server.db.selectFrom("users").select(["id", "email"]).where("email", "=", email).executeTakeFirstOrThrow();
const subscription = async (token: string) => (await call(token, "GET", "/user/payment/subscription")).body;

/** Stripe's signature: t=<seconds>,v1=<hex HMAC-SHA256 of "t.payload"> with the endpoint's secret. */
function sign(payload: string, secret = WEBHOOK_SECRET, t = nowS()): string {
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${payload}`).digest("hex")}`;
}

/** Delivers an event over HTTP as Stripe does. */
async function deliver(event: Obj, signature?: string) {
  const payload = JSON.stringify(event);
  const res = await fetch(`${base}/api/v1/payment/webhook`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature ?? sign(payload) }, body: payload });
  return { status: res.status, body: await res.json() };
}
const event = (type: string, object: Obj, created = nowS()) => ({ id: newId("evt"), object: "event", api_version: "2025-02-24.acacia", type, created, livemode: false, data: { object: structuredClone(object) } });

async function userWithCard(behaviour?: "charge_declines") {
  const { token, email } = await server.signUp();
  const intent = await call(token, "GET", "/user/payment/setupintent");
  expect(intent.status).toBe(200);
  const pm = confirmWithStripeJs(intent.body.client_secret, { brand: "visa", last4: behaviour ? "0341" : "4242", behaviour });
  const saved = await call(token, "POST", "/user/payment/methods", { payment_method: pm });
  expect(saved.status).toBe(201);
  return { token, email, card: saved.body.id as string };
}

async function subscribed(plan = "standard_month") {
  const user = await userWithCard();
  const started = await call(user.token, "PUT", "/user/payment/subscription", { plan, payment: user.card });
  expect(started.body.change).toBe("trial_started");
  const sub = [...objects.values()].filter((o) => o.object === "subscription").at(-1)!;
  return { ...user, sub };
}

beforeAll(async () => {
  await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  const stripeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
  server = await startTestServer(
    { PLANS_FILE: writePlansFile(), STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: stripeUrl },
    { startRunner: false },
  );
  base = await listen(server);
});
afterAll(async () => {
  await server?.close();
  await new Promise((resolve) => fake.close(resolve));
  if (plansDir) fs.rmSync(plansDir, { recursive: true, force: true });
});

describe("configuration", () => {
  it("selects Stripe when its three keys are set, the local gateway when none is, and refuses half of them", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-stripe-config-"));
    try {
      expect(loadConfig({ DATA_DIR: dir }).payments.gateway).toEqual({ kind: "local" });
      expect(loadConfig({ DATA_DIR: dir, STRIPE_SECRET_KEY: "sk_test_x", STRIPE_PUBLISHABLE_KEY: "pk_test_x", STRIPE_WEBHOOK_SECRET: "whsec_x" }).payments.gateway).toMatchObject({ kind: "stripe", publishableKey: "pk_test_x" });
      expect(() => loadConfig({ DATA_DIR: dir, STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(/together/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(server.localGateway).toBeNull();
    const mode = (secretKey: string) => createStripeGateway({ secretKey, publishableKey: "pk", webhookSecret: "whsec_x", prices: {} }).mode;
    expect([mode("sk_live_x"), mode("rk_live_x"), mode("sk_test_x"), mode("rk_test_x")]).toEqual(["live", "live", "test", "test"]);
  });

  it("tells the card form it is Stripe in test mode with the publishable key (never the secret)", async () => {
    const { token } = await server.signUp();
    const info = await subscription(token);
    expect(info.payment_mode).toEqual({ gateway: "stripe", mode: "test", publishable_key: PUBLISHABLE_KEY, local_gateway_url: null });
    expect(JSON.stringify(info)).not.toContain(SECRET_KEY);
    // The local gateway's card endpoint is not there with Stripe.
    const local = await server.app.inject({ method: "POST", url: "/local-gateway/v1/setup_intents/confirm", payload: {} });
    expect(local.statusCode).toBe(404);
  });
});

describe("customers, setup intents and cards", () => {
  it("creates one Stripe customer with an idempotency key and answers the setup intent's client secret", async () => {
    const { token, email } = await server.signUp();
    const user = await userByEmail(email);
    const before = requests.length;
    const first = await call(token, "GET", "/user/payment/setupintent");
    const second = await call(token, "GET", "/user/payment/setupintent");
    expect(first.status).toBe(200);
    expect(first.body.client_secret).toMatch(/^seti_\w+_secret_\w+$/);
    expect(second.body.client_secret).not.toBe(first.body.client_secret);
    const made = requests.slice(before);
    const customers = made.filter((r) => r.url === "/v1/customers");
    expect(customers).toHaveLength(1);
    expect(customers[0]!.body).toMatchObject({ email: user.email, metadata: { user_id: String(user.id) } });
    expect(customers[0]!.idempotencyKey).toBeTruthy();
    const intents = made.filter((r) => r.url === "/v1/setup_intents");
    expect(intents).toHaveLength(2);
    expect(intents[0]!.body).toMatchObject({ customer: expect.stringMatching(/^cus_/), usage: "off_session", payment_method_types: ["card"] });
    // The key goes in the Authorization header, never in a URL.
    for (const r of made) {
      expect(r.authorization).toBe(`Bearer ${SECRET_KEY}`);
      expect(r.url).not.toContain(SECRET_KEY);
    }
  });

  it("gives a user the local gateway knew a new Stripe customer", async () => {
    const { token, email } = await server.signUp();
    const user = await userByEmail(email);
    await server.db.updateTable("users").set({ stripe_id: "cus_local_0123456789abcdef" }).where("id", "=", user.id).execute();
    const intent = await call(token, "GET", "/user/payment/setupintent");
    expect(intent.status).toBe(200);
    const row = await server.db.selectFrom("users").select("stripe_id").where("id", "=", user.id).executeTakeFirstOrThrow();
    expect(row.stripe_id).toMatch(/^cus_(?!local)/);
    expect(objects.get(row.stripe_id!)).toMatchObject({ email });
  });

  it("gives the Stripe customer the account's new address once an e-mail change is confirmed (issue 16)", async () => {
    const { token, email } = await server.signUp();
    await call(token, "GET", "/user/payment/setupintent");
    const customer = (await server.db.selectFrom("users").select("stripe_id").where("email", "=", email).executeTakeFirstOrThrow()).stripe_id!;
    const fresh = `stripe-moved-${Date.now()}@example.com`;
    expect((await call(token, "POST", "/user/email", { email: fresh, password: "secret123" })).status).toBe(200);
    const link = new URL(server.mails.filter((m) => m.to === fresh).at(-1)!.links![0]!);
    expect((await server.app.inject({ method: "GET", url: link.pathname + link.search })).headers.location).toBe("/email-changed?status=changed");
    expect(requests.filter((r) => r.url === `/v1/customers/${customer}`).map((r) => r.body)).toEqual([{ email: fresh }]);
    expect(objects.get(customer)).toMatchObject({ email: fresh });
  });

  it("saves a card Stripe.js confirmed as brand and last four; another customer's card is a 404", async () => {
    const ana = await userWithCard();
    const methods = await call(ana.token, "GET", "/user/payment/methods");
    expect(methods.body.data).toEqual([expect.objectContaining({ id: ana.card, brand: "visa", last_four: "4242", exp_month: 12, exp_year: 2031 })]);
    const { token: other } = await server.signUp();
    await call(other, "GET", "/user/payment/setupintent");
    const stolen = await call(other, "POST", "/user/payment/methods", { payment_method: ana.card });
    expect(stolen.status).toBe(404);
    const unknown = await call(other, "POST", "/user/payment/methods", { payment_method: "pm_nope" });
    expect(unknown.status).toBe(404);
  });
});

describe("subscriptions", () => {
  it("starts a 14-day trial on the plan's Stripe price with an idempotency key", async () => {
    const { token, card } = await userWithCard();
    const before = requests.length;
    const started = await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: card });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ subscription_updated: true, change: "trial_started" });
    const create = requests.slice(before).find((r) => r.method === "POST" && r.url === "/v1/subscriptions")!;
    expect(create.body).toMatchObject({ items: [{ price: "price_std_m" }], trial_period_days: "14", default_payment_method: card, payment_behavior: "allow_incomplete", metadata: { plan: "standard_month" } });
    expect(create.idempotencyKey).toMatch(/^cutroom-sub-/);
    // The answer already shows the plan (the webhook that follows changes nothing).
    const info = started.body.subscription;
    expect(info.stripe_plan).toBe("standard_month");
    expect(info.stripe_subscription).toMatchObject({ status: "trialing", plan: "standard_month" });
    expect(info.trial_ends_at).toBeTruthy();
    expect((await call(token, "GET", "/user/limits")).body).toMatchObject({ plan: { id: "standard_month" }, video_tier: 2 });
  });

  it("finds a plan without stripe_price by its lookup key", async () => {
    const { token, card } = await userWithCard();
    const before = requests.length;
    const started = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_month", payment: card });
    expect(started.body.change).toBe("trial_started");
    const made = requests.slice(before);
    const lookup = made.find((r) => r.url.startsWith("/v1/prices"))!;
    expect(parseForm(lookup.url.split("?")[1]!)).toMatchObject({ lookup_keys: ["professional_month"] });
    expect(made.find((r) => r.url === "/v1/subscriptions")!.body.items).toEqual([{ price: "price_pro_m" }]);
    expect(started.body.subscription.stripe_plan).toBe("professional_month");
  });

  it("answers Stripe's card decline with the local gateway's code and words", async () => {
    const { token, sub } = await subscribed();
    // Stripe's renewal fails: the invoice stays open with a declined payment, the subscription past due.
    const renewal = makeInvoice(sub, 3900, "subscription_cycle", "declined");
    sub.status = "past_due";
    sub.latest_invoice = renewal.id;
    expect((await deliver(event("invoice.payment_failed", renewal))).status).toBe(200);
    expect((await deliver(event("customer.subscription.updated", sub))).status).toBe(200);
    let info = await subscription(token);
    expect(info.stripe_plan).toBe("standard_month");
    expect(info.stripe_subscription.status).toBe("past_due");
    expect(info.latest_payment).toMatchObject({ status: "failed", amount: 3900, reason: "subscription_cycle", failure_code: "card_declined", failure_message: CARD_MESSAGES.card_declined });
    // Paying it again with a card Stripe declines (402 card_error): the same answer as the local gateway's.
    const intent = await call(token, "GET", "/user/payment/setupintent");
    const poor = confirmWithStripeJs(intent.body.client_secret, { brand: "visa", last4: "0341", behaviour: "charge_declines" });
    expect((await call(token, "POST", "/user/payment/methods", { payment_method: poor })).status).toBe(201);
    const retried = await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: poor });
    expect(retried.status).toBe(200);
    expect(retried.body.change).toBe("payment_failed");
    expect(retried.body.payment).toMatchObject({ status: "failed", failure_code: "card_declined", failure_message: CARD_MESSAGES.card_declined });
    expect(requests.some((r) => r.url === `/v1/invoices/${renewal.id}/pay` && r.body.payment_method === poor)).toBe(true);
    info = await subscription(token);
    expect(info.stripe_subscription.status).toBe("past_due");
  });

  it("a retried call after a lost answer opens one subscription (the idempotency key is sent again)", async () => {
    const { token, card } = await userWithCard();
    const before = requests.length;
    dropAnswerTo = "POST /v1/subscriptions";
    const started = await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: card });
    expect(started.body.change).toBe("trial_started");
    const creates = requests.slice(before).filter((r) => r.method === "POST" && r.url === "/v1/subscriptions");
    expect(creates).toHaveLength(2);
    expect(creates[1]!.idempotencyKey).toBe(creates[0]!.idempotencyKey);
    const customer = (await userByEmail((await call(token, "GET", "/user")).body.email)).id;
    const stripeCustomer = (await server.db.selectFrom("users").select("stripe_id").where("id", "=", customer).executeTakeFirstOrThrow()).stripe_id;
    expect([...objects.values()].filter((o) => o.object === "subscription" && o.customer === stripeCustomer)).toHaveLength(1);
  });

  it("upgrades now on the new price, schedules a downgrade for the period end, and a cancellation drops it", async () => {
    const { token, sub } = await subscribed();
    sub.status = "active";
    sub.trial_end = null;
    await deliver(event("customer.subscription.updated", sub));
    let before = requests.length;
    const up = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_month" });
    expect(up.body).toMatchObject({ subscription_updated: true, change: "upgraded", subscription: { stripe_plan: "professional_month" } });
    expect(up.body.payment).toMatchObject({ status: "succeeded", amount: 4000, reason: "subscription_update" });
    const update = requests.slice(before).find((r) => r.method === "POST" && r.url === `/v1/subscriptions/${sub.id}`)!;
    expect(update.body).toMatchObject({ items: [{ id: sub.items.data[0].id, price: "price_pro_m" }], proration_behavior: "always_invoice", payment_behavior: "pending_if_incomplete" });

    before = requests.length;
    const down = await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month" });
    expect(down.body).toMatchObject({ change: "downgrade_scheduled", subscription: { stripe_plan: "professional_month", stripe_subscription: { plan: "professional_month", pending_plan: "standard_month" } } });
    const made = requests.slice(before);
    expect(made.find((r) => r.url === "/v1/subscription_schedules")!.body).toEqual({ from_subscription: sub.id });
    const phases = made.find((r) => r.url.startsWith("/v1/subscription_schedules/") && !r.url.endsWith("/release"))!.body.phases;
    expect(phases[0]).toMatchObject({ items: [{ price: "price_pro_m" }], end_date: String(sub.current_period_end) });
    expect(phases[1]).toMatchObject({ items: [{ price: "price_std_m" }] });

    // An upgrade while the downgrade waits: the schedule is released first, nothing is pending after.
    const schedule = sub.schedule as string;
    expect(schedule).toMatch(/^sub_sched_/);
    const yearly = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_year" });
    expect(yearly.body).toMatchObject({ change: "upgraded", subscription: { stripe_plan: "professional_year", stripe_subscription: { plan: "professional_year", pending_plan: null } } });
    expect(requests.some((r) => r.url === `/v1/subscription_schedules/${schedule}/release`)).toBe(true);
    expect(sub.schedule).toBeNull();

    const cancel = await call(token, "PUT", "/user/payment/subscription", { plan: "free" });
    expect(cancel.body.change).toBe("cancel_scheduled");
    expect(cancel.body.subscription.stripe_subscription).toMatchObject({ pending_plan: null, cancel_at: expect.any(String) });
    expect(cancel.body.subscription.renews_at).toBeNull();
    expect(sub.schedule).toBeNull();
    expect(sub.cancel_at_period_end).toBe(true);
  });
});

describe("webhooks", () => {
  it("customer.subscription.updated and deleted move the user's plan as the local gateway's events do", async () => {
    const { token, sub } = await subscribed();
    sub.items.data[0].price = priceObject("price_pro_m");
    sub.status = "active";
    sub.trial_end = null;
    const updated = await deliver(event("customer.subscription.updated", sub));
    expect(updated).toEqual({ status: 200, body: { received: true, duplicate: false } });
    let info = await subscription(token);
    expect(info.stripe_plan).toBe("professional_month");
    expect(info.stripe_subscription.status).toBe("active");
    expect((await call(token, "GET", "/user/limits")).body).toMatchObject({ plan: { id: "professional_month" }, video_tier: 4 });
    sub.status = "canceled";
    expect((await deliver(event("customer.subscription.deleted", sub, nowS() + 1))).status).toBe(200);
    info = await subscription(token);
    expect(info.stripe_plan).toBe("free");
    expect(info.stripe_subscription).toBeNull();
  });

  it("an unpaid renewal ends on Free: invoice.payment_failed records the failure, deleted takes the plan", async () => {
    const { token, sub } = await subscribed();
    const renewal = makeInvoice(sub, 3900, "subscription_cycle", "declined");
    expect((await deliver(event("invoice.payment_failed", renewal))).status).toBe(200);
    expect((await subscription(token)).latest_payment).toMatchObject({ status: "failed", failure_code: "card_declined" });
    sub.status = "canceled";
    await deliver(event("customer.subscription.deleted", sub, nowS() + 1));
    expect((await subscription(token)).stripe_plan).toBe("free");
  });

  it("refuses forged, tampered and stale signatures with 403 and changes nothing", async () => {
    const { token, sub } = await subscribed();
    sub.status = "canceled";
    const payload = JSON.stringify(event("customer.subscription.deleted", sub));
    const post = (body: string, signature: string) =>
      fetch(`${base}/api/v1/payment/webhook`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": signature }, body });
    expect((await post(payload, sign(payload, "whsec_someone_else"))).status).toBe(403);
    expect((await post(payload.replace("canceled", "cancelled"), sign(payload))).status).toBe(403);
    expect((await post(payload, sign(payload, WEBHOOK_SECRET, nowS() - 3600))).status).toBe(403);
    expect((await fetch(`${base}/api/v1/payment/webhook`, { method: "POST", headers: { "content-type": "application/json" }, body: payload })).status).toBe(403);
    expect((await subscription(token)).stripe_plan).toBe("standard_month");
  });

  it("a replayed event changes nothing", async () => {
    const { token, email, sub } = await subscribed();
    const user = await userByEmail(email);
    sub.items.data[0].price = priceObject("price_pro_m");
    const upgrade = event("customer.subscription.updated", sub, nowS() + 1);
    expect((await deliver(upgrade)).body.duplicate).toBe(false);
    // The operator puts the user back by hand; the same delivery again must not undo that.
    await server.db.updateTable("users").set({ plan_id: "standard_month" }).where("id", "=", user.id).execute();
    const again = await deliver(upgrade);
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
    expect((await subscription(token)).stripe_plan).toBe("standard_month");
  });

  it("ignores an event older than the one applied (Stripe delivers out of order)", async () => {
    const { token, sub } = await subscribed();
    const t = nowS();
    const newer = structuredClone(sub);
    newer.items.data[0].price = priceObject("price_pro_m");
    newer.status = "active";
    const older = structuredClone(sub);
    older.status = "canceled";
    expect((await deliver(event("customer.subscription.updated", newer, t + 60))).body.duplicate).toBe(false);
    const late = await deliver(event("customer.subscription.deleted", older, t + 30));
    expect(late).toEqual({ status: 200, body: { received: true, duplicate: false } });
    const info = await subscription(token);
    expect(info.stripe_plan).toBe("professional_month");
    expect(info.stripe_subscription.status).toBe("active");
  });

  it("a subscription on a price that is none of the plans gives no plan", async () => {
    const { token, sub } = await subscribed();
    sub.items.data[0].price = { id: "price_other_product", object: "price", unit_amount: 500, currency: "usd", lookup_key: null, recurring: { interval: "month", interval_count: 1 } };
    expect((await deliver(event("customer.subscription.updated", sub, nowS() + 1))).status).toBe(200);
    const info = await subscription(token);
    expect(info.stripe_plan).toBe("standard_month");
    expect(info.stripe_subscription.plan).toBe("standard_month");
  });

  it("an invoice of no subscription (a one-time purchase) records no plan payment", async () => {
    const { token, sub } = await subscribed();
    const before = (await subscription(token)).latest_payment;
    const invoice = makeInvoice(sub, 990, "manual", "paid");
    invoice.subscription = null;
    expect((await deliver(event("invoice.paid", invoice))).status).toBe(200);
    expect((await subscription(token)).latest_payment).toEqual(before);
  });

  it("invoice.payment_action_required answers the payment's client secret for the 3-D Secure step", async () => {
    const { token, sub } = await subscribed();
    const renewal = makeInvoice(sub, 3900, "subscription_cycle", "action");
    expect((await deliver(event("invoice.payment_action_required", renewal))).status).toBe(200);
    const intent = objects.get(renewal.payment_intent)!;
    expect((await subscription(token)).latest_payment).toMatchObject({ status: "requires_action", amount: 3900, client_secret: intent.client_secret });
    // Confirmed in the browser with Stripe.js, then Stripe says it is paid.
    intent.status = "succeeded";
    renewal.status = "paid";
    expect((await deliver(event("invoice.paid", renewal))).status).toBe(200);
    expect((await subscription(token)).latest_payment).toMatchObject({ status: "succeeded", client_secret: null });
  });

  it("acknowledges events Cutroom does not act on", async () => {
    const res = await deliver(event("customer.created", { id: "cus_x", object: "customer" }));
    expect(res).toEqual({ status: 200, body: { received: true, duplicate: false } });
  });
});

describe("secrets", () => {
  it("a real server logging at info level never writes the Stripe keys, even when Stripe fails", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-stripe-logs-"));
    const logFile = path.join(dataDir, "..", `cutroom-stripe-logs-${process.pid}.log`);
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const url = `http://127.0.0.1:${port}`;
    let child: ChildProcess | undefined;
    try {
      child = spawnServer({
        port,
        dataDir,
        logFile,
        env: { PUBLIC_URL: url, LOG_LEVEL: "info", CAPTCHA: "off", STRIPE_SECRET_KEY: SECRET_KEY, STRIPE_PUBLISHABLE_KEY: PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET, STRIPE_API_URL: `http://127.0.0.1:${(fake.address() as AddressInfo).port}` },
      });
      await waitFor(async () => (await fetch(`${url}/api/v1/config`).then((r) => r.ok).catch(() => false)) || undefined, 90_000);
      const email = `stripe-logs-${Date.now()}@example.com`;
      const json = (method: string, target: string, body?: unknown, token?: string) =>
        fetch(`${url}${target}`, { method, headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect((await json("POST", "/api/v1/register", { locale: "en", first_name: "Ana", last_name: "Silva", email, password: "secret123", password_confirmation: "secret123", terms: true, "g-recaptcha-response": "" })).status).toBe(201);
      const token = (await (await json("POST", "/api/v1/user/login", { email, password: "secret123" })).json()).api_token as string;
      const intent = await (await json("GET", "/api/v1/user/payment/setupintent", undefined, token)).json();
      expect(intent.payment_mode).toMatchObject({ gateway: "stripe", publishable_key: PUBLISHABLE_KEY });
      // Stripe down: the setup intent fails (500 logged with its error), a forged webhook is refused.
      failAnswersTo = "POST /v1/setup_intents";
      expect((await json("GET", "/api/v1/user/payment/setupintent", undefined, token)).status).toBe(500);
      failAnswersTo = null;
      const payload = JSON.stringify(event("customer.created", { id: "cus_x", object: "customer" }));
      expect((await fetch(`${url}/api/v1/payment/webhook`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": sign(payload, "whsec_forged") }, body: payload })).status).toBe(403);
      expect((await fetch(`${url}/api/v1/payment/webhook`, { method: "POST", headers: { "content-type": "application/json", "stripe-signature": sign(payload) }, body: payload })).status).toBe(200);
      child.kill("SIGTERM");
      await new Promise((resolve) => child!.once("exit", resolve));
      const log = fs.readFileSync(logFile, "utf8");
      expect(log).toContain("/api/v1/user/payment/setupintent");
      expect(log).toContain("/api/v1/payment/webhook");
      // The failure was logged with Stripe's error, so its absence of keys means something.
      expect(log).toContain("An unknown error occurred");
      for (const secret of [SECRET_KEY, WEBHOOK_SECRET, SECRET_KEY.slice(8), WEBHOOK_SECRET.slice(6)]) expect(log).not.toContain(secret);
    } finally {
      failAnswersTo = null;
      if (child && child.exitCode === null) {
        child.kill("SIGKILL");
        await new Promise((resolve) => child!.once("exit", resolve));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
      fs.rmSync(logFile, { force: true });
    }
  }, 150_000);
});
