import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { guardToolCalls, WRITE_TOOLS } from "./read-only.js";
import { registerCancelTools } from "./tools/cancel.js";
import type { ToolDeps } from "./tools/deps.js";
import { registerPlaceOrder } from "./tools/place.js";
import { registerReadTools } from "./tools/read.js";

/** This package's version, as the server reports it at initialize. */
const VERSION = "0.0.0";

/**
 * One session's MCP server: the read tools, and the write tools (`place_order`, `cancel_order`,
 * `batch_cancel_orders`, `cancel_all_orders`) which a read-only session neither lists nor may call
 * (a call answers `isError: true` with code `READ_ONLY_SESSION`). Every failure carries a machine
 * code, the SDK's own (input validation, unknown tool) included.
 *
 * @example
 * ```ts
 * import { Client } from "@modelcontextprotocol/sdk/client/index.js";
 * import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
 *
 * const server = sessionServer(deps);
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * const client = new Client({ name: "docs", version: "0" });
 * await client.connect(clientSide);
 * (await client.listTools()).tools.some((tool) => tool.name === "place_order"); // true
 * await client.close();
 * ```
 */
export function sessionServer(deps: ToolDeps): McpServer {
  const server = new McpServer(
    { name: "perpx-mcp", version: VERSION },
    {
      instructions:
        "perpx perpetuals: read markets and your account; with a trading credential, place and cancel orders on subaccount 0. Amounts are decimal strings. Write tools answer the verified order state; on TIMEOUT_UNKNOWN the order was sent: call get_order before retrying. Failures carry structuredContent.error.code.",
    },
  );
  const register = () => {
    registerReadTools(server, deps);
    const writes = [registerPlaceOrder(server, deps), ...registerCancelTools(server, deps)];
    if (deps.account.principal.readOnly) for (const tool of writes) tool.disable();
  };
  guardToolCalls(server, deps.account.principal.readOnly ? WRITE_TOOLS : [], register);
  return server;
}
