/**
 * Query strings of indexer calls: parameters in a fixed order, `undefined` dropped (never sent as
 * the text `undefined` or `null`), arrays joined with commas, booleans and numbers as text.
 */

/**
 * A value a query parameter can take.
 *
 * @example
 * ```ts
 * const value: QueryValue = ["OPEN", "UNTRIGGERED"];
 * ```
 */
export type QueryValue = string | number | boolean | readonly string[] | undefined;

/**
 * Encodes query parameters: entries with `undefined` (or an empty array) are left out, arrays are
 * comma-joined, keys and values are percent-encoded. Returns `""` or a string starting with `?`.
 *
 * @param params - the parameters, in the order to send them.
 * @returns the query string.
 * @example
 * ```ts
 * encodeQuery({ address: "perpx1abc", subaccountNumber: 0, status: ["OPEN", "UNTRIGGERED"], limit: undefined });
 * // "?address=perpx1abc&subaccountNumber=0&status=OPEN%2CUNTRIGGERED"
 * encodeQuery({}); // ""
 * ```
 */
export function encodeQuery(params: Readonly<Record<string, QueryValue>>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    const text = typeof value === "object" ? value.join(",") : String(value);
    if (typeof value === "object" && value.length === 0) continue;
    parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(text)}`);
  }
  return parts.length === 0 ? "" : `?${parts.join("&")}`;
}
