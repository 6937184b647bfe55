import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { act, cleanup, render, screen, waitFor } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import type { PublicConfig } from "../../api/config";
import { db } from "../../src/db";
import { Tips } from "../../src/features/home/Tips";

const config = (tipsVideo: string | null) => ({ links: { tipsVideo } }) as unknown as PublicConfig;
const show = () =>
  render(
    <I18nProvider i18n={i18n}>
      <Tips />
    </I18nProvider>,
  );

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(async () => {
  cleanup();
  await db.meta.clear();
});

describe("the home tips video (issue 18)", () => {
  it("is left out when the operator hides it (TIPS_VIDEO_URL empty)", async () => {
    await db.meta.put({ key: "config", value: config(null) });
    show();
    await screen.findByRole("list", { name: "Tips and updates" });
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(document.querySelector("video")).toBeNull();
    expect(screen.queryByText(/Quick tips:/)).toBeNull();
  });

  it("stays hidden while loading and shows once the video has loaded", async () => {
    await db.meta.put({ key: "config", value: config("https://cdn.example/tips.mp4") });
    show();
    await waitFor(() => expect(document.querySelector("video")).not.toBeNull());
    const card = document.querySelector(".tips-video") as HTMLElement;
    expect(card.hidden).toBe(true);
    act(() => void document.querySelector("video")!.dispatchEvent(new Event("loadedmetadata")));
    expect(card.hidden).toBe(false);
  });

  it("is dropped, not left as a dead player, when its host answers with an error", async () => {
    await db.meta.put({ key: "config", value: config("https://unreachable.example/tips.mp4") });
    show();
    await waitFor(() => expect(document.querySelector("video")).not.toBeNull());
    act(() => void document.querySelector("video")!.dispatchEvent(new Event("error")));
    expect(document.querySelector("video")).toBeNull();
    expect(document.querySelector(".tips-video")).toBeNull();
  });
});
