import type { CutroomDb } from "../src/db";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";
import type { Scene, SceneUpdateBody } from "../api/scenes";
import type { CutsBody } from "../api/projects";
import type { z } from "zod";
import { checkLines, splitByLine, splitByPosition, trim, reorder, type RuleResult, type TextLine } from "../api/storyboard";
import { STORYBOARD_BATCH, STORYBOARD_FIRST_BATCH } from "../src/lib/constants";
import { AFTER_OUTBOX, createOutbox, type EditResult, type Outbox } from "./outbox";

/** A rule refused before anything was sent: the same answer the server would give (SPEC §5 Scenes). */
const refused = <T>(rule: RuleResult<unknown>): Result<T> | null =>
  rule.ok ? null : { ok: false, failure: { kind: "bad_request", code: rule.refusal } };

const storyboardKey = (projectId: number) => `storyboard:${projectId}` as const;

/**
 * The storyboard in the mirror, and every scene edit as a named command (STYLE: Excalidraw's
 * actions): the optimistic change to Dexie, the API call, and what SPEC §4 says to reload after it.
 * Attribute edits go through the outbox (workers/outbox.ts: they work offline and reload the scene's
 * slice once sent); structural edits (split, merge, duplicate, order) need the server and reload the
 * whole project, after any queued edits have been sent.
 */
export function createSceneActions(db: CutroomDb, rawCall: ApiCall, outbox: Outbox = createOutbox(db, rawCall)) {
  const loading = new Map<number, Promise<Result<{ total: number }>>>();
  const call = outbox.ordered(AFTER_OUTBOX);

  async function markNeedsRender(projectId: number) {
    await db.projects.update(projectId, { needs_render: 1 });
  }

  async function setMeta(projectId: number, value: { total: number; loaded: number; loading: boolean }) {
    await db.meta.put({ key: storyboardKey(projectId), value: { ...value, fetchedAt: new Date().toISOString() } });
  }

  /** Writes one batch (this device's waiting edits on top); rows the batch's range now says are gone leave the mirror. */
  async function writeBatch(projectId: number, scenes: Scene[], from: number, to: number) {
    await db.transaction("rw", db.scenes, db.outbox, async () => {
      const ids = new Set(scenes.map((s) => s.id));
      const stale = await db.scenes
        .where("[project_id+order]")
        .between([projectId, from], [projectId, to], true, true)
        .filter((s) => !ids.has(s.id))
        .primaryKeys();
      await db.scenes.bulkDelete(stale);
      await db.scenes.bulkPut(await outbox.rebase(scenes));
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
    if (result.ok) await outbox.putScenes(result.data.timeline.scenes);
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

    /** Sends the queued edits now: at boot, when the connection is back, when the tab shows again. */
    syncOutbox: () => outbox.drain(),
    /** The storyboard's "was not saved" alert, closed by the person. */
    dismissFailedEdit: (id: number) => db.failedEdits.delete(id),

    /** Moves the trim markers; markers that cross are refused before anything is queued. */
    async trimScene(sceneId: number, trimStart: number, trimEnd: number): Promise<EditResult<Scene>> {
      const scene = await db.scenes.get(sceneId);
      const rule = scene ? trim(scene, trimStart, trimEnd) : null;
      const refusal = rule && refused<Scene>(rule);
      if (refusal) return refusal;
      const value = rule?.ok ? rule.value : { trim_start: trimStart, trim_end: trimEnd };
      return outbox.submit("trimScene", sceneId, value);
    },

    /** Replaces the scene's text lines (35 characters each at most). */
    async setSceneText(sceneId: number, lines: TextLine[]): Promise<EditResult<Scene>> {
      const refusal = refused<Scene>(checkLines(lines));
      if (refusal) return refusal;
      return outbox.submit("setSceneText", sceneId, { lines });
    },

    removeSceneLines: (sceneId: number) => outbox.submit("removeSceneLines", sceneId, null),

    /** Volumes, faces, punch-in, crop and overlay options: any subset of PUT /scenes/{id}. */
    async setSceneAttributes(sceneId: number, patch: SceneUpdateBody): Promise<EditResult<Scene>> {
      if (patch.text) {
        const refusal = refused<Scene>(checkLines(patch.text));
        if (refusal) return refusal;
      }
      return outbox.submit("setSceneAttributes", sceneId, { patch });
    },

    removeOverlay: (sceneId: number) => outbox.submit("removeOverlay", sceneId, null),
    hideScene: (sceneId: number) => outbox.submit("hideScene", sceneId, null),
    showScene: (sceneId: number) => outbox.submit("showScene", sceneId, null),
    setSceneType: (sceneId: number, type: Scene["type"]) => outbox.submit("setSceneType", sceneId, { type }),

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
      // Edits still queued go first; without the connection the cards do not move at all.
      if (!(await outbox.flush())) return { ok: false, failure: { kind: "network" } } as Result<{ scenes: Scene[] }>;
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
