import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Scene } from "../../api/scenes";
import type { SubtitleSet } from "../../api/subtitles";
import { CutroomDb, type OutboxRow } from "../../src/db";
import { formatTimecode } from "../../src/features/translate/languages";
import { createApiClient } from "../../workers/api-client";
import { createOutbox, type Outbox } from "../../workers/outbox";
import { createSceneActions } from "../../workers/scenes";
import { applyWaitingLines, languagesToAdd, lineKey, orderSets, putSets, waitingTexts, withLineText } from "../../workers/subtitle-sets";
import { createSubtitleActions } from "../../workers/subtitles";

const PROJECT_ID = 7;
const MEDIA_ID = 4;

function scene(id: number, order: number, text: Scene["text"]): Scene {
  return {
    id, project_id: PROJECT_ID, order, media_file_id: MEDIA_ID, media_file: { raw_preview_offset: 0 }, isScene: true, type: "default", visibility: 1,
    start: 0, end: 10, trim_start: 0, trim_end: 10, trim_start_default: 0, trim_end_default: 10, trim_start_raw: 0, trim_end_raw: 10,
    thumbnail: null, text, mediaAudio: "standard", musicType: "bgmstandard", punch_in: 1, punch_in_status: 0, crop: false,
    selected_faces: [], overscene: null, overscene_type: null, overscene_fade: 0, overscene_overflow: 0, overscene_bg: 0,
  };
}

const line = (sceneId: number, start: number, text: string) => ({ key: lineKey(MEDIA_ID, start), scene_id: sceneId, start, end: start + 1.5, text, edited: 0 as const });

function set(id: number, locale: string, original: 0 | 1, texts: string[], status: SubtitleSet["status"] = "ready"): SubtitleSet {
  return {
    id, project_id: PROJECT_ID, locale, original, status, engine: original ? "pocketsphinx" : "apertium", draft: 1, reason: null,
    lines: texts.map((text, i) => line(1, 1.25 + i * 2, text)), updated_at: "2026-11-24T10:00:00.000Z",
  };
}

describe("subtitle set lines (pure)", () => {
  it("keys a line by its media file and its start in milliseconds, as the server does", () => {
    expect(lineKey(12, 3.4567)).toBe("12@3457");
    expect(lineKey(12, 0)).toBe("12@0");
  });

  it("puts an original line's new text on the scene's own line with the same key, and nowhere else", () => {
    const s = scene(1, 1, [{ start: 1.25, end: 2.75, text: "hello there" }, { start: 3.25, end: 4.75, text: "general" }]);
    expect(withLineText(s, lineKey(MEDIA_ID, 3.25), "General Kenobi")).toEqual([s.text[0], { start: 3.25, end: 4.75, text: "General Kenobi" }]);
    expect(withLineText(s, lineKey(MEDIA_ID, 9), "x")).toBeNull();
    expect(withLineText({ ...s, media_file_id: null }, lineKey(MEDIA_ID, 1.25), "x")).toBeNull();
  });

  it("lays waiting edits over a set from the server, the last edit of a line winning, and marks them edited", () => {
    const es = set(20, "es-ES", 0, ["hola", "mundo"]);
    const waiting = [
      { command: "setSubtitleLine", sceneId: 1, args: { setId: 20, key: es.lines[1]!.key, text: "mundo entero", original: 0 } },
      { command: "setSubtitleLine", sceneId: 1, args: { setId: 99, key: es.lines[0]!.key, text: "another set", original: 0 } },
      { command: "setSubtitleLine", sceneId: 1, args: { setId: 20, key: es.lines[1]!.key, text: "mundo", original: 0 } },
      { command: "setSubtitleLine", sceneId: 1, args: { setId: 20, key: es.lines[1]!.key, text: "el mundo", original: 0 } },
    ] as unknown as OutboxRow[];
    const shown = applyWaitingLines(es, waitingTexts(es, waiting, new Map()));
    expect(shown.lines.map((l) => [l.text, l.edited])).toEqual([["hola", 0], ["el mundo", 1]]);
  });

  it("shows a scene card's waiting text edit in the original set, not in a translation", () => {
    const en = set(10, "en-US", 1, ["hello", "world"]);
    const es = set(20, "es-ES", 0, ["hola", "mundo"]);
    const waiting = [{ command: "setSceneText", sceneId: 1, args: { lines: [{ start: 1.25, end: 2.75, text: "Hello!" }] } }] as unknown as OutboxRow[];
    const media = new Map([[1, MEDIA_ID]]);
    expect(applyWaitingLines(en, waitingTexts(en, waiting, media)).lines[0]!.text).toBe("Hello!");
    expect(applyWaitingLines(es, waitingTexts(es, waiting, media)).lines[0]!.text).toBe("hola");
  });

  it("offers only languages the project has not got, without the spoken one, and lists the original first", () => {
    const options = ["en-US", "es-ES", "fr-FR", "ja-JP"].map((locale) => ({ locale }));
    const sets = [set(20, "es-ES", 0, []), set(10, "en-US", 1, [])];
    expect(languagesToAdd(options, sets, "en-US").map((o) => o.locale)).toEqual(["fr-FR", "ja-JP"]);
    expect(orderSets([set(30, "it-IT", 0, []), ...sets]).map((s) => s.locale)).toEqual(["en-US", "es-ES", "it-IT"]);
  });

  it("writes a line's times as a timecode in tenths, hours only past an hour", () => {
    expect(formatTimecode(0)).toBe("00:00.0");
    expect(formatTimecode(4.26)).toBe("00:04.2");
    expect(formatTimecode(4.3)).toBe("00:04.3");
    expect(formatTimecode(125.05)).toBe("02:05.0");
    expect(formatTimecode(3723.4)).toBe("1:02:03.4");
  });
});

/** The subtitle routes of the API in memory, with the Idempotency-Key rule (a replayed key changes nothing). */
function fakeServer(initialSets: SubtitleSet[], initialScenes: Scene[]) {
  const sets = new Map(initialSets.map((s) => [s.id, structuredClone(s)]));
  const scenes = new Map(initialScenes.map((s) => [s.id, structuredClone(s)]));
  const stored = new Map<string, { status: number; body: unknown }>();
  const state = { online: true, applied: [] as string[], sets, scenes };
  const json = (status: number, body: unknown) => ({ status, body });

  function handle(method: string, path: string, body: any) {
    let m: RegExpMatchArray | null;
    if (method === "GET" && path === `/projects/${PROJECT_ID}/autosubtitles`) return json(200, { data: [...sets.values()] });
    if (method === "GET" && path === `/projects/${PROJECT_ID}/translate/options`) {
      return json(200, { source_locale: "en-US", options: [{ locale: "es-ES", available: true, engine: "apertium", draft: 1, reason: null }, { locale: "ja-JP", available: false, engine: null, draft: 0, reason: "no_engine_for_language" }] });
    }
    if (method === "POST" && path === `/projects/${PROJECT_ID}/translate`) {
      const created = { ...set(30, body.locale, 0, [], "pending") };
      sets.set(created.id, created);
      state.applied.push(`${method} ${path}`);
      return json(202, created);
    }
    if (method === "PUT" && (m = path.match(/^\/subtitles\/(\d+)$/))) {
      const s = sets.get(Number(m[1]));
      if (!s) return json(404, { message: "Not found", code: "not_found" });
      for (const edit of body.lines as { key: string; text: string }[]) {
        const target = s.lines.find((l) => l.key === edit.key);
        if (target) Object.assign(target, { text: edit.text, edited: 1 });
        if (s.original && target) {
          const sc = scenes.get(target.scene_id)!;
          sc.text = withLineText(sc, edit.key, edit.text) ?? sc.text;
        }
      }
      state.applied.push(`${method} ${path}`);
      return json(200, structuredClone(s));
    }
    if (method === "POST" && (m = path.match(/^\/projects\/(\d+)\/storyboard/))) {
      const list = [...scenes.values()];
      return json(200, { projectId: PROJECT_ID, offset: 0, limit: 250, hasMoreScenes: false, timeline: { scenes: list, projectScenesTotal: list.length } });
    }
    return json(404, { message: "Not found", code: "not_found" });
  }

  const fetchImpl = async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? "GET";
    const path = new URL(url, "http://cutroom.test").pathname.replace(/^\/api\/v1/, "");
    if (!state.online) throw new TypeError("Failed to fetch");
    const key = (init.headers as Record<string, string>)["idempotency-key"];
    let reply = key ? stored.get(key) : undefined;
    if (!reply) {
      reply = handle(method, path, init.body ? JSON.parse(String(init.body)) : undefined);
      if (key) stored.set(key, reply);
    }
    return new Response(JSON.stringify(reply.body), { status: reply.status, headers: { "content-type": "application/json" } });
  };
  return { state, fetchImpl: fetchImpl as unknown as typeof fetch };
}

let db: CutroomDb;
let server: ReturnType<typeof fakeServer>;
const outboxes: Outbox[] = [];

function start() {
  const call = createApiClient({ getToken: async () => "token", onSignedOut: async () => undefined, fetchImpl: server.fetchImpl });
  const outbox = createOutbox(db, call, { retryBaseMs: 600_000 });
  outboxes.push(outbox);
  const noLink = async () => ({ ok: false, failure: { kind: "network" } }) as const;
  return { ...createSceneActions(db, call, outbox), ...createSubtitleActions(db, outbox.ordered(new Set()), outbox, noLink) };
}

beforeEach(async () => {
  db = new CutroomDb(`subtitles-${Math.random()}`);
  const scenes = [scene(1, 1, [{ start: 1.25, end: 2.75, text: "hello" }, { start: 3.25, end: 4.75, text: "world" }])];
  server = fakeServer([set(10, "en-US", 1, ["hello", "world"]), set(20, "es-ES", 0, ["hola", "mundo"])], scenes);
  await db.scenes.bulkPut(scenes);
});

afterEach(async () => {
  for (const o of outboxes.splice(0)) o.dispose();
  await db.delete();
});

describe("the Translate page's data in the sync worker", () => {
  it("mirrors the project's sets and its translate options, and forgets a set the server no longer lists", async () => {
    const actions = start();
    await db.subtitleSets.put(set(99, "fr-FR", 0, ["vieux"]));
    expect(await actions.refreshSubtitles(PROJECT_ID)).toEqual({ ok: true, data: { sets: 2 } });
    expect((await db.subtitleSets.where("project_id").equals(PROJECT_ID).toArray()).map((s) => s.locale).sort()).toEqual(["en-US", "es-ES"]);
    const options = await db.meta.get(`translate:${PROJECT_ID}`);
    expect(options?.value).toMatchObject({ source_locale: "en-US", options: [{ locale: "es-ES", available: true }, { locale: "ja-JP", available: false, reason: "no_engine_for_language" }] });
  });

  it("edits a translated line offline: shown at once, kept through a refresh, sent as PUT /subtitles/{id} when online", async () => {
    const actions = start();
    await actions.refreshSubtitles(PROJECT_ID);
    server.state.online = false;
    const key = lineKey(MEDIA_ID, 3.25);
    const result = await actions.setSubtitleLine(20, key, "el mundo");
    expect(result).toMatchObject({ ok: true, queued: true });
    expect((await db.subtitleSets.get(20))!.lines[1]).toMatchObject({ text: "el mundo", edited: 1 });
    // A translated line is not the scene's: the card keeps its text.
    expect((await db.scenes.get(1))!.text[1]!.text).toBe("world");

    server.state.online = true;
    const outboxRow = (await db.outbox.toArray())[0]!;
    expect(outboxRow).toMatchObject({ command: "setSubtitleLine", kind: "translation", request: { route: "subtitles.update", params: { id: 20 }, body: { lines: [{ key, text: "el mundo" }] } } });
    await actions.syncOutbox();
    expect(server.state.applied).toEqual(["PUT /subtitles/20"]);
    expect(server.state.sets.get(20)!.lines[1]!.text).toBe("el mundo");
    expect(await db.outbox.count()).toBe(0);
    await actions.refreshSubtitles(PROJECT_ID);
    expect((await db.subtitleSets.get(20))!.lines[1]!.text).toBe("el mundo");
  });

  it("keeps a waiting edit on top when the sets are refreshed before it is sent", async () => {
    const actions = start();
    await actions.refreshSubtitles(PROJECT_ID);
    server.state.online = false;
    await actions.setSubtitleLine(20, lineKey(MEDIA_ID, 1.25), "¡hola!");
    server.state.online = true;
    // A refresh that lands first (the outbox has not sent yet: its retry is far off).
    await actions.refreshSubtitles(PROJECT_ID);
    expect((await db.subtitleSets.get(20))!.lines[0]!.text).toBe("¡hola!");
    expect(server.state.sets.get(20)!.lines[0]!.text).toBe("hola");
  });

  it("edits an original line on the scene card too, and marks the project as needing a render", async () => {
    const actions = start();
    await db.projects.put({ id: PROJECT_ID, needs_render: 0 } as never);
    await actions.refreshSubtitles(PROJECT_ID);
    server.state.online = false;
    const result = await actions.setSubtitleLine(10, lineKey(MEDIA_ID, 1.25), "Hello, everyone");
    expect(result).toMatchObject({ ok: true, queued: true });
    expect((await db.scenes.get(1))!.text.map((l) => l.text)).toEqual(["Hello, everyone", "world"]);
    expect((await db.projects.get(PROJECT_ID))!.needs_render).toBe(1);
    expect((await db.outbox.toArray())[0]).toMatchObject({ kind: "text", sceneId: 1 });
    server.state.online = true;
    await actions.syncOutbox();
    expect(server.state.scenes.get(1)!.text[0]!.text).toBe("Hello, everyone");
    expect((await db.scenes.get(1))!.text[0]!.text).toBe("Hello, everyone");
  });

  it("refuses a line over 35 characters before anything is queued", async () => {
    const actions = start();
    await actions.refreshSubtitles(PROJECT_ID);
    const result = await actions.setSubtitleLine(20, lineKey(MEDIA_ID, 1.25), "x".repeat(36));
    expect(result).toEqual({ ok: false, failure: { kind: "bad_request", code: "line_too_long" } });
    expect(await db.outbox.count()).toBe(0);
    expect((await db.subtitleSets.get(20))!.lines[0]!.text).toBe("hola");
  });

  it("drops an edit of a set the server no longer has, and the set with it", async () => {
    const actions = start();
    await actions.refreshSubtitles(PROJECT_ID);
    server.state.sets.delete(20);
    const result = await actions.setSubtitleLine(20, lineKey(MEDIA_ID, 1.25), "hola");
    expect(result).toEqual({ ok: true, data: null });
    const changed = await actions.setSubtitleLine(20, lineKey(MEDIA_ID, 1.25), "buenas");
    expect(changed.ok).toBe(false);
    expect(await db.subtitleSets.get(20)).toBeUndefined();
    expect(await db.outbox.count()).toBe(0);
  });

  it("adds a language: the set arrives pending in the mirror", async () => {
    const actions = start();
    const result = await actions.requestTranslation(PROJECT_ID, "fr-FR");
    expect(result).toMatchObject({ ok: true, data: { locale: "fr-FR", status: "pending" } });
    expect(await db.subtitleSets.get(30)).toMatchObject({ locale: "fr-FR", status: "pending" });
    expect(server.state.applied).toEqual([`POST /projects/${PROJECT_ID}/translate`]);
  });
});

describe("writing sets into the mirror", () => {
  it("does not let an answer older than the mirror's row undo an edit the server already confirmed", async () => {
    const confirmed = { ...set(20, "es-ES", 0, ["hola", "el mundo"]), updated_at: "2026-11-24T10:05:00.000Z" };
    await db.subtitleSets.put(confirmed);
    await putSets(db, [set(20, "es-ES", 0, ["hola", "mundo"])], PROJECT_ID);
    expect((await db.subtitleSets.get(20))!.lines[1]!.text).toBe("el mundo");
    await putSets(db, [{ ...set(20, "es-ES", 0, ["hola", "todo el mundo"]), updated_at: "2026-11-24T10:06:00.000Z" }], PROJECT_ID);
    expect((await db.subtitleSets.get(20))!.lines[1]!.text).toBe("todo el mundo");
  });
});
