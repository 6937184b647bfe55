import type { Db } from "../db";
import { findProjectById } from "../db/projects";
import { markNeedsRender } from "../db/scenes";
import { burnsLocale, detailOf, unavailableReason } from "../services/subtitle-sets";
import { originalKeyedLines, parseTranslations, type KeyedLine } from "../services/subtitles";
import { TranslateError, type Translator } from "../translate";
import type { JobContext, JobPayloads } from "./types";

/**
 * The `translate` job (issue 14): a project's translated subtitle set made from its original lines, with one
 * call to the engine for the whole set (Apertium: one run per step of its route, one paragraph per line). Lines
 * the person edited are kept as they are; every other line gets the new translation. It ends the set "ready",
 * or "failed" with the reason and the error code, never silently: no source lines, no engine for the language,
 * an engine that is not installed, a service that refused or stayed unreachable after the retries.
 */
export interface TranslateJobDeps {
  db: Db;
  /** null: translation is not wired; every set then fails with the reason. */
  translator: Translator | null;
}

type Failure = { reason: "no_engine_for_language" | "engine_not_installed" | "translation_failed" | "no_source_lines"; error: string | null; detail: string };

export function createTranslateJob(deps: TranslateJobDeps) {
  const { db } = deps;

  async function fail(projectId: number, locale: string, failure: Failure) {
    await db
      .updateTable("subtitle_sets")
      .set({ status: "failed", reason: failure.reason, error: failure.error, detail: failure.detail.slice(0, 2000), updated_at: new Date().toISOString() })
      .where("project_id", "=", projectId)
      .where("locale", "=", locale)
      .where("original", "=", 0)
      .execute();
  }

  async function handler({ projectId, locale }: JobPayloads["translate"], ctx: JobContext): Promise<void> {
    const project = await findProjectById(db, projectId);
    if (!project || project.deleted_at) return;
    const set = await db.selectFrom("subtitle_sets").selectAll().where("project_id", "=", projectId).where("locale", "=", locale).executeTakeFirst();
    // Gone, the original, or already ended by a run a kill cut short after its last write.
    if (!set || set.original || set.status !== "pending") return;

    const original = await originalKeyedLines(db, projectId);
    if (!project.locale || original.length === 0) {
      return fail(projectId, locale, { reason: "no_source_lines", error: null, detail: "The project has no subtitle lines to translate." });
    }
    const from = project.locale;
    const availability = deps.translator
      ? await deps.translator.availability(from, locale)
      : ({ available: false, reason: "no_engine_for_pair", missing: `translation from ${from} to ${locale}`, remedy: "Translation is not set up on this server." } as const);
    if (!availability.available) {
      return fail(projectId, locale, { reason: unavailableReason(availability), error: "translate_unavailable", detail: detailOf(availability) });
    }

    // One translation per line key; the person's edits stay.
    const edited = parseTranslations(set.translations);
    const todo = new Map<string, KeyedLine>();
    for (const line of original) if (!edited[line.key]?.edited && !todo.has(line.key)) todo.set(line.key, line);
    const lines = [...todo.values()];
    let texts: string[];
    try {
      texts = lines.length > 0 ? await deps.translator!.translateLines(lines.map((l) => l.text), { from, to: locale, signal: ctx.signal }) : [];
    } catch (error) {
      if (error instanceof TranslateError) {
        // A service down or busy may answer a later attempt; the last attempt ends the set with the reason.
        if (error.retryable && ctx.attempt < (ctx.maxAttempts ?? 1)) throw error;
        return fail(projectId, locale, { reason: "translation_failed", error: error.code, detail: error.message });
      }
      throw error;
    }

    const now = new Date().toISOString();
    await db.transaction().execute(async (trx) => {
      // Read again: an edit made while the engine worked is kept too.
      const current = await trx.selectFrom("subtitle_sets").select(["translations", "status"]).where("id", "=", set.id).executeTakeFirst();
      if (!current) return;
      const translations = parseTranslations(current.translations);
      lines.forEach((line, i) => {
        if (translations[line.key]?.edited) return;
        translations[line.key] = { source: line.text, text: texts[i] ?? "", edited: 0 };
      });
      await trx
        .updateTable("subtitle_sets")
        .set({ status: "ready", engine: availability.engine, draft: availability.draft ? 1 : 0, reason: null, error: null, detail: null, translations: JSON.stringify(translations), updated_at: now })
        .where("id", "=", set.id)
        .execute();
      if (await burnsLocale(trx, projectId, locale)) await markNeedsRender(trx, projectId);
    });
  }

  /** The job gave up (attempts spent on an unexpected error): the set says so; the project itself is untouched. */
  async function onFailed(job: { type: string; payload: unknown }, error: Error) {
    const { projectId, locale } = job.payload as JobPayloads["translate"];
    if (!projectId || !locale) return;
    const code = error instanceof TranslateError ? error.code : "translate_engine_failed";
    await fail(projectId, locale, { reason: "translation_failed", error: code, detail: error.message });
  }

  return { handler, onFailed };
}
