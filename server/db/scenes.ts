import type { Insertable, Selectable } from "kysely";
import type { Db } from "./index";
import type { ScenesTable } from "./schema";
import { projectMedia } from "./projects";
import { IMAGE_SCENE_SECONDS } from "../domain/storyboard";

export type SceneRow = Selectable<ScenesTable>;
// Every helper takes `Db` or an open transaction (a Transaction is a Kysely too).

/** An overlay row is a scene of type "overscene" sitting over its main scene (parent_scene_id). */
export const OVERLAY_TYPE = "overscene";

export async function replaceScenes(db: Db, projectId: number, scenes: Insertable<ScenesTable>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("scenes").where("project_id", "=", projectId).execute();
    // Chunked: SQLite caps the number of bound parameters per statement.
    for (let i = 0; i < scenes.length; i += 200) await trx.insertInto("scenes").values(scenes.slice(i, i + 200)).execute();
  });
}

/** The shown main scenes in order; overlays come with `overlaysOf`. */
export function visibleScenes(db: Db, projectId: number): Promise<SceneRow[]> {
  return db
    .selectFrom("scenes")
    .selectAll()
    .where("project_id", "=", projectId)
    .where("parent_scene_id", "is", null)
    .where("visibility", "=", 1)
    .orderBy("order")
    .orderBy("id")
    .execute();
}

/** Every main scene (shown or removed) in storyboard order. Overlays never take a place of their own. */
export function mainScenes(db: Db, projectId: number): Promise<SceneRow[]> {
  return db.selectFrom("scenes").selectAll().where("project_id", "=", projectId).where("parent_scene_id", "is", null).orderBy("order").orderBy("id").execute();
}

/** A project's overlay rows, by the main scene they sit over. */
export async function overlaysOf(db: Db, projectId: number): Promise<Map<number, SceneRow>> {
  const rows = await db.selectFrom("scenes").selectAll().where("project_id", "=", projectId).where("parent_scene_id", "is not", null).orderBy("id").execute();
  return new Map(rows.map((r) => [r.parent_scene_id!, r]));
}

/** Orders become 1…n again and the project's scene count follows. */
export async function renumberScenes(db: Db, projectId: number, orderedIds: readonly number[]): Promise<void> {
  for (const [i, id] of orderedIds.entries()) await db.updateTable("scenes").set({ order: i + 1 }).where("id", "=", id).execute();
  await db.updateTable("projects").set({ scenes_count: orderedIds.length }).where("id", "=", projectId).execute();
}

/** Where each of the project's files starts in its raw preview: the files back to back, in position order. */
export async function rawOffsetsOf(db: Db, projectId: number): Promise<Map<number, number>> {
  const offsets = new Map<number, number>();
  let at = 0;
  for (const m of await projectMedia(db, projectId)) {
    offsets.set(m.id, at);
    at += m.kind === "image" ? IMAGE_SCENE_SECONDS : m.duration_seconds;
  }
  return offsets;
}

/** SPEC §4 Needs-render: any edit since the last render request. */
export async function markNeedsRender(db: Db, projectId: number): Promise<void> {
  await db.updateTable("projects").set({ needs_render: 1, updated_at: new Date().toISOString() }).where("id", "=", projectId).execute();
}
