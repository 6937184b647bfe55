import { afterEach, describe, expect, it } from "vitest";
import { db } from "../../src/db";
import { sunsetIfConfigured } from "../../src/app/sunset";

const config = (sunsetRedirectUrl: string | null) => ({
  key: "config" as const,
  value: {
    captcha: { provider: "off" as const, recaptchaSiteKey: null },
    links: { newAiApp: "", pricing: "", help: "", contact: "", terms: "", forgotPassword: "", aiProduct: "", tipsVideo: "" },
    sunsetRedirectUrl,
    betaHost: false,
    push: { vapidPublicKey: null },
  },
});

afterEach(async () => {
  await db.meta.clear();
  await db.signOutLocally();
});

describe("the navigation reset (SPEC §2), a sunset mode", () => {
  it("does nothing unless SUNSET_REDIRECT_URL is set", async () => {
    await db.meta.put(config(null));
    localStorage.setItem("kept", "1");
    const visited: string[] = [];
    expect(await sunsetIfConfigured((url) => visited.push(url))).toBe(false);
    expect(visited).toEqual([]);
    expect(localStorage.getItem("kept")).toBe("1");
  });

  it("clears storage and cookies, signs the user out and sends the browser to the new address", async () => {
    await db.meta.put(config("https://new.example/"));
    await db.users.put({ key: "me", id: 1 } as never);
    await db.auth.put({ key: "token", token: "t" });
    localStorage.setItem("a", "1");
    sessionStorage.setItem("b", "2");
    document.cookie = "session=abc; path=/";
    const visited: string[] = [];

    expect(await sunsetIfConfigured((url) => visited.push(url))).toBe(true);

    expect(visited).toEqual(["https://new.example/"]);
    expect(localStorage.length).toBe(0);
    expect(sessionStorage.length).toBe(0);
    expect(document.cookie).not.toContain("session=abc");
    expect(await db.currentUser()).toBeNull();
    expect(await db.auth.get("token")).toBeUndefined();
  });
});
