import { generateMessageId } from "@lingui/message-utils/generateMessageId";
import { describe, expect, it } from "vitest";
import { activateLocale, i18n, loadWholeCatalog } from "../../src/i18n";

/** A message as the compiled catalogs key it (by the hash of its source text). */
const say = (source: string) => i18n._({ id: generateMessageId(source), message: source });

// Issue 18: signing in switches to the user's language while the app's guard loads the whole catalog of the
// language on screen; whichever load finishes last used to win, leaving a German user on English pages.
describe("activateLocale and loadWholeCatalog", () => {
  it("the language asked for last wins, whichever catalog arrives last", async () => {
    await activateLocale("en");
    expect(i18n.locale).toBe("en");
    // As after a sign-in: the provider asks for German, then the guard for the whole catalog of the language on screen.
    await Promise.all([activateLocale("de"), loadWholeCatalog()]);
    expect(i18n.locale).toBe("de");
    expect(document.documentElement.lang).toBe("de");
    // The whole German catalog, not the public part: the top bar's message is there.
    expect(say("New project")).toBe("Neues Projekt");
  });

  it("the guard's whole catalog follows a language asked for just before it", async () => {
    const french = activateLocale("fr");
    await loadWholeCatalog();
    await french;
    expect(i18n.locale).toBe("fr");
    expect(say("New project")).not.toBe("New project");
  });

  it("a load that arrives after a newer request is not applied", async () => {
    const spanish = activateLocale("es");
    const italian = activateLocale("it");
    await Promise.all([spanish, italian]);
    expect(i18n.locale).toBe("it");
  });
});
