import { sql, type Kysely, type RawBuilder } from "kysely";
import { dialectOf } from "./index";

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/**
 * `column LIKE pattern ESCAPE '\'` as SQLite reads it, in either database: ASCII letters match in any case,
 * every other character only itself. PostgreSQL's LIKE minds case (and ILIKE folds all of Unicode), so there
 * both sides are folded to ASCII lower case first. `column` is a trusted column reference such as
 * "projects.name"; the pattern is a bound parameter.
 */
export function likeAsciiCaseless(db: Kysely<any>, column: string, pattern: string): RawBuilder<boolean> {
  if (dialectOf(db) === "sqlite") return sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`;
  return sql<boolean>`translate(${sql.ref(column)}, ${sql.lit(UPPER)}, ${sql.lit(UPPER.toLowerCase())}) like ${asciiLower(pattern)} escape '\\'`;
}
