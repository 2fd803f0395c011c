/**
 * The docs site the errors point to (`pnpm docs:build`, scripts/docs-site.mjs): every `docsPath` a
 * perpx error can carry, read from the source, resolves to a page of the built site and to an
 * anchor of that page; the site builds without a TypeDoc warning (a broken `{@link}` among them);
 * `docs:serve` serves it at the path the errors print.
 *
 * The site is built once, with the options of `docs:build`: every package is converted and
 * validated, and only the pages the docsPaths land on are rendered (the full site is ~2,000 pages).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildDocsSite, DOCS_PAGES, type DocsSiteBuild, serveDocsSite } from "../scripts/docs-site.mjs";
import { collectDocsPaths, docsPathsOfSource } from "./support/docs-paths.js";

const packagesDir = fileURLToPath(new URL("../packages/", import.meta.url));
const { found, unreadable } = collectDocsPaths(packagesDir);
const docsPaths = [...new Set(found.map((use) => use.docsPath))].sort();
const split = (docsPath: string) => {
  const hash = docsPath.indexOf("#");
  return hash < 0
    ? { page: docsPath, anchor: undefined }
    : { page: docsPath.slice(0, hash), anchor: docsPath.slice(hash + 1) };
};

describe("the docsPath reader", () => {
  it("reads strings, caller defaults and tables, and reports any other form", () => {
    const source = [
      'const DOCS = { a: "/t/a", b: "/t/b" } as const;',
      'new E({ docsPath: "/x#y" });',
      'super("C", s, { docsPath: options.docsPath ?? "/d" });',
      "super('C', s, { docsPath: DOCS[code] });",
      `new E({ docsPath: \`/t/\${code}\` });`,
      "new E({ docsPath });",
    ].join("\n");
    const { found: uses, unreadable: bad } = docsPathsOfSource("f.ts", source);
    expect(uses.map((use) => use.docsPath)).toEqual(["/x#y", "/d", "/t/a", "/t/b"]);
    expect(bad).toEqual(["f.ts:5", "f.ts:6"]);
  });

  it("finds the docsPaths of the library source, and none it cannot read", () => {
    expect(unreadable).toEqual([]);
    expect(docsPaths.length).toBeGreaterThan(0);
  });
});

describe("the docs site", () => {
  let out: string;
  let site: DocsSiteBuild;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "perpx-docs-site-"));
    const modules = [...new Set(Object.values(DOCS_PAGES).map((page) => page.package))];
    site = await buildDocsSite({ out, logLevel: "Error", modules });
  });

  afterAll(() => {
    if (out) rmSync(out, { recursive: true, force: true });
  });

  it("builds without TypeDoc warnings (no broken {@link}, no README link to nothing)", () => {
    expect(site.warnings).toEqual([]);
  });

  it.each(docsPaths)("resolves %s to a page and anchor of the site", (docsPath) => {
    const { page, anchor } = split(docsPath);
    const where = found.filter((use) => use.docsPath === docsPath).map((use) => use.at);
    expect(Object.keys(DOCS_PAGES), `add "${page}" (from ${where.join(", ")}) to DOCS_PAGES`).toContain(page);
    // The page of the URL is a file of the site, which forwards to the package page.
    const stub = join(out, ...page.split("/"), "index.html");
    expect(existsSync(stub), stub).toBe(true);
    const refresh = /<meta http-equiv="refresh" content="0; url=([^"#]+)(#[^"]*)?">/.exec(
      readFileSync(stub, "utf8"),
    );
    expect(refresh, `${stub} forwards nowhere`).not.toBeNull();
    const target = resolve(dirname(stub), refresh?.[1] ?? "");
    expect(target).toBe(site.forwards[page]?.file);
    expect(existsSync(target), target).toBe(true);
    // The anchor (the URL's own, or the page's section) is an element of the package page.
    const id = anchor ?? DOCS_PAGES[page]?.section;
    if (id !== undefined) expect(readFileSync(target, "utf8")).toContain(`id="${id}"`);
  });
});

describe("docs:serve", () => {
  let server: Server;
  let base: string;
  let out: string;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), "perpx-docs-serve-"));
    mkdirSync(join(out, "core", "networks"), { recursive: true });
    writeFileSync(join(out, "index.html"), "<p>front</p>");
    writeFileSync(join(out, "core", "networks", "index.html"), "<p>networks</p>");
    server = await serveDocsSite({ dir: out, port: 0 });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((done) => server?.close(done));
    rmSync(out, { recursive: true, force: true });
  });

  it("serves the site under /docs/, as the errors print it", async () => {
    const page = await fetch(`${base}/docs/core/networks#networks-and-endpoints`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toBe("<p>networks</p>");
    const folder = await fetch(`${base}/docs/core/networks`, { redirect: "manual" });
    expect([folder.status, folder.headers.get("location")]).toEqual([301, "/docs/core/networks/"]);
    expect((await fetch(`${base}/`, { redirect: "manual" })).headers.get("location")).toBe("/docs/");
    expect((await fetch(`${base}/docs/`)).status).toBe(200);
  });

  it("serves nothing outside the site", async () => {
    expect((await fetch(`${base}/docs/nothing.html`)).status).toBe(404);
    expect((await fetch(`${base}/docs/..%2f..%2fpackage.json`)).status).toBe(404);
  });
});
