import { sql, type Kysely } from "kysely";

/**
 * Issue 19: `projects.storyboard_version` goes up with every write that changes what POST /projects/:id/storyboard
 * answers — its scenes and overlays, its files (project_media), those files' rows and their faces — so an API
 * process may keep the answer it made and serve it again while the number stays the same, whichever process (or
 * job) made the write. Triggers, not code at each write: a write path added later cannot forget it.
 */
const BUMP_PROJECT = (project: string) => `update projects set storyboard_version = storyboard_version + 1 where id = ${project}`;
const BUMP_MEDIA = (media: string) =>
  `update projects set storyboard_version = storyboard_version + 1 where id in (select project_id from project_media where media_file_id = ${media} union select project_id from scenes where media_file_id = ${media})`;

/** Per table: the events that change an answer, and the statement each runs for the row written (NEW or OLD). */
const WATCHED: { table: string; bump: (ref: string) => string; column: string; events: ("insert" | "update" | "delete")[] }[] = [
  { table: "scenes", bump: BUMP_PROJECT, column: "project_id", events: ["insert", "update", "delete"] },
  { table: "project_media", bump: BUMP_PROJECT, column: "project_id", events: ["insert", "update", "delete"] },
  { table: "media_files", bump: BUMP_MEDIA, column: "id", events: ["update"] },
  { table: "media_faces", bump: BUMP_MEDIA, column: "media_file_id", events: ["insert", "update", "delete"] },
];

const isPostgres = (db: Kysely<unknown>) => db.getExecutor().adapter.constructor.name.startsWith("Postgres");
const triggerName = (table: string, event: string) => `storyboard_version_${table}_${event}`;
/** The rows a write touched: the new one, the old one, or both when an update moved it. */
const refs = (event: string, column: string) => (event === "insert" ? [`NEW.${column}`] : event === "delete" ? [`OLD.${column}`] : [`OLD.${column}`, `NEW.${column}`]);

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable("projects").addColumn("storyboard_version", "integer", (c) => c.notNull().defaultTo(0)).execute();
  // The media_files trigger looks its file up among scenes (overlays may show files beyond project_media).
  await db.schema.createIndex("scenes_media_file").on("scenes").column("media_file_id").execute();
  for (const { table, bump, column, events } of WATCHED) {
    for (const event of events) {
      const [first, second] = refs(event, column);
      const statements = second ? [bump(first!), `${bump(second)} and ${first} is distinct from ${second}`] : [bump(first!)];
      if (isPostgres(db)) {
        const fn = `${triggerName(table, event)}_fn`;
        await sql.raw(`create function ${fn}() returns trigger language plpgsql as $$ begin ${statements.join("; ")}; return null; end $$`).execute(db);
        await sql.raw(`create trigger ${triggerName(table, event)} after ${event} on ${table} for each row execute function ${fn}()`).execute(db);
      } else {
        await sql.raw(`create trigger ${triggerName(table, event)} after ${event} on ${table} for each row begin ${statements.join("; ")}; end`).execute(db);
      }
    }
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const { table, events } of WATCHED) {
    for (const event of events) {
      await sql.raw(`drop trigger if exists ${triggerName(table, event)}${isPostgres(db) ? ` on ${table}` : ""}`).execute(db);
      if (isPostgres(db)) await sql.raw(`drop function if exists ${triggerName(table, event)}_fn()`).execute(db);
    }
  }
  await db.schema.dropIndex("scenes_media_file").execute();
  await db.schema.alterTable("projects").dropColumn("storyboard_version").execute();
}
