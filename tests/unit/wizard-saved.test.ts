import { beforeEach, describe, expect, it } from "vitest";
import { db } from "../../src/db";
import { clearWizard, loadWizard, saveWizard } from "../../src/features/wizard/savedSettings";
import { DEFAULT_WIZARD_SETTINGS } from "../../src/features/wizard/settings";

describe("the wizard kept across a reload (issue 18)", () => {
  beforeEach(async () => {
    await db.meta.clear();
  });

  it("gives back the saved settings and chosen languages", async () => {
    const settings = { ...DEFAULT_WIZARD_SETTINGS, name: "Launch talk", locale: "de-DE" as const, style: "video_music" as const, automaticMusic: true, introSeconds: 3 };
    await saveWizard({ settings, languageChosen: ["u1"] });
    expect(await loadWizard()).toEqual({ settings, languageChosen: ["u1"] });
  });

  it("has nothing once cleared (project created or wizard cancelled)", async () => {
    await saveWizard({ settings: { ...DEFAULT_WIZARD_SETTINGS, name: "x" }, languageChosen: [] });
    await clearWizard();
    expect(await loadWizard()).toBeNull();
  });

  it("fills fields missing or of the wrong type from the defaults", async () => {
    await db.meta.put({ key: "wizard", value: { settings: { name: "Old", introSeconds: "3" } as never, languageChosen: [1, "u2"] as never } });
    expect(await loadWizard()).toEqual({ settings: { ...DEFAULT_WIZARD_SETTINGS, name: "Old" }, languageChosen: ["u2"] });
  });

  it("is forgotten at sign-out", async () => {
    await saveWizard({ settings: { ...DEFAULT_WIZARD_SETTINGS, name: "Mine" }, languageChosen: [] });
    await db.signOutLocally();
    expect(await loadWizard()).toBeNull();
  });
});
