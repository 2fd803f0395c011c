import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { describe, expect, it } from "vitest";
import { guardToolCalls, readOnlyRefusal, WRITE_TOOLS, withMachineCode } from "./read-only.js";

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
    guardToolCalls(server, WRITE_TOOLS, () => {});
    expect(server.server.setRequestHandler).toBe(before);
  });

  it("gives the SDK's own failures a machine code, and leaves the server's alone", () => {
    const text = (t: string) => ({ isError: true, content: [{ type: "text" as const, text: t }] });
    expect(withMachineCode(text("MCP error -32602: Tool nope not found")).structuredContent).toEqual({
      error: { code: "NOT_FOUND", message: "Tool nope not found" },
    });
    expect(withMachineCode(text("MCP error -32603: boom")).structuredContent).toMatchObject({
      error: { code: "INTERNAL" },
    });
    const own = readOnlyRefusal("place_order");
    expect(withMachineCode(own)).toBe(own);
  });
});
