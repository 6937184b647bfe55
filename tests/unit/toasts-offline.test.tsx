import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { act, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";

// Issue 18's lazy toast region: a first toast raised offline, before the region's code was fetched, used to
// take the whole page down ("Something went wrong!"). Now it waits and shows once the connection returns.
let offline = true;
vi.mock("../../src/ui/ToastRegion", async (importOriginal) => {
  if (offline) throw new TypeError("Failed to fetch dynamically imported module");
  return importOriginal();
});

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(() => {
  offline = true;
});

describe("Toasts", () => {
  it("keeps the page when the region's code cannot load, and shows the toast once online", async () => {
    const { Toasts, toast } = await import("../../src/ui/Toast");
    render(
      <I18nProvider i18n={i18n}>
        <main>
          <p>The storyboard</p>
          <Toasts />
        </main>
      </I18nProvider>,
    );
    await act(async () => {
      toast({ variant: "danger", title: "The scene was not changed", description: "Needs a connection." }, undefined);
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(screen.getByText("The storyboard")).toBeTruthy();
    expect(screen.queryByText("The scene was not changed")).toBeNull();

    offline = false;
    await act(async () => {
      window.dispatchEvent(new Event("online"));
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(await screen.findByText("The scene was not changed")).toBeTruthy();
    expect(screen.getByText("The storyboard")).toBeTruthy();
  });
});
