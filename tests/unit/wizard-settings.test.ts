import { describe, expect, it } from "vitest";
import { DEFAULT_WIZARD_SETTINGS, errorsAfterEdit, settingsTouched, validateSettings, withStyle, type WizardSettings } from "../../src/features/wizard/settings";
import { spokenLanguageFor } from "../../src/lib/languages";

const filled: WizardSettings = { ...DEFAULT_WIZARD_SETTINGS, name: "  My talk ", locale: "en-US", style: "video" };

describe("the wizard's step 2 (SPEC §5 Project and upload, Settings)", () => {
  it("needs a name, a spoken language and a style", () => {
    const result = validateSettings({ ...DEFAULT_WIZARD_SETTINGS, style: null });
    expect(result).toEqual({ ok: false, fields: { name: "required", locale: "required", style: "required" } });
  });
  it("starts with a style, so only the name and language can be missing (issue 18)", () => {
    expect(DEFAULT_WIZARD_SETTINGS.style).toBe("video");
    expect(validateSettings({ ...DEFAULT_WIZARD_SETTINGS, name: "Talk", locale: "de-DE" }).ok).toBe(true);
  });
  it("switches automatic music on with the music styles and off with plain video (issue 18)", () => {
    expect(withStyle(filled, "video_music")).toMatchObject({ style: "video_music", automaticMusic: true });
    expect(withStyle(filled, "music").automaticMusic).toBe(true);
    expect(withStyle({ ...filled, automaticMusic: true }, "video")).toMatchObject({ style: "video", automaticMusic: false });
  });
  it("gives new files the interface's spoken language (issue 18)", () => {
    expect(["en", "pt-BR", "es", "it", "fr", "de"].map(spokenLanguageFor)).toEqual(["en-US", "pt-BR", "es-ES", "it-IT", "fr-FR", "de-DE"]);
    expect(spokenLanguageFor("xx")).toBe("en-US");
  });
  it("refuses a name over 140 characters", () => {
    const result = validateSettings({ ...filled, name: "x".repeat(141) });
    expect(result).toEqual({ ok: false, fields: { name: "too_long" } });
  });
  it("sends trimmed text, 0/1 switches, and no title when it is empty", () => {
    const result = validateSettings(filled);
    expect(result.ok && result.settings).toMatchObject({
      name: "My talk",
      title: null,
      locale: "en-US",
      style: "video",
      autocutsilences: 1,
      autobgm: 0,
      render_subtitle: 0,
      audio_preprocessor: 0,
      voice_booster: 0,
    });
  });
  it("clears the intro and outro music modes when automatic music is off", () => {
    const off = validateSettings({ ...filled, automaticMusic: false, introMusic: true, outroMusic: false });
    expect(off.ok && [off.settings.intro_mode, off.settings.outro_mode]).toEqual(["", ""]);
    const on = validateSettings({ ...filled, automaticMusic: true, introMusic: true, outroMusic: false });
    expect(on.ok && [on.settings.intro_mode, on.settings.outro_mode]).toEqual(["music", "silent"]);
  });
  it("turns the voice booster off without noise cancelling", () => {
    const result = validateSettings({ ...filled, noiseCancelling: false, voiceBooster: true });
    expect(result.ok && result.settings.voice_booster).toBe(0);
    const boosted = validateSettings({ ...filled, noiseCancelling: true, voiceBooster: true });
    expect(boosted.ok && [boosted.settings.audio_preprocessor, boosted.settings.voice_booster]).toEqual([1, 1]);
  });
  it("knows when the user has changed something", () => {
    expect(settingsTouched(DEFAULT_WIZARD_SETTINGS)).toBe(false);
    expect(settingsTouched({ ...DEFAULT_WIZARD_SETTINGS, subtitles: !DEFAULT_WIZARD_SETTINGS.subtitles })).toBe(true);
  });
  it("forgets a field's error once that field is edited", () => {
    const errors = { name: "required", style: "required" };
    expect(errorsAfterEdit(errors, filled, { ...filled, name: "New" })).toEqual({ style: "required" });
    expect(errorsAfterEdit(errors, filled, { ...filled, subtitles: true })).toBe(errors);
  });
});
