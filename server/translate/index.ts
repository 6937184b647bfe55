// Translation of subtitle lines. Nothing here knows about HTTP routes, users or the database.
import { apertium, type ApertiumSettings } from "./apertium";
import { libreTranslate, type LibreTranslateSettings } from "./libretranslate";
import { TranslateError, type TranslateAvailability, type TranslationEngine, type Translator } from "./port";

export * from "./port";
export { apertiumRoute, DEFAULT_APERTIUM, type ApertiumSettings } from "./apertium";
export { DEFAULT_LIBRETRANSLATE, type LibreTranslateSettings } from "./libretranslate";

export interface TranslateSettings {
  /** The LibreTranslate-compatible service (TRANSLATE_URL), or null for the local engine alone. */
  http: LibreTranslateSettings | null;
  apertium: ApertiumSettings;
}

/**
 * Each pair to the first engine that serves it: the service for every pair its /languages lists,
 * then Apertium for the pairs it has. When the service's list cannot be read, Apertium takes the
 * pairs it has and the others answer `service_unreachable`.
 */
export function translator(engines: readonly TranslationEngine[]): Translator {
  /** The engine for a pair, or why there is none. */
  async function engineFor(from: string, to: string): Promise<TranslationEngine | { unreachable: TranslateError } | undefined> {
    let unreachable: TranslateError | undefined;
    for (const engine of engines) {
      try {
        if (await engine.serves(from, to)) return engine;
      } catch (error) {
        if (!(error instanceof TranslateError)) throw error;
        unreachable ??= error;
      }
    }
    return unreachable ? { unreachable } : undefined;
  }

  return {
    async availability(from, to): Promise<TranslateAvailability> {
      const engine = await engineFor(from, to);
      if (engine && "unreachable" in engine) {
        return {
          available: false,
          reason: "service_unreachable",
          missing: `the translation service's language list (${engine.unreachable.message})`,
          remedy: "Check that the LibreTranslate-compatible service at TRANSLATE_URL is running and that TRANSLATE_API_KEY is right.",
        };
      }
      if (engine) return engine.availability(from, to);
      return {
        available: false,
        reason: "no_engine_for_pair",
        missing: `translation from ${from} to ${to}`,
        remedy:
          "The local engine (Apertium) translates between English, Spanish, Brazilian Portuguese, French and Italian only. " +
          "Set TRANSLATE_URL to a LibreTranslate-compatible service (and TRANSLATE_API_KEY if it needs one) for the other languages.",
      };
    },
    async translateLines(lines, options) {
      const engine = await engineFor(options.from, options.to);
      if (engine && "unreachable" in engine) throw engine.unreachable;
      if (!engine) throw new TranslateError("translate_unavailable", `No translation engine for ${options.from} → ${options.to}`, false);
      const out = await engine.translateLines(lines, options);
      if (out.length !== lines.length) throw new TranslateError("translate_bad_response", `${engine.name} answered ${out.length} lines for ${lines.length}`, false);
      return out;
    },
  };
}

/** The port as the configuration asks for it: the service when TRANSLATE_URL is set, then Apertium. */
export function createTranslator(settings: TranslateSettings): Translator {
  const engines: TranslationEngine[] = [];
  if (settings.http) engines.push(libreTranslate(settings.http));
  engines.push(apertium(settings.apertium));
  return translator(engines);
}
