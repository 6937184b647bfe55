import { type CreateTableBuilder, type Kysely } from "kysely";

/** An auto-increment primary key in either dialect. */
export function withId<T extends string>(db: Kysely<unknown>, table: CreateTableBuilder<T, never>) {
  const isPostgres = db.getExecutor().adapter.constructor.name.startsWith("Postgres");
  return isPostgres
    ? table.addColumn("id", "integer", (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement());
}

