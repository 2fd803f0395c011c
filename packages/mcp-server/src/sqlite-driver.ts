import { createRequire } from "node:module";
import { PerpxError } from "@perpx/errors";
import type Database from "better-sqlite3";

const DRIVER = "better-sqlite3";

/**
 * The SQLite store was asked for (the `database` option, `--database`) but its driver cannot be
 * used: the optional dependency `better-sqlite3` is not installed, or it is installed without its
 * native addon (its install script was not allowed to build it). Postgres (`openPostgresStore`,
 * `--postgres`) needs neither.
 *
 * @example
 * ```ts
 * const error = new SqliteUnavailableError("missing");
 * error.code; // "MISSING_DEPENDENCY"
 * error.shortMessage; // "the SQLite store needs the optional dependency better-sqlite3, which is not installed"
 * ```
 */
export class SqliteUnavailableError extends PerpxError {
  override name = "SqliteUnavailableError";
  /** `missing`: the package is not installed; `unbuilt`: it is, without its native addon. */
  readonly reason: "missing" | "unbuilt";

  /**
   * @param reason - `missing` (not installed) or `unbuilt` (no native addon).
   * @param cause - the error loading it raised.
   */
  constructor(reason: "missing" | "unbuilt", cause?: unknown) {
    super(
      "MISSING_DEPENDENCY",
      reason === "missing"
        ? `the SQLite store needs the optional dependency ${DRIVER}, which is not installed`
        : `the SQLite store needs the native addon of ${DRIVER}, which was not built (its install script did not run)`,
      {
        ...(cause === undefined ? {} : { cause }),
        metaMessages:
          reason === "missing"
            ? [`Install it beside @perpx/mcp-server: npm install ${DRIVER} (or pnpm add ${DRIVER})`]
            : [
                `Allow its install script and reinstall: npm rebuild ${DRIVER}, or with pnpm list it in`,
                `"pnpm.onlyBuiltDependencies" and run pnpm rebuild ${DRIVER}`,
              ],
        details:
          "Or keep the state in Postgres: --postgres <url>, or startMcpServer({ store: await openPostgresStore(...) }).",
      },
    );
    this.reason = reason;
  }
}

/** True when `error` says the module `name` itself (not one of its own imports) is not installed. */
function isNotInstalled(error: unknown, name: string): boolean {
  return (
    error instanceof Error &&
    (error as NodeJS.ErrnoException).code === "MODULE_NOT_FOUND" &&
    error.message.includes(`'${name}'`)
  );
}

/** Opens a SQLite database with `better-sqlite3`, loaded now (not when this package loads). */
export function openSqliteDatabase(path: string): Database.Database {
  let Driver: typeof Database;
  try {
    Driver = createRequire(import.meta.url)(DRIVER) as typeof Database;
  } catch (error) {
    if (isNotInstalled(error, DRIVER)) throw new SqliteUnavailableError("missing", error);
    throw error;
  }
  try {
    return new Driver(path);
  } catch (error) {
    // `bindings` looks for the addon when the first database opens.
    if (error instanceof Error && /Could not locate the bindings file/.test(error.message)) {
      throw new SqliteUnavailableError("unbuilt", error);
    }
    throw error;
  }
}
