import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { readOnlyRefusal, refuseWrites, WRITE_TOOLS } from "./read-only.js";

describe("readOnlyRefusal", () => {
  it("is an isError result with code READ_ONLY_SESSION naming the tool", () => {
    for (const tool of WRITE_TOOLS) {
      const result = readOnlyRefusal(tool);
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toMatchObject({ error: { code: "READ_ONLY_SESSION" } });
      expect((result.structuredContent as { error: { message: string } }).error.message).toMatch(
        new RegExp(`^${tool} needs a trading credential`),
      );
    }
  });

  it("leaves the server's request handler registration as it was", () => {
    const server = new McpServer({ name: "t", version: "0" });
    const before = server.server.setRequestHandler;
    refuseWrites(server, WRITE_TOOLS, () => {});
    expect(server.server.setRequestHandler).toBe(before);
  });
});
