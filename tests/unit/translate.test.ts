import { describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config";
import { apertiumRoute, createTranslator, splitForTranslation, SUBTITLE_LANGUAGES, TranslateError, translator, type TranslationEngine } from "../../server/translate";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { missingForMode, packageOfTool, paragraphs, tidy } from "../../server/translate/apertium";
import { batches, candidateCodes, serviceCode, servicePair } from "../../server/translate/libretranslate";

/** Issue 14: the translation port's pure parts and the choice of engine. */

describe("splitting lines for an engine", () => {
  it("sends each non-empty line (and each line of a two-line cue) once and puts the answers back in place", () => {
    const { pieces, rebuild } = splitForTranslation(["Hello  there", "", "   ", "Two\nlines", "\tTabbed\u00a0text "]);
    expect(pieces).toEqual(["Hello there", "Two", "lines", "Tabbed text"]);
    expect(rebuild(["A", "B", "C", "D"])).toEqual(["A", "", "", "B\nC", "D"]);
    expect(() => rebuild(["A"])).toThrow(/expected 4/);
  });
});

describe("Apertium routes", () => {
  it("goes through Spanish where there is no direct pair", () => {
    expect(apertiumRoute("en-US", "es-ES")).toEqual(["eng-spa"]);
    expect(apertiumRoute("en-US", "pt-BR")).toEqual(["eng-spa", "es-pt_BR"]);
    expect(apertiumRoute("en-US", "fr-FR")).toEqual(["eng-spa", "es-fr"]);
    expect(apertiumRoute("en-US", "it-IT")).toEqual(["eng-spa", "spa-ita"]);
    expect(apertiumRoute("es-ES", "en-US")).toEqual(["spa-eng_US"]);
    expect(apertiumRoute("pt-BR", "en-US")).toEqual(["pt-es", "spa-eng_US"]);
    expect(apertiumRoute("it-IT", "fr-FR")).toEqual(["ita-spa", "es-fr"]);
  });

  it("has no route for other languages, the same language or European Portuguese", () => {
    expect(apertiumRoute("en-US", "ja-JP")).toBeNull();
    expect(apertiumRoute("de-DE", "es-ES")).toBeNull();
    expect(apertiumRoute("en-US", "en-US")).toBeNull();
    expect(apertiumRoute("es-ES", "pt-PT")).toBeNull();
    const routed = SUBTITLE_LANGUAGES.filter((to) => apertiumRoute("en-US", to));
    expect(routed).toEqual(["es-ES", "fr-FR", "it-IT", "pt-BR"]);
  });

  it("reads paragraphs back from Apertium's output, one per blank-line-separated block", () => {
    expect(paragraphs("La casa.\n\n Es 100%  hecho\n\nCasa\n")).toEqual(["La casa.", "Es 100%  hecho", "Casa"]);
    expect(paragraphs("Uno\r\n\r\nDos\n")).toEqual(["Uno", "Dos"]);
  });

  it("tidies a translated line: spaces, Apertium's marks, the lower case of a line that began in one", () => {
    expect(tidy(" Es 100%  hecho ", "It's 100% done")).toBe("Es 100% hecho");
    expect(tidy("La #casa de @Juan", "The house of John")).toBe("La casa de Juan");
    expect(tidy("Precio #hash @en", "Price #hash @at")).toBe("Precio #hash @en");
    expect(tidy("Casa", "house")).toBe("casa");
    expect(tidy("ONU dijo", "un said")).toBe("ONU dijo");
    expect(tidy("casa de Juan", "house of John")).toBe("casa de Juan");
    expect(tidy('"Hola," dijo', '"hello," she said')).toBe('"hola," dijo');
  });

  it("names the package of a tool or a data file a mode needs and lacks", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cutroom-modes-"));
    try {
      fs.mkdirSync(path.join(dir, "modes"));
      fs.writeFileSync(path.join(dir, "modes", "ita-spa.mode"), `no-such-tool-xyz -w '${dir}/missing.bin' | sh -c 'true'\n`);
      expect(missingForMode(dir, "ita-spa")).toEqual([
        { what: "no-such-tool-xyz, which the Apertium mode ita-spa runs", install: "apertium" },
        { what: `${dir}/missing.bin, data of the Apertium mode ita-spa`, install: "apertium-spa-ita" },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    expect(packageOfTool("cg-proc")).toBe("cg3");
    expect(packageOfTool("lt-proc")).toBe("lttoolbox");
    expect(packageOfTool("lrx-proc")).toBe("apertium-lex-tools");
  });

  it("names the package for a missing pair", () => {
    expect(missingForMode("/nonexistent", "es-fr")).toEqual([{ what: "the Apertium language pair es-fr (/nonexistent/modes/es-fr.mode)", install: "apertium-fr-es" }]);
  });
});

describe("LibreTranslate language codes", () => {
  it("maps pt-BR to the service's pt-BR, pb or pt, Filipino to tl, the others to their base code", () => {
    expect(candidateCodes("pt-BR")).toEqual(["pt-br", "pb", "pt"]);
    expect(serviceCode("pt-BR", ["en", "pt", "pb"])).toBe("pb");
    expect(serviceCode("pt-BR", ["en", "pt"])).toBe("pt");
    expect(serviceCode("pt-BR", ["en", "pt-BR"])).toBe("pt-BR");
    expect(serviceCode("fil-PH", ["en", "tl"])).toBe("tl");
    expect(serviceCode("fa-IR", ["en", "fa"])).toBe("fa");
    expect(serviceCode("ko-KR", ["en", "ja"])).toBeUndefined();
  });

  it("takes a pair only when the source lists the target", () => {
    const languages = [
      { code: "en", targets: ["es", "pb"] },
      { code: "es", targets: ["en"] },
      { code: "pb", targets: ["en"] },
    ];
    expect(servicePair("en-US", "pt-BR", languages)).toEqual({ source: "en", target: "pb" });
    expect(servicePair("es-ES", "pt-BR", languages)).toBeUndefined();
    expect(servicePair("en-US", "en-US", languages)).toBeUndefined();
    // a server without `targets` translates between all it lists
    expect(servicePair("es-ES", "pt-BR", [{ code: "es" }, { code: "pt" }])).toEqual({ source: "es", target: "pt" });
  });
});

describe("batching", () => {
  it("keeps each request under the character and line limits, in order", () => {
    const lines = ["aaaa", "bbbb", "cc", "dddddddddd", "e", "f", "g"];
    const out = batches(lines, 8, 3);
    expect(out).toEqual([["aaaa", "bbbb"], ["cc"], ["dddddddddd"], ["e", "f", "g"]]);
    expect(out.flat()).toEqual(lines);
    expect(batches([], 10, 10)).toEqual([]);
  });
});

/** An engine that serves the pairs it is given and tags its lines with its name. */
function stub(name: "apertium" | "libretranslate", pairs: string[] | Error, draft: boolean): TranslationEngine {
  return {
    name,
    async serves(from, to) {
      if (pairs instanceof Error) throw pairs;
      return pairs.includes(`${from}>${to}`);
    },
    async availability() {
      return { available: true, engine: name, draft };
    },
    async translateLines(lines) {
      return lines.map((l) => `${name}:${l}`);
    },
  };
}

describe("choosing an engine", () => {
  const local = stub("apertium", ["en-US>es-ES"], true);

  it("takes the service for every pair it lists, Apertium for the rest it has, and says why otherwise", async () => {
    const t = translator([stub("libretranslate", ["en-US>es-ES", "en-US>ja-JP"], false), local]);
    expect(await t.availability("en-US", "es-ES")).toEqual({ available: true, engine: "libretranslate", draft: false });
    expect(await t.availability("en-US", "ja-JP")).toEqual({ available: true, engine: "libretranslate", draft: false });
    expect(await t.translateLines(["Hi"], { from: "en-US", to: "es-ES" })).toEqual(["libretranslate:Hi"]);
    const none = await t.availability("en-US", "ko-KR");
    expect(none).toMatchObject({ available: false, reason: "no_engine_for_pair" });
    expect(none.available || none.remedy).toMatch(/TRANSLATE_URL/);
    await expect(t.translateLines(["Hi"], { from: "en-US", to: "ko-KR" })).rejects.toMatchObject({ code: "translate_unavailable" });
  });

  it("uses Apertium alone without a service", async () => {
    const t = translator([local]);
    expect(await t.availability("en-US", "es-ES")).toEqual({ available: true, engine: "apertium", draft: true });
    expect(await t.translateLines(["Hi"], { from: "en-US", to: "es-ES" })).toEqual(["apertium:Hi"]);
  });

  it("falls back to Apertium when the service's list cannot be read, and reports the service for the other pairs", async () => {
    const down = new TranslateError("translate_unreachable", "The translation service could not be reached (ECONNREFUSED)", true);
    const t = translator([stub("libretranslate", down, false), local]);
    expect(await t.availability("en-US", "es-ES")).toMatchObject({ available: true, engine: "apertium" });
    expect(await t.availability("en-US", "ja-JP")).toMatchObject({ available: false, reason: "service_unreachable" });
    await expect(t.translateLines(["Hi"], { from: "en-US", to: "ja-JP" })).rejects.toBe(down);
  });
});

describe("translation settings", () => {
  it("uses Apertium alone when TRANSLATE_URL is not set", async () => {
    const { translate } = loadConfig({});
    expect(translate.http).toBeNull();
    expect(translate.apertium).toMatchObject({ binary: "apertium", dataDir: "/usr/share/apertium" });
    const t = createTranslator({ ...translate, apertium: { ...translate.apertium, binary: "/nonexistent/apertium" } });
    expect(await t.availability("en-US", "es-ES")).toMatchObject({ available: false, reason: "engine_not_installed", remedy: expect.stringContaining("apt-get install -y apertium apertium-eng-spa") });
    expect(await t.availability("en-US", "de-DE")).toMatchObject({ available: false, reason: "no_engine_for_pair" });
  });

  it("adds the LibreTranslate-compatible service with its key, timeout and request limit", () => {
    const { translate } = loadConfig({ TRANSLATE_URL: "http://lt.local:5000", TRANSLATE_API_KEY: "k-1", TRANSLATE_TIMEOUT_SECONDS: "30", TRANSLATE_MAX_REQUEST_CHARS: "5000" });
    expect(translate.http).toMatchObject({ url: "http://lt.local:5000", apiKey: "k-1", timeoutMs: 30_000, maxRequestChars: 5000 });
    expect(() => loadConfig({ TRANSLATE_URL: "not a url" })).toThrow(/TRANSLATE_URL/);
  });
});
