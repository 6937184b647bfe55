import Database from "better-sqlite3";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { E2E_DATA_DIR } from "../../playwright.config";
import { createUser, fillRegistration, outboxMailTo, PASSWORD, signIn, translation, uniqueEmail } from "./helpers";

test("a new creator registers through the form, confirms by email, signs in and sees home", async ({ page }) => {
  const email = uniqueEmail("new");
  await page.goto("/");
  await expect(page).toHaveURL(/\/login\?redirect=%2F$/);
  await page.getByRole("link", { name: "Create account" }).click();

  await fillRegistration(page, { first: "Ana", last: "Silva", email });
  // Enter submits.
  await page.getByLabel("Confirm password").press("Enter");

  await expect(page.getByText("User created successfully")).toBeVisible();
  await expect(page.getByText("Check your mailbox: we sent you a link to confirm your e-mail address. Redirecting to login")).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  const mail = await outboxMailTo(email);
  await page.goto(mail.links[0]!);
  await expect(page).toHaveURL(/\/verify-email\?status=verified/);
  await expect(page.getByText("Your email is confirmed.")).toBeVisible();

  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("heading", { name: "Welcome to Cutroom, Ana!" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Open the AI editor" })).toBeVisible();
  await expect(page.getByRole("status", { name: /Storage used/ })).toHaveText("0.0 / 5.0 GB");
  await expect(page.getByRole("link", { name: "Upgrade" })).toBeVisible();
});

test("registration shows every field error at once and keeps what was typed", async ({ page }) => {
  await page.goto("/register");
  await page.getByLabel("Email", { exact: true }).fill("someone@example.com");
  await page.getByLabel("Confirm email").fill("other@example.com");
  await page.getByLabel("Password", { exact: true }).fill("short");
  await page.getByRole("button", { name: "Create account" }).click();

  await expect(page.getByText("Emails are different")).toBeVisible();
  await expect(page.getByText("The password should be at least 8 characters long")).toBeVisible();
  await expect(page.getByText("Accept the terms of use to continue")).toBeVisible();
  await expect(page.getByText("This field is required").first()).toBeVisible();
  await expect(page.getByLabel("Confirm email")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("Email", { exact: true })).toHaveValue("someone@example.com");
});

test("an email that is taken shows the server's refusal under the field", async ({ page, request }) => {
  const { email } = await createUser(request);
  await page.goto("/register");
  await fillRegistration(page, { first: "Ana", last: "Silva", email });
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Create account error")).toBeVisible();
  await expect(page.getByText("This email is already registered")).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test("the referral and the click id travel with the registration", async ({ page }) => {
  const email = uniqueEmail("ref");
  await page.goto("/register/partner7?irclickid=click-42");
  await fillRegistration(page, { first: "Lia", last: "Reis", email });
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("User created successfully")).toBeVisible();

  const db = new Database(path.join(E2E_DATA_DIR, "cutroom.sqlite"), { readonly: true });
  const row = db.prepare("select referral, clickid from users where email = ?").get(email);
  db.close();
  expect(row).toEqual({ referral: "partner7", clickid: "click-42" });
});

test("a wrong password shows the Sign in toast", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email, "not-the-password");
  const toast = page.getByRole("alertdialog").or(page.getByRole("region", { name: /notification/i }));
  await expect(page.getByText("Invalid e-mail address or password")).toBeVisible();
  await expect(toast.getByText("Sign in", { exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\/login/);
});

test("a signed-out visitor goes to /login and comes back to the page they asked for", async ({ page, request }) => {
  const { email } = await createUser(request);
  await page.goto("/open");
  await expect(page).toHaveURL(/\/login\?redirect=%2Fopen$/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/open$/);
  await expect(page.getByRole("heading", { name: "Projects" })).toBeVisible();
});

test("an unverified user waits on verify-email, which moves on by itself once the link is opened", async ({ page, context, request }) => {
  const { email } = await createUser(request, { verified: false });
  await signIn(page, email);
  await expect(page).toHaveURL(/\/verify-email/);
  await page.getByRole("button", { name: "Resend email" }).click();
  await expect(page.getByText("Check your mailbox")).toBeVisible();

  const mail = await outboxMailTo(email);
  const other = await context.newPage();
  await other.goto(mail.links[0]!);
  await other.close();
  // The screen polls every 10 s.
  await expect(page).toHaveURL(/\/$/, { timeout: 15_000 });
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
});

test("switching to Deutsch is saved and survives a reload", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();

  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("menuitem", { name: /Language/ }).click();
  await page.getByRole("menuitemradio", { name: "Deutsch" }).or(page.getByRole("menuitem", { name: "Deutsch" })).click();

  const projectList = translation("de", "Project list");
  await expect(page.getByRole("navigation").getByRole("link", { name: projectList })).toBeVisible();
  await expect(page.locator("html")).toHaveAttribute("lang", "de");

  await page.reload();
  await expect(page.getByRole("navigation").getByRole("link", { name: projectList })).toBeVisible();
  await expect(page.getByText(translation("de", "Seeing errors or a page that never finishes loading? Refresh the page."))).toBeVisible();

  // The choice is on the server too: a new browser signs in and speaks German.
  const me = await request.post("/api/v1/user/login", { data: { email, password: PASSWORD } });
  expect((await me.json()).locale).toBe("de");
});

test("an anonymous visitor can read the sign-in page in Spanish", async ({ page }) => {
  await page.goto("/login");
  await page.getByRole("button", { name: /Language/ }).click();
  await page.getByRole("option", { name: "Español" }).click();
  await expect(page.getByRole("heading", { name: translation("es", "Sign in") })).toBeVisible();
  await page.getByRole("button", { name: translation("es", "Sign in") }).click();
  await expect(page.getByText(translation("es", "This field is required")).first()).toBeVisible();
});

test("the left menu hides below 1023 px and opens on hover", async ({ page, request }) => {
  const { email } = await createUser(request);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signIn(page, email);
  const menu = page.getByRole("navigation", { name: "Main menu" });
  await expect(menu.getByRole("link", { name: "Project list" })).toBeVisible();

  await page.setViewportSize({ width: 1000, height: 800 });
  await expect(menu.getByRole("link", { name: "Project list" })).toBeHidden();
  await menu.hover();
  await expect(menu.getByRole("link", { name: "Project list" })).toBeVisible();
  await menu.getByRole("link", { name: "Media" }).click();
  await expect(page).toHaveURL(/\/library$/);

  await page.mouse.move(900, 700);
  await expect(menu.getByRole("link", { name: "Project list" })).toBeHidden();

  await page.setViewportSize({ width: 360, height: 740 });
  await expect(menu.getByRole("link", { name: "Project list" })).toBeHidden();
  await expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible();
});

test("exit clears the stored user and goes to /login", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await page.getByRole("button", { name: /Account menu/ }).click();
  await page.getByRole("menuitem", { name: "Exit" }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto("/");
  await expect(page).toHaveURL(/\/login\?redirect=/);
});

test("the new-version link carries a one-time code, not the api token", async ({ page, request, context }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await expect(page.getByRole("heading", { name: /Welcome to Cutroom/ })).toBeVisible();
  const token = await page.evaluate(
    () =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open("cutroom");
        open.onsuccess = () => {
          const get = open.result.transaction("auth").objectStore("auth").get("token");
          get.onsuccess = () => resolve(get.result.token);
        };
      }),
  );
  // The banner opens the new version in a new tab; catch where it goes without leaving this machine.
  await context.route(/ai\.cutroom\.app/, (route) => route.fulfill({ status: 200, body: "new version" }));
  const [tab] = await Promise.all([context.waitForEvent("page"), page.getByRole("button", { name: "Try the new version" }).click()]);
  await expect.poll(() => tab.url()).toContain("token=");
  const code = new URL(tab.url()).searchParams.get("token");
  expect(code).toBeTruthy();
  expect(code).not.toBe(token);
});
