import type { CutroomDb, ProjectDraftRow, UploadRow } from "../src/db";
import type { ApiCall } from "./api-client";
import type { Result } from "./status";
import type { Project } from "../api/projects";

/** Project actions: refresh the mirror from the API, and lifecycle calls that reload afterwards (SPEC §7). */
export function createProjectActions(db: CutroomDb, call: ApiCall) {
  async function refreshProject(id: number): Promise<Result<Project>> {
    const result = await call("projects.get", { params: { id } });
    if (result.ok) await db.projects.put(result.data);
    else if (result.failure.kind === "body" && result.failure.body.code === "not_found") await db.projects.delete(id);
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
      await db.transaction("rw", db.projects, db.meta, async () => {
        if (page === 1) {
          // Forget projects that vanished server-side (deleted long ago) among the newest.
          const newest = data.length ? Math.min(...data.map((p) => p.id)) : 0;
          const gone = (await db.projects.where("id").aboveOrEqual(newest).primaryKeys()).filter((id) => !data.some((p) => p.id === id));
          await db.projects.bulkDelete(gone);
        }
        await db.projects.bulkPut(data);
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
    renderProject: (id: number, final = false) => lifecycle(() => call("projects.render", { params: { id }, body: { final } }), id),
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
