/**
 * Request checks with the reference's rules and messages (express-validator v6 as comlink uses
 * it): every failed rule adds one `{ value?, msg, param, location }` entry, `value` omitted when
 * the parameter is missing, and the route answers 400 `{ errors }` when any failed. Query and
 * path parameters, and the fields of a POST's JSON body.
 */

/** One failed rule, in express-validator's shape. */
export interface FieldError {
  value?: unknown;
  msg: string;
  param: string;
  location: "query" | "params" | "body";
}

/** The default and largest `limit`. */
export const API_LIMIT = 1000;

const LIMIT_MESSAGE = `limit must be a positive integer that is not greater than max: ${API_LIMIT}`;
const INT = /^[+-]?\d+$/;
const ISO_8601 =
  /^\d{4}-?\d\d-?\d\d(?:[T\s]\d\d(?::?\d\d(?::?\d\d(?:[.,]\d+)?)?)?(?:Z|[+-]\d\d(?::?\d\d)?)?)?$/i;

/** Whether text is a boolean as validator.js's `isBoolean` reads one (`true`, `false`, `1`, `0`). */
export function isBooleanText(text: string): boolean {
  return text === "true" || text === "false" || text === "1" || text === "0";
}

/** Whether text is an integer in (gt, lt), as validator.js's `isInt` with those options. */
function isInt(text: string, gt?: number, lt?: number): boolean {
  if (!INT.test(text)) return false;
  const n = Number(text);
  return (gt === undefined || n > gt) && (lt === undefined || n < lt);
}

/** The checks of one request (see the module comment). */
export class RequestChecks {
  readonly errors: FieldError[] = [];

  /** `body`: a POST's JSON body (an object; empty for a GET). */
  constructor(
    private readonly params: Readonly<Record<string, string>>,
    private readonly query: URLSearchParams,
    private readonly body: Readonly<Record<string, unknown>> = {},
  ) {}

  /**
   * A body field that must be a string satisfying `valid` (one entry `msg`, location `body`,
   * otherwise), as express-validator's `isString` with a custom rule.
   */
  bodyString(name: string, msg: string, valid: (value: string) => boolean = () => true): string | undefined {
    const value = this.body[name];
    if (typeof value !== "string" || !valid(value)) {
      this.fail(name, msg, value, "body");
      return undefined;
    }
    return value;
  }

  /** A body field that must be an integer (a number or a decimal string, as `isInt` reads it). */
  bodyInt(name: string, msg: string): number | undefined {
    const value = this.body[name];
    const text = typeof value === "number" || typeof value === "string" ? String(value) : undefined;
    if (text === undefined || !INT.test(text)) {
      this.fail(name, msg, value, "body");
      return undefined;
    }
    return Number(text);
  }

  /** A parameter's raw value: path parameters first, then the query (an empty string is absent). */
  raw(name: string, location: "query" | "params" | "both" = "query"): string | undefined {
    if (location !== "query" && this.params[name] !== undefined) return this.params[name];
    if (location === "params") return undefined;
    const value = this.query.get(name);
    return value === null || value === "" ? undefined : value;
  }

  /** A query parameter's raw value even when empty (undefined only when the key is absent). */
  rawPresent(name: string): string | undefined {
    return this.query.get(name) ?? undefined;
  }

  /** Every value of a query parameter, empty strings included (none when the key is absent). */
  rawAllPresent(name: string): string[] {
    return this.query.getAll(name);
  }

  /** Every value of a repeated query parameter (empty strings left out). */
  rawAll(name: string): string[] {
    return this.query.getAll(name).filter((v) => v !== "");
  }

  /** Where a parameter was found (for the error entry). */
  private where(name: string, location: "query" | "params" | "both"): "query" | "params" {
    if (location === "params") return "params";
    if (location === "both" && this.params[name] !== undefined) return "params";
    return "query";
  }

  /** Adds one failed rule. */
  fail(param: string, msg: string, value: unknown, location: FieldError["location"]): void {
    this.errors.push({ ...(value === undefined ? {} : { value }), msg, param, location });
  }

  /** `limit`: default and cap {@link API_LIMIT}; the error's value is the number it became. */
  limit(): number {
    const raw = this.raw("limit");
    const value = raw === undefined ? API_LIMIT : Number(raw);
    if (!(value > 0 && value <= API_LIMIT && Number.isInteger(value))) {
      this.fail("limit", LIMIT_MESSAGE, Number.isNaN(value) ? null : value, "query");
      return API_LIMIT;
    }
    return value;
  }

  /** An optional integer in (gt, lt) with one message. */
  optionalInt(name: string, msg: string, gt?: number, lt?: number): number | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    if (!isInt(raw, gt, lt)) {
      this.fail(name, msg, raw, "query");
      return undefined;
    }
    return Number(raw);
  }

  /** A required integer in (gt, lt) with one message, from the path or the query. */
  requiredInt(
    name: string,
    msg: string,
    gt: number,
    lt: number,
    location: "query" | "params" | "both",
  ): number {
    const raw = this.raw(name, location);
    if (raw === undefined || !isInt(raw, gt, lt)) {
      this.fail(name, msg, raw, this.where(name, location));
      return 0;
    }
    return Number(raw);
  }

  /** An optional ISO-8601 time (`Invalid value` when it is not one). */
  optionalIso(name: string): Date | undefined {
    const raw = this.raw(name);
    if (raw === undefined) return undefined;
    const time = new Date(raw);
    if (!ISO_8601.test(raw) || Number.isNaN(time.getTime())) {
      this.fail(name, "Invalid value", raw, "query");
      return undefined;
    }
    return time;
  }

  /** `page` (an integer above 0; the reference's message says non-negative). */
  page(): number | undefined {
    return this.optionalInt("page", "page must be a non-negative integer", 0);
  }

  /** `createdBeforeOrAtHeight` and `createdBeforeOrAt` (height 0 counts as absent, as in the reference). */
  createdBeforeOrAt(): { height?: bigint; time?: Date } {
    const height = this.optionalInt(
      "createdBeforeOrAtHeight",
      "createdBeforeOrAtHeight must be a non-negative integer",
      -1,
    );
    const time = this.optionalIso("createdBeforeOrAt");
    return {
      ...(height === undefined || height === 0 ? {} : { height: BigInt(height) }),
      ...(time === undefined ? {} : { time }),
    };
  }

  /** A string that must satisfy `valid` (one entry with `msg` when missing or invalid). */
  oneOf(
    name: string,
    valid: (value: string) => boolean,
    msg: string,
    location: "query" | "params" | "both",
    optional = false,
  ): string | undefined {
    const raw = this.raw(name, location);
    if (raw === undefined && optional) return undefined;
    if (raw === undefined || !valid(raw)) {
      this.fail(name, msg, raw, this.where(name, location));
      return undefined;
    }
    return raw;
  }
}
