import { cleanup, render, screen } from "@testing-library/react";
import { I18nProvider } from "@lingui/react";
import { i18n } from "@lingui/core";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { SubtitlesNotice } from "../../src/features/preview/SubtitlesNotice";

beforeAll(() => i18n.loadAndActivate({ locale: "en", messages: {} }));
afterEach(cleanup);

const show = (project: Parameters<typeof SubtitlesNotice>[0]["project"]) =>
  render(
    <I18nProvider i18n={i18n}>
      <SubtitlesNotice project={project} />
    </I18nProvider>,
  );

describe("subtitles notice (issue 14)", () => {
  it("says which language has no engine and that the operator can add one", () => {
    show({ subtitles_unavailable: { reason: "no_engine_for_language", language: "de-DE" }, subtitles_draft: 0 });
    expect(screen.getByRole("note").textContent).toBe(
      "Subtitles are not available for German on this server: it has no speech recognition for this language. The server's operator can add a speech recognition service.",
    );
  });

  it("words a missing install, speech turned off and a failure apart", () => {
    show({ subtitles_unavailable: { reason: "engine_not_installed", language: "en-US" } });
    expect(screen.getByRole("note").textContent).toContain("for English (US) on this server: its speech recognition is not installed");
    cleanup();
    show({ subtitles_unavailable: { reason: "speech_off", language: "en-US" } });
    expect(screen.getByRole("note").textContent).toContain("turned speech recognition off");
    cleanup();
    show({ subtitles_unavailable: { reason: "speech_failed", language: "fr-FR" } });
    expect(screen.getByRole("note").textContent).toContain("Subtitles could not be made for French");
  });

  it("says the lines are on their way while speech recognition follows the preview", () => {
    show({ subtitles_unavailable: null, subtitles_draft: 0, subtitles_pending: 1 });
    expect(screen.getByRole("status").textContent).toBe("Speech recognition is still making the subtitle lines of this talk. They show here when they are ready.");
  });

  it("labels draft captions, and says nothing when the subtitles are fine", () => {
    show({ subtitles_unavailable: null, subtitles_draft: 1 });
    expect(screen.getByRole("note").textContent).toMatch(/^Draft captions The subtitles come from the server's basic speech recognition/);
    cleanup();
    const { container } = show({ subtitles_unavailable: null, subtitles_draft: 0 });
    expect(container.textContent).toBe("");
  });
});
