import type { CutroomDb } from "../src/db";
import type { Scene } from "../api/scenes";
import { canMergeNext, cutRange, rejoinLines, type CutParts } from "../api/storyboard";
import type { ApiCall } from "./api-client";
import type { EditResult, Outbox } from "./outbox";
import type { Result } from "./status";

/** One scene's share of a transcript selection: seconds in the scene's media file (the selected words' edges). */
export interface WordCut {
  sceneId: number;
  from: number;
  to: number;
}

/**
 * Issue 14, edit by transcript: the cut and the restore, as named commands over the same scene edits the
 * storyboard makes. A cut that covers a whole scene is a hide (an attribute edit: it works offline through the
 * outbox); a cut inside a scene is POST /scenes/{id}/cutrange (a split at the word edges and a hide), which
 * needs the server's new ids, so it waits for the connection like a split, after any queued edits. A restore
 * shows the cut part (offline too) and, with the connection, merges it back with the parts around it and joins
 * the text lines the cut divided.
 */
export function createTranscriptActions(db: CutroomDb, call: ApiCall, outbox: Outbox, loadStoryboard: (projectId: number, fresh?: boolean) => Promise<unknown>) {
  async function reload(projectId: number) {
    await loadStoryboard(projectId, true);
    const project = await call("projects.get", { params: { id: projectId } });
    if (project.ok) await db.projects.put(project.data);
  }

  async function plan(cut: WordCut): Promise<Result<{ cut: WordCut; parts: CutParts }>> {
    const scene = await db.scenes.get(cut.sceneId);
    if (!scene) return { ok: false, failure: { kind: "body", status: 404, body: { code: "not_found", message: "No such scene" } } };
    const words = scene.media_file_id === null ? [] : ((await db.words.get(scene.media_file_id))?.words ?? []);
    const rule = cutRange(scene, cut.from, cut.to, words);
    return rule.ok ? { ok: true, data: { cut, parts: rule.value } } : { ok: false, failure: { kind: "bad_request", code: rule.refusal } };
  }

  return {
    /** Cuts the selected words out of their scenes (one entry per scene touched). Nothing is cut if one part is refused. */
    async cutWords(projectId: number, cuts: WordCut[]): Promise<EditResult<{ scenes: number }>> {
      const plans = [];
      for (const cut of cuts) {
        const planned = await plan(cut);
        if (!planned.ok) return planned;
        plans.push(planned.data);
      }
      if (plans.length === 0) return { ok: false, failure: { kind: "bad_request", code: "cut_empty" } };
      const inside = plans.filter((p) => p.parts.before || p.parts.after);
      const whole = plans.filter((p) => !p.parts.before && !p.parts.after);
      if (inside.length > 0) {
        // Queued edits go first (they may be of these very scenes); without the connection nothing is cut.
        if (!(await outbox.flush())) return { ok: false, failure: { kind: "network" } };
        for (const { cut } of inside) {
          const result = await call("scenes.cutRange", { params: { id: cut.sceneId }, body: { from: cut.from, to: cut.to } });
          if (!result.ok) {
            await reload(projectId);
            return result;
          }
        }
        await db.projects.update(projectId, { needs_render: 1 });
      }
      let queued = false;
      for (const { cut } of whole) {
        const result = await outbox.submit("hideScene", cut.sceneId, null);
        if (!result.ok) return result;
        queued ||= !!result.queued;
      }
      if (inside.length > 0) await reload(projectId);
      return { ok: true, data: { scenes: plans.length }, queued };
    },

    /**
     * Brings a cut back: the part is shown again, then merged with the part before and the part after it when
     * they come from the same stretch of the file (as a cut left them). Offline the part is shown; the merge waits.
     */
    async restoreCut(sceneId: number): Promise<EditResult<Scene>> {
      const shown = await outbox.submit("showScene", sceneId, null);
      if (!shown.ok || shown.queued) return shown;
      const scene = await db.scenes.get(sceneId);
      if (!scene) return shown;
      const projectId = scene.project_id;
      const inOrder = () => db.scenes.where("[project_id+order]").between([projectId, 0], [projectId, Number.MAX_SAFE_INTEGER]).toArray();
      let all = await inOrder();
      let at = all.findIndex((s) => s.id === sceneId);
      let kept: Scene = scene;
      const before = all[at - 1];
      let merged = false;
      if (before && before.visibility === 1 && canMergeNext(before, scene, false)) {
        const result = await call("scenes.mergeNext", { params: { id: before.id } });
        if (!result.ok) return { ...shown };
        kept = result.data;
        merged = true;
        all = all.filter((s) => s.id !== sceneId).map((s) => (s.id === kept.id ? kept : s));
        at = all.findIndex((s) => s.id === kept.id);
      }
      const after = all[at + 1];
      if (after && after.visibility === 1 && canMergeNext(kept, after, false)) {
        const result = await call("scenes.mergeNext", { params: { id: kept.id } });
        if (result.ok) {
          kept = result.data;
          merged = true;
        }
      }
      if (merged) {
        // The lines the cut divided become whole again (an attribute edit: it waits in the outbox if need be).
        const words = kept.media_file_id === null ? [] : ((await db.words.get(kept.media_file_id))?.words ?? []);
        const lines = rejoinLines(kept.text, words, [scene.trim_start, scene.trim_end]);
        if (lines.length !== kept.text.length) {
          const text = await outbox.submit("setSceneText", kept.id, { lines });
          if (text.ok) kept = text.data;
        }
        await db.projects.update(projectId, { needs_render: 1 });
        await reload(projectId);
      }
      return { ok: true, data: kept };
    },
  };
}
