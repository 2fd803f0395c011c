/**
 * The layering checker: reads the intended dependency graph (one markdown table), then holds every
 * workspace package to it through its package.json and through the imports of its sources
 * (static, re-exports and dynamic `import()`), and finds import cycles between the modules of each
 * package. Pure functions over a directory, so a fixture workspace can prove it fails.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";

/** One row of the graph: what a package may use in its code and, additionally, in its tests. */
export interface Layer {
  allowed: Set<string>;
  testsAlso: Set<string>;
  /** `*`: a workspace-level package (tests, benches) that may use anything. */
  any: boolean;
}

/** The package name -> layer table parsed from the markdown table under `heading`. */
export function readGraph(markdown: string, heading: string, scope: string): Map<string, Layer> {
  const at = markdown.indexOf(heading);
  if (at === -1) throw new Error(`no "${heading}" section`);
  const rows = markdown
    .slice(at)
    .split("\n")
    .slice(1)
    .filter((line) => line.startsWith("|"));
  const names = (cell: string | undefined) =>
    new Set([...(cell ?? "").matchAll(/`([\w-]+)`/g)].map((m) => `${scope}/${m[1]}`));
  const graph = new Map<string, Layer>();
  for (const row of rows.slice(2)) {
    const [, pkg, allowed, testsAlso] = row.split("|").map((cell) => cell.trim());
    const name = /`([\w-]+)`/.exec(pkg ?? "")?.[1];
    if (!name) throw new Error(`graph row without a package: ${row}`);
    graph.set(`${scope}/${name}`, {
      allowed: names(allowed),
      testsAlso: names(testsAlso),
      any: allowed === "*",
    });
  }
  if (graph.size === 0) throw new Error(`"${heading}" has no table`);
  return graph;
}

/** A workspace package: its name, directory and manifest dependencies. */
interface WorkspacePackage {
  name: string;
  dir: string;
  dependencies: string[];
  devDependencies: string[];
}

/** The packages of a pnpm workspace, from the `packages:` globs of `pnpm-workspace.yaml` (`dir/*` or `dir`). */
function workspacePackages(root: string): WorkspacePackage[] {
  const yaml = readFileSync(join(root, "pnpm-workspace.yaml"), "utf8");
  const globs = [...yaml.matchAll(/^\s*-\s*["']?([^"'\n]+?)["']?\s*$/gm)].map((m) => m[1]!);
  const dirs = globs.flatMap((glob) =>
    glob.endsWith("/*")
      ? readdirSync(join(root, glob.slice(0, -2))).map((name) => join(root, glob.slice(0, -2), name))
      : [join(root, glob)],
  );
  return dirs
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
      const keys = (field: string) => Object.keys(pkg[field] ?? {});
      return {
        name: pkg.name,
        dir,
        dependencies: [...keys("dependencies"), ...keys("peerDependencies"), ...keys("optionalDependencies")],
        devDependencies: keys("devDependencies"),
      };
    });
}

const isTestFile = (file: string) =>
  /\.(test|test-d|bench)\.ts$/.test(file) ||
  file.split(/[\\/]/).some((part) => ["test", "tests"].includes(part));

/**
 * Every `.ts` source of a package (outside `node_modules`, `dist` and dot-folders: `.turbo`, and
 * the scratch folders other test files write and remove while this one walks, as the doc runner's
 * `.docs-run`).
 */
function sourcesOf(dir: string): string[] {
  const out: string[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at)) {
      if (entry === "node_modules" || entry === "dist" || entry.startsWith(".")) continue;
      const path = join(at, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith(".ts") && !path.endsWith(".d.ts")) out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** One import of a module: its specifier, whether it exists only for types, whether it is `import()`. */
interface ImportEdge {
  specifier: string;
  typeOnly: boolean;
  dynamic: boolean;
}

/** The imports, re-exports and `import()` calls of one TypeScript source. */
function importsOf(file: string): ImportEdge[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const edges: ImportEdge[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named = clause?.namedBindings;
      const allTypes =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((element) => element.isTypeOnly)));
      edges.push({ specifier: node.moduleSpecifier.text, typeOnly: allTypes, dynamic: false });
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = node.exportClause;
      const allTypes =
        node.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
      edges.push({ specifier: node.moduleSpecifier.text, typeOnly: allTypes, dynamic: false });
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    ) {
      edges.push({ specifier: node.arguments[0].text, typeOnly: false, dynamic: true });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const literal = node.argument.literal;
      if (ts.isStringLiteral(literal))
        edges.push({ specifier: literal.text, typeOnly: true, dynamic: false });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`); undefined for relative and `node:`. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:"))
    return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The source file a relative specifier points at (`./x.js` -> `x.ts` or `x/index.ts`). */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier);
  const stem = base.replace(/\.(c|m)?js$/, "");
  return [`${stem}.ts`, `${stem}.mts`, join(stem, "index.ts"), base].find(
    (candidate) => candidate.endsWith("ts") && existsSync(candidate),
  );
}

/** The import cycles among a package's modules (runtime imports only: type-only and `import()` edges load nothing up front). */
function cyclesOf(files: string[], root: string): string[][] {
  const graph = new Map<string, string[]>();
  for (const file of files) {
    graph.set(
      file,
      importsOf(file)
        .filter((edge) => !edge.typeOnly && !edge.dynamic && edge.specifier.startsWith("."))
        .map((edge) => resolveRelative(file, edge.specifier))
        .filter((target): target is string => target !== undefined),
    );
  }
  // Tarjan's strongly connected components; every component of two or more modules (or a module
  // importing itself) is a cycle.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter++;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.includes(node)) {
        cycles.push(component.map((file) => relative(root, file)).sort());
      }
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) connect(node);
  return cycles;
}

/** Every way the workspace at `root` departs from `graph`, one readable line each; empty when it holds. */
export function layeringViolations(root: string, graph: Map<string, Layer>, scope: string): string[] {
  const problems: string[] = [];
  const packages = workspacePackages(root);
  for (const pkg of packages) {
    const layer = graph.get(pkg.name);
    if (!layer) {
      problems.push(`${pkg.name}: not in the dependency graph table`);
      continue;
    }
    if (layer.any) continue;
    const inScope = (name: string) => name.startsWith(`${scope}/`) && name !== pkg.name;
    for (const dep of pkg.dependencies.filter(inScope)) {
      if (!layer.allowed.has(dep)) problems.push(`${pkg.name}: package.json depends on ${dep}`);
    }
    for (const dep of pkg.devDependencies.filter(inScope)) {
      if (!layer.allowed.has(dep) && !layer.testsAlso.has(dep)) {
        problems.push(`${pkg.name}: package.json devDependencies has ${dep}`);
      }
    }
    const files = sourcesOf(pkg.dir);
    for (const file of files) {
      const test = isTestFile(relative(pkg.dir, file));
      for (const edge of importsOf(file)) {
        const target = packageOf(edge.specifier);
        if (!target || !inScope(target)) continue;
        const where = `${relative(root, file)} imports ${edge.specifier}${edge.dynamic ? " (import())" : ""}`;
        if (!layer.allowed.has(target) && !(test && layer.testsAlso.has(target))) {
          problems.push(`${pkg.name}: ${where}, outside its layer`);
        } else if (!test && !pkg.dependencies.includes(target)) {
          problems.push(`${pkg.name}: ${where}, not in its package.json dependencies`);
        }
      }
    }
    for (const cycle of cyclesOf(files, root))
      problems.push(`${pkg.name}: import cycle ${cycle.join(" <-> ")}`);
  }
  return problems;
}
