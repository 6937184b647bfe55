import type { z } from "zod";
import { SCENE_LINE_MAX } from "../../api/limits";
import { SUBTITLE_LANGUAGES } from "../../api/locales";
import type { TextLine } from "../../api/storyboard";
import type { SubtitleLinesUpdate, SubtitleSet, SubtitleSetLine, TranslateOptions, TranslationUnavailableReason } from "../../api/subtitles";
import type { Db } from "../db";
import { findProject } from "../db/projects";
import { markNeedsRender } from "../db/scenes";
import type { Selectable } from "kysely";
import type { SubtitleSetsTable } from "../db/schema";
import type { TranslateAvailability, Translator } from "../translate";
import { DomainError, mustNotBeFinished, notFound } from "./errors";
import { jobId } from "../jobs/queue";
import { FREE_PRIORITY, PAID_PRIORITY, projectGroup, type ProjectQueue } from "./projects";
import { fitLine } from "../speech/lines";
import { lineKey, originalKeyedLines, parseTranslations, type KeyedLine, type Translations } from "./subtitles";

/**
 * Subtitle sets (SPEC §3 Subtitle set, §7 autosubtitles / translate / PUT /subtitles/{id}; issue 14). One set
 * per project and locale. The original set (the spoken language) is made on first read when the project has
 * lines, and its lines are the scenes' own: editing it edits the scene's text line. A translated set keeps one
 * translation per original line, keyed by the line (lineKey), so it follows the line through splits, merges
 * and reorders; a new translation keeps every line the person edited.
 */

export type SubtitleSetRow = Selectable<SubtitleSetsTable>;

export interface SubtitleSetsDeps {
  db: Db;
  /** null: translation is not wired (every language then shows unavailable). */
  translator: Translator | null;
  queue: ProjectQueue;
  isPaid: (userId: number) => Promise<boolean>;
  mustBeVerified: (userId: number) => Promise<void>;
}

const bit = (v: unknown): 0 | 1 => (v ? 1 : 0);

/** The port's reason → the contract's (an unreachable service is an engine that cannot be had here). */
export function unavailableReason(availability: Extract<TranslateAvailability, { available: false }>): TranslationUnavailableReason {
  return availability.reason === "no_engine_for_pair" ? "no_engine_for_language" : "engine_not_installed";
}

/** What an operator reads about an unavailable pair: what is missing and how to add it. */
export const detailOf = (availability: Extract<TranslateAvailability, { available: false }>) => `${availability.missing} is missing. ${availability.remedy}`;

/** The engine that made a project's original lines and whether they are drafts, from its files' transcripts. */
async function originalEngine(db: Db, projectId: number): Promise<string | null> {
  const rows = await db
    .selectFrom("project_media")
    .innerJoin("media_files", "media_files.id", "project_media.media_file_id")
    .select("media_files.transcript")
    .where("project_media.project_id", "=", projectId)
    .where("media_files.transcript", "is not", null)
    .orderBy("project_media.position")
    .execute();
  for (const row of rows) {
    // the transcript holds every word: its engine is read without parsing the whole of it
    const engine = /"engine"\s*:\s*"([^"\\]{1,40})"/.exec(row.transcript!)?.[1];
    if (engine) return engine;
  }
  return null;
}

/** A set's lines: the original lines, or each original line with its translation ("" when it has none yet). */
export function setLines(row: Pick<SubtitleSetRow, "original" | "status" | "translations">, original: readonly KeyedLine[]): SubtitleSetLine[] {
  if (row.original) return original.map((l) => ({ key: l.key, scene_id: l.scene_id, start: l.start, end: l.end, text: l.text, edited: 0 }));
  const translations = parseTranslations(row.translations);
  // Before its first translation a set has no lines to show (nor after a first one that failed).
  if (Object.keys(translations).length === 0 && row.status !== "ready") return [];
  return original.flatMap((l) => {
    const t = translations[l.key];
    const edited = t?.edited ? 1 : 0;
    const pieces = t?.text ? fitLine({ start: l.start, end: l.end, text: t.text }) : [];
    if (pieces.length <= 1) return [{ key: l.key, scene_id: l.scene_id, start: l.start, end: l.end, text: pieces[0]?.text ?? "", edited }];
    // A translation longer than a line shows as consecutive lines of at most 35 characters, each editable.
    return pieces.map((p, i) => ({ key: pieceKey(l.key, i), scene_id: l.scene_id, start: p.start, end: p.end, text: p.text, edited }));
  });
}

/** The key of the (i+1)th line a long translation shows as: `${line key}#${i+1}`. */
export const pieceKey = (key: string, index: number) => `${key}#${index + 1}`;

/** `12@3400#2` → the line key and the piece index (0-based), or no piece. */
export function parsePieceKey(key: string): { key: string; piece: number | null } {
  const match = /^(.*)#(\d{1,3})$/.exec(key);
  return match ? { key: match[1]!, piece: Number(match[2]) - 1 } : { key, piece: null };
}

/** A translation's text with edits of its pieces (or of the whole) applied; emptied pieces go. */
export function editedTranslation(current: string, edits: readonly { piece: number | null; text: string }[]): string {
  const whole = edits.filter((e) => e.piece === null).pop();
  if (whole) return whole.text;
  const pieces = fitLine({ start: 0, end: 1, text: current }).map((p) => p.text);
  for (const edit of edits) if (edit.piece !== null && edit.piece < pieces.length) pieces[edit.piece] = edit.text;
  return pieces.filter(Boolean).join(" ");
}

export function toSubtitleSet(row: SubtitleSetRow, original: readonly KeyedLine[]): SubtitleSet {
  return {
    id: row.id,
    project_id: row.project_id,
    locale: row.locale,
    original: bit(row.original),
    status: row.status as SubtitleSet["status"],
    engine: row.engine,
    draft: bit(row.draft),
    reason: (row.reason as SubtitleSet["reason"]) ?? null,
    error: (row.error as SubtitleSet["error"]) ?? null,
    detail: row.detail,
    lines: setLines(row, original),
    updated_at: row.updated_at,
  };
}

/** Whether the project's render burns this locale's subtitles in (Options: font.locale), so its edits need a render. */
export async function burnsLocale(db: Db, projectId: number, locale: string): Promise<boolean> {
  const row = await db.selectFrom("projects").select("settings").where("id", "=", projectId).executeTakeFirst();
  try {
    return (JSON.parse(row?.settings ?? "{}") as { font?: { locale?: unknown } }).font?.locale === locale;
  } catch {
    return false;
  }
}

/** How long the options wait for an engine's answer (a service being retried) before saying it does not answer. */
export const OPTIONS_WAIT_MS = 5_000;

/** The availability, or after OPTIONS_WAIT_MS "not reachable now": a page's options never hang on a slow service. */
async function answerSoon(pending: Promise<TranslateAvailability>, from: string, to: string): Promise<TranslateAvailability> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<TranslateAvailability>((resolve) => {
    timer = setTimeout(
      () => resolve({ available: false, reason: "service_unreachable", missing: `an answer from the translation engine for ${from} to ${to}`, remedy: "Check that the service at TRANSLATE_URL is running; the options ask again on the next refresh." }),
      OPTIONS_WAIT_MS,
    );
  });
  try {
    return await Promise.race([pending.catch((error: unknown) => ({ available: false as const, reason: "service_unreachable" as const, missing: `the translation engine (${String(error)})`, remedy: "Check the translation set-up." })), late]);
  } finally {
    clearTimeout(timer);
  }
}

export function createSubtitleSets(deps: SubtitleSetsDeps) {
  const { db } = deps;

  async function mustProject(userId: number, projectId: number) {
    const row = await findProject(db, userId, projectId);
    if (!row || row.deleted_at) throw notFound("No such project");
    return row;
  }

  /** The original set of a project with lines, made on first read (one per project and locale: a race inserts once). */
  async function ensureOriginal(project: { id: number; user_id: number; locale: string | null; subtitles_draft?: number }, lines: readonly KeyedLine[]) {
    if (!project.locale || lines.length === 0) return;
    const now = new Date().toISOString();
    const engine = await originalEngine(db, project.id);
    await db
      .insertInto("subtitle_sets")
      .values({
        project_id: project.id,
        user_id: project.user_id,
        locale: project.locale,
        original: 1,
        status: "ready",
        engine,
        draft: project.subtitles_draft ? 1 : 0,
        reason: null,
        error: null,
        detail: null,
        translations: "{}",
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(["project_id", "locale"]).doNothing())
      .execute();
  }

  /**
   * A pending set whose job was taken out of the queue (the project removed from the queue cancels its group)
   * would wait forever: it ends failed, saying so. Answers whether any did.
   */
  async function endCancelled(rows: readonly SubtitleSetRow[]): Promise<boolean> {
    let ended = false;
    for (const row of rows.filter((r) => r.status === "pending" && !r.original)) {
      const id = jobId("translate", { projectId: row.project_id, locale: row.locale });
      const job = deps.queue.get ? await deps.queue.get(id) : await db.selectFrom("jobs").select("status").where("id", "=", id).executeTakeFirst();
      // No row yet: the request that queues it is between its two writes.
      if (job?.status !== "cancelled") continue;
      const now = new Date().toISOString();
      await db
        .updateTable("subtitle_sets")
        .set({ status: "failed", reason: "translation_failed", error: null, detail: "The translation was taken out of the queue before it ran. Translate again.", updated_at: now })
        .where("id", "=", row.id)
        .where("status", "=", "pending")
        .execute();
      ended = true;
    }
    return ended;
  }

  async function availability(from: string, to: string): Promise<TranslateAvailability> {
    if (!deps.translator) {
      return { available: false, reason: "no_engine_for_pair", missing: `translation from ${from} to ${to}`, remedy: "Translation is not set up on this server." };
    }
    return deps.translator.availability(from, to);
  }

  return {
    async list(userId: number, projectId: number, readyOnly = false): Promise<{ data: SubtitleSet[] }> {
      const project = await mustProject(userId, projectId);
      const original = await originalKeyedLines(db, projectId);
      await ensureOriginal(project, original);
      let rows = await db.selectFrom("subtitle_sets").selectAll().where("project_id", "=", projectId).orderBy("original", "desc").orderBy("locale").execute();
      if (await endCancelled(rows)) rows = await db.selectFrom("subtitle_sets").selectAll().where("project_id", "=", projectId).orderBy("original", "desc").orderBy("locale").execute();
      // The original's engine and draft mark as they are now: its lines may have come after the set was made.
      const live = { engine: await originalEngine(db, projectId), draft: project.subtitles_draft ? 1 : 0 };
      return { data: rows.filter((r) => !readyOnly || r.status === "ready").map((r) => toSubtitleSet(r.original ? { ...r, ...live } : r, original)) };
    },

    async options(userId: number, projectId: number): Promise<TranslateOptions> {
      const project = await mustProject(userId, projectId);
      const original = await originalKeyedLines(db, projectId);
      const source = original.length > 0 ? project.locale : null;
      const options = await Promise.all(
        SUBTITLE_LANGUAGES.map(async (locale) => {
          if (!source) return { locale, available: false, engine: null, draft: 0 as const, reason: "no_source_lines" as const, detail: "The project has no subtitle lines to translate." };
          if (locale === source) return { locale, available: true, engine: null, draft: bit(project.subtitles_draft), reason: null, detail: null };
          const a = await answerSoon(availability(source, locale), source, locale);
          return a.available
            ? { locale, available: true, engine: a.engine, draft: bit(a.draft), reason: null, detail: null }
            : { locale, available: false, engine: null, draft: 0 as const, reason: unavailableReason(a), detail: detailOf(a) };
        }),
      );
      return { source_locale: source, options };
    },

    /** Queues the set's translation; the set is pending until the job ends it ready or failed. */
    async translate(userId: number, projectId: number, locale: string): Promise<SubtitleSet> {
      const project = await mustProject(userId, projectId);
      if (locale === project.locale) throw new DomainError("validation_failed", "The subtitles are already in this language", { locale: "invalid" });
      await deps.mustBeVerified(userId);
      const original = await originalKeyedLines(db, projectId);
      await ensureOriginal(project, original);
      const now = new Date().toISOString();
      await db
        .insertInto("subtitle_sets")
        .values({ project_id: projectId, user_id: project.user_id, locale, original: 0, status: "pending", engine: null, draft: 0, reason: null, error: null, detail: null, translations: "{}", created_at: now, updated_at: now })
        .onConflict((oc) => oc.columns(["project_id", "locale"]).doUpdateSet({ status: "pending", reason: null, error: null, detail: null, updated_at: now }))
        .execute();
      const priority = (await deps.isPaid(project.user_id)) ? PAID_PRIORITY : FREE_PRIORITY;
      await deps.queue.enqueue("translate", { projectId, locale }, { priority, group: projectGroup(projectId), owner: String(project.user_id) });
      const row = await db.selectFrom("subtitle_sets").selectAll().where("project_id", "=", projectId).where("locale", "=", locale).executeTakeFirstOrThrow();
      return toSubtitleSet(row, original);
    },

    /** Text edits: the original set writes the scenes' text lines; a translated set keeps the edits as the person's. */
    async update(userId: number, setId: number, body: z.output<typeof SubtitleLinesUpdate>): Promise<SubtitleSet> {
      const set = await db
        .selectFrom("subtitle_sets")
        .innerJoin("projects", "projects.id", "subtitle_sets.project_id")
        .selectAll("subtitle_sets")
        .where("subtitle_sets.id", "=", setId)
        .where("projects.user_id", "=", userId)
        .where("projects.deleted_at", "is", null)
        .executeTakeFirst();
      if (!set) throw notFound("No such subtitle set");
      const edits = body.lines.map((l) => ({ key: l.key, text: l.text.replace(/[\s\u00a0]+/g, " ").trim() }));
      if (edits.some((l) => [...l.text].length > SCENE_LINE_MAX)) throw new DomainError("line_too_long", `A text line has at most ${SCENE_LINE_MAX} characters`);
      const original = await originalKeyedLines(db, set.project_id);
      const known = new Set(original.map((l) => l.key));
      // the original set's keys name lines; a translated set's may name a piece of a long translation
      const unknown = body.lines.findIndex((l) => !known.has(set.original ? l.key : parsePieceKey(l.key).key));
      if (unknown >= 0) throw new DomainError("validation_failed", "No such line in this project's subtitles", { [`lines.${unknown}.key`]: "invalid" });
      const now = new Date().toISOString();
      if (set.original) {
        const project = await db.selectFrom("projects").select("status").where("id", "=", set.project_id).executeTakeFirstOrThrow();
        mustNotBeFinished(project);
        const byKey = new Map(edits.map((e) => [e.key, e.text]));
        const sceneIds = [...new Set(original.filter((l) => byKey.has(l.key)).map((l) => l.scene_id))];
        await db.transaction().execute(async (trx) => {
          const scenes = await trx.selectFrom("scenes").select(["id", "media_file_id", "text"]).where("id", "in", sceneIds).execute();
          for (const scene of scenes) {
            const lines = JSON.parse(scene.text) as TextLine[];
            // An emptied line goes, as removing it on the scene card does.
            const next = lines.flatMap((line) => {
              const text = byKey.get(lineKey(scene.media_file_id!, line.start));
              if (text === undefined) return [line];
              return text ? [{ ...line, text }] : [];
            });
            await trx.updateTable("scenes").set({ text: JSON.stringify(next), updated_at: now }).where("id", "=", scene.id).execute();
          }
          await trx.updateTable("subtitle_sets").set({ updated_at: now }).where("id", "=", set.id).execute();
          await markNeedsRender(trx, set.project_id);
        });
      } else {
        await db.transaction().execute(async (trx) => {
          const current = await trx.selectFrom("subtitle_sets").select("translations").where("id", "=", set.id).executeTakeFirstOrThrow();
          const translations: Translations = parseTranslations(current.translations);
          const sourceOf = new Map(original.map((l) => [l.key, l.text]));
          const byLine = new Map<string, { piece: number | null; text: string }[]>();
          for (const edit of edits) {
            const { key, piece } = parsePieceKey(edit.key);
            byLine.set(key, [...(byLine.get(key) ?? []), { piece, text: edit.text }]);
          }
          for (const [key, lineEdits] of byLine) {
            const text = editedTranslation(translations[key]?.text ?? "", lineEdits);
            translations[key] = { source: translations[key]?.source ?? sourceOf.get(key) ?? "", text, edited: 1 };
          }
          await trx.updateTable("subtitle_sets").set({ translations: JSON.stringify(translations), updated_at: now }).where("id", "=", set.id).execute();
          if (await burnsLocale(trx, set.project_id, set.locale)) await markNeedsRender(trx, set.project_id);
        });
      }
      const row = await db.selectFrom("subtitle_sets").selectAll().where("id", "=", set.id).executeTakeFirstOrThrow();
      return toSubtitleSet(row, await originalKeyedLines(db, set.project_id));
    },
  };
}

export type SubtitleSets = ReturnType<typeof createSubtitleSets>;
