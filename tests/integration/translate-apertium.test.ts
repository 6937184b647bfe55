import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { liveChildren } from "../../server/media/children";
import { MediaAbortedError } from "../../server/media/ffmpeg";
import { createTranslator, DEFAULT_APERTIUM } from "../../server/translate";
import { apertium } from "../../server/translate/apertium";

/** Issue 14: the local translation engine, Debian's Apertium, on real lines. */

const MODES = ["eng-spa", "spa-eng_US", "es-pt_BR", "pt-es", "es-fr", "fr-es", "spa-ita", "ita-spa"];
const engine = apertium(DEFAULT_APERTIUM);

beforeAll(() => {
  const missing = MODES.filter((m) => !existsSync(`${DEFAULT_APERTIUM.dataDir}/modes/${m}.mode`));
  let binary = true;
  try {
    execFileSync("sh", ["-c", "command -v apertium"], { stdio: "ignore" });
  } catch {
    binary = false;
  }
  try {
    execFileSync("sh", ["-c", "command -v cg-proc"], { stdio: "ignore" });
  } catch {
    missing.push("cg-proc (cg3)");
  }
  if (!binary || missing.length > 0) {
    throw new Error(
      `Apertium or its language pairs are not installed (${[!binary ? "apertium" : "", ...missing].filter(Boolean).join(", ")}): ` +
        "apt-get install -y apertium apertium-eng-spa apertium-es-pt apertium-fr-es apertium-spa-ita cg3",
    );
  }
});

/** The parent of a live process, or undefined. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
  } catch {
    return undefined;
  }
}

/** Live descendants of this test process that belong to an Apertium run (the script and its pipeline). */
function apertiumProcesses(): number[] {
  return readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      let cmd = "";
      try {
        cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
      } catch {
        return false;
      }
      if (!cmd.includes("cutroom-apertium-") && !/apertium-(eng-spa|fr-es)\/(eng-spa|es-fr)\./.test(cmd)) return false;
      for (let p: number | undefined = pid, hops = 0; p && p > 1 && hops < 20; p = parentOf(p), hops++) if (p === process.pid) return true;
      return false;
    });
}

/** Which of these processes are still alive (a zombie is gone). */
const stillAlive = (pids: number[]) =>
  pids.filter((pid) => {
    try {
      return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
    } catch {
      return false;
    }
  });

/** Lines a subtitle set holds: sentences, fragments, punctuation, numbers, quotes, an empty line, words Apertium does not know. */
const LINES = [
  "The house is big.",
  "I like the red car.",
  "",
  '"Hello," she said — 42 times!',
  "we are going to the beach",
  "Price: $5 [note] a/b <tag> {x} *star* #hash @at",
  "flibbertigibbet zork wibble",
  "It's 100% done, isn't it?",
  "12.5 kg, 1,000 people; 3/4",
  "Two lines\nin one cue",
  "the big",
  "house",
  "♪",
  "...",
  "- Who?\n- Me.",
];

describe("Apertium", () => {
  it.each([
    ["es-ES", "casa"],
    ["pt-BR", "casa"],
    ["fr-FR", "maison"],
    ["it-IT", "casa"],
  ])("translates English lines into %s one for one", async (to, house) => {
    expect(await engine.availability("en-US", to)).toEqual({ available: true, engine: "apertium", draft: true });
    const out = await engine.translateLines(LINES, { from: "en-US", to });
    console.log(`en-US → ${to}:\n${out.map((l, i) => `  ${JSON.stringify(LINES[i])} → ${JSON.stringify(l)}`).join("\n")}`);
    expect(out).toHaveLength(LINES.length);
    expect(out[0]!.toLowerCase()).toContain(house);
    expect(out[11]!.toLowerCase()).toBe(house); // a lone word is its own line, not merged with "the big"
    expect(out[2]).toBe("");
    expect(out[9]!.split("\n")).toHaveLength(2);
    expect(out.slice(12, 14)).toEqual(["♪", "..."]); // lines with no words come back as they are, in place
    expect(out[14]!.split("\n").map((l) => l.slice(0, 2))).toEqual(["- ", "- "]);
    expect(out[6]).toBe("flibbertigibbet zork wibble"); // unknown words pass through unmarked (-u)
    expect(out[8]).toMatch(/12[.,]5 kg/);
    expect(out[3]).toContain("42");
    expect(out[4]).toMatch(/^[a-zà-ú]/); // a line that began in lower case still does
    // the output differs from the input wherever there were words Apertium knows
    for (const i of [0, 1, 4, 10]) expect(out[i], `line ${i}`).not.toBe(LINES[i]);
  });

  it("translates back into English where the modes exist", async () => {
    expect(await engine.translateLines(["La casa es grande."], { from: "es-ES", to: "en-US" })).toEqual(["The house is big."]);
    expect((await engine.translateLines(["A casa é grande."], { from: "pt-BR", to: "en-US" }))[0]).toMatch(/house/i);
    expect((await engine.translateLines(["La maison est grande."], { from: "fr-FR", to: "en-US" }))[0]).toMatch(/house/i);
    expect((await engine.translateLines(["La casa è grande."], { from: "it-IT", to: "en-US" }))[0]).toMatch(/house/i);
  });

  it("translates 480 lines in one run per step", async () => {
    const lines = Array.from({ length: 480 }, (_, i) => (i % 7 === 3 ? "" : `Line ${i}: we bake the bread at home and the house smells good.`));
    for (const to of ["es-ES", "fr-FR"]) {
      const started = performance.now();
      const out = await engine.translateLines(lines, { from: "en-US", to });
      const ms = performance.now() - started;
      console.log(`Apertium en-US → ${to}: 480 lines in ${(ms / 1000).toFixed(2)} s (load average ${(await import("node:os")).loadavg()[0]!.toFixed(1)})`);
      expect(out).toHaveLength(480);
      out.forEach((line, i) => {
        if (lines[i] === "") expect(line).toBe("");
        else expect(line, `line ${i}`).toMatch(new RegExp(`^L[íi]gne ${i}|^L[ií]nea ${i}|^Line ${i}|${i}`));
      });
      expect(out[0]!.toLowerCase()).toContain(to === "es-ES" ? "casa" : "maison");
      // one run per step, not one per line: even on a loaded machine this is seconds, not minutes
      expect(ms).toBeLessThan(30_000);
    }
  });

  it("stops and kills its children when aborted", async () => {
    const controller = new AbortController();
    const lines = Array.from({ length: 4000 }, (_, i) => `Sentence ${i} about the house and the garden.`);
    const pending = engine.translateLines(lines, { from: "en-US", to: "fr-FR", signal: controller.signal });
    // abort once the pipeline runs
    let running: number[] = [];
    for (let i = 0; i < 200 && running.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 20));
      running = apertiumProcesses();
    }
    expect(running.length, "the Apertium pipeline was running").toBeGreaterThanOrEqual(3);
    controller.abort();
    await expect(pending).rejects.toBeInstanceOf(MediaAbortedError);
    await new Promise((r) => setTimeout(r, 500));
    expect(liveChildren()).toBe(0);
    // the whole pipeline went with the script, not only the script (a lone pipeline member would be reparented, no longer our descendant)
    expect(stillAlive(running)).toEqual([]);
    expect(apertiumProcesses()).toEqual([]);
  });

  it("says what to install when a pair's data is missing, and fails clearly", async () => {
    const broken = createTranslator({ http: null, apertium: { ...DEFAULT_APERTIUM, dataDir: "/nonexistent" } });
    const answer = await broken.availability("en-US", "fr-FR");
    expect(answer).toMatchObject({ available: false, reason: "engine_not_installed" });
    expect(answer.available || answer.remedy).toBe("apt-get install -y apertium-eng-spa apertium-fr-es (Debian/Ubuntu)");
    await expect(broken.translateLines(["Hi"], { from: "en-US", to: "fr-FR" })).rejects.toMatchObject({ code: "translate_unavailable" });
  });
});
