import type { z } from "zod";
import type { Db } from "../db";
import { findProject } from "../db/projects";
import { mainScenes, markNeedsRender, rawOffsetsOf, renumberScenes, type SceneRow } from "../db/scenes";
import { checkLines, cutRange, mergeNext, overlayOptions, reorder, splitByLine, splitByPosition, trim, type OverlayOptions, type RuleResult, type SceneTimes, type TextLine } from "../../api/storyboard";
import type { DetectedFace, OverScene, Scene, SceneUpdateBody } from "../../api/scenes";
import { expand, facesOfRange, type FaceTrack } from "../domain/faces";
import type { FileLinks } from "./file-links";
import type { ProjectWords } from "../../api/subtitles";
import { storedTranscript } from "../jobs/transcribe";
import { DomainError, mustNotBeFinished, notFound } from "./errors";

const REFUSALS: Record<string, string> = {
  markers_cross: "The trim markers cannot pass each other",
  out_of_bounds: "The trim goes past the media",
  split_needs_two_lines: "Split by line needs more than one text line",
  split_needs_no_text: "Split by position is only for scenes without text",
  split_at_edge: "A split must leave something on both sides",
  line_too_long: "A text line has at most 35 characters",
  not_mergeable: "These scenes cannot be merged",
  cut_empty: "Choose at least one word to cut",
};

/** A rule refused: a bad request (SPEC §8), with the reason in the message. */
function must<T>(result: RuleResult<T>): T {
  if (!result.ok) throw new DomainError(result.refusal, REFUSALS[result.refusal] ?? "Bad request");
  return result.value;
}

const bit = (v: number): 0 | 1 => (v ? 1 : 0);
const timesOf = (row: SceneRow): SceneTimes => ({ ...row, text: JSON.parse(row.text) as TextLine[] });
const optionsOf = (row: SceneRow): OverlayOptions => ({
  overscene_type: row.overscene_type as OverlayOptions["overscene_type"],
  overscene_fade: bit(row.overscene_fade),
  overscene_overflow: bit(row.overscene_overflow),
  overscene_bg: bit(row.overscene_bg),
});
/** A main scene without an overlay. */
export const NO_OVERLAY: OverlayOptions = { overscene_type: null, overscene_fade: 0, overscene_overflow: 0, overscene_bg: 0 };

/** A file's faces (media_faces), parsed. */
interface MediaFaces {
  fps: number;
  tracks: FaceTrack[];
  thumbs: Record<string, string>;
}

/** An overlay row with what its preview link needs of its media file. */
type OverlayRow = SceneRow & { proxy_key: string | null; media_kind: string | null; media_thumbnail_key: string | null };

/** Scene calls of SPEC §7. Every read and write goes through the owning project. */
export function createScenes(deps: { db: Db; links: FileLinks }) {
  const { db } = deps;

  /** Overlay rows of a project (or of some main scenes), with their media's preview keys. */
  async function overlayRows(projectId: number, parentIds?: readonly number[]): Promise<Map<number, OverlayRow>> {
    let query = db
      .selectFrom("scenes")
      .leftJoin("media_files", "media_files.id", "scenes.media_file_id")
      .selectAll("scenes")
      .select(["media_files.proxy_key", "media_files.kind as media_kind", "media_files.thumbnail_key as media_thumbnail_key"])
      .where("scenes.project_id", "=", projectId)
      .where("scenes.parent_scene_id", "is not", null);
    if (parentIds) {
      if (parentIds.length === 0) return new Map();
      query = query.where("scenes.parent_scene_id", "in", parentIds);
    }
    const rows = (await query.orderBy("scenes.id").execute()) as OverlayRow[];
    return new Map(rows.map((r) => [r.parent_scene_id!, r]));
  }

  function toOverScene(row: OverlayRow): OverScene {
    // Images have no proxy: the poster is the picture itself.
    const preview = row.proxy_key ?? (row.media_kind === "image" ? row.media_thumbnail_key : null);
    return {
      id: row.id,
      media_file_id: row.media_file_id,
      start: row.start,
      end: row.end,
      trim_start: row.trim_start,
      trim_end: row.trim_end,
      thumbnail: row.thumbnail_key ? deps.links.url(row.thumbnail_key) : null,
      preview_url: preview ? deps.links.url(preview) : null,
    };
  }

  /** Issue 17: the faces found in the files of these scenes (one query), by media id. */
  async function mediaFaces(rows: readonly SceneRow[]): Promise<Map<number, MediaFaces>> {
    const ids = [...new Set(rows.map((r) => r.media_file_id).filter((id): id is number => id !== null))];
    if (ids.length === 0) return new Map();
    const found = await db.selectFrom("media_faces").selectAll().where("media_file_id", "in", ids).execute();
    return new Map(found.map((f) => [f.media_file_id, { fps: f.sample_fps, tracks: expand(f.tracks), thumbs: JSON.parse(f.thumbs) as Record<string, string> }]));
  }

  /** The faces seen during a scene's kept part, most prominent first. */
  function facesOf(row: SceneRow, faces: MediaFaces | undefined): DetectedFace[] {
    if (!faces) return [];
    return facesOfRange(faces.tracks, faces.fps, row.trim_start, row.trim_end).map((f) => ({
      track: f.track,
      BoundingBox: { Left: f.box.x, Top: f.box.y, Width: f.box.w, Height: f.box.h },
      presence: Math.round(f.presence * 100) / 100,
      thumbnail: faces.thumbs[f.track] ? deps.links.url(faces.thumbs[f.track]!) : null,
    }));
  }

  function toScene(row: SceneRow, offsets: Map<number, number>, overlay?: OverlayRow, faces?: MediaFaces): Scene {
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
      faces: facesOf(row, faces),
      overscene: overlay ? toOverScene(overlay) : null,
      ...(optionsOf(row) as Pick<Scene, "overscene_type" | "overscene_fade" | "overscene_overflow" | "overscene_bg">),
    };
  }

  /** Presents rows of one project, each main scene with its overlay. */
  async function presentMany(projectId: number, rows: readonly SceneRow[]): Promise<Scene[]> {
    if (rows.length === 0) return [];
    const offsets = await rawOffsetsOf(db, projectId);
    const overlays = await overlayRows(projectId, rows.length > 250 ? undefined : rows.map((r) => r.id));
    const faces = await mediaFaces(rows);
    return rows.map((r) => toScene(r, offsets, overlays.get(r.id), r.media_file_id === null ? undefined : faces.get(r.media_file_id)));
  }
  const present = async (row: SceneRow) => (await presentMany(row.project_id, [row]))[0]!;
  const presentAll = async (rows: SceneRow[]) => ({ scenes: rows[0] ? await presentMany(rows[0].project_id, rows) : [] });

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

  /** A scene to change: the user's, in a project that is not finished (SPEC §4: Render Ready is read-only until reopened). */
  async function ownedEditable(userId: number, sceneId: number): Promise<SceneRow> {
    const row = await owned(userId, sceneId);
    const project = await db.selectFrom("projects").select("status").where("id", "=", row.project_id).executeTakeFirstOrThrow();
    mustNotBeFinished(project);
    return row;
  }

  /** Structural calls (split, merge, order, type…) are for main scenes; an overlay follows its scene. */
  async function ownedMain(userId: number, sceneId: number): Promise<SceneRow> {
    const row = await ownedEditable(userId, sceneId);
    if (row.parent_scene_id !== null) throw new DomainError("bad_request", "This is an overlay: change it through its scene");
    return row;
  }

  async function update(row: SceneRow, changes: Partial<Omit<SceneRow, "id" | "project_id">>): Promise<Scene> {
    const updated = await db.transaction().execute(async (trx) => {
      const next = await trx.updateTable("scenes").set({ ...changes, updated_at: new Date().toISOString() }).where("id", "=", row.id).returningAll().executeTakeFirstOrThrow();
      await markNeedsRender(trx, row.project_id);
      return next;
    });
    return present(updated);
  }

  /** A copy of `source` (and of its overlay) placed right after `after` in the project's order. */
  async function insertAfter(trx: Db, after: SceneRow, inserted: Omit<SceneRow, "id">, overlay?: SceneRow): Promise<SceneRow> {
    const row = await trx.insertInto("scenes").values(inserted).returningAll().executeTakeFirstOrThrow();
    if (overlay) {
      const { id: _id, ...copy } = overlay;
      await trx.insertInto("scenes").values({ ...copy, parent_scene_id: row.id, created_at: row.created_at, updated_at: row.updated_at }).execute();
    }
    const ids = (await mainScenes(trx, after.project_id)).map((s) => s.id).filter((id) => id !== row.id);
    ids.splice(ids.indexOf(after.id) + 1, 0, row.id);
    await renumberScenes(trx, after.project_id, ids);
    await markNeedsRender(trx, after.project_id);
    return trx.selectFrom("scenes").selectAll().where("id", "=", row.id).executeTakeFirstOrThrow();
  }

  async function split(userId: number, sceneId: number, parts: (scene: SceneTimes) => RuleResult<[SceneTimes, SceneTimes]>) {
    const row = await ownedMain(userId, sceneId);
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
      // The overlay stays on the first part (it keeps the scene's id); the second part starts without one.
      const b = await insertAfter(trx, a, {
        ...copy,
        ...NO_OVERLAY,
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
    presentMany,

    /**
     * What a storyboard slice's answer depends on, in one cheap read: the project's storyboard_version (migration
     * 0029's triggers move it with every write the answer shows) and the hour its media links are signed for.
     * The owner's only, like the storyboard itself.
     */
    async storyboardStamp(userId: number, projectId: number): Promise<string> {
      const project = await db.selectFrom("projects").select(["storyboard_version", "deleted_at"]).where("id", "=", projectId).where("user_id", "=", userId).executeTakeFirst();
      if (!project || project.deleted_at) throw notFound("No such project");
      return `${project.storyboard_version}:${deps.links.expiry(Date.now())}`;
    },

    async storyboard(userId: number, projectId: number, offset: number, limit: number, ids?: number[]) {
      const project = await findProject(db, userId, projectId);
      if (!project || project.deleted_at) throw notFound("No such project");
      const main = db.selectFrom("scenes").where("project_id", "=", projectId).where("parent_scene_id", "is", null);
      const total = Number((await main.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow()).n);
      let query = main.selectAll();
      query = ids?.length ? query.where("id", "in", ids) : query.offset(offset).limit(limit);
      const rows = await query.orderBy("order").orderBy("id").execute();
      return {
        projectId,
        offset,
        limit,
        hasMoreScenes: !ids?.length && offset + rows.length < total,
        timeline: { scenes: await presentMany(projectId, rows), projectScenesTotal: total },
      };
    },

    get: async (userId: number, sceneId: number) => present(await owned(userId, sceneId)),

    async update(userId: number, sceneId: number, body: z.output<typeof SceneUpdateBody>) {
      const row = await ownedMain(userId, sceneId);
      if (body.text) must(checkLines(body.text));
      const { overscene_type, overscene_fade, overscene_overflow, overscene_bg } = body;
      const overlayChange = { overscene_type, overscene_fade, overscene_overflow, overscene_bg };
      const touchesOverlay = Object.values(overlayChange).some((v) => v !== undefined);
      if (touchesOverlay && (await overlayRows(row.project_id, [row.id])).size === 0) {
        throw new DomainError("bad_request", "This scene has no overlay");
      }
      const changes = {
        ...(body.text ? { text: JSON.stringify(body.text) } : {}),
        ...(body.mediaAudio ? { media_audio: body.mediaAudio } : {}),
        ...(body.musicType ? { music_type: body.musicType } : {}),
        ...(body.punch_in !== undefined ? { punch_in: body.punch_in } : {}),
        ...(body.crop !== undefined ? { crop: body.crop ? 1 : 0 } : {}),
        ...(body.selected_faces ? { selected_faces: JSON.stringify(body.selected_faces) } : {}),
        ...(touchesOverlay ? overlayOptions(optionsOf(row), overlayChange) : {}),
      };
      if (Object.keys(changes).length === 0) return present(row);
      return update(row, changes);
    },

    removeLines: async (userId: number, sceneId: number) => update(await ownedMain(userId, sceneId), { text: "[]" }),
    show: async (userId: number, sceneId: number) => update(await ownedMain(userId, sceneId), { visibility: 1 }),
    hide: async (userId: number, sceneId: number) => update(await ownedMain(userId, sceneId), { visibility: 0 }),
    setType: async (userId: number, sceneId: number, type: "intro" | "outro" | "default") => update(await ownedMain(userId, sceneId), { type }),

    /** Takes the overlay off and resets its options; a scene without one answers as it is. */
    async removeOverlay(userId: number, sceneId: number) {
      const row = await ownedMain(userId, sceneId);
      if ((await overlayRows(row.project_id, [row.id])).size === 0 && row.overscene_type === null) return present(row);
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom("scenes").where("parent_scene_id", "=", row.id).execute();
        const updated = await trx.updateTable("scenes").set({ ...NO_OVERLAY, updated_at: new Date().toISOString() }).where("id", "=", row.id).returningAll().executeTakeFirstOrThrow();
        await markNeedsRender(trx, row.project_id);
        return toScene(updated, await rawOffsetsOf(trx, row.project_id));
      });
    },

    /** Trims a main scene, or an overlay (the overlay card trims its own piece; the answer is its main scene). */
    async trim(userId: number, sceneId: number, trimStart: number, trimEnd: number) {
      const row = await ownedEditable(userId, sceneId);
      const value = must(trim(timesOf(row), trimStart, trimEnd));
      // The raw preview holds this file at a fixed offset: move the raw trims with the media trims.
      const offset = row.trim_start_raw - row.trim_start;
      const updated = await update(row, { ...value, trim_start_raw: value.trim_start + offset, trim_end_raw: value.trim_end + offset });
      return row.parent_scene_id === null ? updated : present(await owned(userId, row.parent_scene_id));
    },

    splitByPosition: (userId: number, sceneId: number, position: number) => split(userId, sceneId, (s) => splitByPosition(s, position)),
    splitByLine: (userId: number, sceneId: number, line: number) => split(userId, sceneId, (s) => splitByLine(s, line)),

    /**
     * Issue 14, edit by transcript: the words of the project's files (those its scenes use, and its uploads),
     * as recognised and kept on each file. Files never recognised are left out.
     */
    async words(userId: number, projectId: number): Promise<ProjectWords> {
      const project = await findProject(db, userId, projectId);
      if (!project || project.deleted_at) throw notFound("No such project");
      const used = db.selectFrom("scenes").select("media_file_id").where("project_id", "=", projectId).where("media_file_id", "is not", null);
      const uploads = db.selectFrom("project_media").select("media_file_id").where("project_id", "=", projectId);
      const rows = await db
        .selectFrom("media_files")
        .select(["id", "transcript"])
        .where((eb) => eb.or([eb("id", "in", used), eb("id", "in", uploads)]))
        .where("transcript", "is not", null)
        .orderBy("id")
        .execute();
      const media: ProjectWords["media"] = [];
      for (const row of rows) {
        const transcript = storedTranscript(row);
        if (!transcript) continue;
        media.push({
          media_file_id: row.id,
          language: transcript.language,
          draft: transcript.draft ? 1 : 0,
          words: transcript.words.map((w) => ({ start: w.start, end: w.end, text: w.text, confidence: Number.isFinite(w.confidence) ? w.confidence : null, ...(w.filler ? { filler: 1 as const } : {}) })),
        });
      }
      return { media };
    },

    /**
     * Issue 14: cuts the words in [from, to] (media seconds) out of a main scene: a split at each word edge and
     * the middle part hidden (api/storyboard.ts cutRange), text lines divided at the cut. Answers the parts in order.
     */
    async cutRange(userId: number, sceneId: number, from: number, to: number) {
      const row = await ownedMain(userId, sceneId);
      const media = row.media_file_id === null ? undefined : await db.selectFrom("media_files").select("transcript").where("id", "=", row.media_file_id).executeTakeFirst();
      const words = (media && storedTranscript(media)?.words) || [];
      const { before, cut, after } = must(cutRange(timesOf(row), from, to, words));
      const now = new Date().toISOString();
      // The raw preview holds this file at a fixed offset: raw times move with media times.
      const offset = row.trim_start_raw - row.trim_start;
      const fields = (part: SceneTimes) => ({
        visibility: part.visibility,
        start: part.start,
        end: part.end,
        trim_start: part.trim_start,
        trim_end: part.trim_end,
        trim_start_default: part.trim_start_default,
        trim_end_default: part.trim_end_default,
        trim_start_raw: part.trim_start + offset,
        trim_end_raw: part.trim_end + offset,
        text: JSON.stringify(part.text),
        updated_at: now,
      });
      const parts = [before, cut, after].filter((p): p is SceneTimes => p !== null);
      const rows = await db.transaction().execute(async (trx) => {
        // The first part keeps the scene's id (and its overlay); the others come right after it, without one.
        let previous = await trx.updateTable("scenes").set(fields(parts[0]!)).where("id", "=", row.id).returningAll().executeTakeFirstOrThrow();
        const out = [previous];
        for (const part of parts.slice(1)) {
          const { id: _id, ...copy } = row;
          previous = await insertAfter(trx, previous, { ...copy, ...NO_OVERLAY, ...fields(part), created_at: now });
          out.push(previous);
        }
        await markNeedsRender(trx, row.project_id);
        const fresh: SceneRow[] = [];
        for (const r of out) fresh.push(await trx.selectFrom("scenes").selectAll().where("id", "=", r.id).executeTakeFirstOrThrow());
        return fresh;
      });
      return presentAll(rows);
    },

    /** The merged scene keeps the first scene's overlay, or takes the next one's when it had none. */
    async mergeNext(userId: number, sceneId: number) {
      const row = await ownedMain(userId, sceneId);
      const rows = await mainScenes(db, row.project_id);
      const next = rows[rows.findIndex((s) => s.id === row.id) + 1];
      if (!next) throw new DomainError("not_mergeable", REFUSALS.not_mergeable!);
      const merged = must(mergeNext(timesOf(row), timesOf(next)));
      const overlays = await overlayRows(row.project_id, [row.id, next.id]);
      const takeNext = !overlays.has(row.id) && overlays.has(next.id);
      const result = await db.transaction().execute(async (trx) => {
        if (takeNext) await trx.updateTable("scenes").set({ parent_scene_id: row.id }).where("parent_scene_id", "=", next.id).execute();
        const updated = await trx
          .updateTable("scenes")
          .set({
            end: merged.end,
            trim_end: merged.trim_end,
            trim_end_default: merged.trim_end_default,
            trim_end_raw: next.trim_end_raw,
            text: JSON.stringify(merged.text),
            ...(takeNext ? optionsOf(next) : {}),
            updated_at: new Date().toISOString(),
          })
          .where("id", "=", row.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        // Explicit rather than trusting the foreign-key cascade: the next scene's overlay goes with it.
        await trx.deleteFrom("scenes").where("parent_scene_id", "=", next.id).execute();
        await trx.deleteFrom("scenes").where("id", "=", next.id).execute();
        await renumberScenes(trx, row.project_id, rows.filter((s) => s.id !== next.id).map((s) => s.id));
        await markNeedsRender(trx, row.project_id);
        return updated;
      });
      return present({ ...result, order: rows.findIndex((s) => s.id === row.id) + 1 });
    },

    async order(userId: number, sceneId: number, position: number) {
      const row = await ownedMain(userId, sceneId);
      const moved = reorder(await mainScenes(db, row.project_id), sceneId, position);
      await db.transaction().execute(async (trx) => {
        await renumberScenes(trx, row.project_id, moved.map((s) => s.id));
        await markNeedsRender(trx, row.project_id);
      });
      return presentAll(await mainScenes(db, row.project_id));
    },

    /** The copy comes right after the scene, with a copy of its overlay. */
    async duplicate(userId: number, sceneId: number) {
      const row = await ownedMain(userId, sceneId);
      const now = new Date().toISOString();
      const overlay = (await overlayRows(row.project_id, [row.id])).get(row.id);
      const overlayRow = overlay ? await db.selectFrom("scenes").selectAll().where("id", "=", overlay.id).executeTakeFirstOrThrow() : undefined;
      const copy = await db.transaction().execute(async (trx) => {
        const { id: _id, ...rest } = row;
        return insertAfter(trx, row, { ...rest, created_at: now, updated_at: now }, overlayRow);
      });
      return presentAll([await owned(userId, sceneId), copy]);
    },
  };
}

export type Scenes = ReturnType<typeof createScenes>;
