/**
 * The local translation engine: Debian's Apertium (rule-based, GPL language data) as a child process.
 *
 * Pairs (Debian packages): English⇄Spanish (apertium-eng-spa), Spanish⇄Brazilian Portuguese
 * (apertium-es-pt, mode es-pt_BR), Spanish⇄French (apertium-fr-es), Spanish⇄Italian
 * (apertium-spa-ita; Italian→Spanish also needs cg3's cg-proc). Other pairs among these five
 * languages go through Spanish: en→fr is eng-spa then es-fr.
 *
 * A set of lines is translated by one `apertium -u` run per step, not one per line: each line is a
 * paragraph of its own (lines separated by a blank line). A single newline is not enough: Apertium's
 * text formatter treats it as a space, so its transfer rules would move words across lines ("the
 * big / house" came back as "la casa / grande"). The paragraphs are counted on the way back; should
 * a run ever return a different count, the set is cut in halves translated apart until every line
 * maps back to its own. Apertium capitalises a paragraph's first word: a line that began in lower
 * case (the middle of a sentence) gets its lower case back.
 */
import { accessSync, constants as fsConstants, existsSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { spawnChild } from "../media/children";
import { MediaAbortedError } from "../media/ffmpeg";
import { baseLanguage, splitForTranslation, TranslateError, type TranslateAvailability, type TranslateOptions, type TranslationEngine } from "./port";

export interface ApertiumSettings {
  /** The `apertium` script: a path, or a name looked up on PATH. */
  binary: string;
  /** Apertium's data folder, holding modes/<pair>.mode (Debian: /usr/share/apertium). */
  dataDir: string;
  /** Longest one run may take before it is killed. */
  timeoutMs: number;
}

export const DEFAULT_APERTIUM: Readonly<ApertiumSettings> = Object.freeze({
  binary: "apertium",
  dataDir: "/usr/share/apertium",
  timeoutMs: 120_000,
});

/** One Apertium mode per direction it has, by base language; the rest go through Spanish. */
const MODES: Readonly<Record<string, string>> = {
  "en>es": "eng-spa",
  "es>en": "spa-eng_US",
  "es>pt": "es-pt_BR",
  "pt>es": "pt-es",
  "es>fr": "es-fr",
  "fr>es": "fr-es",
  "es>it": "spa-ita",
  "it>es": "ita-spa",
};

/** The Debian package holding each mode's data. */
const PACKAGE_OF_MODE: Readonly<Record<string, string>> = {
  "eng-spa": "apertium-eng-spa",
  "spa-eng_US": "apertium-eng-spa",
  "es-pt_BR": "apertium-es-pt",
  "pt-es": "apertium-es-pt",
  "es-fr": "apertium-fr-es",
  "fr-es": "apertium-fr-es",
  "spa-ita": "apertium-spa-ita",
  "ita-spa": "apertium-spa-ita",
};

/** The Debian package of a tool a mode's pipeline runs. */
export function packageOfTool(tool: string): string {
  if (tool === "cg-proc") return "cg3";
  if (tool.startsWith("lt-")) return "lttoolbox";
  if (tool.startsWith("lrx-")) return "apertium-lex-tools";
  return "apertium";
}

/** The languages Apertium translates here (base codes). */
export const APERTIUM_LANGUAGES = ["en", "es", "pt", "fr", "it"] as const;

/** The modes run in turn to go from one language to another, or null when Apertium has no way. */
export function apertiumRoute(from: string, to: string): string[] | null {
  const source = baseLanguage(from);
  const target = baseLanguage(to);
  if (source === target) return null;
  // only Brazilian Portuguese is made (es-pt_BR); European Portuguese is not asked for
  if (target === "pt" && to.toLowerCase() !== "pt-br") return null;
  const steps: (string | undefined)[] = [];
  if (source !== "es") steps.push(MODES[`${source}>es`]);
  if (target !== "es") steps.push(MODES[`es>${target}`]);
  return steps.every((s): s is string => s !== undefined) ? steps : null;
}

function locate(binary: string): string | undefined {
  const executable = (file: string) => {
    try {
      accessSync(file, fsConstants.X_OK);
      return true;
    } catch {
      return false;
    }
  };
  if (binary.includes("/")) return executable(binary) ? path.resolve(binary) : undefined;
  for (const dir of (process.env.PATH ?? "").split(path.delimiter).concat(["/usr/bin", "/usr/local/bin"])) {
    if (dir && executable(path.join(dir, binary))) return path.join(dir, binary);
  }
  return undefined;
}

/** What a mode needs that is not here: its file, the files it names, the tools it runs. Empty when it can run. */
export function missingForMode(dataDir: string, mode: string): { what: string; install: string }[] {
  const file = path.join(dataDir, "modes", `${mode}.mode`);
  const pkg = PACKAGE_OF_MODE[mode] ?? `the Apertium data of ${mode}`;
  if (!existsSync(file)) return [{ what: `the Apertium language pair ${mode} (${file})`, install: pkg }];
  const text = readFileSync(file, "utf8");
  const missing: { what: string; install: string }[] = [];
  for (const stage of text.split("|")) {
    const tool = stage.trim().split(/\s+/)[0];
    if (tool && !locate(tool)) missing.push({ what: `${tool}, which the Apertium mode ${mode} runs`, install: packageOfTool(tool) });
  }
  for (const [, data] of text.matchAll(/'([^']+)'/g)) {
    if (data && data.startsWith("/") && !existsSync(data)) missing.push({ what: `${data}, data of the Apertium mode ${mode}`, install: pkg });
  }
  return missing;
}

/**
 * A translated paragraph tidied: Apertium leaves doubled or leading spaces where it dropped a word,
 * and marks a word it could not generate with # or one its dictionary lacks with @ (`-u` only drops
 * the * of unknown words); those marks go unless the line itself had them.
 */
export function tidy(translated: string, source: string): string {
  let text = translated.replace(/[ \t]+/g, " ").trim();
  for (const mark of ["#", "@"]) {
    if (!source.includes(mark)) text = text.replace(new RegExp(`(^|[\\s\\p{P}])${mark}(?=\\p{L})`, "gu"), "$1");
  }
  // Apertium starts each paragraph with a capital: a line that began in lower case keeps its lower case
  const first = source.match(/\p{L}/u)?.[0];
  if (first && first === first.toLowerCase() && first !== first.toUpperCase()) {
    // …but an acronym (ONU) keeps its capitals
    text = text.replace(/^(\P{L}*)(\p{Lu})(?!\p{Lu})/u, (_, before: string, letter: string) => before + letter.toLowerCase());
  }
  return text;
}

/** Paragraphs of Apertium's output: lines separated by blank lines. */
export function paragraphs(output: string): string[] {
  return output
    .replace(/\r/g, "")
    .split(/\n[ \t]*\n/)
    .map((p) => p.replace(/\n/g, " ").trim())
    .filter((p, i, all) => p !== "" || (i > 0 && i < all.length - 1));
}

const STDERR_TAIL_CHARS = 600;

export function apertium(settings: ApertiumSettings = DEFAULT_APERTIUM): TranslationEngine {
  async function availability(from: string, to: string): Promise<TranslateAvailability> {
    const route = apertiumRoute(from, to);
    if (!route) {
      return {
        available: false,
        reason: "no_engine_for_pair",
        missing: `translation from ${from} to ${to}`,
        remedy:
          "The local engine (Apertium) translates between English, Spanish, Brazilian Portuguese, French and Italian only. " +
          "Set TRANSLATE_URL to a LibreTranslate-compatible service (and TRANSLATE_API_KEY if it needs one) for other languages.",
      };
    }
    if (!locate(settings.binary)) {
      return { available: false, reason: "engine_not_installed", missing: `the translation engine ${settings.binary}`, remedy: `apt-get install -y apertium ${[...new Set(route.map((m) => PACKAGE_OF_MODE[m]))].join(" ")} (Debian/Ubuntu)` };
    }
    const missing = route.flatMap((mode) => missingForMode(settings.dataDir, mode));
    if (missing.length > 0) {
      return {
        available: false,
        reason: "engine_not_installed",
        missing: missing.map((m) => m.what).join("; "),
        remedy: `apt-get install -y ${[...new Set(missing.map((m) => m.install))].join(" ")} (Debian/Ubuntu)`,
      };
    }
    return { available: true, engine: "apertium", draft: true };
  }

  /**
   * One `apertium -u <mode>` run over a text, killed on abort or after the timeout. The text goes in
   * a file: given a child's stdin from Node (a socket), Apertium's text formatter cannot open it.
   */
  async function run(mode: string, input: string, signal: AbortSignal | undefined): Promise<string> {
    if (signal?.aborted) throw new MediaAbortedError();
    const work = await mkdtemp(path.join(os.tmpdir(), "cutroom-apertium-"));
    try {
      const file = path.join(work, "lines.txt");
      await writeFile(file, input, "utf8");
      return await runOn(mode, file, signal);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }

  function runOn(mode: string, file: string, signal: AbortSignal | undefined): Promise<string> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(new MediaAbortedError());
      const binary = locate(settings.binary) ?? settings.binary;
      // its own process group: `apertium` is a shell pipeline, and the whole of it goes on abort
      const child = spawnChild(binary, ["-u", "-f", "txt", "-d", settings.dataDir, mode, file], { stdio: ["ignore", "pipe", "pipe"], detached: true });
      const out: Buffer[] = [];
      let err = "";
      let settled = false;
      let timedOut = false;
      const kill = () => {
        if (child.pid === undefined || child.exitCode !== null) return;
        try {
          process.kill(-child.pid, "SIGKILL");
        } catch {
          child.kill("SIGKILL");
        }
      };
      const timer = setTimeout(() => {
        timedOut = true;
        kill();
      }, settings.timeoutMs);
      const onAbort = () => kill();
      signal?.addEventListener("abort", onAbort, { once: true });
      const finish = (error: Error | undefined, value?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        if (error) reject(error);
        else resolve(value!);
      };
      child.stdout!.on("data", (chunk: Buffer) => out.push(chunk));
      child.stderr!.on("data", (chunk: Buffer) => {
        err = (err + chunk.toString("utf8")).slice(-STDERR_TAIL_CHARS);
      });
      child.on("error", (error) => finish(new TranslateError("translate_engine_failed", `Apertium could not be started (${(error as NodeJS.ErrnoException).code ?? error.message})`, false)));
      child.on("close", (code, sig) => {
        if (signal?.aborted) return finish(new MediaAbortedError());
        if (timedOut) return finish(new TranslateError("translate_engine_failed", `Apertium (${mode}) did not finish within ${Math.round(settings.timeoutMs / 1000)} s`, true));
        if (code !== 0) {
          const tail = err.replace(/\s+/g, " ").trim();
          return finish(new TranslateError("translate_engine_failed", `Apertium (${mode}) failed (${sig ?? `exit ${code}`})${tail ? `: ${tail}` : ""}`, false));
        }
        finish(undefined, Buffer.concat(out).toString("utf8"));
      });
    });
  }

  /** Pieces through every mode of the route; halves apart when the paragraphs do not come back one for one. */
  async function translatePieces(pieces: string[], route: string[], signal: AbortSignal | undefined): Promise<string[]> {
    if (pieces.length === 0) return [];
    let texts = pieces;
    for (const mode of route) {
      const output = await run(mode, texts.join("\n\n") + "\n", signal);
      const back = paragraphs(output);
      if (back.length !== texts.length) {
        if (pieces.length === 1) return [tidy(back.join(" "), pieces[0]!)];
        const middle = Math.ceil(pieces.length / 2);
        return [...(await translatePieces(pieces.slice(0, middle), route, signal)), ...(await translatePieces(pieces.slice(middle), route, signal))];
      }
      texts = back;
    }
    return texts.map((text, i) => tidy(text, pieces[i]!));
  }

  async function translateLines(lines: readonly string[], options: TranslateOptions): Promise<string[]> {
    const ready = await availability(options.from, options.to);
    if (!ready.available) throw new TranslateError("translate_unavailable", `${ready.missing} is missing: ${ready.remedy}`, false);
    if (options.signal?.aborted) throw new MediaAbortedError();
    const { pieces, rebuild } = splitForTranslation(lines);
    return rebuild(await translatePieces(pieces, apertiumRoute(options.from, options.to)!, options.signal));
  }

  return {
    name: "apertium",
    serves: async (from, to) => apertiumRoute(from, to) !== null,
    availability,
    translateLines,
  };
}
