import type { SubtitleLanguage } from "../api/locales";
import type { SubtitleSet } from "../api/subtitles";
import { checkLines } from "../api/storyboard";
import type { CutroomDb } from "../src/db";
import type { ApiCall } from "./api-client";
import type { DownloadLink } from "./downloads";
import type { EditResult, Outbox } from "./outbox";
import type { Result } from "./status";
import { putSets } from "./subtitle-sets";

/**
 * A translation just asked for is looked at again after these waits (then the Translate page's 60 s refresh
 * carries on): short translations are ready in seconds, and the person should not wait a minute to see them.
 */
export const TRANSLATION_CHECKS_MS = [3_000, 8_000, 20_000, 40_000] as const;

export type SubtitlesFormat = "vtt" | "srt";

const optionsKey = (projectId: number) => `translate:${projectId}` as const;
const notFound: Result<never> = { ok: false, failure: { kind: "body", status: 404, body: { code: "not_found", message: "No such subtitle line" } } };
const isNotFound = (result: Result<unknown>) => !result.ok && result.failure.kind === "body" && result.failure.body.code === "not_found";

/**
 * Issue 14, the Translate page's data: a project's subtitle sets and translate options mirrored in Dexie
 * (SPEC §9: refreshed every 60 s while the page is open, paused while a line is being edited — the page drives
 * that), translations asked for, and line edits through the outbox (offline too, like scene text).
 */
export function createSubtitleActions(
  db: CutroomDb,
  call: ApiCall,
  outbox: Outbox,
  subtitlesLink: (projectId: number, options: { locale?: string; format?: SubtitlesFormat }) => Promise<Result<DownloadLink>>,
) {
  const checks = new Map<number, ReturnType<typeof setTimeout>>();

  /** The project's sets (all of them) and options, into the mirror. */
  async function refreshSubtitles(projectId: number): Promise<Result<{ sets: number }>> {
    const [sets, options] = await Promise.all([call("subtitles.list", { params: { id: projectId }, query: {} }), call("subtitles.options", { params: { id: projectId } })]);
    if (sets.ok) await putSets(db, sets.data.data, projectId);
    else if (isNotFound(sets)) await db.subtitleSets.where("project_id").equals(projectId).delete();
    if (options.ok) await db.meta.put({ key: optionsKey(projectId), value: { ...options.data, fetchedAt: new Date().toISOString() } });
    if (!sets.ok) return sets;
    if (!options.ok) return options;
    return { ok: true, data: { sets: sets.data.data.length } };
  }

  /** Looks again at the project's pending sets only (the lines being edited elsewhere on the page are left alone). */
  function checkPending(projectId: number, attempt = 0) {
    clearTimeout(checks.get(projectId));
    const wait = TRANSLATION_CHECKS_MS[attempt];
    if (wait === undefined) return void checks.delete(projectId);
    checks.set(
      projectId,
      setTimeout(async () => {
        const pending = new Set(await db.subtitleSets.where("project_id").equals(projectId).filter((s) => s.status === "pending").primaryKeys());
        if (pending.size === 0) return void checks.delete(projectId);
        const result = await call("subtitles.list", { params: { id: projectId }, query: {} });
        if (result.ok) await putSets(db, result.data.data.filter((s) => pending.has(s.id)));
        const stillPending = result.ok && result.data.data.some((s) => pending.has(s.id) && s.status === "pending");
        if (!result.ok || stillPending) checkPending(projectId, attempt + 1);
        else checks.delete(projectId);
      }, wait),
    );
  }

  return {
    refreshSubtitles,

    /** Adds a language (or translates a failed one again): the set comes back pending and is looked at again soon. */
    async requestTranslation(projectId: number, locale: SubtitleLanguage): Promise<Result<SubtitleSet>> {
      const result = await call("subtitles.translate", { params: { id: projectId }, body: { locale } });
      if (result.ok) {
        await putSets(db, [result.data]);
        checkPending(projectId);
      }
      return result;
    },

    /**
     * One line of a set, 35 characters at most (refused here as the server would). Works offline: the mirror
     * changes at once and PUT /subtitles/{id} waits in the outbox.
     */
    async setSubtitleLine(setId: number, key: string, text: string): Promise<EditResult<null>> {
      const set = await db.subtitleSets.get(setId);
      const line = set?.lines.find((l) => l.key === key);
      if (!set || !line) return notFound;
      const rule = checkLines([{ start: line.start, end: line.end, text }]);
      if (!rule.ok) return { ok: false, failure: { kind: "bad_request", code: rule.refusal } };
      if (line.text === text) return { ok: true, data: null };
      return outbox.submitLine(set.project_id, line.scene_id, { setId, key, text, original: set.original });
    },

    /** A set's WebVTT or SubRip file as a signed link; edits still queued are sent first, so the file has them. */
    async subtitleSetLink(projectId: number, options: { locale?: string; format: SubtitlesFormat }): Promise<Result<DownloadLink>> {
      await outbox.flush();
      return subtitlesLink(projectId, options);
    },
  };
}
