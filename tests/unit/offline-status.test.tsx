import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { db } from "../../src/db";

const worker = vi.hoisted(() => ({ dismissFailedEdit: vi.fn() }));
vi.mock("../../src/worker", () => ({ worker }));

const { OfflineStatus } = await import("../../src/features/storyboard/OfflineStatus");

const show = (props: { online: boolean; waiting: number }) =>
  render(
    <I18nProvider i18n={i18n}>
      <OfflineStatus projectId={7} {...props} />
    </I18nProvider>,
  );

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(async () => {
  await db.failedEdits.clear();
  worker.dismissFailedEdit.mockReset();
});
afterEach(cleanup);

describe("the storyboard's offline status (ARCHITECTURE: Offline edits)", () => {
  it("says the device is offline, what needs a connection and how many edits wait", () => {
    show({ online: false, waiting: 10 });
    const status = screen.getByRole("status");
    expect(status.textContent).toContain("You are offline.");
    expect(status.textContent).toContain("need a connection");
    expect(screen.getByText("10 edits waiting")).toBeTruthy();
  });

  it("shows nothing online with nothing waiting, and the count while edits are being sent", () => {
    const { rerender } = show({ online: true, waiting: 0 });
    expect(screen.queryByRole("status")).toBeNull();
    rerender(
      <I18nProvider i18n={i18n}>
        <OfflineStatus projectId={7} online waiting={1} />
      </I18nProvider>,
    );
    expect(screen.getByText("1 edit waiting")).toBeTruthy();
    expect(screen.getByText("Sending…")).toBeTruthy();
  });

  it("names each refused edit and why, until it is dismissed", async () => {
    const id = await db.failedEdits.add({
      projectId: 7,
      sceneId: 41,
      sceneOrder: 4,
      kind: "trim",
      failure: { kind: "bad_request", code: "markers_cross" },
      at: Date.now(),
    });
    await db.failedEdits.add({ projectId: 8, sceneId: 90, sceneOrder: 1, kind: "hide", failure: { kind: "internal" }, at: Date.now() });
    show({ online: true, waiting: 0 });
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Trim of scene 4 was not saved: The start marker cannot pass the end marker.");
    // Another project's failure is not listed here.
    expect(screen.getAllByRole("alert")).toHaveLength(1);
    fireEvent.click(screen.getByRole("button", { name: "Dismiss this message" }));
    expect(worker.dismissFailedEdit).toHaveBeenCalledWith(id);
  });

  it("says when the scene itself is gone", async () => {
    await db.failedEdits.add({
      projectId: 7,
      sceneId: 41,
      sceneOrder: 2,
      kind: "text",
      failure: { kind: "body", status: 404, body: { message: "Not found", code: "not_found" } },
      at: Date.now(),
    });
    show({ online: true, waiting: 0 });
    expect((await screen.findByRole("alert")).textContent).toContain("The text lines of scene 2 were not saved: The scene no longer exists.");
  });
});
