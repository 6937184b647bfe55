import { i18n } from "@lingui/core";
import { I18nProvider } from "@lingui/react";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { SettingsForm } from "../../src/features/wizard/SettingsForm";
import { DEFAULT_WIZARD_SETTINGS } from "../../src/features/wizard/settings";

// Issue 17's controls audit: the intro's and outro's music change the render only when a file is marked so.
beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(cleanup);

const form = (roles?: { intro: boolean; outro: boolean }) =>
  render(
    <I18nProvider i18n={i18n}>
      <SettingsForm value={{ ...DEFAULT_WIZARD_SETTINGS, automaticMusic: true }} onChange={() => undefined} errors={{}} isDisabled={false} onSubmit={() => undefined} roles={roles}>
        <span />
      </SettingsForm>
    </I18nProvider>,
  );

describe("the wizard's intro and outro music", () => {
  it("is not offered when no file is marked intro or outro", () => {
    form({ intro: false, outro: false });
    expect(screen.queryByRole("switch", { name: "Music in the intro" })).toBeNull();
    expect(screen.queryByRole("switch", { name: "Music in the outro" })).toBeNull();
    expect(screen.queryByRole("group", { name: "Intro and outro" })).toBeNull();
  });
  it("offers each one whose file exists", () => {
    form({ intro: true, outro: false });
    expect(screen.getByRole("switch", { name: "Music in the intro" })).toBeTruthy();
    expect(screen.queryByRole("switch", { name: "Music in the outro" })).toBeNull();
    cleanup();
    form({ intro: true, outro: true });
    expect(screen.getByRole("switch", { name: "Music in the outro" })).toBeTruthy();
  });
});
