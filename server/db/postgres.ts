import pg from "pg";
import { BinaryOperationNode, OperationNodeTransformer, OperatorNode, PostgresDialect, PrimitiveValueListNode, ValueListNode, ValueNode, type ColumnDataType, type DataTypeNode, type KyselyPlugin, type PluginTransformQueryArgs, type QueryId, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from "kysely";

/**
 * Issue 19: PostgreSQL behind the same migrations and queries as SQLite. Two things make the two
 * databases answer alike without touching a query:
 *
 * - Column types are read the way SQLite reads them (it enforces no length and keeps 64-bit integers
 *   and 8-byte floats): `varchar(n)` becomes `text` (a longer value is stored, as in SQLite, not
 *   refused), `integer` becomes `bigint`, `real` (4 bytes in PostgreSQL) becomes `double precision`.
 * - Values come back in SQLite's JS types: 64-bit integers (ids, counts, `count(*)`) and numerics
 *   (`sum` of integers) as numbers, not strings; date and time types as the text PostgreSQL prints,
 *   never Date objects (the schema keeps every timestamp as ISO-8601 text anyway).
 * - `x in ()` with an empty list, which SQLite answers false (`not in ()`: true) and PostgreSQL refuses as
 *   a syntax error, becomes that constant.
 */
const SQLITE_TYPES: Record<string, ColumnDataType> = { integer: "bigint", real: "double precision" };

class SqliteSemanticsTransformer extends OperationNodeTransformer {
  protected override transformDataType(node: DataTypeNode): DataTypeNode {
    const mapped = SQLITE_TYPES[node.dataType] ?? (/^varchar\(\d+\)$/.test(node.dataType) ? "text" : undefined);
    return mapped ? { ...node, dataType: mapped } : node;
  }

  protected override transformBinaryOperation(node: BinaryOperationNode, queryId?: QueryId): BinaryOperationNode {
    const operator = OperatorNode.is(node.operator) ? node.operator.operator : undefined;
    const list = node.rightOperand;
    const empty = (PrimitiveValueListNode.is(list) && list.values.length === 0) || (ValueListNode.is(list) && list.values.length === 0);
    if (empty && (operator === "in" || operator === "not in")) {
      return BinaryOperationNode.create(ValueNode.createImmediate(1), OperatorNode.create("="), ValueNode.createImmediate(operator === "in" ? 0 : 1));
    }
    return super.transformBinaryOperation(node, queryId);
  }
}

/** Maps the schema's SQLite column types to the PostgreSQL types that hold the same values. */
export class SqliteTypesPlugin implements KyselyPlugin {
  readonly #transformer = new SqliteSemanticsTransformer();
  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node, args.queryId);
  }
  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}

const { builtins } = pg.types;
const asNumber = (value: string) => Number(value);
const asText = (value: string) => value;
const PARSERS: Partial<Record<number, (value: string) => unknown>> = {
  [builtins.INT8]: asNumber,
  [builtins.NUMERIC]: asNumber,
  [builtins.DATE]: asText,
  [builtins.TIMESTAMP]: asText,
  [builtins.TIMESTAMPTZ]: asText,
  [builtins.TIME]: asText,
  [builtins.TIMETZ]: asText,
  [builtins.INTERVAL]: asText,
};

/** The type parsers of this pool only: pg's global ones stay as they are for any other user of the module. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => PARSERS[oid] ?? pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PostgresOptions {
  /** Connections of this process's pool (default 10). */
  max?: number;
}

export function postgresPool(url: string, options: PostgresOptions = {}): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: options.max ?? 10, types, idleTimeoutMillis: 30_000 });
  // An idle connection dropped by the server (restart, failover) is replaced at the next query; without a
  // listener its error would end the process.
  pool.on("error", () => undefined);
  return pool;
}

export function postgresDialect(url: string, options: PostgresOptions = {}): PostgresDialect {
  return new PostgresDialect({ pool: postgresPool(url, options) });
}

/** `postgres://user:secret@host/db` → `postgres://user@host/db`, for messages and logs. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = "";
    return parsed.toString();
  } catch {
    return "postgres://…";
  }
}
