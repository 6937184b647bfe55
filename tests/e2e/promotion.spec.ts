/**
 * Issue 16 in the browser: the seasonal promotion (banner for a free user, modal with the disabled
 * prefilled coupon, a card confirmed with 4242, success that reloads to the paid plan) and a
 * deals-marketplace licence redeemed on /account. The promotion needs its own window and coupons, which the
 * shared e2e server must not have (its banner would show in every spec), so this spec starts its own server
 * (E2E_PORT + 2, data in E2E_DATA_DIR-promotion) after importing a licence code with the operator's script.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { solveChallenge } from "altcha-lib";
import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { PASSWORD, signIn, uniqueEmail } from "./helpers";

const PORT = Number(process.env.E2E_PORT ?? 8181) + 2;
const BASE = `http://localhost:${PORT}`;
const DATA = path.resolve(`${E2E_DATA_DIR}-promotion`);
const PLANS = `${DATA}-plans.json`;
const CODES = `${DATA}-codes.txt`;
const LICENCE = "E2E-DEAL-7Q4M-2026";
const COUPONS = { year: { code: "SEASON59", percent_off: 59 }, month: { code: "SEASON20", percent_off: 20 } };

let server: ChildProcess | undefined;

test.describe.configure({ mode: "serial" });
test.use({ baseURL: BASE });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  fs.rmSync(DATA, { recursive: true, force: true });
  const shipped = JSON.parse(fs.readFileSync(path.resolve("server/payments/plans.json"), "utf8")).plans;
  fs.writeFileSync(PLANS, JSON.stringify({ plans: shipped, coupons: [COUPONS.year, COUPONS.month] }));
  fs.writeFileSync(CODES, `${LICENCE}\n`);
  const env = { ...process.env, DATA_DIR: DATA, PLANS_FILE: PLANS, LOG_LEVEL: "warn" };
  // The operator's import, before the server starts on the same data folder.
  const report = execFileSync(process.execPath, ["--import", "tsx", "scripts/licences-import.ts", CODES, "--product", "appsumo", "--tier", "1"], { env, encoding: "utf8" });
  expect(report).toContain("1 imported");
  expect(report).not.toContain(LICENCE);
  const now = Date.now();
  server = spawn(process.execPath, ["--import", "tsx", "server/start.ts"], {
    env: {
      ...env,
      PORT: String(PORT),
      ALTCHA_MAX_NUMBER: "20000",
      RATE_LIMIT_LOGIN: "200",
      RATE_LIMIT_REGISTER: "200",
      PROMOTION_START: new Date(now - 3600_000).toISOString(),
      PROMOTION_END: new Date(now + 7 * 86_400_000).toISOString(),
      PROMOTION_COUPON_ANNUAL: COUPONS.year.code,
      PROMOTION_COUPON_MONTHLY: COUPONS.month.code,
      APPSUMO_UPGRADE_URL: "https://deals.example/account/redemption/{uuid}",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });
  await expect.poll(async () => (await fetch(`${BASE}/api/v1/config`).catch(() => null))?.ok ?? false, { timeout: 90_000, intervals: [500] }).toBe(true);
});

test.afterAll(async () => {
  if (server && server.exitCode === null) {
    const exited = new Promise((resolve) => server!.once("exit", resolve));
    server.kill("SIGTERM");
    await exited;
  }
});

/** A verified creator on this spec's server (its outbox is in its own data folder). */
async function verifiedUser(request: APIRequestContext) {
  const c = await (await request.get("/api/v1/captcha/challenge")).json();
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  const captcha = Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution!.number, salt: c.salt, signature: c.signature })).toString("base64");
  const email = uniqueEmail("promo");
  const res = await request.post("/api/v1/register", {
    data: { locale: "en", first_name: "Rui", last_name: "Costa", email, password: PASSWORD, password_confirmation: PASSWORD, terms: true, "g-recaptcha-response": captcha },
  });
  expect(res.status()).toBe(201);
  const outbox = path.join(DATA, "outbox");
  let link = "";
  await expect
    .poll(() => {
      const mail = fs.existsSync(outbox)
        ? fs
            .readdirSync(outbox)
            .map((f) => JSON.parse(fs.readFileSync(path.join(outbox, f), "utf8")))
            .find((m) => m.to === email)
        : undefined;
      link = mail?.links?.[0] ?? "";
      return !!link;
    })
    .toBe(true);
  await request.get(link, { maxRedirects: 0 });
  return email;
}

async function signedIn(page: Page) {
  const email = await verifiedUser(page.request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
}

test("a free creator takes the seasonal offer from the banner: disabled prefilled coupon, card confirmed with 4242, the paid plan after the reload", async ({ page }) => {
  await signedIn(page);
  const banner = page.getByRole("region", { name: "Seasonal offer" });
  await expect(banner).toContainText("59% off yearly plans or 20% off monthly plans");
  await banner.getByRole("button", { name: "See the offer" }).click();

  const modal = page.getByRole("dialog", { name: "Seasonal offer" });
  await expect(modal).toBeVisible();
  // Yearly by default, with the yearly coupon prefilled and not editable (SPEC §2).
  await expect(modal.getByRole("radio", { name: "Yearly" })).toBeChecked();
  const coupon = modal.getByLabel("Coupon");
  await expect(coupon).toBeDisabled();
  await expect(coupon).toHaveValue("SEASON59");
  await expect(modal.getByRole("heading", { name: "Professional", exact: true })).toBeVisible();
  // No Free or Basic card.
  await expect(modal.getByRole("heading", { name: "Free", exact: true })).toHaveCount(0);
  await expect(modal.getByRole("heading", { name: "Basic", exact: true })).toHaveCount(0);
  await modal.getByRole("radio", { name: "Monthly" }).click();
  await expect(coupon).toHaveValue("SEASON20");
  await modal.getByRole("radio", { name: "Yearly" }).click();
  await expect(coupon).toHaveValue("SEASON59");

  await modal.getByRole("button", { name: "Choose Professional", exact: true }).click();
  await expect(modal.getByText("Confirm your payment method")).toBeVisible();
  // Professional yearly, US$ 708.00 with 59% off: US$ 290.28 (priced by the server).
  await expect(modal.getByText(/290\.28/)).toBeVisible();
  await expect(modal.getByLabel("Coupon")).toBeDisabled();
  await expect(modal.getByLabel("Coupon")).toHaveValue("SEASON59");

  await modal.getByRole("button", { name: "Add a new card" }).click();
  await modal.getByLabel("Name on card").fill("Rui Costa");
  await modal.getByLabel("Card number").fill("4242 4242 4242 4242");
  await modal.getByLabel("Expiry (MM/YY)").fill("12/34");
  await modal.getByLabel("Security code").fill("123");
  await modal.getByRole("button", { name: "Save card" }).click();
  await expect(modal.getByRole("radio", { name: /visa ending in 4242/i })).toBeChecked();
  await modal.getByRole("button", { name: "Confirm and pay" }).click();

  const success = page.getByRole("dialog", { name: "Welcome to Professional" });
  await expect(success).toBeVisible();
  await expect(success.getByText("Your plan is now Professional.", { exact: false })).toBeVisible();
  await Promise.all([page.waitForEvent("load"), success.getByRole("button", { name: "Close" }).click()]);

  // After the reload: a paid plan, so no banner; /account shows Professional.
  await expect(page.getByRole("region", { name: "Seasonal offer" })).toHaveCount(0);
  await page.goto("/account");
  await expect(page.getByRole("region", { name: "Current plan" }).getByText("Professional", { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "Seasonal offer" })).toHaveCount(0);
});

test("a creator redeems a deals-marketplace licence on /account and sees the tier and the upgrade link", async ({ page }) => {
  await signedIn(page);
  await page.goto("/account");
  const card = page.getByRole("region", { name: "Licence code" });
  await expect(card).toBeVisible();
  await card.getByLabel("Licence code").fill("NOT-A-REAL-CODE");
  await card.getByRole("button", { name: "Redeem" }).click();
  await expect(card.getByText("This licence code is not valid. Check it and try again.")).toBeVisible();

  // Typed in lower case: still the code.
  await card.getByLabel("Licence code").fill(LICENCE.toLowerCase());
  await card.getByRole("button", { name: "Redeem" }).click();
  await expect(page.getByText("Licence redeemed", { exact: true })).toBeVisible();
  await expect(card.getByText("appsumo licence, Tier 1")).toBeVisible();
  await expect(card.getByRole("link", { name: "Change your licence tier on appsumo" })).toHaveAttribute("href", /^https:\/\/deals\.example\/account\/redemption\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("region", { name: "Current plan" }).getByText("Lifetime deal, Tier 1")).toBeVisible();
  // A lifetime licence holder is not a free user: no promotion banner.
  await expect(page.getByRole("region", { name: "Seasonal offer" })).toHaveCount(0);
});

test("on a 360 px phone the banner and the offer fit the screen", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await signedIn(page);
  const banner = page.getByRole("region", { name: "Seasonal offer" });
  await expect(banner).toBeVisible();
  await banner.getByRole("button", { name: "See the offer" }).click();
  const modal = page.getByRole("dialog", { name: "Seasonal offer" });
  await expect(modal.getByRole("button", { name: "Choose Standard" })).toBeVisible();
  const box = await modal.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(360);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await modal.getByRole("button", { name: "Not now" }).click();
  await expect(modal).toHaveCount(0);
  await expect(banner).toBeVisible();
});
