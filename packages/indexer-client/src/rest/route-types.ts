/**
 * The params of every call, derived from its row of `@perpx/core/indexer`'s route table: each
 * parameter typed by its kind (required ones required), and each subaccount as `{ owner, number }`.
 */
import type { INDEXER_ROUTES, IndexerRouteName, RouteParamKind } from "@perpx/core/indexer";
import type { CallOptions } from "./deadline.js";
import type { HeightInput, TimeInput } from "./validate.js";

interface KindValue {
  address: string;
  addresses: readonly string[];
  subaccountNumber: number;
  parentSubaccountNumber: number;
  limit: number;
  page: number;
  positive: number;
  offset: number;
  height: HeightInput;
  time: TimeInput;
  ticker: string;
  uuid: string;
  referralCode: string;
  text: string;
  boolean: boolean;
  flag: boolean;
  enum: string;
  enums: readonly string[];
}

type ValueOf<P> = P extends { readonly kind: "enum"; readonly values: readonly (infer E)[] }
  ? E
  : P extends { readonly kind: "enums"; readonly values: readonly (infer E)[] }
    ? readonly E[]
    : P extends { readonly kind: infer K extends RouteParamKind }
      ? KindValue[K]
      : never;

type Row<N extends IndexerRouteName> = (typeof INDEXER_ROUTES)[N];
type Params<N extends IndexerRouteName> = Row<N>["params"];
type Groups<N extends IndexerRouteName> = Row<N>["subaccounts"];
type Mapped<N extends IndexerRouteName> = {
  [G in keyof Groups<N>]: Groups<N>[G][number & keyof Groups<N>[G]];
}[keyof Groups<N>];
type Required<N extends IndexerRouteName> = {
  [K in keyof Params<N>]: Params<N>[K] extends { readonly required: true } ? K : never;
}[keyof Params<N>];

/**
 * One subaccount: its owner (bech32 `perpx1...` or `0x` hex) and number (0..128000; a parent's, 0..127).
 *
 * @example
 * ```ts
 * const who: SubaccountParams = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0 };
 * ```
 */
export interface SubaccountParams {
  /** The owner: bech32 (`perpx1...`) or `0x` hex. */
  readonly owner: string;
  /** The subaccount number (a parent's for the `Parent` calls, 0..127). */
  readonly number: number;
}

/**
 * The params of the call named `N`: its row's parameters by name (subaccounts as
 * {@link SubaccountParams}, at the top level or under `source` and `recipient`), and call options.
 *
 * @example
 * ```ts
 * const params: RouteCallParams<"getFills"> = { owner: "perpx1t2htvpfl862vnwdqnuekd9p4ulh3h6hd7x672c", number: 0, limit: 10 };
 * ```
 */
export type RouteCallParams<N extends IndexerRouteName> = CallOptions & {
  readonly [K in Exclude<Required<N>, Mapped<N>>]: ValueOf<Params<N>[K]>;
} & {
  readonly [K in Exclude<keyof Params<N>, Required<N> | Mapped<N>>]?: ValueOf<Params<N>[K]>;
} & ("" extends keyof Groups<N> ? SubaccountParams : unknown) & {
    readonly [G in Exclude<keyof Groups<N>, "">]: SubaccountParams;
  };
