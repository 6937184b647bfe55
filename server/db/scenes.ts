import type { Insertable, Selectable } from "kysely";
import type { Db } from "./index";
import type { ScenesTable } from "./schema";

export type SceneRow = Selectable<ScenesTable>;

export async function replaceScenes(db: Db, projectId: number, scenes: Insertable<ScenesTable>[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom("scenes").where("project_id", "=", projectId).execute();
    // Chunked: SQLite caps the number of bound parameters per statement.
    for (let i = 0; i < scenes.length; i += 200) await trx.insertInto("scenes").values(scenes.slice(i, i + 200)).execute();
  });
}

export function visibleScenes(db: Db, projectId: number): Promise<SceneRow[]> {
  return db.selectFrom("scenes").selectAll().where("project_id", "=", projectId).where("visibility", "=", 1).orderBy("order").execute();
}
