import path from "node:path";
import Database from "better-sqlite3";
import { expect, test, type Page } from "@playwright/test";
import { E2E_COUPON, E2E_DATA_DIR } from "../../playwright.config";
import { apiToken, createUser, processedProject, signIn, translation, userApi } from "./helpers";

// Intl writes a no-break space between "US$" and the amount.
const money = (text: string) => new RegExp(text.replace(/[.$]/g, (c) => `\\${c}`).replace(/ /g, "[\\s\\u00a0\\u202f]"));

test("a visitor sees the pricing view in English: yearly by default, prices in US$, the comparison table, sign-up calls", async ({ page }) => {
  await page.goto("/pricing");
  await expect(page.getByRole("heading", { name: "Plans and pricing" })).toBeVisible();
  // No left menu; the visitor's top bar.
  await expect(page.getByRole("link", { name: "Return to the app" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Home", exact: true })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main menu" })).toHaveCount(0);

  // Yearly is the default; the annual banner is worded from the plans (3 × the monthly hours).
  await expect(page.getByRole("radio", { name: "Yearly" }).or(page.getByRole("button", { name: "Yearly" }))).toHaveAttribute("aria-checked", "true");
  await expect(page.getByText("Yearly plans give up to 3 times more hours of AI editing every month.")).toBeVisible();

  const cards = page.getByRole("listitem").filter({ has: page.getByRole("heading", { level: 3 }) });
  const professional = cards.filter({ has: page.getByRole("heading", { name: "Professional", exact: true }) });
  await expect(professional).toContainText(money("US$ 708.00"));
  await expect(professional).toContainText("billed yearly");
  await expect(professional.getByRole("link", { name: "Try for free" })).toHaveAttribute("href", "/register");
  const basic = cards.filter({ has: page.getByRole("heading", { name: "Basic", exact: true }) });
  await expect(basic).toContainText(money("US$ 0.00"));
  await expect(basic.getByRole("link", { name: "Sign up free" })).toBeVisible();

  const table = page.getByRole("table", { name: "Compare plans" });
  await expect(table.getByRole("row", { name: /AI editing per month/ })).toContainText("30 hours");
  await expect(table.getByRole("row", { name: /Resolution/ })).toContainText("1080p");
  await expect(table.getByRole("row", { name: /Resolution/ })).toContainText("4k");
  await expect(table.getByRole("row", { name: /Storage/ })).toContainText("200 GB");
  await expect(table.getByRole("row", { name: /Longest file/ })).toContainText("90 minutes");
  await expect(table.getByRole("row", { name: /Largest file/ })).toContainText("5 GB");
  await expect(table.getByRole("row", { name: /Included features/ })).toContainText("Priority support");

  // Monthly: the free plan, minutes under 120 as minutes.
  await page.getByRole("radio", { name: "Monthly" }).or(page.getByRole("button", { name: "Monthly" })).click();
  await expect(cards.filter({ has: page.getByRole("heading", { name: "Professional", exact: true }) })).toContainText(money("US$ 79.00"));
  await expect(cards.filter({ has: page.getByRole("heading", { name: "Free", exact: true }) })).toContainText("Auto subtitle translation for a limited period");
  await expect(table.getByRole("row", { name: /AI editing per month/ })).toContainText("30 minutes");

  // A 360 px phone: the cards stack and the table scrolls inside its own box; the page never scrolls sideways.
  await page.setViewportSize({ width: 360, height: 780 });
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
});

test("a visitor switches the pricing view to Portuguese: US$ prices with a decimal comma, translated rows", async ({ page }) => {
  await page.goto("/pricing");
  await page.getByRole("radio", { name: "Português" }).or(page.getByRole("button", { name: "Português" })).click();
  await expect(page.getByRole("heading", { name: translation("pt-BR", "Plans and pricing") })).toBeVisible();
  const professional = page.getByRole("listitem").filter({ has: page.getByRole("heading", { name: "Professional", exact: true }) });
  await expect(professional).toContainText(money("US$ 708,00"));
  await expect(professional).toContainText(translation("pt-BR", "billed yearly"));
  const table = page.getByRole("table", { name: translation("pt-BR", "Compare plans") });
  await expect(table.getByRole("row", { name: new RegExp(translation("pt-BR", "Longest file")) })).toBeVisible();
  await expect(table.getByRole("row", { name: new RegExp(translation("pt-BR", "Storage")) })).toContainText("200 GB");
  await expect(page.getByRole("link", { name: translation("pt-BR", "Try for free") }).first()).toHaveAttribute("href", "/register");
});

/** Opens the upgrade flow for a yearly plan from /account. */
async function openUpgrade(page: Page, plan: string) {
  const picker = page.getByRole("region", { name: "Plans" });
  await expect(picker.getByRole("radio", { name: "Yearly" }).or(picker.getByRole("button", { name: "Yearly" }))).toHaveAttribute("aria-checked", "true");
  await picker.getByRole("button", { name: `Choose ${plan}`, exact: true }).click();
  const dialog = page.getByRole("dialog", { name: `Upgrade to ${plan}` });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function fillCard(page: Page, number: string) {
  const form = page.getByRole("form", { name: "Card details" });
  await expect(form).toContainText("Test mode");
  await form.getByLabel("Name on card").fill("Rui Costa");
  await form.getByLabel("Card number").fill(number);
  await form.getByLabel("Expiry (MM/YY)").fill("12/34");
  await form.getByLabel("Security code").fill("123");
  await form.getByRole("button", { name: "Save card" }).click();
}

test("a free user upgrades from the top bar to Professional yearly with a new card: badge, no Upgrade, 1080p exports without watermark", async ({ page, request, baseURL }) => {
  test.setTimeout(300_000);
  const { email } = await createUser(request);
  const token = await apiToken(request, email);
  const projectId = await processedProject(userApi(request, token), baseURL!, token, "Launch talk");

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.getByRole("link", { name: "Upgrade" }).click();
  await page.waitForURL((u) => u.pathname === "/account");

  const dialog = await openUpgrade(page, "Professional");
  await expect(dialog).toContainText(money("US$ 708.00"));
  await expect(dialog).toContainText("free trial");
  await dialog.getByRole("button", { name: "Next" }).click();
  await dialog.getByRole("button", { name: "Add a new card" }).click();
  await fillCard(page, "4242 4242 4242 4242");
  await expect(dialog.getByRole("radio", { name: /visa ending in 4242/i })).toBeChecked();
  await dialog.getByRole("button", { name: "Start free trial" }).click();

  await page.waitForURL((u) => u.pathname.startsWith("/payment/"));
  await expect(page.getByRole("heading", { name: "Your free trial has started" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Upgrade" })).toHaveCount(0);
  await page.getByRole("link", { name: "Back to your account" }).click();
  const current = page.getByRole("region", { name: "Plans" }).getByRole("listitem").filter({ hasText: "My current plan" });
  await expect(current.getByRole("heading", { name: "Professional", exact: true })).toBeVisible();

  // The export form of a project now offers 1080p, and no watermark note.
  await page.goto(`/projects/${projectId}/share`);
  const form = page.getByRole("form", { name: "Export" });
  await expect(form.getByRole("radio", { name: "1080p (Full HD)" })).toBeVisible();
  await expect(form.getByText("On your plan the exported video carries the Cutroom watermark.")).toHaveCount(0);
});

test("a declined card shows its message, and a coupon shows the discounted price for one billing cycle", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/account");

  const dialog = await openUpgrade(page, "Standard");
  const coupon = dialog.getByLabel("Coupon (optional)");
  // An unknown code is marked invalid and hides Next; an empty field clears it.
  await coupon.fill("NOT-A-COUPON");
  await expect(dialog.getByRole("button", { name: "Next" })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog.getByText("This coupon is not valid.")).toBeVisible();
  await expect(dialog.getByRole("button", { name: "Next" })).toHaveCount(0);
  await coupon.fill("");
  await expect(dialog.getByRole("button", { name: "Next" })).toBeVisible();
  // The test coupon: 25 % off US$ 336.00 is US$ 252.00, for the first billing period only.
  await coupon.fill(E2E_COUPON.code);
  await dialog.getByRole("button", { name: "Apply" }).click();
  await expect(dialog).toContainText(money("US$ 252.00"));
  await expect(dialog).toContainText("25% off the first billing period only.");
  await dialog.getByRole("button", { name: "Next" }).click();

  // Paying with no card asks for one.
  await dialog.getByRole("button", { name: "Start free trial" }).click();
  await expect(page.getByText("Select a payment method")).toBeVisible();

  await dialog.getByRole("button", { name: "Add a new card" }).click();
  await fillCard(page, "4000 0000 0000 0002");
  await expect(page.getByRole("form", { name: "Card details" }).getByRole("alert")).toHaveText("Your card was declined. Try another card or contact your bank.");
});

/** The user had the 14-day trial before (an ended subscription): a new plan is charged at once. */
function trialAlreadyUsed(email: string) {
  const db = new Database(path.join(E2E_DATA_DIR, "cutroom.sqlite"));
  try {
    const user = db.prepare("SELECT id FROM users WHERE email = ?").get(email) as { id: number };
    const now = new Date().toISOString();
    db.prepare(
      "INSERT INTO subscriptions (user_id, plan_id, status, current_period_start, current_period_end, gateway, trial_used, created_at, updated_at) VALUES (?, 'free', 'canceled', ?, ?, 'local', 1, ?, ?)",
    ).run(user.id, now, now, now, now);
  } finally {
    db.close();
  }
}

test("a user whose trial is used pays at once with a 3-D Secure card: both confirmations, processing, then success", async ({ page, request }) => {
  const { email } = await createUser(request);
  trialAlreadyUsed(email);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/account");

  const dialog = await openUpgrade(page, "Starter");
  await expect(dialog).not.toContainText("free trial");
  await dialog.getByRole("button", { name: "Next" }).click();
  await dialog.getByRole("button", { name: "Add a new card" }).click();
  await fillCard(page, "4000 0027 6000 3184");
  // The card's setup asks the bank first (the local gateway's test-mode stand-in)…
  await page.getByRole("dialog", { name: "Confirm with your bank (test mode)" }).getByRole("button", { name: "Complete authentication" }).click();
  await expect(dialog.getByRole("radio", { name: /visa ending in 3184/i })).toBeChecked();
  await dialog.getByRole("button", { name: "Pay", exact: true }).click();
  // …and the charge asks again.
  await page.getByRole("dialog", { name: "Confirm with your bank (test mode)" }).getByRole("button", { name: "Complete authentication" }).click();
  await page.waitForURL((u) => u.pathname.startsWith("/payment/"));
  await expect(page.getByRole("heading", { name: "Payment successful" })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByText("You are now on Starter.", { exact: false })).toBeVisible();
});

test("a card that fails when charged says so and changes nothing", async ({ page, request }) => {
  const { email } = await createUser(request);
  trialAlreadyUsed(email);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/account");

  const dialog = await openUpgrade(page, "Starter");
  await dialog.getByRole("button", { name: "Next" }).click();
  await dialog.getByRole("button", { name: "Add a new card" }).click();
  await fillCard(page, "4000 0000 0000 0341");
  await dialog.getByRole("button", { name: "Pay", exact: true }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Your card was declined. Try another card or contact your bank.");
  await expect(page.getByText("payment error", { exact: true })).toBeVisible();
  await expect(page.getByRole("link", { name: "Upgrade" })).toBeVisible();
});
