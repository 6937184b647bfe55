import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// Issue 18: an operator who sets NEW_AI_URL empty gets no new-AI-version banner on screen.
const state = vi.hoisted(() => ({ newAiApp: "https://ai.example.org/" as string | null }));
vi.mock("../../src/app/hooks", () => ({
  useConfig: () => ({ links: { newAiApp: state.newAiApp } }),
  useCurrentUser: () => null,
}));

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(cleanup);

async function banner() {
  const { TopBanner } = await import("../../src/app/TopBanner");
  render(
    <I18nProvider i18n={i18n}>
      <TopBanner />
    </I18nProvider>,
  );
}

describe("the new-AI-version banner", () => {
  it("shows with the operator's link", async () => {
    state.newAiApp = "https://ai.example.org/";
    await banner();
    expect(screen.getByRole("region", { name: "Announcement" })).toBeTruthy();
    expect(screen.getByRole("link", { name: /Try the new version/ }).getAttribute("href")).toBe("https://ai.example.org/");
  });
  it("is gone when the operator turned it off", async () => {
    state.newAiApp = null;
    await banner();
    expect(screen.queryByRole("region", { name: "Announcement" })).toBeNull();
    expect(screen.queryByText(/newer AI version/)).toBeNull();
  });
});
