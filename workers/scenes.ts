import type { CutroomDb } from "../src/db";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";
import type { Scene, SceneUpdateBody } from "../api/scenes";
import type { CutsBody } from "../api/projects";
import type { z } from "zod";
import { checkLines, splitByLine, splitByPosition, trim, reorder, type RuleResult, type TextLine } from "../api/storyboard";
import { STORYBOARD_BATCH, STORYBOARD_FIRST_BATCH } from "../src/lib/constants";

/** A rule refused before anything was sent: the same answer the server would give (SPEC §5 Scenes). */
const refused = <T>(rule: RuleResult<unknown>): Result<T> | null =>
  rule.ok ? null : { ok: false, failure: { kind: "bad_request", code: rule.refusal } };

const storyboardKey = (projectId: number) => `storyboard:${projectId}` as const;

/**
 * The storyboard in the mirror, and every scene edit as a named command (STYLE: Excalidraw's
 * actions): the optimistic change to Dexie, the API call, and what SPEC §4 says to reload after it.
 * Attribute edits reload the scene's slice; structural edits (split, merge, duplicate, order) reload
 * the whole project.
 */
export function createSceneActions(db: CutroomDb, call: ApiCall) {
  const loading = new Map<number, Promise<Result<{ total: number }>>>();

  async function markNeedsRender(projectId: number) {
    await db.projects.update(projectId, { needs_render: 1 });
  }

  async function setMeta(projectId: number, value: { total: number; loaded: number; loading: boolean }) {
    await db.meta.put({ key: storyboardKey(projectId), value: { ...value, fetchedAt: new Date().toISOString() } });
  }

  /** Writes one batch; rows of the project that the batch's range now says are gone leave the mirror. */
  async function writeBatch(projectId: number, scenes: Scene[], from: number, to: number) {
    await db.transaction("rw", db.scenes, async () => {
      const ids = new Set(scenes.map((s) => s.id));
      const stale = await db.scenes
        .where("[project_id+order]")
        .between([projectId, from], [projectId, to], true, true)
        .filter((s) => !ids.has(s.id))
        .primaryKeys();
      await db.scenes.bulkDelete(stale);
      await db.scenes.bulkPut(scenes);
    });
  }

  /** SPEC §4: 25 scenes first, then 250 per request until hasMoreScenes is false. */
  async function load(projectId: number): Promise<Result<{ total: number }>> {
    let offset = 0;
    let limit = STORYBOARD_FIRST_BATCH;
    let total: number | undefined;
    const seen = new Set<number>();
    for (;;) {
      const result = await call("storyboard.get", {
        params: { id: projectId },
        query: { offset, limit, ...(total === undefined ? {} : { projectScenesTotal: total }) },
        body: {},
      });
      if (!result.ok) {
        const meta = await db.meta.get(storyboardKey(projectId));
        if (meta && "loading" in meta.value) await setMeta(projectId, { ...meta.value, loading: false });
        if (result.failure.kind === "body" && result.failure.body.code === "not_found") await db.scenes.where("project_id").equals(projectId).delete();
        return result;
      }
      const { scenes, projectScenesTotal } = result.data.timeline;
      total = projectScenesTotal;
      for (const s of scenes) seen.add(s.id);
      const last = result.data.hasMoreScenes ? offset + scenes.length : Number.MAX_SAFE_INTEGER;
      await writeBatch(projectId, scenes, offset + 1, last);
      offset += scenes.length;
      await setMeta(projectId, { total, loaded: offset, loading: result.data.hasMoreScenes });
      if (!result.data.hasMoreScenes || scenes.length === 0) break;
      limit = STORYBOARD_BATCH;
    }
    const gone = await db.scenes.where("project_id").equals(projectId).filter((s) => !seen.has(s.id)).primaryKeys();
    await db.scenes.bulkDelete(gone);
    return { ok: true, data: { total } };
  }

  /**
   * One load per project at a time; a second caller waits for the first. `fresh` (after an edit) does
   * not join a load already under way, whose early batches may predate the edit: it loads again after it.
   */
  function loadStoryboard(projectId: number, fresh = false): Promise<Result<{ total: number }>> {
    const running = loading.get(projectId);
    if (running && !fresh) return running;
    const promise: Promise<Result<{ total: number }>> = (running ? running.catch(() => undefined).then(() => load(projectId)) : load(projectId)).finally(() => {
      if (loading.get(projectId) === promise) loading.delete(projectId);
    });
    loading.set(projectId, promise);
    return promise;
  }

  /** Reloads some scenes of a project (SPEC §4: the edited scene's slice). */
  async function reloadSlice(projectId: number, sceneIds: number[]) {
    const result = await call("storyboard.get", { params: { id: projectId }, query: { offset: 0, limit: sceneIds.length }, body: { scenesIds: sceneIds } });
    if (result.ok) await db.scenes.bulkPut(result.data.timeline.scenes);
    return result;
  }

  /** After a refusal: put back what the server has, or forget a scene that no longer exists. */
  async function restore(sceneId: number, before: Scene | undefined) {
    const fresh = await call("scenes.get", { params: { id: sceneId } });
    if (fresh.ok) await db.scenes.put(fresh.data);
    else if (fresh.failure.kind === "body" && fresh.failure.body.code === "not_found") await db.scenes.delete(sceneId);
    else if (before) await db.scenes.put(before);
  }

  /** An attribute edit: applied to the mirror at once, sent, then the slice reloaded (or rolled back). */
  async function attributeEdit(sceneId: number, optimistic: (scene: Scene) => Partial<Scene>, send: () => Promise<Result<Scene>>): Promise<Result<Scene>> {
    const before = await db.scenes.get(sceneId);
    if (before) {
      await db.scenes.update(sceneId, optimistic(before));
      await markNeedsRender(before.project_id);
    }
    const result = await send();
    if (!result.ok) {
      await restore(sceneId, before);
      return result;
    }
    await db.scenes.put(result.data);
    await reloadSlice(result.data.project_id, [sceneId]);
    return result;
  }

  /** A structural edit: needs the server's ids, so the whole project is reloaded after it. */
  async function structuralEdit<T>(projectId: number | undefined, send: () => Promise<Result<T>>): Promise<Result<T>> {
    const result = await send();
    if (projectId !== undefined) {
      if (result.ok) await markNeedsRender(projectId);
      await loadStoryboard(projectId, true);
      await call("projects.get", { params: { id: projectId } }).then((p) => (p.ok ? db.projects.put(p.data) : undefined));
    }
    return result;
  }

  const projectOf = async (sceneId: number) => (await db.scenes.get(sceneId))?.project_id;

  return {
    loadStoryboard,
    reloadSlice,

    /** Moves the trim markers; markers that cross are refused before anything is sent. */
    async trimScene(sceneId: number, trimStart: number, trimEnd: number): Promise<Result<Scene>> {
      const scene = await db.scenes.get(sceneId);
      const rule = scene ? trim(scene, trimStart, trimEnd) : null;
      const refusal = rule && refused<Scene>(rule);
      if (refusal) return refusal;
      const value = rule?.ok ? rule.value : { trim_start: trimStart, trim_end: trimEnd };
      return attributeEdit(
        sceneId,
        (s) => ({ ...value, trim_start_raw: s.trim_start_raw + (value.trim_start - s.trim_start), trim_end_raw: s.trim_end_raw + (value.trim_end - s.trim_end) }),
        () => call("scenes.trim", { params: { id: sceneId }, body: { trim_start: value.trim_start, trim_end: value.trim_end } }),
      );
    },

    /** Replaces the scene's text lines (35 characters each at most). */
    async setSceneText(sceneId: number, lines: TextLine[]): Promise<Result<Scene>> {
      const refusal = refused<Scene>(checkLines(lines));
      if (refusal) return refusal;
      return attributeEdit(sceneId, () => ({ text: lines }), () => call("scenes.update", { params: { id: sceneId }, body: { text: lines } }));
    },

    removeSceneLines: (sceneId: number) => attributeEdit(sceneId, () => ({ text: [] }), () => call("scenes.removeLines", { params: { id: sceneId } })),

    /** Volumes, faces, punch-in, crop and overlay options: any subset of PUT /scenes/{id}. */
    async setSceneAttributes(sceneId: number, patch: SceneUpdateBody): Promise<Result<Scene>> {
      if (patch.text) {
        const refusal = refused<Scene>(checkLines(patch.text));
        if (refusal) return refusal;
      }
      return attributeEdit(sceneId, () => ({ ...(patch as Partial<Scene>) }), () => call("scenes.update", { params: { id: sceneId }, body: patch }));
    },

    removeOverlay: (sceneId: number) =>
      attributeEdit(sceneId, () => ({ overscene: null, overscene_type: null, overscene_fade: 0, overscene_overflow: 0, overscene_bg: 0 }), () => call("scenes.removeOverlay", { params: { id: sceneId } })),

    hideScene: (sceneId: number) => attributeEdit(sceneId, () => ({ visibility: 0 }), () => call("scenes.hide", { params: { id: sceneId } })),
    showScene: (sceneId: number) => attributeEdit(sceneId, () => ({ visibility: 1 }), () => call("scenes.show", { params: { id: sceneId } })),

    setSceneType: (sceneId: number, type: Scene["type"]) =>
      attributeEdit(
        sceneId,
        () => ({ type }),
        () => (type === "default" ? call("scenes.typeDefault", { params: { id: sceneId } }) : call("scenes.type", { params: { id: sceneId, type } })),
      ),

    /** Split at `position` seconds from the scene's trim start (scenes without text only). */
    async splitSceneByPosition(sceneId: number, position: number) {
      const scene = await db.scenes.get(sceneId);
      const refusal = scene ? refused<{ scenes: Scene[] }>(splitByPosition(scene, position)) : null;
      if (refusal) return refusal;
      return structuralEdit(scene?.project_id, () => call("scenes.splitByPosition", { params: { id: sceneId, position } }));
    },

    /** Split before text line `line` (1-based; scenes with more than one line only). */
    async splitSceneByLine(sceneId: number, line: number) {
      const scene = await db.scenes.get(sceneId);
      const refusal = scene ? refused<{ scenes: Scene[] }>(splitByLine(scene, line)) : null;
      if (refusal) return refusal;
      return structuralEdit(scene?.project_id, () => call("scenes.splitByLine", { params: { id: sceneId, line } }));
    },

    mergeNextScene: async (sceneId: number) => structuralEdit(await projectOf(sceneId), () => call("scenes.mergeNext", { params: { id: sceneId } })),
    duplicateScene: async (sceneId: number) => structuralEdit(await projectOf(sceneId), () => call("scenes.duplicate", { params: { id: sceneId } })),

    /** Moves a scene to a 1-based position: reordered in the mirror at once, then reloaded. */
    async moveScene(sceneId: number, order: number) {
      const scene = await db.scenes.get(sceneId);
      if (scene) {
        const all = await db.scenes.where("[project_id+order]").between([scene.project_id, 0], [scene.project_id, Number.MAX_SAFE_INTEGER]).toArray();
        const moved = reorder(all, sceneId, order).map((s, i) => ({ ...s, order: i + 1 }));
        await db.scenes.bulkPut(moved);
      }
      return structuralEdit(scene?.project_id, () => call("scenes.order", { params: { id: sceneId, order } }));
    },

    /** A clips project from selected scenes (SPEC §2 Selection toolbar); the project list learns of it. */
    async createClips(projectId: number, body: z.input<typeof CutsBody>) {
      const result = await call("projects.cuts", { params: { id: projectId }, body });
      if (result.ok) {
        const created = await call("projects.get", { params: { id: result.data.cutsproject_id } });
        if (created.ok) await db.projects.put(created.data);
      }
      return result;
    },
  };
}

export type SceneActions = ReturnType<typeof createSceneActions>;
