/**
 * The README's TypeScript snippets run as written (the gRPC one after a devnet is started for it).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const readme = readFileSync(fileURLToPath(new URL("../README.md", import.meta.url)), "utf8");
const snippets = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
const written: string[] = [];

afterAll(() => {
  for (const file of written) rmSync(file, { force: true });
});

async function run(name: string, code: string): Promise<void> {
  const file = fileURLToPath(new URL(`./.readme-${name}.tmp.ts`, import.meta.url));
  writeFileSync(file, `${code}\nexport {};\n`);
  written.push(file);
  await import(/* @vite-ignore */ file);
}

describe("README", () => {
  it("has the quick start and the gRPC snippets", () => {
    expect(snippets.length).toBeGreaterThanOrEqual(2);
  });

  it("runs the quick start", async () => {
    await run("quick-start", snippets[0]!);
  });

  it("runs the gRPC over TLS snippet", async () => {
    const grpc = snippets.find((s) => s.includes("createGrpcTransport"))!;
    const imports = grpc
      .split("\n")
      .filter((l) => l.startsWith("import "))
      .join("\n");
    const body = grpc
      .split("\n")
      .filter((l) => !l.startsWith("import "))
      .join("\n");
    await run(
      "grpc",
      `${imports}\nimport { startDevnet } from "@perpx/devnet";\nconst devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });\ntry {\n${body}\n} finally {\n  await devnet.stop();\n}`,
    );
  });
});
