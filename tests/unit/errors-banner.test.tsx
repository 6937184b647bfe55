import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { ERRORS_BANNER_KEY, ErrorsBanner } from "../../src/app/ErrorsBanner";

const show = () =>
  render(
    <I18nProvider i18n={i18n}>
      <ErrorsBanner />
    </I18nProvider>,
  );

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
beforeEach(() => localStorage.removeItem(ERRORS_BANNER_KEY));
afterEach(cleanup);

describe("the intermittent-errors banner (SPEC §1, issue 18)", () => {
  it("stays closed after a reload once the person closed it on this device", () => {
    show();
    expect(screen.getByRole("region", { name: "Tip" }).textContent).toContain("Refresh the page.");
    fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByRole("region", { name: "Tip" })).toBeNull();
    cleanup(); // the page reloads: a new banner reads what this device remembers
    show();
    expect(screen.queryByRole("region", { name: "Tip" })).toBeNull();
  });

  it("shows on a device where it was never closed", () => {
    show();
    expect(screen.getByRole("region", { name: "Tip" })).toBeTruthy();
    expect(screen.getByRole("button", { name: "Refresh" })).toBeTruthy();
  });
});
