import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { cleanup, render, screen } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import type { PublicConfig } from "../../api/config";
import { db } from "../../src/db";
import { Tips } from "../../src/features/home/Tips";

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

describe("home's tips and updates (issue 17)", () => {
  it("are the ones shipped with the app while the server has no feed", async () => {
    await db.meta.put({ key: "config", value: { links: { tipsVideo: null } } as unknown as PublicConfig });
    await db.meta.put({ key: "homeFeed", value: { entries: null, locale: "en", fetchedAt: new Date().toISOString() } });
    show();
    expect(await screen.findByRole("heading", { name: "Record in a quiet room" })).toBeTruthy();
    expect(screen.getAllByRole("listitem")).toHaveLength(4);
  });

  it("are the operator's feed, in the language it was asked in, with a link to read more", async () => {
    await db.meta.put({ key: "config", value: { links: { tipsVideo: null } } as unknown as PublicConfig });
    await db.meta.put({
      key: "homeFeed",
      value: {
        entries: [
          { id: "a", kind: "update", title: "Cutroom 2.1", body: "Overlays fade in and out.", url: "https://help.example/2.1" },
          { id: "b", kind: "tip", title: "Check your subtitles", body: "Edit any line.", url: null },
        ],
        locale: "en",
        fetchedAt: new Date().toISOString(),
      },
    });
    show();
    expect(await screen.findByRole("heading", { name: "Cutroom 2.1" })).toBeTruthy();
    expect(screen.getAllByRole("listitem")).toHaveLength(2);
    const link = screen.getByRole("link", { name: "Read more: Cutroom 2.1" });
    expect(link.getAttribute("href")).toBe("https://help.example/2.1");
    expect(link.getAttribute("rel")).toBe("noopener noreferrer");
    expect(screen.queryByRole("heading", { name: "Record in a quiet room" })).toBeNull();
  });

  it("fall back to the shipped ones when the feed was read in another language", async () => {
    await db.meta.put({ key: "config", value: { links: { tipsVideo: null } } as unknown as PublicConfig });
    await db.meta.put({ key: "homeFeed", value: { entries: [{ id: "a", kind: "tip", title: "Prüfe", body: "Text", url: null }], locale: "de", fetchedAt: new Date().toISOString() } });
    show();
    expect(await screen.findByRole("heading", { name: "Record in a quiet room" })).toBeTruthy();
    expect(screen.queryByRole("heading", { name: "Prüfe" })).toBeNull();
  });
});
