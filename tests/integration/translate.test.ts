import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSrt, readVtt } from "../../server/speech/subtitle-files";
import { jsonApi, listen, processedTalkProject, startTestServer, waitFor, type TestServer } from "./helpers";
import { startFakeTranslate } from "./translate-server";

/**
 * Issue 14, subtitle sets and translation through the API, with the real Apertium: one processed English talk
 * whose scenes get text lines the way a person types them on the scene cards; the translate options; Spanish
 * from Apertium; an edit kept through a new translation; translations that follow their lines through a split;
 * the original set editing the scenes' lines; a language with no engine failing with its reason; downloads per
 * language; another user's ids answering 404; the sets going with their project.
 */

interface Line {
  key: string;
  scene_id: number;
  start: number;
  end: number;
  text: string;
  edited: 0 | 1;
}
interface Set {
  id: number;
  project_id: number;
  locale: string;
  original: 0 | 1;
  status: "pending" | "ready" | "failed";
  engine: string | null;
  draft: 0 | 1;
  reason: string | null;
  error?: string | null;
  detail?: string | null;
  lines: Line[];
}

let server: TestServer;
let base: string;
let token: string;
let otherToken: string;
let project: number;
/** The scene holding two lines (split later), and the one with one line. */
let twoLineScene: number;
let oneLineScene: number;
const api = jsonApi(() => base, () => token);
const other = jsonApi(() => base, () => otherToken);

const setsOf = async (ready?: boolean) => (await api("GET", `/projects/${project}/autosubtitles${ready === undefined ? "" : `?ready=${ready}`}`)).body.data as Set[];
const setOf = async (locale: string) => (await setsOf()).find((s) => s.locale === locale);
const settled = (locale: string) =>
  waitFor(async () => {
    const set = await setOf(locale);
    return set && set.status !== "pending" ? set : undefined;
  }, 60_000);
const lineWith = (set: Set, pattern: RegExp) => set.lines.find((l) => pattern.test(l.text));

beforeAll(async () => {
  execFileSync("sh", ["-c", "command -v apertium"], { stdio: "ignore" });
  server = await startTestServer();
  base = await listen(server);
  const me = await server.signUp();
  token = me.token;
  // Downloads need a paid plan (SPEC §6).
  await server.db.updateTable("users").set({ plan_id: "starter_month" }).where("email", "=", me.email).execute();
  otherToken = (await server.signUp()).token;
  project = await processedTalkProject(base, token, "Translated talk");
  const scenes = ((await api("POST", `/projects/${project}/storyboard`, {})).body.timeline.scenes as { id: number; visibility: number; trim_start: number; trim_end: number }[]).filter(
    (s) => s.visibility === 1 && s.trim_end - s.trim_start >= 1,
  );
  expect(scenes.length).toBeGreaterThanOrEqual(2);
  const [a, b] = scenes as [(typeof scenes)[0], (typeof scenes)[0]];
  const mid = (a.trim_start + a.trim_end) / 2;
  const put = async (id: number, text: { start: number; end: number; text: string }[]) => expect((await api("PUT", `/scenes/${id}`, { text })).status).toBe(200);
  await put(a.id, [
    { start: a.trim_start + 0.05, end: mid - 0.05, text: "The house is big." },
    { start: mid, end: a.trim_end - 0.05, text: "I have a red car." },
  ]);
  await put(b.id, [{ start: b.trim_start + 0.05, end: b.trim_end - 0.05, text: "The dog is black." }]);
  twoLineScene = a.id;
  oneLineScene = b.id;
}, 240_000);
afterAll(() => server?.close());

describe("subtitle sets and translation", () => {
  it("lists every subtitle language with what can translate into it here", async () => {
    const res = await api("GET", `/projects/${project}/translate/options`);
    expect(res.status).toBe(200);
    expect(res.body.source_locale).toBe("en-US");
    expect(res.body.options).toHaveLength(13);
    type Option = { locale: string; available: boolean; engine: string | null; draft: number; reason: string | null; detail?: string | null };
    const byLocale: Record<string, Option> = Object.fromEntries((res.body.options as Option[]).map((o) => [o.locale, o]));
    for (const locale of ["es-ES", "pt-BR", "fr-FR", "it-IT"]) expect(byLocale[locale], locale).toMatchObject({ available: true, engine: "apertium", draft: 1, reason: null });
    expect(byLocale["ja-JP"]).toMatchObject({ available: false, engine: null, reason: "no_engine_for_language" });
    // The operator is told what to add.
    expect(byLocale["ja-JP"]!.detail).toContain("TRANSLATE_URL");
    expect(byLocale["en-US"]).toMatchObject({ available: true });
  });

  it("has the original set: the scenes' lines in the edit's time, keyed by their line", async () => {
    const sets = await setsOf();
    expect(sets).toHaveLength(1);
    const original = sets[0]!;
    expect(original).toMatchObject({ locale: "en-US", original: 1, status: "ready" });
    expect(original.lines.map((l) => l.text)).toEqual(expect.arrayContaining(["The house is big.", "I have a red car.", "The dog is black."]));
    expect(original.lines).toHaveLength(3);
    for (const line of original.lines) {
      expect(line.key).toMatch(/^\d+@\d+$/);
      expect(line.end).toBeGreaterThan(line.start);
    }
    // Timeline order: each line starts after the one before.
    const starts = original.lines.map((l) => l.start);
    expect([...starts].sort((x, y) => x - y)).toEqual(starts);
  });

  it("translates into Spanish with Apertium, and keeps an edited line through a new translation", async () => {
    const queued = await api("POST", `/projects/${project}/translate`, { locale: "es-ES" });
    expect(queued.status).toBe(202);
    expect(queued.body).toMatchObject({ locale: "es-ES", original: 0, status: "pending" });
    const spanish = await settled("es-ES");
    expect(spanish).toMatchObject({ status: "ready", engine: "apertium", draft: 1, reason: null });
    expect(spanish.lines).toHaveLength(3);
    expect(lineWith(spanish, /casa/)?.text).toBe("La casa es grande.");
    expect(lineWith(spanish, /coche/)?.text).toMatch(/^Tengo un coche rojo/);
    expect(lineWith(spanish, /perro/)).toBeDefined();
    expect((await setsOf(true)).map((s) => s.locale).sort()).toEqual(["en-US", "es-ES"]);

    const house = lineWith(spanish, /casa/)!;
    const tooLong = await api("PUT", `/subtitles/${spanish.id}`, { lines: [{ key: house.key, text: "x".repeat(36) }] });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.code).toBe("line_too_long");
    const unknown = await api("PUT", `/subtitles/${spanish.id}`, { lines: [{ key: "999999@1", text: "Hola" }] });
    expect(unknown.status).toBe(422);
    expect(unknown.body.code).toBe("validation_failed");
    const edited = await api("PUT", `/subtitles/${spanish.id}`, { lines: [{ key: house.key, text: "La casa es enorme." }] });
    expect(edited.status).toBe(200);
    expect(edited.body.lines.find((l: Line) => l.key === house.key)).toMatchObject({ text: "La casa es enorme.", edited: 1 });

    // Someone changed the original meanwhile: a new translation follows it, except where the person edited.
    const original = (await setOf("en-US"))!;
    const dog = original.lines.find((l) => l.text === "The dog is black.")!;
    expect((await api("PUT", `/subtitles/${original.id}`, { lines: [{ key: dog.key, text: "The cat is black." }] })).status).toBe(200);
    const scene = (await api("GET", `/scenes/${oneLineScene}`)).body;
    expect(scene.text.map((l: { text: string }) => l.text)).toEqual(["The cat is black."]);

    expect((await api("POST", `/projects/${project}/translate`, { locale: "es-ES" })).status).toBe(202);
    const again = await settled("es-ES");
    expect(again.status).toBe("ready");
    expect(again.lines.find((l) => l.key === house.key)).toMatchObject({ text: "La casa es enorme.", edited: 1 });
    expect(again.lines.find((l) => l.key === dog.key)?.text).toMatch(/gato/);
    expect(lineWith(again, /coche/)?.edited).toBe(0);
  });

  it("keeps each translation with its line when the scene is split", async () => {
    const before = (await setOf("es-ES"))!;
    const split = await api("POST", `/scenes/${twoLineScene}/splitbyline/2`);
    expect(split.status).toBe(200);
    const [first, second] = split.body.scenes as { id: number }[];
    const after = (await setOf("es-ES"))!;
    for (const line of before.lines) expect(after.lines.find((l) => l.key === line.key)?.text, line.key).toBe(line.text);
    expect(lineWith(after, /casa/)?.scene_id).toBe(first!.id);
    expect(lineWith(after, /coche/)?.scene_id).toBe(second!.id);
  });

  it("lists only shown scenes' lines, and a restored scene brings its translation back", async () => {
    const cat = lineWith((await setOf("es-ES"))!, /gato/)!;
    expect((await api("GET", `/scenes/${oneLineScene}/hide`)).status).toBe(200);
    expect((await setOf("es-ES"))!.lines.map((l) => l.key)).not.toContain(cat.key);
    expect((await setOf("en-US"))!.lines.map((l) => l.key)).not.toContain(cat.key);
    expect((await api("GET", `/scenes/${oneLineScene}/show`)).status).toBe(200);
    expect((await setOf("es-ES"))!.lines.find((l) => l.key === cat.key)?.text).toBe(cat.text);
  });

  it("ends a language no engine translates as failed, with the reason", async () => {
    const queued = await api("POST", `/projects/${project}/translate`, { locale: "ja-JP" });
    expect(queued.status).toBe(202);
    const japanese = await settled("ja-JP");
    expect(japanese).toMatchObject({ status: "failed", reason: "no_engine_for_language", error: "translate_unavailable", lines: [] });
    expect(japanese.detail).toContain("TRANSLATE_URL");
    // Not among the ready ones; the project itself is fine.
    expect((await setsOf(true)).map((s) => s.locale)).not.toContain("ja-JP");
    expect((await api("GET", `/projects/${project}`)).body.status).toBe("Preview Ready");
    // Translating into the spoken language itself is refused.
    expect((await api("POST", `/projects/${project}/translate`, { locale: "en-US" })).status).toBe(422);
  });

  it("downloads WebVTT and SRT for the original and for each translation, through signed links", async () => {
    const link = async (query: string) => {
      const res = await fetch(`${base}/api/v1/projects/${project}/subtitles${query}`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
      return { status: res.status, body: (await res.json()) as { url: string; filename: string; code?: string } };
    };
    const download = async (query: string) => {
      const { status, body } = await link(query);
      expect(status, query).toBe(200);
      // No token in the link: a signature that expires.
      expect(body.url).not.toContain(token);
      expect(body.url).toMatch(/signature=/);
      const file = await fetch(new URL(body.url, base));
      expect(file.status).toBe(200);
      return { text: await file.text(), filename: body.filename };
    };
    const spanishSrt = await download("?locale=es-ES&format=srt");
    expect(readSrt(spanishSrt.text).map((l) => l.text)).toEqual(expect.arrayContaining(["La casa es enorme."]));
    expect(spanishSrt.filename).toMatch(/es-ES\.srt$/);
    const spanishVtt = await download("?locale=es-ES");
    const cues = readVtt(spanishVtt.text);
    expect(cues).toHaveLength(3);
    expect(cues.map((c) => c.text).join(" ")).not.toMatch(/house|car|cat/);
    const englishVtt = await download("");
    expect(readVtt(englishVtt.text).map((c) => c.text)).toEqual(expect.arrayContaining(["The house is big.", "The cat is black."]));
    // Same times in every language.
    expect(cues.map((c) => c.start)).toEqual(readVtt(englishVtt.text).map((c) => c.start));
    // Both languages' files live side by side: the Spanish link still opens after the English one was made.
    const again = await link("?locale=es-ES");
    expect((await fetch(new URL(again.body.url, base))).status).toBe(200);
    // A failed set has nothing to download; a language outside SPEC §9 is refused.
    expect((await link("?locale=ja-JP")).body.code).toBe("no_subtitles");
    expect((await link("?locale=xx-YY")).status).toBe(422);
  });

  it("shows a translation longer than a line as lines of at most 35 characters, each editable", async () => {
    const original = (await setOf("en-US"))!;
    const cat = original.lines.find((l) => /cat/.test(l.text))!;
    expect((await api("PUT", `/subtitles/${original.id}`, { lines: [{ key: cat.key, text: "My sister has a big red car." }] })).status).toBe(200);
    expect((await api("POST", `/projects/${project}/translate`, { locale: "es-ES" })).status).toBe(202);
    const spanish = await settled("es-ES");
    const pieces = spanish.lines.filter((l) => l.key.startsWith(`${cat.key}#`));
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    expect(pieces.map((p) => p.text).join(" ")).toMatch(/hermana.*coche/);
    for (const line of spanish.lines) expect([...line.text].length).toBeLessThanOrEqual(35);
    const edited = await api("PUT", `/subtitles/${spanish.id}`, { lines: [{ key: pieces[1]!.key, text: "coche grande." }] });
    expect(edited.status).toBe(200);
    const after = (edited.body.lines as Line[]).filter((l) => l.key.startsWith(`${cat.key}`));
    expect(after.map((l) => l.text).join(" ")).toBe(`${pieces[0]!.text} coche grande.`);
    // the file plays the pieces one after another
    const link = await fetch(`${base}/api/v1/projects/${project}/subtitles?locale=es-ES`, { headers: { authorization: `Bearer ${token}`, accept: "application/json" } });
    expect(link.status).toBe(200);
    const { url } = (await link.json()) as { url: string };
    const cues = readVtt(await (await fetch(new URL(url, base))).text());
    expect(cues.map((c) => c.text)).toEqual(expect.arrayContaining([pieces[0]!.text, "coche grande."]));
    for (const cue of cues) expect([...cue.text].length).toBeLessThanOrEqual(35);
  });

  it("answers another user's project and sets with 404", async () => {
    const spanish = (await setOf("es-ES"))!;
    expect((await other("GET", `/projects/${project}/autosubtitles`)).status).toBe(404);
    expect((await other("GET", `/projects/${project}/translate/options`)).status).toBe(404);
    expect((await other("POST", `/projects/${project}/translate`, { locale: "fr-FR" })).status).toBe(404);
    const put = await other("PUT", `/subtitles/${spanish.id}`, { lines: [{ key: spanish.lines[0]!.key, text: "Robado" }] });
    expect(put.status).toBe(404);
    expect(put.body.code).toBe("not_found");
    expect((await setOf("es-ES"))!.lines).toEqual(spanish.lines);
    expect(await setOf("fr-FR")).toBeUndefined();
  });

  it("deletes the sets with their project", async () => {
    expect((await api("DELETE", `/projects/${project}`)).status).toBe(200);
    const left = await server.db.selectFrom("subtitle_sets").select("id").where("project_id", "=", project).execute();
    expect(left).toEqual([]);
    expect((await api("GET", `/projects/${project}/autosubtitles`)).status).toBe(404);
  });
});

describe("subtitle sets with a LibreTranslate-compatible service (TRANSLATE_URL)", () => {
  let lt: Awaited<ReturnType<typeof startFakeTranslate>>;
  let served: TestServer;
  let servedBase: string;
  let servedToken: string;
  let talk: number;
  const call = jsonApi(() => servedBase, () => servedToken);
  const setIn = async (locale: string) => ((await call("GET", `/projects/${talk}/autosubtitles`)).body.data as Set[]).find((s) => s.locale === locale);
  const end = (locale: string) =>
    waitFor(async () => {
      const set = await setIn(locale);
      return set && set.status !== "pending" ? set : undefined;
    }, 60_000);

  beforeAll(async () => {
    lt = await startFakeTranslate({ apiKey: "service-key" });
    served = await startTestServer({ TRANSLATE_URL: lt.url, TRANSLATE_API_KEY: "service-key" });
    servedBase = await listen(served);
    servedToken = (await served.signUp()).token;
    talk = await processedTalkProject(servedBase, servedToken, "Served talk");
    const scene = ((await call("POST", `/projects/${talk}/storyboard`, {})).body.timeline.scenes as { id: number; visibility: number; trim_start: number; trim_end: number }[]).find((s) => s.visibility === 1)!;
    expect((await call("PUT", `/scenes/${scene.id}`, { text: [{ start: scene.trim_start, end: scene.trim_end, text: "Hello, cat!" }] })).status).toBe(200);
  }, 240_000);
  afterAll(async () => {
    await served?.close();
    await lt?.close();
  });

  it("offers every language through the service, translates Japanese, and ends a set the service refuses with its code", async () => {
    const options = (await call("GET", `/projects/${talk}/translate/options`)).body.options as { locale: string; available: boolean; engine: string | null; draft: number }[];
    for (const option of options.filter((o) => o.locale !== "en-US")) expect(option, option.locale).toMatchObject({ available: true, engine: "libretranslate", draft: 0 });

    expect((await call("POST", `/projects/${talk}/translate`, { locale: "ja-JP" })).status).toBe(202);
    const japanese = await end("ja-JP");
    expect(japanese).toMatchObject({ status: "ready", engine: "libretranslate", draft: 0 });
    expect(japanese.lines.map((l) => l.text)).toEqual(["ja: こんにちは, 猫!"]);
    // One request for the set, with the key in the body.
    expect(lt.requests.filter((r) => r.path === "/translate")).toEqual([expect.objectContaining({ q: ["Hello, cat!"], target: "ja", apiKey: "service-key", status: 200 })]);

    lt.fail(403, 1, { path: "/translate" });
    expect((await call("POST", `/projects/${talk}/translate`, { locale: "fr-FR" })).status).toBe(202);
    const french = await end("fr-FR");
    expect(french).toMatchObject({ status: "failed", reason: "translation_failed", error: "translate_unauthorized", lines: [] });
    expect(french.detail).not.toContain("service-key");
  });
});

describe("translate options while the TRANSLATE_URL service does not answer", () => {
  it("answers within seconds, each language unavailable with the reason, instead of waiting for the service", async () => {
    const lt = await startFakeTranslate();
    lt.hang(true);
    const slow = await startTestServer({ TRANSLATE_URL: lt.url, TRANSLATE_TIMEOUT_SECONDS: "30" });
    try {
      const slowBase = await listen(slow);
      const slowToken = (await slow.signUp()).token;
      const call = jsonApi(() => slowBase, () => slowToken);
      const talk = await processedTalkProject(slowBase, slowToken, "Slow service talk");
      const scene = ((await call("POST", `/projects/${talk}/storyboard`, {})).body.timeline.scenes as { id: number; visibility: number; trim_start: number; trim_end: number }[]).find((s) => s.visibility === 1)!;
      expect((await call("PUT", `/scenes/${scene.id}`, { text: [{ start: scene.trim_start, end: scene.trim_end, text: "Hello, cat!" }] })).status).toBe(200);
      const started = Date.now();
      const res = await call("GET", `/projects/${talk}/translate/options`);
      expect(res.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(15_000);
      const japanese = (res.body.options as { locale: string; available: boolean; reason: string | null; detail?: string | null }[]).find((o) => o.locale === "ja-JP")!;
      expect(japanese).toMatchObject({ available: false, reason: "engine_not_installed" });
      expect(japanese.detail).toContain("TRANSLATE_URL");
    } finally {
      lt.hang(false);
      await slow.close();
      await lt.close();
    }
  }, 120_000);
});
