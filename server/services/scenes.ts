import type { Transaction } from "kysely";
import type { z } from "zod";
import type { Db } from "../db";
import type { Database } from "../db/schema";
import { findProject, projectMedia } from "../db/projects";
import type { SceneRow } from "../db/scenes";
import { checkLines, mergeNext, reorder, splitByLine, splitByPosition, trim, type RuleResult, type SceneTimes, type TextLine } from "../../api/storyboard";
import type { Scene, SceneUpdateBody } from "../../api/scenes";
import { IMAGE_SCENE_SECONDS } from "../domain/storyboard";
import type { FileLinks } from "./file-links";
import { DomainError, notFound } from "./errors";

const REFUSALS: Record<string, string> = {
  markers_cross: "The trim markers cannot pass each other",
  out_of_bounds: "The trim goes past the media",
  split_needs_two_lines: "Split by line needs more than one text line",
  split_needs_no_text: "Split by position is only for scenes without text",
  split_at_edge: "A split must leave something on both sides",
  line_too_long: "A text line has at most 35 characters",
  not_mergeable: "These scenes cannot be merged",
};

/** A rule refused: a bad request (SPEC §8), with the reason in the message. */
function must<T>(result: RuleResult<T>): T {
  if (!result.ok) throw new DomainError(result.refusal, REFUSALS[result.refusal] ?? "Bad request");
  return result.value;
}

const bit = (v: number): 0 | 1 => (v ? 1 : 0);
const timesOf = (row: SceneRow): SceneTimes => ({ ...row, text: JSON.parse(row.text) as TextLine[] });

/** Scene calls of SPEC §7. Every read and write goes through the owning project. */
export function createScenes(deps: { db: Db; links: FileLinks }) {
  const { db } = deps;

  async function rawOffsets(projectId: number): Promise<Map<number, number>> {
    const offsets = new Map<number, number>();
    let at = 0;
    for (const m of await projectMedia(db, projectId)) {
      offsets.set(m.id, at);
      at += m.kind === "image" ? IMAGE_SCENE_SECONDS : m.duration_seconds;
    }
    return offsets;
  }

  function toScene(row: SceneRow, offsets: Map<number, number>): Scene {
    const offset = row.media_file_id === null ? undefined : offsets.get(row.media_file_id);
    return {
      id: row.id,
      project_id: row.project_id,
      order: row.order,
      media_file_id: row.media_file_id,
      media_file: offset === undefined ? null : { raw_preview_offset: offset },
      isScene: true,
      type: row.type === "intro" || row.type === "outro" ? row.type : "default",
      visibility: bit(row.visibility),
      start: row.start,
      end: row.end,
      trim_start: row.trim_start,
      trim_end: row.trim_end,
      trim_start_default: row.trim_start_default,
      trim_end_default: row.trim_end_default,
      trim_start_raw: row.trim_start_raw,
      trim_end_raw: row.trim_end_raw,
      thumbnail: row.thumbnail_key ? deps.links.url(row.thumbnail_key) : null,
      text: JSON.parse(row.text) as TextLine[],
      mediaAudio: row.media_audio as Scene["mediaAudio"],
      musicType: row.music_type as Scene["musicType"],
      punch_in: (row.punch_in === 0 || row.punch_in === 2 ? row.punch_in : 1) as Scene["punch_in"],
      punch_in_status: bit(row.punch_in_status),
      crop: row.crop === 1,
      selected_faces: JSON.parse(row.selected_faces) as Scene["selected_faces"],
      overscene: null, // TODO(issue 4, server helper): the nested overlay row
      overscene_type: row.overscene_type as Scene["overscene_type"],
      overscene_fade: bit(row.overscene_fade),
      overscene_overflow: bit(row.overscene_overflow),
      overscene_bg: bit(row.overscene_bg),
    };
  }

  async function owned(userId: number, sceneId: number): Promise<SceneRow> {
    const row = await db
      .selectFrom("scenes")
      .innerJoin("projects", "projects.id", "scenes.project_id")
      .selectAll("scenes")
      .where("scenes.id", "=", sceneId)
      .where("projects.user_id", "=", userId)
      .where("projects.deleted_at", "is", null)
      .executeTakeFirst();
    if (!row) throw notFound("No such scene");
    return row;
  }

  const present = async (row: SceneRow) => toScene(row, await rawOffsets(row.project_id));
  const presentAll = async (rows: SceneRow[]) => {
    const offsets = rows[0] ? await rawOffsets(rows[0].project_id) : new Map<number, number>();
    return { scenes: rows.map((r) => toScene(r, offsets)) };
  };

  async function update(userId: number, sceneId: number, changes: Partial<Omit<SceneRow, "id" | "project_id">>): Promise<Scene> {
    await owned(userId, sceneId);
    const row = await db.updateTable("scenes").set({ ...changes, updated_at: new Date().toISOString() }).where("id", "=", sceneId).returningAll().executeTakeFirstOrThrow();
    return present(row);
  }

  /** Orders become 1…n again and the project's scene count follows. */
  async function renumber(trx: Transaction<Database>, projectId: number, orderedIds: number[]) {
    for (const [i, id] of orderedIds.entries()) await trx.updateTable("scenes").set({ order: i + 1 }).where("id", "=", id).execute();
    await trx.updateTable("projects").set({ scenes_count: orderedIds.length }).where("id", "=", projectId).execute();
  }

  const ordered = (trx: Transaction<Database> | Db, projectId: number) =>
    trx.selectFrom("scenes").selectAll().where("project_id", "=", projectId).orderBy("order").orderBy("id").execute();

  /** Puts `inserted` right after `after` in the project's order. */
  async function insertAfter(trx: Transaction<Database>, after: SceneRow, inserted: Omit<SceneRow, "id">): Promise<SceneRow> {
    const row = await trx.insertInto("scenes").values(inserted).returningAll().executeTakeFirstOrThrow();
    const ids = (await ordered(trx, after.project_id)).map((s) => s.id).filter((id) => id !== row.id);
    ids.splice(ids.indexOf(after.id) + 1, 0, row.id);
    await renumber(trx, after.project_id, ids);
    return trx.selectFrom("scenes").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
  }

  async function split(userId: number, sceneId: number, parts: (scene: SceneTimes) => RuleResult<[SceneTimes, SceneTimes]>) {
    const row = await owned(userId, sceneId);
    const [first, second] = must(parts(timesOf(row)));
    const now = new Date().toISOString();
    const rows = await db.transaction().execute(async (trx) => {
      const a = await trx
        .updateTable("scenes")
        .set({ end: first.end, trim_end: first.trim_end, trim_end_default: first.trim_end_default, trim_end_raw: row.trim_end_raw - (row.trim_end - first.trim_end), text: JSON.stringify(first.text), updated_at: now })
        .where("id", "=", row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const { id: _id, ...copy } = row;
      const b = await insertAfter(trx, a, {
        ...copy,
        start: second.start,
        trim_start: second.trim_start,
        trim_start_default: second.trim_start_default,
        trim_start_raw: row.trim_start_raw + (second.trim_start - row.trim_start),
        text: JSON.stringify(second.text),
        created_at: now,
        updated_at: now,
      });
      return [await trx.selectFrom("scenes").selectAll().where("id", "=", a.id).executeTakeFirstOrThrow(), b];
    });
    return presentAll(rows);
  }

  return {
    async storyboard(userId: number, projectId: number, offset: number, limit: number, ids?: number[]) {
      const project = await findProject(db, userId, projectId);
      if (!project || project.deleted_at) throw notFound("No such project");
      const total = Number(
        (await db.selectFrom("scenes").select((eb) => eb.fn.countAll<number>().as("n")).where("project_id", "=", projectId).executeTakeFirstOrThrow()).n,
      );
      let query = db.selectFrom("scenes").selectAll().where("project_id", "=", projectId);
      query = ids?.length ? query.where("id", "in", ids) : query.offset(offset).limit(limit);
      const rows = await query.orderBy("order").orderBy("id").execute();
      const offsets = await rawOffsets(projectId);
      return {
        projectId,
        offset,
        limit,
        hasMoreScenes: !ids?.length && offset + rows.length < total,
        timeline: { scenes: rows.map((r) => toScene(r, offsets)), projectScenesTotal: total },
      };
    },

    get: async (userId: number, sceneId: number) => present(await owned(userId, sceneId)),

    async update(userId: number, sceneId: number, body: z.output<typeof SceneUpdateBody>) {
      if (body.text) must(checkLines(body.text));
      return update(userId, sceneId, {
        ...(body.text ? { text: JSON.stringify(body.text) } : {}),
        ...(body.mediaAudio ? { media_audio: body.mediaAudio } : {}),
        ...(body.musicType ? { music_type: body.musicType } : {}),
      });
    },

    removeLines: (userId: number, sceneId: number) => update(userId, sceneId, { text: "[]" }),
    show: (userId: number, sceneId: number) => update(userId, sceneId, { visibility: 1 }),
    hide: (userId: number, sceneId: number) => update(userId, sceneId, { visibility: 0 }),
    setType: (userId: number, sceneId: number, type: "intro" | "outro" | "default") => update(userId, sceneId, { type }),

    async trim(userId: number, sceneId: number, trimStart: number, trimEnd: number) {
      const row = await owned(userId, sceneId);
      const value = must(trim(timesOf(row), trimStart, trimEnd));
      // The raw preview holds this file at a fixed offset: move the raw trims with the media trims.
      const offset = row.trim_start_raw - row.trim_start;
      return update(userId, sceneId, { ...value, trim_start_raw: value.trim_start + offset, trim_end_raw: value.trim_end + offset });
    },

    splitByPosition: (userId: number, sceneId: number, position: number) => split(userId, sceneId, (s) => splitByPosition(s, position)),
    splitByLine: (userId: number, sceneId: number, line: number) => split(userId, sceneId, (s) => splitByLine(s, line)),

    async mergeNext(userId: number, sceneId: number) {
      const row = await owned(userId, sceneId);
      const rows = await ordered(db, row.project_id);
      const next = rows[rows.findIndex((s) => s.id === row.id) + 1];
      if (!next) throw new DomainError("not_mergeable", REFUSALS.not_mergeable!);
      const merged = must(mergeNext(timesOf(row), timesOf(next)));
      const result = await db.transaction().execute(async (trx) => {
        const updated = await trx
          .updateTable("scenes")
          .set({ end: merged.end, trim_end: merged.trim_end, trim_end_default: merged.trim_end_default, trim_end_raw: next.trim_end_raw, text: JSON.stringify(merged.text), updated_at: new Date().toISOString() })
          .where("id", "=", row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        await trx.deleteFrom("scenes").where("id", "=", next.id).execute();
        await renumber(trx, row.project_id, rows.filter((s) => s.id !== next.id).map((s) => s.id));
        return updated;
      });
      return present({ ...result, order: rows.findIndex((s) => s.id === row.id) + 1 });
    },

    async order(userId: number, sceneId: number, position: number) {
      const row = await owned(userId, sceneId);
      const moved = reorder(await ordered(db, row.project_id), sceneId, position);
      await db.transaction().execute((trx) => renumber(trx, row.project_id, moved.map((s) => s.id)));
      return presentAll(await ordered(db, row.project_id));
    },

    async duplicate(userId: number, sceneId: number) {
      const row = await owned(userId, sceneId);
      const now = new Date().toISOString();
      const copy = await db.transaction().execute(async (trx) => {
        const { id: _id, ...rest } = row;
        return insertAfter(trx, row, { ...rest, created_at: now, updated_at: now });
      });
      return presentAll([await owned(userId, sceneId), copy]);
    },
  };
}

export type Scenes = ReturnType<typeof createScenes>;
