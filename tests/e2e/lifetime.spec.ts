import { expect, test } from "@playwright/test";
import { createUser, readStore, signIn } from "./helpers";

/**
 * Issue 16, a lifetime deal bought in the browser (SPEC §2 Lifetime-deal purchase, /congratulations, the
 * lifetime welcome page and modal): /ltd/buy/tier2 counts down to the local gateway's test-mode payment page,
 * the 4242 card pays, /congratulations shows the tier, the welcome page saves the name and terms, /account
 * shows the lifetime tier and the welcome modal once.
 */
test("buys Lifetime Tier 2 with 4242, then sees the tier and the welcome modal once", async ({ page }) => {
  const { email } = await createUser(page.request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));

  await page.goto("/ltd/buy/tier2");
  const tiers = page.getByRole("list", { name: "Lifetime tiers" });
  await expect(tiers.getByRole("heading", { name: "Tier 1" })).toBeVisible();
  await expect(tiers.getByRole("heading", { name: "Tier 3" })).toBeVisible();
  const tier2 = tiers.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Tier 2" }) });
  await expect(tier2).toHaveAttribute("aria-current", "true");
  await expect(tier2.getByText("US$ 98.00")).toBeVisible();
  await expect(tier2.getByText("Up to 90 minutes per file")).toBeVisible();
  await expect(tier2.getByText("150.0 GB of storage")).toBeVisible();
  // SPEC §9: the payment page opens 2 s after the session loads; the countdown shows meanwhile.
  await expect(page.getByText(/Opening the payment page in [12] s…/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Go to payment now" })).toBeVisible();
  await page.waitForURL(/\/local-gateway\/checkout\/cs_test_local_/, { timeout: 10_000 });

  // The local gateway's page never takes real money, and says so first.
  await expect(page.getByText("TEST MODE: no real money is taken")).toBeVisible();
  await expect(page.getByText("US$ 98.00", { exact: true })).toBeVisible();
  await page.getByLabel("Name on card").fill("Rui Costa");
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByLabel("Expiry (MM / YY)").fill("12 / 34");
  await page.getByLabel("Security code").fill("123");
  await page.getByRole("button", { name: "Pay US$ 98.00" }).click();

  await page.waitForURL(/\/congratulations$/);
  await expect(page.getByText("Your lifetime deal, Tier 2, is active.")).toBeVisible();
  await page.getByRole("link", { name: "Set up your account" }).click();

  // The lifetime welcome page: first name, last name, language, terms.
  await page.waitForURL(/\/ltd\/welcome$/);
  await page.getByLabel("First name").fill("Rui");
  await page.getByRole("button", { name: "Save and continue" }).click();
  await expect(page.getByText("Accept the terms of use to continue.")).toBeVisible();
  await page.getByText("I agree to the").click();
  await expect(page.getByRole("checkbox", { name: /I agree to the/ })).toBeChecked();
  await page.getByRole("button", { name: "Save and continue" }).click();

  await page.waitForURL(/\/account$/);
  const welcome = page.getByRole("dialog", { name: "Welcome to Cutroom Lifetime, Tier 2" });
  await expect(welcome).toBeVisible();
  await expect(welcome.getByText("About 150 GB of free storage")).toBeVisible();
  await welcome.getByRole("button", { name: "Start editing" }).click();
  await expect(welcome).toBeHidden();
  await expect(page.getByRole("region", { name: "Current plan" }).getByText("Lifetime deal, Tier 2")).toBeVisible();
  // No plan picker for lifetime users (SPEC §2).
  await expect(page.getByRole("region", { name: "Plans" })).toHaveCount(0);

  // Closed once: not shown again, even after a reload.
  await expect.poll(async () => (await page.request.get("/api/v1/user", { headers: await authHeader(page) })).json().then((u) => u.show_wizard)).toBe(0);
  await page.reload();
  await expect(page.getByRole("region", { name: "Current plan" }).getByText("Lifetime deal, Tier 2")).toBeVisible();
  await expect(page.getByRole("dialog")).toHaveCount(0);

  // A lifetime user who opens the purchase page again goes to /account.
  await page.goto("/ltd/buy/tier3");
  await page.waitForURL(/\/account$/);
});

/** The signed-in page's bearer token, from the app's own store. */
async function authHeader(page: import("@playwright/test").Page) {
  const rows = await readStore(page, "cutroom", "auth");
  return { authorization: `Bearer ${rows.find((r) => r.key === "token")?.token ?? ""}` };
}

test("at 360 px: /ltd/buy without a tier waits for a choice; Buy now (keyboard) records the analytics event and counts down", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  const { email } = await createUser(page.request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));

  await page.goto("/ltd/buy");
  const tiers = page.getByRole("list", { name: "Lifetime tiers" });
  await expect(tiers.getByRole("heading", { level: 2 })).toHaveCount(3);
  // No tier in the address: nothing is opened until the user chooses.
  await expect(page.getByText(/Opening the payment page/)).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

  const buy = page.getByRole("button", { name: "Buy Tier 1 now" });
  // The track() port (issue 17): the event goes to this app's own API, never to a third party.
  const tracked = page.waitForRequest((r) => r.url().endsWith("/api/v1/analytics/events") && r.postDataJSON()?.name === "Lifetime Deal Buy Now Clicked");
  await buy.focus();
  await page.keyboard.press("Enter");
  await page.waitForURL(/\/ltd\/buy\/tier1$/);
  expect((await tracked).postDataJSON()).toEqual({ name: "Lifetime Deal Buy Now Clicked", path: "/ltd/buy", props: { tier: "tier1" } });
  await expect(page.getByText(/Opening the payment page in [12] s…/)).toBeVisible();
  await page.getByRole("button", { name: "Go to payment now" }).click();
  await page.waitForURL(/\/local-gateway\/checkout\/cs_test_local_/);
  await expect(page.getByText("US$ 49.00", { exact: true })).toBeVisible();
  // Cancel goes back to the tier's purchase page.
  await page.getByRole("link", { name: "Cancel and go back" }).click();
  await page.waitForURL(/\/ltd\/buy\/tier1$/);
});
