import type { CutroomDb, ProjectDraftRow, UploadRow } from "../src/db";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";
import type { Project, ProjectSettings, RenderBody as RenderBodySchema } from "../api/projects";
import type { ExportTier } from "../api/export-tiers";
import { withWaitingPick } from "./outbox";

type RenderBody = import("zod").input<typeof RenderBodySchema>;

/** What the edit screen changes on a project: its name and any of its settings (PUT /projects/{id}). */
export type ProjectPatch = Partial<ProjectSettings> & { name?: string };

/** The two options of "recreate storyboard" (SPEC §2 Storyboard). */
export interface RecreateOptions {
  autocutsilences: 0 | 1;
  smoothcuts: 0 | 1;
  /** Issue 14: filler words cut out as hidden, restorable scenes. */
  removefillers?: 0 | 1;
}

/** Reloads a project's scenes into the mirror (the scene actions' loader, shared so loads never overlap). */
type LoadStoryboard = (projectId: number, fresh?: boolean) => Promise<Result<{ total: number }>>;

/** Project actions: refresh the mirror from the API, and lifecycle calls that reload afterwards (SPEC §7). */
export function createProjectActions(db: CutroomDb, call: ApiCall, loadStoryboard: LoadStoryboard = async () => ({ ok: true, data: { total: 0 } })) {
  async function refreshProject(id: number): Promise<Result<Project>> {
    const result = await call("projects.get", { params: { id } });
    // A song pick still in the outbox stays on view (issue 15).
    if (result.ok) {
      await db.transaction("rw", db.projects, db.outbox, async () => {
        await db.projects.put(withWaitingPick(result.data, await db.outbox.where("projectId").equals(id).sortBy("seq")));
      });
    } else if (result.failure.kind === "body" && result.failure.body.code === "not_found") await db.projects.delete(id);
    return result;
  }

  /** Runs a lifecycle call, then reloads that project. */
  const lifecycle = async (run: () => Promise<Result<Project>>, id: number) => {
    const result = await run();
    if (result.ok) await db.projects.put(result.data);
    await refreshProject(id);
    return result;
  };

  return {
    refreshProject,

    /** One page of projects (20 a page), newest first. */
    async refreshProjects(page = 1) {
      const result = await call("projects.list", { query: { page } });
      if (!result.ok || !("data" in result.data)) return result;
      const { data, last_page, total } = result.data;
      await db.transaction("rw", db.projects, db.meta, db.outbox, async () => {
        if (page === 1) {
          // Forget projects that vanished server-side (deleted long ago) among the newest.
          const newest = data.length ? Math.min(...data.map((p) => p.id)) : 0;
          const gone = (await db.projects.where("id").aboveOrEqual(newest).primaryKeys()).filter((id) => !data.some((p) => p.id === id));
          await db.projects.bulkDelete(gone);
        }
        const waiting = await db.outbox.where("projectId").anyOf(data.map((p) => p.id)).sortBy("seq");
        await db.projects.bulkPut(data.map((p) => withWaitingPick(p, waiting)));
        await db.meta.put({ key: "projects", value: { total, lastPage: last_page, fetchedAt: new Date().toISOString() } });
      });
      return { ok: true as const, data: { total, lastPage: last_page } };
    },

    async refreshHighlights(id: number) {
      const result = await call("projects.highlights", { params: { id } });
      if (result.ok) await db.highlights.put({ ...result.data, projectId: id });
      return result;
    },

    async refreshQuotas() {
      const result = await call("user.quotas");
      if (result.ok) await db.meta.put({ key: "quotas", value: result.data });
      return result;
    },

    deleteProject: (id: number) => lifecycle(() => call("projects.delete", { params: { id } }), id),
    dequeueProject: (id: number) => lifecycle(() => call("projects.dequeue", { params: { id } }), id),
    restartProject: (id: number) => lifecycle(() => call("projects.restart", { params: { id } }), id),
    /** POST render; an export (final) also carries the export form's tier, aspect, crop, name, description and privacy (SPEC §3, §5). */
    renderProject: (id: number, final = false, options: Omit<RenderBody, "final"> & { tier?: ExportTier } = {}) =>
      lifecycle(() => call("projects.render", { params: { id }, body: { final, ...options } }), id),
    reopenProject: (id: number) => lifecycle(() => call("projects.reopen", { params: { id } }), id),
    /** Asks for the raw preview of the project's footage (the reference player's source). */
    renderRaw: (id: number) => lifecycle(() => call("projects.renderRaw", { params: { id } }), id),

    /**
     * A settings change (or a rename) of the edit screen: shown at once with the needs-render flag set
     * (SPEC §4), sent, then the server's answer written back. A refusal puts the changed fields back as they
     * were, unless something newer has changed them meanwhile.
     */
    async updateProjectSettings(id: number, patch: ProjectPatch): Promise<Result<Project>> {
      const before = await db.projects.get(id);
      // A rename alone changes nothing in the video.
      const settingsChanged = Object.keys(patch).some((k) => k !== "name");
      if (before) await db.projects.update(id, settingsChanged ? { ...patch, needs_render: 1 } : patch);
      const result = await call("projects.update", { params: { id }, body: patch });
      if (result.ok) {
        await db.projects.put(result.data);
        return result;
      }
      if (before) {
        await db.transaction("rw", db.projects, async () => {
          const now = await db.projects.get(id);
          if (!now) return;
          const keys = (Object.keys(patch) as (keyof ProjectPatch)[]).filter((k) => JSON.stringify(now[k]) === JSON.stringify(patch[k]));
          const restored: Partial<Project> = Object.fromEntries(keys.map((k) => [k, before[k]]));
          if (keys.length === Object.keys(patch).length) restored.needs_render = before.needs_render;
          await db.projects.update(id, restored);
        });
      }
      if (result.failure.kind === "body" && result.failure.body.code === "not_found") await db.projects.delete(id);
      return result;
    },

    /**
     * SPEC §4 "Render now": a render request sends final false; without a raw preview, the raw render is
     * asked for first. The view then goes to the preview.
     */
    async renderNow(id: number): Promise<Result<Project>> {
      const project = (await db.projects.get(id)) ?? (await refreshProject(id).then((r) => (r.ok ? r.data : undefined)));
      if (project && !project.raw_preview_render) {
        const raw = await call("projects.renderRaw", { params: { id } });
        if (!raw.ok) return raw;
      }
      return lifecycle(() => call("projects.render", { params: { id }, body: { final: false } }), id);
    },

    /** Reset (the project's own options) or recreate (new ones) the storyboard; every scene edit is lost. */
    async recreateStoryboard(id: number, options: RecreateOptions): Promise<Result<Project>> {
      const result = await lifecycle(() => call("projects.recreateStoryboard", { params: { id }, body: options }), id);
      if (result.ok) await loadStoryboard(id, true);
      return result;
    },

    /** Every scene back to standard volumes, auto-duck on or off; the scenes are reloaded. */
    async resetVolumes(id: number, autoduck: boolean): Promise<Result<Project>> {
      const result = await lifecycle(() => call("projects.resetVolumes", { params: { id }, query: { autoduck: autoduck ? "true" : "false" } }), id);
      if (result.ok) await loadStoryboard(id, true);
      return result;
    },
  };
}

/** The wizard's scheduled creation: once every file of the draft is in the library, create the project. */
export function createDrafts(db: CutroomDb, call: ApiCall, refreshProject: (id: number) => Promise<unknown>) {
  async function advance(draft: ProjectDraftRow): Promise<void> {
    if (draft.status !== "waiting") return;
    const uploads = (await db.uploads.bulkGet(draft.uploadIds)).filter((u): u is UploadRow => !!u && u.status !== "canceled");
    if (uploads.some((u) => u.status === "failed")) {
      await db.drafts.update(draft.id, { status: "failed", error: uploads.find((u) => u.status === "failed")?.error ?? "upload_failed" });
      return;
    }
    if (uploads.length === 0 || uploads.some((u) => u.status !== "completed" || !u.mediaFileId)) return;
    // Intro first and outro last (SPEC §2 wizard).
    const rank = (u: UploadRow) => (u.role === "intro" ? 0 : u.role === "outro" ? 2 : 1);
    const media = [...uploads].sort((a, b) => rank(a) - rank(b)).map((u) => u.mediaFileId!);
    await db.drafts.update(draft.id, { status: "creating" });
    const result = await call("projects.create", { body: { ...draft.settings, media } });
    if (result.ok) {
      await db.projects.put(result.data);
      await db.drafts.update(draft.id, { status: "created", projectId: result.data.id });
      await db.uploads.bulkDelete(draft.uploadIds);
      await refreshProject(result.data.id);
    } else {
      await db.drafts.update(draft.id, { status: "failed", error: result.failure.kind === "body" ? result.failure.body.code : result.failure.kind });
    }
  }

  return {
    async schedule(id: string, settings: ProjectDraftRow["settings"], uploadIds: string[]) {
      const draft: ProjectDraftRow = { id, settings, uploadIds, status: "waiting", createdAt: Date.now() };
      await db.drafts.put(draft);
      await advance(draft);
    },
    async advanceAll() {
      for (const draft of await db.drafts.where("status").equals("waiting").toArray()) await advance(draft);
    },
  };
}
