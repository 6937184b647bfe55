import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { LOCALES } from "../../api/locales";

/** Reads msgid → msgstr pairs from a Lingui .po file (multi-line strings joined). */
function readPo(file: string): Map<string, string> {
  const entries = new Map<string, string>();
  let current: "msgid" | "msgstr" | null = null;
  let id = "";
  let str = "";
  const flush = () => {
    if (id) entries.set(id, str);
    id = "";
    str = "";
  };
  const unquote = (s: string) => JSON.parse(s) as string;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    if (line.startsWith("msgid ")) {
      flush();
      current = "msgid";
      id = unquote(line.slice(6));
    } else if (line.startsWith("msgstr ")) {
      current = "msgstr";
      str = unquote(line.slice(7));
    } else if (line.startsWith('"') && current) {
      if (current === "msgid") id += unquote(line);
      else str += unquote(line);
    } else if (!line.trim()) {
      current = null;
    }
  }
  flush();
  return entries;
}

const catalog = (locale: string) => readPo(path.resolve(__dirname, "../../locales", locale, "messages.po"));

/** Words that are the same in that language as in English. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  "pt-BR": ["1080p (Full HD)", "Email", "Cutroom", "YouTube", "Instagram", "TikTok", "LinkedIn", "Hindi", "Filipino", "Storyboard"],
  es: ["1080p (Full HD)", "Cutroom", "YouTube", "Instagram", "TikTok", "LinkedIn", "Hindi", "Filipino", "Plan", "Error"],
  it: ["1080p (Full HD)", "Email", "Cutroom", "YouTube", "Instagram", "TikTok", "LinkedIn", "Home", "Media", "Password", "Account", "Hindi", "Video", "Storyboard", "Volume"],
  fr: ["1080p (Full HD)", "Email", "Cutroom", "YouTube", "Instagram", "TikTok", "LinkedIn", "Contact", "Menu", "Langue", "Hindi", "Filipino", "Storyboard", "Images", "Options", "Notifications", "Volume", "Position", "Actions", "Public", "Description", "Licence", "Genres", "Instruments", "{0} minutes", "{value, plural, one {# minute} other {# minutes}}"],
  de: ["1080p (Full HD)", "Email", "E-Mail", "Cutroom", "YouTube", "Instagram", "TikTok", "LinkedIn", "Home", "Media", "Account", "Upgrade", "Hindi", "Filipino", "Video", "Storyboard", "Name", "Overlay", "Songs", "Genres"],
};

describe("translations", () => {
  const english = catalog("en");

  it("the English catalog has every message", () => {
    expect(english.size).toBeGreaterThan(50);
    for (const [id, text] of english) expect(text, id).not.toBe("");
  });

  for (const locale of LOCALES.filter((l) => l !== "en")) {
    it(`${locale} translates every message and leaves no English behind`, () => {
      const translated = catalog(locale);
      expect([...translated.keys()].sort()).toEqual([...english.keys()].sort());
      const missing = [...translated].filter(([, text]) => !text.trim()).map(([id]) => id);
      expect(missing, `untranslated in ${locale}`).toEqual([]);
      const allowed = new Set(SAME_AS_ENGLISH[locale] ?? []);
      const untouched = [...translated]
        .filter(([id, text]) => text === english.get(id) && !allowed.has(text) && /[a-z]{3}/i.test(text))
        .map(([id]) => id);
      expect(untouched, `still English in ${locale}`).toEqual([]);
    });

    it(`${locale} keeps every placeholder and tag of the English text`, () => {
      const translated = catalog(locale);
      // Placeholders, tags and plural structure must survive; the words inside plural branches are translated.
      const tokens = (s: string) =>
        (s.replace(/(?:=\d+|zero|one|two|few|many|other)\s*\{/g, "§").match(/\{\w+\}|\{\w+, *\w+ *,|<\/?\d+>|#/g) ?? []).sort();
      for (const [id, text] of english) {
        expect(tokens(translated.get(id) ?? ""), `${locale}: ${id}`).toEqual(tokens(text));
      }
    });
  }
});
