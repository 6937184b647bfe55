/**
 * Issue 16, the seasonal promotion on the server: off by default (GET /config says nothing); configured, it
 * answers the window and each coupon's discount from the catalogue until the window ends; a code that is
 * not a valid coupon of the plans file stops the start; the promotion's coupon prices a plan on the server.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PLAN_CATALOGUE } from "../../server/domain/plans";
import { bearer, startTestServer, type TestServer } from "./helpers";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-promotion-"));
const plansFile = path.join(dir, "plans.json");
fs.writeFileSync(plansFile, JSON.stringify({ plans: PLAN_CATALOGUE, coupons: [{ code: "WINTER59", percent_off: 59 }, { code: "WINTER20", percent_off: 20 }, { code: "GONE", percent_off: 50, valid: false }] }));
const servers: TestServer[] = [];
afterAll(async () => {
  for (const server of servers) await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const start = async (env: Record<string, string>) => {
  const server = await startTestServer({ PLANS_FILE: plansFile, ...env }, { startRunner: false });
  servers.push(server);
  return server;
};
const config = async (server: TestServer) => (await server.app.inject({ method: "GET", url: "/api/v1/config" })).json();
const iso = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

describe("seasonal promotion", () => {
  it("is off unless an operator sets a window", async () => {
    const server = await start({});
    expect((await config(server)).promotion).toBeNull();
  });

  it("tells the app its window and each coupon's discount while it has not ended", async () => {
    const starts = iso(-3600_000);
    const ends = iso(7 * 86_400_000);
    const server = await start({ PROMOTION_START: starts, PROMOTION_END: ends, PROMOTION_COUPON_ANNUAL: "winter59", PROMOTION_COUPON_MONTHLY: "WINTER20" });
    expect((await config(server)).promotion).toEqual({
      starts_at: starts,
      ends_at: ends,
      coupons: { year: { code: "WINTER59", percent_off: 59 }, month: { code: "WINTER20", percent_off: 20 } },
    });
    // The offer's price is the server's: Professional yearly 708.00 with 59 % off.
    const { token } = await server.signUp();
    const check = await server.app.inject({ method: "GET", url: "/api/v1/payment/coupon?code=WINTER59&plan=professional_year", headers: bearer(token) });
    expect(check.json()).toMatchObject({ coupon: { isValid: true, percent_off: 59 }, plan: { amount: 70800, discounted_amount: 29028 } });
  });

  it("says nothing once its window has ended; an annual-only promotion offers no monthly coupon", async () => {
    const ended = await start({ PROMOTION_START: iso(-14 * 86_400_000), PROMOTION_END: iso(-7 * 86_400_000), PROMOTION_COUPON_ANNUAL: "WINTER59" });
    expect((await config(ended)).promotion).toBeNull();
    const annual = await start({ PROMOTION_START: iso(86_400_000), PROMOTION_END: iso(8 * 86_400_000), PROMOTION_COUPON_ANNUAL: "WINTER59" });
    expect((await config(annual)).promotion.coupons).toEqual({ year: { code: "WINTER59", percent_off: 59 }, month: null });
  });

  it("refuses to start with a code that is not a valid coupon of the plans file", async () => {
    const window = { PROMOTION_START: iso(0), PROMOTION_END: iso(86_400_000) };
    await expect(start({ ...window, PROMOTION_COUPON_ANNUAL: "NOPE" })).rejects.toThrow(/PROMOTION_COUPON_ANNUAL NOPE is not a valid coupon/);
    await expect(start({ ...window, PROMOTION_COUPON_MONTHLY: "GONE" })).rejects.toThrow(/PROMOTION_COUPON_MONTHLY GONE is not a valid coupon/);
  });
});
