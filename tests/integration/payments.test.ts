/**
 * Issue 16, plans and payments through the local gateway over the real HTTP API: trials, coupons (one
 * billing cycle), declined cards, 3-D Secure, upgrades now (prorated), downgrades and cancellations at the
 * period end, a renewal with no card ending on Free, webhook replays and forgeries, quotas following the
 * plan, owner scoping. The gateway's clock is the test's: moving it ends trials and renews periods.
 */
import { createHmac } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, prorationCharge } from "../../server/domain/billing";
import { PLAN_CATALOGUE } from "../../server/domain/plans";
import { createLocalGateway } from "../../server/payments/local-gateway";
import { bearer, listen, startTestServer, type TestServer } from "./helpers";
import { tusUpload } from "./tus";

const CARDS = { ok: "4242 4242 4242 4242", declined: "4000 0000 0000 0002", chargeDeclines: "4000 0000 0000 0341", threeDs: "4000 0027 6000 3184", mastercard: "5555 5555 5555 4444" };

let server: TestServer;
let base = "";
let now = Date.now();
let plansDir = "";
const clock = { now: () => now };
const events: { raw: string; signature: string; type: string }[] = [];

/** The operator's plans file: the shipped plans, a Free plan with very little storage, and coupons. */
function writePlansFile(): string {
  plansDir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-plans-"));
  const plans = PLAN_CATALOGUE.map((p) => (p.id === "free" ? { ...p, metadata: { ...p.metadata, storage_gb: 0.00001 } } : p));
  const file = path.join(plansDir, "plans.json");
  fs.writeFileSync(
    file,
    JSON.stringify({
      plans,
      coupons: [
        { code: "HALF", percent_off: 50 },
        { code: "PRO20", percent_off: 20, plans: ["professional_month", "professional_year"] },
        { code: "OLD", percent_off: 90, valid: false },
      ],
    }),
  );
  return file;
}

async function call(token: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) {
  const res = await server.app.inject({ method, url: `/api/v1${url}`, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, body: res.json() };
}

/** What the card form does: a setup intent, the card to the gateway's own endpoint, then the card saved. */
async function confirmCard(token: string, number: string) {
  const intent = await call(token, "GET", "/user/payment/setupintent");
  expect(intent.status).toBe(200);
  const res = await server.app.inject({
    method: "POST",
    url: "/local-gateway/v1/setup_intents/confirm",
    payload: { client_secret: intent.body.client_secret, card: { number, exp_month: 12, exp_year: new Date(now).getUTCFullYear() + 3, cvc: "123" }, billing_details: { name: "Ana Silva" } },
  });
  return { status: res.statusCode, body: res.json(), clientSecret: intent.body.client_secret as string };
}

async function addCard(token: string, number: string): Promise<string> {
  const confirmed = await confirmCard(token, number);
  expect(confirmed.status).toBe(200);
  if (confirmed.body.status === "requires_action") {
    const done = await server.app.inject({ method: "POST", url: "/local-gateway/v1/intents/authenticate", payload: { client_secret: confirmed.clientSecret, outcome: "complete" } });
    expect(done.json().status).toBe("succeeded");
  }
  const saved = await call(token, "POST", "/user/payment/methods", { payment_method: confirmed.body.payment_method });
  expect(saved.status).toBe(201);
  return saved.body.id as string;
}

const subscription = async (token: string) => (await call(token, "GET", "/user/payment/subscription")).body;
const limits = async (token: string) => (await call(token, "GET", "/user/limits")).body;

/** Moves the gateway's clock and runs what became due (as the server's timer does). */
async function advance(ms: number) {
  now += ms;
  await server.localGateway!.tick();
}

/** A user past the trial, on a paid plan charged once with 4242. */
async function activeUser(plan: string) {
  const { token } = await server.signUp();
  const card = await addCard(token, CARDS.ok);
  const started = await call(token, "PUT", "/user/payment/subscription", { plan, payment: card });
  expect(started.body.change).toBe("trial_started");
  await advance(14 * DAY_MS + 60_000);
  const sub = await subscription(token);
  expect(sub.stripe_subscription.status).toBe("active");
  return { token, card };
}

beforeAll(async () => {
  server = await startTestServer({ PLANS_FILE: writePlansFile(), RATE_LIMIT_COUPON: "8", RATE_LIMIT_CARDS: "1000" }, { paymentsClock: clock, startRunner: false });
  base = await listen(server);
  // Every event the gateway sends, kept so the tests can deliver it again over HTTP.
  server.localGateway!.setWebhookSink(async (raw, signature) => {
    events.push({ raw, signature, type: JSON.parse(raw).type });
    await server.payments.handleWebhook(raw, signature);
  });
});
afterAll(async () => {
  await server?.close();
  if (plansDir) fs.rmSync(plansDir, { recursive: true, force: true });
});

describe("plans", () => {
  it("lists the operator's plans with amounts from the server, and the free plan", async () => {
    const month = await server.app.inject({ method: "GET", url: "/api/v1/payment/plans?interval=month" });
    const ids = month.json().map((p: { id: string }) => p.id);
    expect(ids).toEqual(expect.arrayContaining(["free", "starter_month", "standard_month", "professional_month"]));
    expect(ids).not.toContain("starter_year");
    const standard = month.json().find((p: { id: string }) => p.id === "standard_month");
    expect(standard).toMatchObject({ amount: 3900, amount_decimal: "3900", interval: "month", metadata: { monthly_minutes: 300, video_tier: 2, storage_gb: 100 } });
    const free = await server.app.inject({ method: "GET", url: "/api/v1/payment/freeplan" });
    expect(free.json()).toMatchObject({ id: "free", amount: 0, metadata: { storage_gb: 0.00001 } });
  });

  it("refuses a price sent by the client, and charges the catalogue's", async () => {
    const { token } = await server.signUp();
    const card = await addCard(token, CARDS.ok);
    const forged = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_month", payment: card, amount: 1 });
    expect(forged.status).toBe(422);
    expect(forged.body.code).toBe("validation_failed");
    const unknown = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_free_forever", payment: card });
    expect(unknown.status).toBe(404);
    expect((await subscription(token)).stripe_plan).toBe("free");
    const ok = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_month", payment: card });
    expect(ok.body.subscription_updated).toBe(true);
    await advance(14 * DAY_MS + 60_000);
    expect((await subscription(token)).latest_payment).toMatchObject({ status: "succeeded", amount: 7900, reason: "subscription_cycle" });
  });
});

describe("cards", () => {
  it("saves a card as brand, last four and expiry, and answers that payments are in test mode", async () => {
    const { token } = await server.signUp();
    const intent = await call(token, "GET", "/user/payment/setupintent");
    expect(intent.body.client_secret).toMatch(/^seti_local_\w+_secret_\w+$/);
    expect(intent.body.payment_mode).toMatchObject({ gateway: "local", mode: "test", local_gateway_url: expect.stringMatching(/\/local-gateway\/v1$/) });
    await addCard(token, CARDS.mastercard);
    const list = await call(token, "GET", "/user/payment/methods");
    expect(list.body.data).toEqual([expect.objectContaining({ brand: "mastercard", last_four: "4444", exp_month: 12, name: "Ana Silva" })]);
    // No card number anywhere on our side: not in our tables, not in the gateway's.
    const rows = JSON.stringify([await server.db.selectFrom("payment_methods").selectAll().execute(), await server.db.selectFrom("local_gateway_objects").selectAll().execute()]);
    expect(rows).not.toContain("5555555555554444");
    expect(rows).not.toContain("5555 5555 5555 4444");
  });

  it("declines 4000 0000 0000 0002 with Stripe's card_declined message and saves nothing", async () => {
    const { token } = await server.signUp();
    const declined = await confirmCard(token, CARDS.declined);
    expect(declined.status).toBe(402);
    expect(declined.body.error).toEqual({ code: "card_declined", message: "Your card was declined." });
    const real = await confirmCard(token, "4111 1111 1111 1111");
    expect(real.body.error.code).toBe("card_declined");
    expect(real.body.error.message).toContain("test mode");
    const typo = await confirmCard(token, "4242 4242 4242 4241");
    expect(typo.body.error.code).toBe("incorrect_number");
    expect((await call(token, "GET", "/user/payment/methods")).body.data).toEqual([]);
  });

  it("needs the 3-D Secure step before a 4000 0027 6000 3184 card can be saved", async () => {
    const { token } = await server.signUp();
    const confirmed = await confirmCard(token, CARDS.threeDs);
    expect(confirmed.body.status).toBe("requires_action");
    const early = await call(token, "POST", "/user/payment/methods", { payment_method: confirmed.body.payment_method });
    expect(early.status).toBe(404);
    const done = await server.app.inject({ method: "POST", url: "/local-gateway/v1/intents/authenticate", payload: { client_secret: confirmed.clientSecret, outcome: "complete" } });
    expect(done.json().status).toBe("succeeded");
    const saved = await call(token, "POST", "/user/payment/methods", { payment_method: confirmed.body.payment_method });
    expect(saved.status).toBe(201);
    expect(saved.body.last_four).toBe("3184");
  });

  it("a paid plan needs a card", async () => {
    const { token } = await server.signUp();
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "starter_month" });
    expect(res.status).toBe(422);
    expect(res.body.fields).toEqual({ payment: "required" });
  });
});

describe("subscriptions", () => {
  it("starts a 14-day trial that charges nothing, then bills at its end", async () => {
    const { token } = await server.signUp();
    const card = await addCard(token, CARDS.ok);
    const started = now;
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: card });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ subscription_updated: true, change: "trial_started", payment: null });
    const sub = res.body.subscription;
    expect(sub.stripe_plan).toBe("standard_month");
    expect(sub.stripe_subscription.status).toBe("trialing");
    expect(Date.parse(sub.trial_ends_at) - started).toBeGreaterThanOrEqual(14 * DAY_MS - 1000);
    expect(Date.parse(sub.trial_ends_at) - started).toBeLessThanOrEqual(14 * DAY_MS + 1000);
    expect(sub.trial_available).toBe(false);
    expect((await limits(token)).plan.id).toBe("standard_month");
    await advance(13 * DAY_MS);
    expect((await subscription(token)).latest_payment).toBeNull();
    await advance(DAY_MS + 60_000);
    const after = await subscription(token);
    expect(after.stripe_subscription.status).toBe("active");
    expect(after.latest_payment).toMatchObject({ status: "succeeded", amount: 3900, percent_off: null });
    expect(after.renews_at).toBe(after.stripe_subscription.current_period_end);
  });

  it("checks coupons on the server and applies one to a single billing cycle", async () => {
    const { token } = await server.signUp();
    const check = await call(token, "GET", "/payment/coupon?code=half&plan=standard_month");
    expect(check.body).toEqual({ coupon: { isValid: true, percent_off: 50, code: "half" }, plan: { id: "standard_month", amount: 3900, discounted_amount: 1950 } });
    expect((await call(token, "GET", "/payment/coupon?code=OLD&plan=standard_month")).body.coupon.isValid).toBe(false);
    expect((await call(token, "GET", "/payment/coupon?code=PRO20&plan=standard_month")).body.coupon.isValid).toBe(false);
    expect((await call(token, "GET", "/payment/coupon?code=PRO20&plan=professional_year")).body.plan.discounted_amount).toBe(56640);
    const card = await addCard(token, CARDS.ok);
    const bad = await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: card, coupon: "NOPE" });
    expect(bad.status).toBe(422);
    expect(bad.body.fields).toEqual({ coupon: "invalid" });
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: card, coupon: "half" });
    expect(res.body.subscription.stripe_subscription.coupon).toEqual({ code: "HALF", percent_off: 50 });
    await advance(14 * DAY_MS + 60_000);
    expect((await subscription(token)).latest_payment).toMatchObject({ status: "succeeded", amount: 1950, percent_off: 50 });
    expect((await subscription(token)).stripe_subscription.coupon).toBeNull();
    await advance(32 * DAY_MS);
    expect((await subscription(token)).latest_payment).toMatchObject({ status: "succeeded", amount: 3900, percent_off: null });
    const amounts = await server.db.selectFrom("payments").select("amount").where("user_id", "=", (await call(token, "GET", "/user")).body.id).orderBy("id").execute();
    expect(amounts.map((a) => a.amount)).toEqual([1950, 3900]);
  });

  it("upgrades now with a prorated charge, and a coupon takes off that charge only", async () => {
    const { token, card } = await activeUser("starter_month");
    const before = await subscription(token);
    await advance(10 * DAY_MS);
    const periodStart = Date.parse(before.stripe_subscription.current_period_start);
    const periodEnd = Date.parse(before.stripe_subscription.current_period_end);
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_month", payment: card, coupon: "PRO20" });
    expect(res.body).toMatchObject({ subscription_updated: true, change: "upgraded" });
    const prorated = prorationCharge({ oldAmount: 1900, newAmount: 7900, sameInterval: true, periodStart: Math.floor(periodStart / 1000) * 1000, periodEnd: Math.floor(periodEnd / 1000) * 1000, now });
    expect(prorated).toBeGreaterThan(0);
    expect(prorated).toBeLessThan(6000);
    expect(res.body.payment).toMatchObject({ status: "succeeded", reason: "subscription_update", percent_off: 20, amount: Math.round((prorated * 80) / 100) });
    expect(res.body.subscription.stripe_plan).toBe("professional_month");
    // The period stays; its renewal is the full new price.
    expect(res.body.subscription.stripe_subscription.current_period_end).toBe(before.stripe_subscription.current_period_end);
    await advance(periodEnd - now + 60_000);
    expect((await subscription(token)).latest_payment).toMatchObject({ status: "succeeded", amount: 7900, percent_off: null, reason: "subscription_cycle" });
  });

  it("a card that needs 3-D Secure upgrades only once the customer confirms", async () => {
    const { token } = await activeUser("starter_month");
    const secure = await addCard(token, CARDS.threeDs);
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: secure });
    expect(res.status).toBe(200);
    expect(res.body.subscription_updated).toBeUndefined();
    expect(res.body.change).toBe("requires_action");
    expect(res.body.payment.status).toBe("requires_action");
    expect(res.body.payment.client_secret).toMatch(/^pi_local_/);
    expect(res.body.subscription.stripe_plan).toBe("starter_month");
    expect((await limits(token)).plan.id).toBe("starter_month");
    const done = await server.app.inject({ method: "POST", url: "/local-gateway/v1/intents/authenticate", payload: { client_secret: res.body.payment.client_secret, outcome: "complete" } });
    expect(done.json().status).toBe("succeeded");
    const after = await subscription(token);
    expect(after.stripe_plan).toBe("standard_month");
    expect(after.latest_payment.status).toBe("succeeded");
    expect((await limits(token)).plan.id).toBe("standard_month");
  });

  it("a refused 3-D Secure step leaves the plan as it was", async () => {
    const { token } = await activeUser("starter_month");
    const secure = await addCard(token, CARDS.threeDs);
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_month", payment: secure });
    const failed = await server.app.inject({ method: "POST", url: "/local-gateway/v1/intents/authenticate", payload: { client_secret: res.body.payment.client_secret, outcome: "fail" } });
    expect(failed.json().status).toBe("requires_payment_method");
    const after = await subscription(token);
    expect(after.stripe_plan).toBe("starter_month");
    expect(after.latest_payment).toMatchObject({ status: "failed", failure_code: "payment_intent_authentication_failure" });
  });

  it("a declined charge answers without subscription_updated and keeps the plan", async () => {
    const { token } = await activeUser("starter_month");
    const bad = await addCard(token, CARDS.chargeDeclines);
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_year", payment: bad });
    expect(res.body.subscription_updated).toBeUndefined();
    expect(res.body.change).toBe("payment_failed");
    expect(res.body.payment).toMatchObject({ status: "failed", failure_code: "card_declined", failure_message: "Your card was declined." });
    expect(res.body.subscription.stripe_plan).toBe("starter_month");
  });

  it("a declined renewal is past due until paid with another card", async () => {
    const { token } = await server.signUp();
    const bad = await addCard(token, CARDS.chargeDeclines);
    await call(token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: bad });
    await advance(14 * DAY_MS + 60_000);
    const due = await subscription(token);
    expect(due.stripe_subscription.status).toBe("past_due");
    expect(due.latest_payment).toMatchObject({ status: "failed", failure_code: "card_declined" });
    expect(due.stripe_plan).toBe("starter_month");
    const good = await addCard(token, CARDS.ok);
    const paid = await call(token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: good });
    expect(paid.body.subscription_updated).toBe(true);
    expect(paid.body.payment).toMatchObject({ status: "succeeded", amount: 1900 });
    expect(paid.body.subscription.stripe_subscription.status).toBe("active");
  });

  it("downgrades at the period end, not before", async () => {
    const { token, card } = await activeUser("professional_month");
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: card });
    expect(res.body).toMatchObject({ subscription_updated: true, change: "downgrade_scheduled", payment: null });
    expect(res.body.subscription.stripe_plan).toBe("professional_month");
    expect(res.body.subscription.stripe_subscription.pending_plan).toBe("starter_month");
    expect((await limits(token)).plan.id).toBe("professional_month");
    const end = Date.parse(res.body.subscription.stripe_subscription.current_period_end);
    await advance(end - now - 60_000);
    expect((await limits(token)).plan.id).toBe("professional_month");
    await advance(120_000);
    const after = await subscription(token);
    expect(after.stripe_plan).toBe("starter_month");
    expect(after.latest_payment).toMatchObject({ status: "succeeded", amount: 1900 });
    expect((await limits(token)).monthly_minutes).toBe(120);
  });

  it("cancelling renewal keeps the plan to the period end, then Free", async () => {
    const { token } = await activeUser("standard_month");
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "free" });
    expect(res.body).toMatchObject({ subscription_updated: true, change: "cancel_scheduled" });
    const sub = res.body.subscription;
    expect(sub.stripe_subscription.cancel_at).toBe(sub.stripe_subscription.current_period_end);
    expect(sub.renews_at).toBeNull();
    expect(sub.stripe_plan).toBe("standard_month");
    await advance(Date.parse(sub.stripe_subscription.current_period_end) - now + 60_000);
    const after = await subscription(token);
    expect(after.stripe_plan).toBe("free");
    expect(after.stripe_subscription).toBeNull();
    expect((await limits(token)).plan.id).toBe("free");
    // Nothing was charged for the period after the cancellation.
    expect(after.latest_payment.reason).toBe("subscription_cycle");
    expect(Date.parse(after.latest_payment.created_at)).toBeLessThan(Date.parse(sub.stripe_subscription.current_period_end));
  });

  it("a renewal with no card to charge ends on Free", async () => {
    const { token } = await server.signUp();
    const card = await addCard(token, CARDS.ok);
    await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: card });
    const removed = await call(token, "DELETE", `/user/payment/methods/${card}`);
    expect(removed.body.data).toEqual([]);
    await advance(14 * DAY_MS + 60_000);
    const after = await subscription(token);
    expect(after.stripe_plan).toBe("free");
    expect(after.latest_payment).toMatchObject({ status: "failed", failure_code: "payment_method_missing" });
    expect((await limits(token)).plan.id).toBe("free");
    // The trial was spent: subscribing again bills at once.
    const again = await addCard(token, CARDS.ok);
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: again });
    expect(res.body).toMatchObject({ subscription_updated: true, change: "subscribed", payment: { status: "succeeded", amount: 3900, reason: "subscription_create" } });
  });
});

describe("renewals that go wrong", () => {
  it("a renewal whose card was removed charges the newest card left", async () => {
    const { token } = await server.signUp();
    const first = await addCard(token, CARDS.ok);
    await call(token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: first });
    const second = await addCard(token, CARDS.mastercard);
    await call(token, "DELETE", `/user/payment/methods/${first}`);
    await advance(14 * DAY_MS + 60_000);
    const after = await subscription(token);
    expect(after.stripe_plan).toBe("starter_month");
    expect(after.latest_payment).toMatchObject({ status: "succeeded", amount: 1900 });
    expect((await call(token, "GET", "/user/payment/methods")).body.data.map((m: { id: string }) => m.id)).toEqual([second]);
  });

  it("a past-due subscription nobody pays ends on Free after the grace week", async () => {
    const { token } = await server.signUp();
    const bad = await addCard(token, CARDS.chargeDeclines);
    await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: bad });
    await advance(14 * DAY_MS + 60_000);
    expect((await subscription(token)).stripe_subscription.status).toBe("past_due");
    await advance(6 * DAY_MS);
    expect((await limits(token)).plan.id).toBe("standard_month");
    await advance(DAY_MS + 60_000);
    const after = await subscription(token);
    expect(after.stripe_plan).toBe("free");
    expect(after.stripe_subscription).toBeNull();
  });

  it("a first payment left at the 3-D Secure step gives nothing and expires", async () => {
    const { token } = await server.signUp();
    const card = await addCard(token, CARDS.ok);
    await call(token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: card });
    await call(token, "PUT", "/user/payment/subscription", { plan: "free" });
    await advance(14 * DAY_MS + 60_000);
    expect((await subscription(token)).trial_available).toBe(false);
    const secure = await addCard(token, CARDS.threeDs);
    const res = await call(token, "PUT", "/user/payment/subscription", { plan: "professional_month", payment: secure });
    expect(res.body.change).toBe("requires_action");
    expect(res.body.payment).toMatchObject({ status: "requires_action", amount: 7900, reason: "subscription_create" });
    expect(res.body.subscription.stripe_subscription.status).toBe("incomplete");
    expect((await limits(token)).plan.id).toBe("free");
    await advance(24 * 3600_000);
    const after = await subscription(token);
    expect(after.stripe_subscription).toBeNull();
    expect(after.stripe_plan).toBe("free");
    const late = await server.app.inject({ method: "POST", url: "/local-gateway/v1/intents/authenticate", payload: { client_secret: res.body.payment.client_secret, outcome: "complete" } });
    expect(late.statusCode).toBe(404);
    expect((await limits(token)).plan.id).toBe("free");
  });
});

describe("two servers on one database", () => {
  it("renew a period once, whichever ticks first", async () => {
    const { token } = await server.signUp();
    const card = await addCard(token, CARDS.ok);
    await call(token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: card });
    const userId = (await call(token, "GET", "/user")).body.id;
    // A second gateway on the same database, as a server starting while the old one still runs.
    const appSecret = (await server.db.selectFrom("settings").select("value").where("key", "=", "app_secret").executeTakeFirstOrThrow()).value;
    const other = createLocalGateway({ db: server.db, clock, webhookSecret: createHmac("sha256", appSecret).update("local-gateway-webhooks").digest("hex"), cardEndpoint: "http://other/local-gateway/v1" });
    other.setWebhookSink(async (raw, signature) => void (await server.payments.handleWebhook(raw, signature)));
    now += 14 * DAY_MS + 60_000;
    await Promise.all([server.localGateway!.tick(), other.tick(), server.localGateway!.tick(), other.tick()]);
    const charges = await server.db.selectFrom("payments").select(["amount", "status"]).where("user_id", "=", userId).execute();
    expect(charges).toEqual([{ amount: 1900, status: "succeeded" }]);
  });
});

describe("webhooks", () => {
  it("a replayed event changes nothing, and a forged one is refused", async () => {
    const { token } = await server.signUp();
    const card = await addCard(token, CARDS.ok);
    const from = events.length;
    await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: card });
    const trialEvent = events.slice(from).find((e) => e.type === "customer.subscription.created")!;
    expect(trialEvent).toBeDefined();
    await call(token, "PUT", "/user/payment/subscription", { plan: "free" });
    const snapshot = async () => [await server.db.selectFrom("subscriptions").selectAll().execute(), await server.db.selectFrom("users").select(["id", "plan_id"]).execute(), await server.db.selectFrom("payments").selectAll().execute()];
    const before = await snapshot();
    // The creation event again (it would undo the cancellation if applied twice).
    const replay = await server.app.inject({ method: "POST", url: "/api/v1/payment/webhook", headers: { "content-type": "application/json", "stripe-signature": trialEvent.signature }, payload: trialEvent.raw });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: true, duplicate: true });
    expect(await snapshot()).toEqual(before);
    expect((await subscription(token)).stripe_subscription.cancel_at).not.toBeNull();
    // Same body, made-up event id: the signature no longer matches.
    const forged = trialEvent.raw.replace(/"id":"evt_local_\w+"/, '"id":"evt_local_forged"');
    const refused = await server.app.inject({ method: "POST", url: "/api/v1/payment/webhook", headers: { "content-type": "application/json", "stripe-signature": trialEvent.signature }, payload: forged });
    expect(refused.statusCode).toBe(403);
    const unsigned = await server.app.inject({ method: "POST", url: "/api/v1/payment/webhook", headers: { "content-type": "application/json" }, payload: trialEvent.raw });
    expect(unsigned.statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });
});

describe("quotas follow the plan", () => {
  it("an upgrade raises the limits, minutes reset each billing period, a downgrade over storage keeps files and blocks uploads", async () => {
    // Media rows carry the wall clock's time: the payments clock comes back to it so this upload falls in the period.
    now = Date.now();
    const { token } = await server.signUp();
    const free = await limits(token);
    expect(free).toMatchObject({ plan: { id: "free" }, monthly_minutes: 30, video_tier: 0 });
    const card = await addCard(token, CARDS.ok);
    await call(token, "PUT", "/user/payment/subscription", { plan: "standard_month", payment: card });
    expect(await limits(token)).toMatchObject({ plan: { id: "standard_month" }, monthly_minutes: 300, video_tier: 2, storage_gb: 100, upload_max_length_minutes: 60, upload_max_size_mb: 4096 });
    expect((await call(token, "GET", "/user")).body.video_tier).toBe(2);

    const uploaded = await tusUpload(base, token, path.resolve(__dirname, "../fixtures/voice.m4a"), { name: "voice.m4a" });
    const added = await call(token, "POST", "/library", { media_file: uploaded.id, name: "voice.m4a", locale: "en-US", process: 1, has_speech: 1 });
    expect(added.status).toBe(201);
    const used = await call(token, "GET", "/user/quotas");
    expect(used.body.processingMinutes).toBeLessThan(300);
    expect(used.body.processingMinutes).toBeGreaterThan(299);
    // The trial's end starts a new billing period: the minutes are whole again.
    await advance(14 * DAY_MS + 60_000);
    expect((await call(token, "GET", "/user/quotas")).body.processingMinutes).toBe(300);

    // Cancel: Free from the period end, whose storage (about 10 KB here) is below what the user keeps.
    const cancelled = await call(token, "PUT", "/user/payment/subscription", { plan: "free" });
    await advance(Date.parse(cancelled.body.subscription.stripe_subscription.current_period_end) - now + 60_000);
    expect((await limits(token)).plan.id).toBe("free");
    const quotas = await call(token, "GET", "/user/quotas");
    expect(quotas.body.storageBytes).toBe(0);
    const library = await call(token, "GET", "/library");
    expect(library.body.data.map((m: { name: string }) => m.name)).toContain("voice.m4a");
    await expect(tusUpload(base, token, path.resolve(__dirname, "../fixtures/voice.m4a"), { name: "again.m4a" })).rejects.toThrow();
  });
});

describe("owner scoping and limits", () => {
  it("another user's card is a 404 everywhere and stays theirs", async () => {
    const owner = await server.signUp();
    const ownerCard = await addCard(owner.token, CARDS.ok);
    const other = await server.signUp();
    await addCard(other.token, CARDS.ok);
    expect((await call(other.token, "DELETE", `/user/payment/methods/${ownerCard}`)).status).toBe(404);
    expect((await call(other.token, "POST", "/user/payment/methods", { payment_method: ownerCard })).status).toBe(404);
    expect((await call(other.token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: ownerCard })).status).toBe(404);
    expect((await call(other.token, "GET", "/user/payment/methods")).body.data.map((m: { id: string }) => m.id)).not.toContain(ownerCard);
    expect((await call(owner.token, "GET", "/user/payment/methods")).body.data.map((m: { id: string }) => m.id)).toEqual([ownerCard]);
    expect((await subscription(other.token)).stripe_plan).toBe("free");
  });

  it("two plan choices sent at once open one subscription, not two", async () => {
    const { token } = await server.signUp();
    const card = await addCard(token, CARDS.ok);
    const both = await Promise.all([
      call(token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: card }),
      call(token, "PUT", "/user/payment/subscription", { plan: "starter_month", payment: card }),
    ]);
    expect(both.map((r) => r.body.change).sort()).toEqual(["trial_started", "unchanged"]);
    const customer = (await server.db.selectFrom("users").select("stripe_id").where("id", "=", (await call(token, "GET", "/user")).body.id).executeTakeFirstOrThrow()).stripe_id;
    const subs = await server.db.selectFrom("local_gateway_objects").select("id").where("kind", "=", "subscription").where("customer", "=", customer).execute();
    expect(subs).toHaveLength(1);
  });

  it("needs a signed-in user for every payment call", async () => {
    for (const [method, url] of [["GET", "/user/payment/subscription"], ["PUT", "/user/payment/subscription"], ["GET", "/user/payment/methods"], ["GET", "/user/payment/setupintent"], ["GET", "/payment/coupon?code=HALF&plan=starter_month"]] as const) {
      expect((await server.app.inject({ method, url: `/api/v1${url}` })).statusCode).toBe(401);
    }
  });

  it("limits coupon checks so codes cannot be guessed", async () => {
    const { token } = await server.signUp();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) statuses.push((await call(token, "GET", `/payment/coupon?code=GUESS${i}&plan=starter_month`)).status);
    expect(statuses.slice(0, 8).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(8)).toEqual([429, 429]);
  });
});
