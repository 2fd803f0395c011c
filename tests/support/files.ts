/**
 * Lists a folder's files without entering `node_modules`. Node 20's `readdirSync(dir, { recursive:
 * true })` follows the symbolic links pnpm puts in every package's `node_modules` (a package links
 * the workspace packages it depends on, and they link theirs), so a recursive listing of a package
 * folder reads hundreds of thousands of entries before a caller can filter `node_modules` out.
 * Also the one spelling of a file's path from the repository root.
 */
import { readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The path of `file` (absolute) from the repository root, joined with `/` on every platform.
 *
 * @param file - an absolute path inside the repository.
 * @returns its path from the root, as the test suite's lists spell it.
 */
export function pathFromRoot(file: string): string {
  return relative(root, file).split("\\").join("/");
}

/**
 * The files under `dir`, as paths relative to it joined with `/`, sorted; `node_modules` folders and
 * symbolic links are not entered.
 *
 * @param dir - the folder to list.
 * @returns the relative paths of its files.
 */
export function filesUnder(dir: string): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of readdirSync(join(dir, relative), { withFileTypes: true })) {
      const path = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) {
        if (entry.name !== "node_modules") walk(path);
      } else if (entry.isFile()) {
        found.push(path);
      }
    }
  };
  walk("");
  return found.sort();
}
