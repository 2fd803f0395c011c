/**
 * The agent server's `get_account` (an MCP tool call over Streamable HTTP with a read-only
 * credential) beside the composite client's `account()`, both against the same devnet in this
 * process, for the same funded subaccount; rounds of `BATCH` calls interleaved, medians of the
 * per-call times. Run alone: `npx vitest bench --run --project bench table/agent-account`.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { CompositeClient } from "@perpx/composite-client";
import { encodeCredential } from "@perpx/core";
import { fundedSubaccountKey, startDevnet } from "@perpx/devnet";
import { startMcpServer } from "@perpx/mcp-server";
import { LocalWallet } from "@perpx/node-client/wallets";
import { bench, describe } from "vitest";
import { fmt, interleave, median, ONE_CALL, once, QUICK, report } from "./harness.js";
import { perCall } from "./per-call.js";

describe("agent server get_account vs the composite client's account()", () => {
  bench(
    "get_account (interleaved with account())",
    once(async () => {
      const rounds = QUICK ? 10 : 30;
      const batch = 20;
      const devnet = await startDevnet({ ports: "free", blockTimeMs: 0, fundedSubaccounts: 1 });
      const { endpoints } = devnet;
      const network = {
        network: "local" as const,
        endpoints: {
          nodeRpc: endpoints.nodeRpc,
          nodeRest: endpoints.nodeRest,
          grpc: endpoints.grpcTls,
          faucet: endpoints.faucet,
          indexer: endpoints.indexer,
          devnetControl: endpoints.devnetControl,
        },
        grpcCaCert: devnet.caPem,
      };
      const key = fundedSubaccountKey(0);
      const composite = await CompositeClient.connect({
        ...network,
        wallet: LocalWallet.fromPrivateKey(Buffer.from(key.privateKey).toString("hex")),
      });
      const server = await startMcpServer({ ...network, port: 0, log: () => {} });
      const mcp = new Client({ name: "perpx-bench", version: "0" });
      await mcp.connect(
        new StreamableHTTPClientTransport(new URL(server.url), {
          requestInit: {
            headers: { Authorization: `Bearer ${encodeCredential({ masterAddress: key.address })}` },
          },
        }),
      );
      await mcp.listTools();
      try {
        const values = await interleave(
          rounds,
          {
            agent: perCall(batch, async () => {
              const result = (await mcp.callTool({ name: "get_account", arguments: {} })) as CallToolResult;
              if (result.isError) throw new Error(`get_account failed: ${JSON.stringify(result.content)}`);
            }),
            composite: perCall(batch, () => composite.account()),
          },
          2,
        );
        const ratio = median(values.agent) / median(values.composite);
        report({
          id: "6-agent-account",
          metric: "agent server get_account",
          floor: `${fmt(median(values.composite), "ms")} (composite account())`,
          ours: fmt(median(values.agent), "ms"),
          ratio: `${ratio.toFixed(2)}x`,
          goal: "<= 1.5x",
          met: ratio <= 1.5,
          note: `${rounds} interleaved rounds of ${batch} calls, medians of the per-call times`,
        });
      } finally {
        await mcp.close();
        await server.close();
        composite.close();
        await devnet.stop();
      }
    }),
    ONE_CALL,
  );
});
