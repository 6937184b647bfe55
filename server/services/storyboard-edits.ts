import type { z } from "zod";
import type { Db } from "../db";
import type { MediaRow } from "../db/media";
import { findProject, FRESH_PROJECT, insertProject, projectMedia, type ProjectRow } from "../db/projects";
import { mainScenes, markNeedsRender, OVERLAY_TYPE, rawOffsetsOf, renumberScenes, type SceneRow } from "../db/scenes";
import { BUSY_STATUSES, RenderBody, type CutsBody, type ImportBody, type OverlayImportBody } from "../../api/projects";
import type { Scene } from "../../api/scenes";
import { insertionIndex, overlayBackground } from "../../api/storyboard";
import type { Projects } from "./projects";
import { NO_OVERLAY, type Scenes } from "./scenes";
import { DomainError, mustNotBeFinished, notFound } from "./errors";

export interface StoryboardEditsDeps {
  db: Db;
  scenes: Pick<Scenes, "presentMany" | "get">;
  projects: Pick<Projects, "settingsOf" | "render" | "renderRaw" | "mustBeVerified">;
}

const round = (t: number) => Math.round(t * 1000) / 1000;

/**
 * Edits that bring scenes from elsewhere: library import (SPEC §7 library/import), an overlay
 * over a scene (library/import/overscene) and the clips project made of selected scenes (cuts).
 * Sources are any project of the same user, library items included.
 */
export function createStoryboardEdits(deps: StoryboardEditsDeps) {
  const { db } = deps;

  /** The target of an import: the user's own project (not a library item), not deleted, not busy. */
  async function editable(userId: number, projectId: number): Promise<ProjectRow> {
    const project = await findProject(db, userId, projectId);
    if (!project || project.deleted_at) throw notFound("No such project");
    // A library item mirrors its file: scenes are added to projects, not to it.
    if (project.type === "library") throw new DomainError("bad_request", "Scenes can only be added to a project");
    if ((BUSY_STATUSES as readonly string[]).includes(project.status) || project.is_queued) throw new DomainError("project_busy", "This project is busy");
    mustNotBeFinished(project);
    return project;
  }

  /** Main scenes by id, in the order asked (repeats kept); any id not the user's is a 404. */
  async function ownedScenes(userId: number, ids: readonly number[], projectId?: number): Promise<SceneRow[]> {
    if (ids.length === 0) return [];
    let query = db
      .selectFrom("scenes")
      .innerJoin("projects", "projects.id", "scenes.project_id")
      .selectAll("scenes")
      .where("scenes.id", "in", [...new Set(ids)])
      .where("scenes.parent_scene_id", "is", null)
      .where("projects.user_id", "=", userId)
      .where("projects.deleted_at", "is", null);
    if (projectId !== undefined) query = query.where("scenes.project_id", "=", projectId);
    const found = new Map((await query.execute()).map((r) => [r.id, r]));
    return ids.map((id) => {
      const row = found.get(id);
      if (!row) throw notFound(`No such scene ${id}`);
      return row;
    });
  }

  /** A whole project brings its shown scenes in order. */
  async function projectScenes(userId: number, ids: readonly number[]): Promise<SceneRow[]> {
    const rows: SceneRow[] = [];
    for (const id of ids) {
      const project = await findProject(db, userId, id);
      if (!project || project.deleted_at) throw notFound(`No such project ${id}`);
      rows.push(...(await mainScenes(db, id)).filter((s) => s.visibility === 1));
    }
    return rows;
  }

  /** The overlays of the given main scenes, by main scene id. */
  async function overlaysFor(scenes: readonly SceneRow[]): Promise<Map<number, SceneRow>> {
    const ids = [...new Set(scenes.map((s) => s.id))];
    if (ids.length === 0) return new Map();
    const rows = await db.selectFrom("scenes").selectAll().where("parent_scene_id", "in", ids).orderBy("id").execute();
    return new Map(rows.map((r) => [r.parent_scene_id!, r]));
  }

  /** The user's files behind these scenes; each must be ready to be cut. */
  async function readyMedia(userId: number, scenes: readonly SceneRow[]): Promise<MediaRow[]> {
    const ids = [...new Set(scenes.flatMap((s) => (s.media_file_id === null ? [] : [s.media_file_id])))];
    if (ids.length === 0) return [];
    const rows = await db.selectFrom("media_files").selectAll().where("id", "in", ids).where("user_id", "=", userId).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => {
      const media = byId.get(id);
      if (!media || media.deleted_at) throw notFound(`No such media file ${id}`);
      if (media.status !== "ready") throw new DomainError("media_not_ready", "This file is still being processed");
      return media;
    });
  }

  /**
   * Links files the project does not have yet, after its last one. The raw preview then no longer
   * covers them: it must be made again (SPEC §2 reference player).
   */
  async function linkMedia(trx: Db, project: ProjectRow, media: readonly MediaRow[]): Promise<void> {
    const linked = await projectMedia(trx, project.id);
    const have = new Set(linked.map((m) => m.id));
    const added = media.filter((m) => !have.has(m.id));
    if (added.length === 0) return;
    let position = linked.reduce((max, m) => Math.max(max, m.position), -1);
    for (const m of added) await trx.insertInto("project_media").values({ project_id: project.id, media_file_id: m.id, position: ++position, role: "main" }).execute();
    await trx
      .updateTable("projects")
      .set({
        raw_preview_render: 0,
        working_progress_raw: 0,
        duration_in_seconds: project.duration_in_seconds + added.reduce((sum, m) => sum + m.duration_seconds, 0),
        total_filesize: Number(project.total_filesize) + added.reduce((sum, m) => sum + Number(m.size_bytes), 0),
      })
      .where("id", "=", project.id)
      .execute();
  }

  /** A copy of `source` for `projectId`, its raw trims placed where its file sits in that project's raw preview. */
  function copyOf(source: SceneRow, projectId: number, offsets: Map<number, number>, changes: Partial<SceneRow>): Omit<SceneRow, "id"> {
    const { id: _id, ...rest } = source;
    const offset = source.media_file_id === null ? 0 : (offsets.get(source.media_file_id) ?? 0);
    const now = new Date().toISOString();
    return {
      ...rest,
      project_id: projectId,
      trim_start_raw: round(source.trim_start + offset),
      trim_end_raw: round(source.trim_end + offset),
      created_at: now,
      updated_at: now,
      ...changes,
    };
  }

  /** Inserts copies of the main scenes (each with a copy of its overlay); answers the new main rows. */
  async function insertCopies(trx: Db, projectId: number, sources: readonly SceneRow[], overlays: Map<number, SceneRow>, changes: (source: SceneRow, i: number) => Partial<SceneRow>) {
    const offsets = await rawOffsetsOf(trx, projectId);
    const inserted: SceneRow[] = [];
    for (const [i, source] of sources.entries()) {
      const row = await trx.insertInto("scenes").values(copyOf(source, projectId, offsets, changes(source, i))).returningAll().executeTakeFirstOrThrow();
      const overlay = overlays.get(source.id);
      if (overlay) await trx.insertInto("scenes").values(copyOf(overlay, projectId, offsets, { parent_scene_id: row.id })).execute();
      inserted.push(row);
    }
    return inserted;
  }

  return {
    /** Library scenes (or whole projects' shown scenes) inserted at a 1-based position. */
    async import(userId: number, projectId: number, body: z.output<typeof ImportBody>): Promise<{ scenes: Scene[] }> {
      const project = await editable(userId, projectId);
      const sources = [...(await ownedScenes(userId, body.scenes)), ...(await projectScenes(userId, body.projects))];
      const overlays = await overlaysFor(sources);
      const media = await readyMedia(userId, [...sources, ...overlays.values()]);
      const inserted = await db.transaction().execute(async (trx) => {
        await linkMedia(trx, project, media);
        const current = await mainScenes(trx, projectId);
        // Imported scenes arrive shown and as default scenes: an intro or outro elsewhere is not one here.
        const rows = await insertCopies(trx, projectId, sources, overlays, () => ({ visibility: 1, type: "default", parent_scene_id: null }));
        const at = insertionIndex(current.length, body.order);
        const ids = [...current.slice(0, at), ...rows, ...current.slice(at)].map((s) => s.id);
        await renumberScenes(trx, projectId, ids);
        await markNeedsRender(trx, projectId);
        return rows.map((r) => ({ ...r, order: ids.indexOf(r.id) + 1 }));
      });
      return { scenes: await deps.scenes.presentMany(projectId, inserted) };
    },

    /** One library scene over the project's scene `sceneid`, replacing any overlay it had. */
    async importOverlay(userId: number, projectId: number, body: z.output<typeof OverlayImportBody>): Promise<Scene> {
      const project = await editable(userId, projectId);
      const [main] = await ownedScenes(userId, [body.sceneid], projectId);
      const [source] = await ownedScenes(userId, body.scenes);
      const media = await readyMedia(userId, [source!]);
      await db.transaction().execute(async (trx) => {
        await linkMedia(trx, project, media);
        await trx.deleteFrom("scenes").where("parent_scene_id", "=", main!.id).execute();
        await insertCopies(trx, projectId, [source!], new Map(), () => ({ ...NO_OVERLAY, type: OVERLAY_TYPE, parent_scene_id: main!.id, order: 0, visibility: 1, text: "[]" }));
        await trx
          .updateTable("scenes")
          .set({ overscene_type: body.overscene_type, overscene_bg: overlayBackground(body.overscene_type), overscene_fade: 0, overscene_overflow: 0, updated_at: new Date().toISOString() })
          .where("id", "=", main!.id)
          .execute();
        await markNeedsRender(trx, projectId);
      });
      return deps.scenes.get(userId, main!.id);
    },

    /** A clips project of the selected scenes, in the order given, queued for its raw preview and its render. */
    async cuts(userId: number, projectId: number, body: z.output<typeof CutsBody>) {
      const source = await findProject(db, userId, projectId);
      if (!source || source.deleted_at) throw notFound("No such project");
      // It is queued for rendering below: refuse before the clips project exists.
      await deps.projects.mustBeVerified(userId);
      const scenes = await ownedScenes(userId, body.scenes, projectId);
      const overlays = await overlaysFor(scenes);
      const media = await readyMedia(userId, [...scenes, ...overlays.values()]);
      // The files keep the relative order they have in the source project.
      const position = new Map((await projectMedia(db, projectId)).map((m) => [m.id, m.position]));
      const files = media.map((m, i) => ({ m, i })).sort((a, b) => (position.get(a.m.id) ?? Infinity) - (position.get(b.m.id) ?? Infinity) || a.i - b.i).map(({ m }) => m);
      const settings = { ...deps.projects.settingsOf(source), aspect: body.aspect, autocrop: body.autocrop };
      const now = new Date().toISOString();
      const created = await db.transaction().execute(async (trx) => {
        const project = await insertProject(trx, {
          user_id: userId,
          name: body.name,
          title: null,
          locale: source.locale,
          type: "project",
          // Not busy yet: the render request below moves it to (Final) Rendering, as a user's request would.
          status: "Not Started",
          failure: null,
          is_new: 1,
          is_queued: 0,
          cuts_project: 1,
          audioonly: files.length > 0 && files.every((m) => m.kind === "audio") ? 1 : 0,
          thumbnail_key: scenes.find((s) => s.thumbnail_key)?.thumbnail_key ?? files.find((m) => m.thumbnail_key)?.thumbnail_key ?? null,
          duration_in_seconds: files.reduce((sum, m) => sum + m.duration_seconds, 0),
          ...FRESH_PROJECT,
          total_filesize: files.reduce((sum, m) => sum + Number(m.size_bytes), 0),
          scenes_count: scenes.length,
          raw_preview_key: files.find((m) => m.proxy_key)?.proxy_key ?? null,
          settings: JSON.stringify(settings),
          created_at: now,
          updated_at: now,
        });
        if (files.length) await trx.insertInto("project_media").values(files.map((m, i) => ({ project_id: project.id, media_file_id: m.id, position: i, role: "main" as const }))).execute();
        await insertCopies(trx, project.id, scenes, overlays, (_s, i) => ({ visibility: 1, order: i + 1, parent_scene_id: null }));
        return project;
      });
      await deps.projects.renderRaw(userId, created.id);
      await deps.projects.render(userId, created.id, RenderBody.parse({ final: body.final === 1 }));
      return { status: "success" as const, cutsproject_id: created.id };
    },
  };
}

export type StoryboardEdits = ReturnType<typeof createStoryboardEdits>;
