#!/usr/bin/env node
// The docs site (TypeDoc): an API reference for every entry point of every publishable package's
// `exports`, whose pages carry the package READMEs as their guides (the README's own text, read
// when the site builds), and the root README as the front page. Errors link to it: a PerpxError's
// `docsPath` is appended to https://perpx.dev/docs, and DOCS_PAGES below says where each one lands.
//
//   node scripts/docs-site.mjs build [outDir]   (pnpm docs:build; default docs-site/)
//   node scripts/docs-site.mjs serve [dir]      (pnpm docs:serve; PORT, or a free port)
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { dirname, extname, join, posix, relative, resolve, sep } from "node:path";
import { Application, Converter, LogLevel, MinimalSourceFile, OptionDefaults, RendererEvent } from "typedoc";

const root = resolve(import.meta.dirname, "..");
const defaultOut = join(root, "docs-site");

/**
 * Where each page a `docsPath` can name lands on the built site: the guide of a package (its README
 * on the package's page) and, optionally, one section of it (the heading's anchor). A docsPath is a
 * page, optionally followed by `#anchor` (an anchor of the package's README: `/address#errors`).
 * The build writes `<page>/index.html` for each key, so `https://perpx.dev/docs<page>` is a real
 * file of the site, which forwards to the package page (keeping the URL's `#anchor`).
 * tests/docs-site.test.ts fails when an error can carry a docsPath whose page is missing here.
 */
export const DOCS_PAGES = {
  "/address": { package: "@perpx/address" },
  "/core/conversions": { package: "@perpx/core", section: "prices-and-sizes" },
  "/core/credentials": { package: "@perpx/core", section: "trading-credentials" },
  "/core/networks": { package: "@perpx/core", section: "networks-and-endpoints" },
};

/**
 * Folders of the repository that the READMEs link to and that have no page of their own: each is
 * linked to the page of the package whose guide explains it (a package's own folder links to its
 * page without being listed here).
 */
const FOLDER_PAGES = {
  proto: "@perpx/proto",
  "packages/core/env": "@perpx/core",
  "examples/src/tasks": "@perpx/composite-client",
};

/**
 * Every publishable package and the source file of each of its public entry points: `exports`'
 * `.` is `src/index.ts` and `./x` is `src/x.ts` (as tsup builds them and vitest resolves them).
 */
export function publishablePackages() {
  const packagesDir = join(root, "packages");
  const packages = [];
  for (const folder of readdirSync(packagesDir).sort()) {
    const manifest = join(packagesDir, folder, "package.json");
    if (!existsSync(manifest)) continue;
    const pkg = JSON.parse(readFileSync(manifest, "utf8"));
    if (pkg.private) continue;
    const entries = Object.keys(pkg.exports ?? { ".": {} })
      .filter((key) => key !== "./package.json")
      .map((key) => ({
        specifier: key === "." ? pkg.name : `${pkg.name}/${key.slice(2)}`,
        file: join(packagesDir, folder, "src", key === "." ? "index.ts" : `${key.slice(2)}.ts`),
      }));
    packages.push({ name: pkg.name, dir: join(packagesDir, folder), entries });
  }
  return packages;
}

/** A tsconfig for the docs program: the entry files, with `@perpx/*` resolved to source. */
function writeTsconfig(dir, packages) {
  const entries = packages.flatMap((pkg) => pkg.entries);
  const file = join(dir, "tsconfig.json");
  const config = {
    extends: join(root, "tsconfig.base.json"),
    compilerOptions: {
      paths: Object.fromEntries(entries.map((entry) => [entry.specifier, [entry.file]])),
    },
    files: entries.map((entry) => entry.file),
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** The page for `docsPath`'s page part forwards to the package page and section. */
function forwardPage(page, targetUrl, anchor) {
  const fallback = anchor ? `#${anchor}` : "";
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>perpx docs: ${page}</title>
<meta http-equiv="refresh" content="0; url=${targetUrl}${fallback}">
<script>
  const here = location.pathname.endsWith("/") ? location.pathname : \`\${location.pathname}/\`;
  const target = new URL(${JSON.stringify(targetUrl)}, location.origin + here);
  location.replace(target.href + (location.hash || ${JSON.stringify(fallback)}));
</script>
<p><a href="${targetUrl}${fallback}">${page}</a></p>
</html>
`;
}

/**
 * Builds the site into `out`. Resolves with the number of HTML pages, the warnings TypeDoc logged
 * (broken `{@link}`s among them) and, for each DOCS_PAGES key, the file it forwards to.
 *
 * `modules` (tests only) renders just the pages of those packages' entry points after converting
 * and validating everything, which is what the docsPath check needs, at a fraction of the time.
 */
export async function buildDocsSite({ out = defaultOut, logLevel = "Warn", modules } = {}) {
  const packages = publishablePackages();
  const work = mkdtempSync(join(tmpdir(), "perpx-docs-"));
  const warnings = [];
  try {
    const app = await Application.bootstrapWithPlugins({
      name: "perpx",
      entryPoints: packages.flatMap((pkg) => pkg.entries.map((entry) => entry.file)),
      entryPointStrategy: "resolve",
      tsconfig: writeTsconfig(work, packages),
      readme: join(root, "README.md"),
      out,
      logLevel,
      // The packages' typecheck is CI's job; TypeDoc only reads the types.
      skipErrorChecking: true,
      disableSources: true,
      hideGenerator: true,
      excludeInternal: true,
      excludePrivate: true,
      validation: { invalidLink: true, notExported: false, notDocumented: false },
      // protoc-gen-es marks each generated declaration `@generated from message ...`.
      blockTags: [...OptionDefaults.blockTags, "@generated"],
      externalSymbolLinkMappings: {
        "@bufbuild/protobuf": { "*": "https://github.com/bufbuild/protobuf-es/blob/main/MANUAL.md" },
      },
    });
    const log = app.logger.log.bind(app.logger);
    app.logger.log = (message, level) => {
      if (level >= LogLevel.Warn) warnings.push(message);
      log(message, level);
    };
    const byFile = new Map(
      packages.flatMap((pkg) => pkg.entries.map((entry) => [entry.file, { pkg, entry }])),
    );
    // Each entry point's module is named by its import specifier; a package's root entry carries
    // the package README as its guide (what TypeDoc's `packages` mode does for a package).
    app.converter.on(Converter.EVENT_RESOLVE_BEGIN, (context) => {
      const { files } = context.project;
      for (const module of context.project.children ?? []) {
        const fileName = context.project.getSymbolIdFromReflection(module)?.fileName;
        const found = fileName === undefined ? undefined : byFile.get(resolve(fileName));
        if (!found) continue;
        module.name = found.entry.specifier;
        const readme = join(found.pkg.dir, "README.md");
        if (found.entry.specifier !== found.pkg.name || !existsSync(readme)) continue;
        const source = new MinimalSourceFile(readFileSync(readme, "utf8"), readme);
        module.readme = context.converter.parseRawComment(source, files).content;
        files.registerReflectionPath(readme, module);
        files.registerReflectionPath(found.pkg.dir, module);
      }
      for (const [folder, name] of Object.entries(FOLDER_PAGES)) {
        const module = context.project.children?.find((child) => child.name === name);
        if (module) files.registerReflectionPath(join(root, folder), module);
      }
    });
    const project = await app.convert();
    if (!project) throw new Error("TypeDoc could not convert the packages (see its log above)");
    app.validate(project);
    const forwards = {};
    if (modules) {
      app.renderer.on(RendererEvent.BEGIN, (event) => {
        const kept = event.pages.filter(
          (page) => page.model.isProject?.() === false && modules.includes(page.model.name),
        );
        event.pages.splice(0, event.pages.length, ...kept);
      });
    }
    app.renderer.on(RendererEvent.END, () => {
      for (const [page, target] of Object.entries(DOCS_PAGES)) {
        const module = project.children?.find((child) => child.name === target.package);
        if (!module) continue;
        const file = join(out, app.renderer.router.getFullUrl(module));
        const stub = join(out, ...page.split("/"), "index.html");
        mkdirSync(dirname(stub), { recursive: true });
        const url = relative(dirname(stub), file).split(sep).join(posix.sep);
        writeFileSync(stub, forwardPage(page, url, target.section));
        forwards[page] = { file, anchor: target.section };
      }
    });
    await app.generateDocs(project, out);
    return { pages: countPages(out), warnings, forwards };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function countPages(dir) {
  return readdirSync(dir, { recursive: true }).filter((name) => String(name).endsWith(".html")).length;
}

const types = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".json": "application/json",
  ".png": "image/png",
};

/**
 * Serves the built site under `/docs/` (so an error's `https://perpx.dev/docs/...` link reads the
 * same path on localhost). Resolves with the server once it listens.
 */
export function serveDocsSite({ dir = defaultOut, port = 0, host = "127.0.0.1" } = {}) {
  const base = resolve(dir);
  const server = createServer((request, response) => {
    let path;
    try {
      path = decodeURIComponent(new URL(request.url ?? "/", "http://localhost").pathname);
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (!path.startsWith("/docs/")) {
      response.writeHead(path === "/" || path === "/docs" ? 302 : 404, { location: "/docs/" }).end();
      return;
    }
    let file = resolve(base, `.${path.slice("/docs".length)}`);
    if (file !== base && !file.startsWith(base + sep)) {
      response.writeHead(404).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) {
      // A folder's page is read at its URL with a slash, so that its relative links resolve.
      if (!path.endsWith("/")) {
        response.writeHead(301, { location: `${path}/` }).end();
        return;
      }
      file = join(file, "index.html");
    }
    if (!existsSync(file)) {
      response.writeHead(404, { "content-type": "text/plain" }).end(`not found: ${path}\n`);
      return;
    }
    response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
    response.end(readFileSync(file));
  });
  return new Promise((resolveListen, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => resolveListen(server));
  });
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  const [command, dir] = process.argv.slice(2);
  if (command === "build") {
    const out = resolve(dir ?? defaultOut);
    rmSync(out, { recursive: true, force: true });
    const { pages, warnings } = await buildDocsSite({ out, logLevel: "Info" });
    console.log(`${pages} pages in ${relative(process.cwd(), out) || "."}`);
    if (warnings.length > 0) {
      console.error(`${warnings.length} TypeDoc warning(s)`);
      process.exitCode = 1;
    }
  } else if (command === "serve") {
    const site = resolve(dir ?? defaultOut);
    if (!existsSync(join(site, "index.html"))) {
      console.error(`no site in ${site}: run \`pnpm docs:build\` first`);
      process.exit(1);
    }
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: docs:serve is a command of its own, not a turbo task.
    const port = Number(process.env.PORT ?? 0);
    const server = await serveDocsSite({ dir: site, port });
    const address = server.address();
    console.log(`perpx docs at http://127.0.0.1:${address.port}/docs/`);
  } else {
    console.error("usage: node scripts/docs-site.mjs build [outDir] | serve [dir]");
    process.exit(2);
  }
}
