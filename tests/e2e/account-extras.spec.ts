import { expect, test } from "@playwright/test";
import { createUser, outboxMailTo, signIn } from "./helpers";

/** Issue 16, the rest of the account in a real browser: password reset by e-mail, a new name, deleting the account. */

test("forgot password: the mailed link sets a new password, which then signs in", async ({ page, request }) => {
  const { email, password } = await createUser(request);
  await page.goto("/login");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("status")).toContainText("If an account uses this address");

  const mail = await expect.poll(async () => (await outboxMailTo(email)).subject).toBe("Reset your Cutroom password").then(() => outboxMailTo(email));
  await page.goto(mail.links[0]!);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  // SPEC §5's rules: at least 8 characters, both the same.
  await page.getByLabel("New password", { exact: true }).fill("short");
  await page.getByLabel("Confirm new password").fill("different");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("The password should be at least 8 characters long")).toBeVisible();
  await expect(page.getByText("Passwords are different")).toBeVisible();
  await page.getByLabel("New password", { exact: true }).fill("reset-pass-42");
  await page.getByLabel("Confirm new password").fill("reset-pass-42");
  await page.getByRole("button", { name: "Save new password" }).click();
  await page.waitForURL((u) => u.pathname === "/login");

  // The old password no longer works; the new one does.
  await signIn(page, email, password);
  await expect(page.getByText("Invalid e-mail address or password")).toBeVisible();
  await signIn(page, email, "reset-pass-42");
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));

  // The link was single-use.
  await page.goto(mail.links[0]!);
  await page.getByLabel("New password", { exact: true }).fill("another-pass-1");
  await page.getByLabel("Confirm new password").fill("another-pass-1");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByRole("alert")).toContainText("This password reset link has expired or was already used");
});

test("changes the name on /account", async ({ page, request }) => {
  const { email } = await createUser(request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/account");
  const profile = page.getByRole("region", { name: "Profile" });
  await expect(profile.getByLabel("First name")).toHaveValue("Rui");
  await profile.getByLabel("First name").fill("Marta");
  await profile.getByLabel("Last name").fill("Lopes");
  await profile.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Settings updated", { exact: true })).toBeVisible();
  // The server has it: a reload shows the new name.
  await page.reload();
  await expect(page.getByRole("region", { name: "Profile" }).getByLabel("First name")).toHaveValue("Marta");
  const me = await request.post("/api/v1/user/login", { data: { email, password: "secret123" } });
  expect((await me.json()).name).toBe("Marta Lopes");
});

test("deletes the account after the password: back to sign-in, and the old credentials fail", async ({ page, request }) => {
  const { email, password } = await createUser(request);
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/account");
  await page.getByRole("button", { name: "Delete account" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete your account?" });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Password").fill("not-my-password");
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await expect(dialog.getByText("This is not your current password")).toBeVisible();
  await dialog.getByLabel("Password").fill(password);
  await dialog.getByRole("button", { name: "Delete my account" }).click();
  await page.waitForURL((u) => u.pathname === "/login");
  await expect(page.getByText("Your account was deleted")).toBeVisible();

  await signIn(page, email, password);
  await expect(page.getByText("Invalid e-mail address or password")).toBeVisible();
  expect((await request.post("/api/v1/user/login", { data: { email, password } })).status()).toBe(422);
});

test("changes the e-mail address: pending until the link mailed to the new address is opened", async ({ page, request }) => {
  const { email, password } = await createUser(request);
  const fresh = `moved-${Date.now()}@example.com`;
  await signIn(page, email);
  await page.waitForURL((u) => !u.pathname.startsWith("/login"));
  await page.goto("/account");
  const profile = page.getByRole("region", { name: "Profile" });
  await profile.getByLabel("New email").fill(fresh);
  await profile.getByRole("form", { name: "Email" }).getByLabel("Current password").fill(password);
  await profile.getByRole("button", { name: "Change email" }).click();
  await expect(profile.getByText("Waiting for confirmation")).toContainText(fresh);
  await expect(profile.getByText("Your account's address is")).toContainText(email);

  const mail = await outboxMailTo(fresh);
  await page.goto(mail.links[0]!);
  await page.waitForURL((u) => u.pathname === "/email-changed");
  await expect(page.getByRole("status")).toContainText("Your email address is changed");
  await page.getByRole("link", { name: "Go to my account" }).click();
  await expect(page.getByRole("region", { name: "Profile" }).getByText("Your account's address is")).toContainText(fresh);
  await expect(page.getByText("Waiting for confirmation")).toHaveCount(0);
});
