import { expect, test, type Page } from "@playwright/test";
import { apiToken, createUser, signIn } from "./helpers";

/** Signs a new, verified creator in and opens /account from the user menu's "My plan". */
async function openAccount(page: Page) {
  const { email } = await createUser(page.request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  // "My plan" opens /account inside the app: no page load (the marker survives).
  await page.evaluate(() => ((window as { sameDocument?: boolean }).sameDocument = true));
  await page.getByRole("button", { name: /Account menu for/ }).click();
  await page.getByRole("menuitem", { name: /My plan/ }).click();
  await expect(page).toHaveURL(/\/account$/);
  expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await expect(page.getByRole("heading", { name: "Account", exact: true })).toBeVisible();
}

async function fillCard(page: Page, number: string) {
  await page.getByLabel("Name on card").fill("Rui Costa");
  await page.getByLabel("Card number").fill(number);
  await page.getByLabel("Expiry (MM/YY)").fill("12/34");
  await page.getByLabel("Security code").fill("123");
}

const methods = (page: Page) => page.getByRole("region", { name: "Payment methods" });
/** The saved cards (the card form's list of test cards is a list too). */
const savedCards = (page: Page) => methods(page).getByRole("listitem").filter({ hasText: "Expires" });

test("a free creator sees quotas and the Free plan, saves the 4242 test card and removes it", async ({ page }) => {
  await openAccount(page);

  const quotas = page.getByRole("region", { name: "Quotas" });
  await expect(quotas.getByRole("meter", { name: "Available length" })).toBeVisible();
  await expect(quotas.getByRole("meter", { name: "Available size" })).toHaveAttribute("aria-valuetext", /GB/);
  await expect(quotas.getByText("Longest file")).toBeVisible();
  await expect(quotas.getByText("Largest file")).toBeVisible();
  // Free users get the Upgrade prompt on the storage side (SPEC §2, video_tier below 1).
  await expect(quotas.getByRole("button", { name: "Upgrade" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Current plan" }).getByText("Free", { exact: true })).toBeVisible();
  // The Free plan has no render notifications, so no toggle (SPEC §6).
  await expect(page.getByRole("region", { name: "Notifications" })).toHaveCount(0);
  // The prompt brings the plan picker into view and gives it the focus.
  await quotas.getByRole("button", { name: "Upgrade" }).click();
  await expect(page.getByRole("region", { name: "Plans" })).toBeFocused();

  await expect(methods(page).getByText("No saved cards yet.")).toBeVisible();
  await methods(page).getByRole("button", { name: "Add a card" }).click();
  // The local gateway never takes real money, and says so (issue 16).
  await expect(methods(page).getByText("Test mode", { exact: true })).toBeVisible();
  await expect(methods(page).getByText("4242 4242 4242 4242")).toBeVisible();

  // A name on the card is required (SPEC §5).
  await page.getByLabel("Card number").fill("4242 4242 4242 4242");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(page.getByText("Enter the name on the card.")).toBeVisible();

  await fillCard(page, "4242 4242 4242 4242");
  await page.getByRole("button", { name: "Save card" }).click();
  const saved = savedCards(page);
  await expect(saved).toHaveCount(1);
  await expect(saved).toContainText("Visa");
  await expect(saved).toContainText("•••• 4242");
  await expect(saved).toContainText("Expires 12/34");

  await methods(page).getByRole("button", { name: "Remove Visa ending in 4242" }).click();
  const dialog = page.getByRole("alertdialog", { name: "Remove this card?" });
  await expect(dialog).toBeVisible();
  await dialog.getByRole("button", { name: "Remove card" }).click();
  await expect(methods(page).getByText("No saved cards yet.")).toBeVisible();
  await expect(saved).toHaveCount(0);
});

test("a declined card says so; a 3-D Secure card is saved after the test-mode challenge", async ({ page }) => {
  await openAccount(page);
  await methods(page).getByRole("button", { name: "Add a card" }).click();

  await fillCard(page, "4000 0000 0000 0002");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(methods(page).getByRole("alert")).toHaveText("Your card was declined. Try another card or contact your bank.");

  await page.getByLabel("Card number").fill("1234 5678 9012 3456");
  await page.getByRole("button", { name: "Save card" }).click();
  await expect(methods(page).getByRole("alert")).toHaveText("Your card number is incorrect.");

  await page.getByLabel("Card number").fill("4000 0027 6000 3184");
  await page.getByRole("button", { name: "Save card" }).click();
  const challenge = page.getByRole("dialog", { name: "Confirm with your bank (test mode)" });
  await expect(challenge).toBeVisible();
  await challenge.getByRole("button", { name: "Complete authentication" }).click();
  await expect(challenge).toBeHidden();
  await expect(savedCards(page)).toContainText("•••• 3184");
});

test("at 360 px the account page fits and a card can be added with the keyboard alone", async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await openAccount(page);
  await expect(page.getByRole("region", { name: "Quotas" })).toBeVisible();

  const addCard = methods(page).getByRole("button", { name: "Add a card" });
  await addCard.focus();
  await page.keyboard.press("Enter");
  await expect(page.getByLabel("Name on card")).toBeVisible();
  await page.getByLabel("Name on card").focus();
  await page.keyboard.type("Rui Costa");
  await page.keyboard.press("Tab");
  await expect(page.getByLabel("Card number")).toBeFocused();
  await page.keyboard.type("4242424242424242");
  await page.keyboard.press("Tab");
  await page.keyboard.type("12/34");
  await page.keyboard.press("Tab");
  await page.keyboard.type("123");
  // Enter submits the form.
  await page.keyboard.press("Enter");
  await expect(savedCards(page)).toContainText("•••• 4242");

  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
});

test("a subscriber on a trial sees the plan, its cycle and the trial's end, then that it will not renew", async ({ page }) => {
  const { email } = await createUser(page.request);
  const token = await apiToken(page.request, email);
  const call = async (method: "GET" | "POST" | "PUT", url: string, data?: unknown) => {
    const res = await page.request.fetch(url.startsWith("/local-gateway") ? url : `/api/v1${url}`, {
      method,
      headers: url.startsWith("/local-gateway") ? {} : { authorization: `Bearer ${token}`, "idempotency-key": crypto.randomUUID() },
      data,
    });
    expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
    return res.json();
  };
  // The card goes to the local gateway, as the card form sends it; then the account saves its id and subscribes.
  const intent = await call("GET", "/user/payment/setupintent");
  const confirmed = await call("POST", "/local-gateway/v1/setup_intents/confirm", {
    client_secret: intent.client_secret,
    card: { number: "4242424242424242", exp_month: 12, exp_year: 2034, cvc: "123" },
    billing_details: { name: "Rui Costa" },
  });
  await call("POST", "/user/payment/methods", { payment_method: confirmed.payment_method });
  const started = await call("PUT", "/user/payment/subscription", { plan: "starter_month", payment: confirmed.payment_method });
  expect(started.change).toBe("trial_started");
  const trialEnd = new Date(started.subscription.trial_ends_at as string);
  const pad = (n: number) => String(n).padStart(2, "0");
  const englishDate = `${pad(trialEnd.getMonth() + 1)}/${pad(trialEnd.getDate())}/${trialEnd.getFullYear()}`;

  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/account");
  const plan = page.getByRole("region", { name: "Current plan" });
  await expect(plan.getByText("Starter", { exact: true })).toBeVisible();
  await expect(plan.getByText("Billed monthly")).toBeVisible();
  // SPEC §9: MM/DD/YYYY for English.
  await expect(plan.getByText(`Your free trial ends on ${englishDate}.`)).toBeVisible();
  await expect(page.getByRole("region", { name: "Quotas" }).getByRole("button", { name: "Upgrade" })).toHaveCount(0);

  // Paid plans have render notifications (SPEC §6): the toggle shows and calls the server.
  const notifications = page.getByRole("region", { name: "Notifications" });
  const toggle = notifications.getByRole("switch", { name: /Render notifications/ });
  await expect(toggle).toBeChecked();
  await notifications.getByText("Render notifications", { exact: true }).click();
  await expect(toggle).not.toBeChecked();
  await expect.poll(async () => (await call("GET", "/user")).render_notifications).toBe(0);

  // Choosing Free cancels the renewal (SPEC §2 Plan selection flow): the card says so.
  const cancelled = await call("PUT", "/user/payment/subscription", { plan: "free" });
  expect(cancelled.change).toBe("cancel_scheduled");
  await page.reload();
  await expect(plan.getByText(/^This plan will not renew\. It ends on \d{2}\/\d{2}\/\d{4}, then your account goes back to Free\.$/)).toBeVisible();
});

test("offline, the page keeps what it last knew and waits for the connection to change cards", async ({ page, context }) => {
  await openAccount(page);
  await expect(methods(page).getByText("No saved cards yet.")).toBeVisible();
  await context.setOffline(true);
  await expect(page.getByText(/^You are offline\./)).toBeVisible();
  await expect(page.getByRole("region", { name: "Quotas" }).getByRole("meter", { name: "Available size" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Current plan" }).getByText("Free", { exact: true })).toBeVisible();
  await expect(methods(page).getByRole("button", { name: "Add a card" })).toBeDisabled();
  await context.setOffline(false);
  await expect(methods(page).getByRole("button", { name: "Add a card" })).toBeEnabled();
  await expect(page.getByText(/^You are offline\./)).toHaveCount(0);
});
