/** Building the page's DOM: elements from tag, attributes and children; tables; labelled values. */

/** What an element may hold: nodes and printable values; nullish and `false` are skipped. */
export type Child = Node | string | number | bigint | null | undefined | false;

/** Attributes (strings) and event handlers (`on<event>`). */
export type Attrs = Record<string, string | number | undefined | ((event: Event) => void)>;

/** An element `tag` with `attrs` and `children`. */
export function h(tag: string, attrs: Attrs = {}, ...children: Child[]): HTMLElement {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined) continue;
    if (typeof value === "function") element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/** Appends printable children to `parent`. */
function append(parent: HTMLElement, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : String(child));
  }
}

/** A link to a hash route. */
export function link(route: string, text: Child, field?: string): HTMLElement {
  return h("a", { href: `#/${route}`, "data-field": field }, text);
}

/** A figure with its unit (`65000 USD`); the figure alone carries `data-field` when `field` is given. */
export function amount(value: Child, unit: string, field?: string): HTMLElement {
  return h(
    "span",
    { class: "amount" },
    h("span", { "data-field": field }, value),
    " ",
    h("span", { class: "unit" }, unit),
  );
}

/** Addresses in either form: `perpx1...` (bech32) or `0x` and 40 hex digits. */
const ADDRESS = /\b(perpx1[02-9ac-hj-np-z]{38,58}|0x[0-9a-fA-F]{40})\b/g;

/** `text` with every address in it a link to its account page, shortened to `keep` characters a side if given. */
export function linkify(text: string, keep?: number): Array<HTMLElement | string> {
  const parts: Array<HTMLElement | string> = [];
  let at = 0;
  for (const match of text.matchAll(ADDRESS)) {
    const index = match.index ?? 0;
    if (index > at) parts.push(text.slice(at, index));
    const shown =
      keep === undefined || match[0].length <= keep * 2 + 3
        ? match[0]
        : `${match[0].slice(0, keep)}...${match[0].slice(-keep)}`;
    parts.push(link(`account/${match[0]}`, shown));
    at = index + match[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  return parts;
}

/** A titled section. */
export function section(title: string, id: string, ...children: Child[]): HTMLElement {
  return h("section", { "data-section": id }, h("h2", {}, title), ...children);
}

/** A list of labelled values; each value carries `data-field` for tests and styling. */
export function facts(
  rows: ReadonlyArray<readonly [label: string, field: string, value: Child]>,
): HTMLElement {
  return h(
    "dl",
    { class: "facts" },
    ...rows.flatMap(([label, field, value]) => [h("dt", {}, label), h("dd", { "data-field": field }, value)]),
  );
}

/** A table with a header row; `empty` shows when there are no rows. */
export function table(
  id: string,
  headers: readonly string[],
  rows: ReadonlyArray<readonly Child[]>,
  empty = "none",
): HTMLElement {
  if (rows.length === 0) return h("p", { class: "empty", "data-table": id }, empty);
  return h(
    "div",
    { class: "scroll" },
    h(
      "table",
      { "data-table": id },
      h("thead", {}, h("tr", {}, ...headers.map((text) => h("th", {}, text)))),
      h("tbody", {}, ...rows.map((cells) => h("tr", {}, ...cells.map((cell) => h("td", {}, cell))))),
    ),
  );
}

/** Replaces the children of `parent`. */
function replace(parent: HTMLElement, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** A placeholder that later takes content (`fill`), or an error (`fail`). */
export function slot(id: string): {
  element: HTMLElement;
  fill(...children: Child[]): void;
  fail(error: unknown): void;
} {
  const element = h("div", { "data-slot": id }, h("p", { class: "loading" }, "loading..."));
  return {
    element,
    fill: (...children) => replace(element, ...children),
    fail: (error) => replace(element, h("p", { class: "error", role: "alert" }, errorText(error))),
  };
}

/** The message of an error, for the page. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
