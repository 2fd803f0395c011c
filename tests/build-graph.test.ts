/**
 * The build's task graph (turbo's dry run, nothing is built): a package's build waits for the builds
 * of its production dependencies and nothing else, so the devnet its tests start (a devDependency)
 * does not put itself in front of every client; the demo builds only the packages it runs; and a
 * change to a build file the packages share reaches every package's cache key.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("..", import.meta.url));
const packagesDir = join(root, "packages");

interface DryTask {
  taskId: string;
  package: string;
  command: string;
  dependencies: string[];
  inputs: Record<string, string>;
}

/** The tasks `turbo run build <args> --dry=json` would run. */
function dryBuild(...args: string[]): DryTask[] {
  const turbo = join(root, "node_modules", ".bin", "turbo");
  const result = spawnSync(turbo, ["run", "build", ...args, "--dry=json"], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
  });
  if (result.status !== 0) throw new Error(`turbo --dry failed: ${result.stderr}`);
  return (JSON.parse(result.stdout) as { tasks: DryTask[] }).tasks;
}

const workspacePackages = readdirSync(packagesDir).map((dir) => {
  const pkg = JSON.parse(readFileSync(join(packagesDir, dir, "package.json"), "utf8")) as {
    name: string;
    dependencies?: Record<string, string>;
  };
  const workspaceDeps = Object.entries(pkg.dependencies ?? {})
    .filter(([, range]) => range.startsWith("workspace:"))
    .map(([name]) => name);
  return { dir, name: pkg.name, workspaceDeps };
});

describe("the build graph", () => {
  const tasks = dryBuild();

  it.each(workspacePackages)(
    "$name builds after its production dependencies only",
    ({ name, workspaceDeps }) => {
      const task = tasks.find((t) => t.taskId === `${name}#build`);
      expect(task, `${name} has a build task`).toBeDefined();
      expect([...(task?.dependencies ?? [])].sort()).toEqual(
        workspaceDeps.map((dep) => `${dep}#build`).sort(),
      );
    },
  );

  it("the demo's build leaves out the packages the demo does not run", () => {
    const demoScript = readFileSync(join(root, "scripts", "task.mjs"), "utf8");
    expect(demoScript).toContain('pnpm("run", "build:demo")');
    const rootPkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
      scripts: Record<string, string>;
    };
    const args = (rootPkg.scripts["build:demo"] ?? "").split(" ").slice(3);
    const built = dryBuild(...args)
      .filter((t) => t.taskId.endsWith("#build") && !t.taskId.startsWith("@perpx/examples#"))
      .map((t) => t.package)
      .sort();
    const examples = JSON.parse(readFileSync(join(root, "examples", "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    // What the examples import, and what those need to build.
    const needed = new Set<string>();
    const visit = (name: string) => {
      if (needed.has(name)) return;
      needed.add(name);
      for (const dep of workspacePackages.find((p) => p.name === name)?.workspaceDeps ?? []) visit(dep);
    };
    for (const name of Object.keys(examples.dependencies)) visit(name);
    expect(built).toEqual([...needed].sort());
    expect(built).not.toContain("@perpx/mcp-server");
  });

  it("a build's cache key covers the shared build files and leaves out tests", () => {
    const builds = tasks.filter((t) => t.command !== "<NONEXISTENT>");
    expect(builds.map((t) => t.package).sort()).toEqual(workspacePackages.map((p) => p.name).sort());
    for (const task of builds) {
      const inputs = Object.keys(task.inputs);
      for (const shared of ["tsup.base.ts", "tsconfig.base.json", "scripts/defer-cjs-requires.mjs"]) {
        expect(
          inputs.some((input) => input.endsWith(shared)),
          `${task.taskId} hashes ${shared}`,
        ).toBe(true);
      }
      expect(
        inputs.filter((input) => /\.(test|test-d|bench)\.ts$/.test(input)),
        task.taskId,
      ).toEqual([]);
    }
  });
});
