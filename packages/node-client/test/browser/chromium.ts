/**
 * Finding the Chromium the browser test drives: `CHROMIUM_PATH`, else `chromium` or
 * `chromium-browser` on the `PATH` (Debian's `chromium` package installs `/usr/bin/chromium`).
 * Absent, the test fails with what to install: it never skips.
 */
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** What to do when no Chromium is found. */
export const INSTALL_CHROMIUM =
  "Chromium is not installed, and the browser test needs it. On Debian run (as root) `apt-get update && apt-get install -y chromium` " +
  "(`npm run check` does it for you when it runs as root), or set CHROMIUM_PATH to a Chromium executable.";

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The path of a Chromium executable.
 *
 * @throws {Error} with {@link INSTALL_CHROMIUM} when there is none.
 */
export function findChromium(env: Record<string, string | undefined> = process.env): string {
  const explicit = env.CHROMIUM_PATH;
  if (explicit) {
    if (!executable(explicit))
      throw new Error(`CHROMIUM_PATH=${explicit} is not an executable. ${INSTALL_CHROMIUM}`);
    return explicit;
  }
  for (const dir of (env.PATH ?? "").split(delimiter).filter(Boolean)) {
    for (const name of ["chromium", "chromium-browser"]) {
      const candidate = join(dir, name);
      if (executable(candidate)) return candidate;
    }
  }
  throw new Error(INSTALL_CHROMIUM);
}
