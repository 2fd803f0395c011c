/**
 * What a package's examples may use without declaring it: a few values built once on the doc
 * runner's shared devnet (a connected client, a funded wallet, a market), so an `@example` shows
 * the call it documents and not the setup before it. Each fixture has its TypeScript type, for the
 * type checker, and builds its value on first use; `closeFixtures` ends what they opened.
 */
import type { Devnet } from "@perpx/devnet";
import type {
  ClientContext,
  CompositeClient,
  ConnectOptions,
} from "../../packages/composite-client/src/index.js";
import type { NodeClient } from "../../packages/node-client/src/index.js";
import type { LocalWallet } from "../../packages/node-client/src/wallets.js";

/** One value an example may use: its type (`src` is the package's `src` directory, relative) and how it is built. */
interface DocFixture {
  type: (src: string) => string;
  build: (context: FixtureContext) => Promise<unknown>;
  /** Ends what the value holds (run by `closeFixtures`, newest first). */
  close?: (value: unknown) => Promise<void> | void;
}

interface FixtureContext {
  devnet: Devnet;
  /** Another fixture of the same package, built once. */
  use: (name: string) => Promise<unknown>;
}

/** The node client's fixtures build on the devnet's fifth account, which no README snippet uses. */
const NODE_CLIENT_ACCOUNT = 4;

/** Where the node client's src is, for the fixtures' imports (tests import packages from source). */
const nodeClient = () => import("../../packages/node-client/src/index.js");
const nodeClientWallets = () => import("../../packages/node-client/src/wallets.js");
const compositeClient = () => import("../../packages/composite-client/src/index.js");

/** A composite client type, `src` being composite-client's src (relative to the snippet). */
const compositeType = (name: string) => (src: string) =>
  `import(${JSON.stringify(`${src}/index.js`)}).${name}`;
/**
 * A type of a package composite-client depends on, as its source sees it (the package's published
 * types: `import("@perpx/node-client").NodeClient`).
 */
const dependencyType = (specifier: string, name: string) => () =>
  `import(${JSON.stringify(specifier)}).${name}`;

/**
 * The composite client's fixtures: a devnet of their own with a market maker (market orders fill,
 * and the trading they show leaves the shared devnet quiet), a fresh wallet funded by its faucet,
 * and a client with it.
 */
const COMPOSITE_CLIENT: Record<string, DocFixture> = {
  /** The devnet the composite client's examples trade on (`liquidity`: books are never empty). */
  compositeDevnet: {
    type: dependencyType("@perpx/devnet", "Devnet"),
    build: async () =>
      (await import("@perpx/devnet")).startDevnet({
        ports: "free",
        blockTimeMs: 50,
        faucetWindowMs: 0,
        liquidity: true,
      }),
  },
  /** The wallet's mnemonic (a fresh one: never put a real one in code). */
  mnemonic: {
    type: () => "string",
    build: async () => (await nodeClientWallets()).generateMnemonic24(),
  },
  /** The wallet, funded by the faucet: bank USDC and native tokens, and 1,000 USDC in subaccount 0. */
  wallet: {
    type: dependencyType("@perpx/node-client/wallets", "LocalWallet"),
    build: async ({ use }) => {
      const devnet = (await use("compositeDevnet")) as Devnet;
      const { LocalWallet } = await nodeClientWallets();
      const wallet = LocalWallet.fromMnemonic((await use("mnemonic")) as string);
      await (await compositeClient()).requestFaucetTokens({
        faucetUrl: devnet.endpoints.faucet,
        address: wallet.address,
      });
      return wallet;
    },
  },
  /** The faucet's base URL. */
  faucetUrl: {
    type: () => "string",
    build: async ({ use }) => ((await use("compositeDevnet")) as Devnet).endpoints.faucet,
  },
  /** Connect options for the devnet (node RPC, REST, gRPC over TLS, indexer, faucet, control), without a wallet. */
  devnetOptions: {
    type: compositeType("ConnectOptions"),
    build: async ({ use }) => {
      const devnet = (await use("compositeDevnet")) as Devnet;
      const { endpoints } = devnet;
      return {
        network: "local",
        endpoints: {
          nodeRpc: endpoints.nodeRpc,
          nodeRest: endpoints.nodeRest,
          grpc: endpoints.grpcTls,
          faucet: endpoints.faucet,
          indexer: endpoints.indexer,
          indexerWs: endpoints.indexerWs,
          devnetControl: endpoints.devnetControl,
          sourceL1Rpc: endpoints.sourceL1Rpc,
          sourceL2Rpc: endpoints.sourceL2Rpc,
        },
        grpcCaCert: devnet.caPem,
        pollIntervalMs: 50,
      } satisfies ConnectOptions;
    },
  },
  /** A client of the devnet trading with `wallet`. */
  client: {
    type: compositeType("CompositeClient"),
    build: async ({ use }) =>
      (await compositeClient()).CompositeClient.connect({
        ...((await use("devnetOptions")) as ConnectOptions),
        wallet: (await use("wallet")) as LocalWallet,
      }),
  },
  /** What the client holds: node client, height, markets, indexer, trader. */
  context: {
    type: compositeType("ClientContext"),
    build: async ({ use }) => ((await use("client")) as CompositeClient).context,
  },
  /** The client's node client. */
  node: {
    type: dependencyType("@perpx/node-client", "NodeClient"),
    build: async ({ use }) => ((await use("context")) as ClientContext).node,
  },
  /** The client's indexer REST client. */
  indexer: {
    type: dependencyType("@perpx/indexer-client", "IndexerClient"),
    build: async ({ use }) => ((await use("context")) as ClientContext).indexer,
  },
  /** The BTC-USD market, from the client's cache. */
  btc: {
    type: compositeType("CompositeMarket"),
    build: async ({ use }) => ((await use("client")) as CompositeClient).getMarket({ ticker: "BTC-USD" }),
  },
  /** The client's subaccount 0. */
  subaccount: {
    type: () => "{ owner: string; number: number }",
    build: async ({ use }) => ((await use("client")) as CompositeClient).subaccount,
  },
  /** Orders placed through the module functions (`placeHumanOrder`), by market and client id. */
  placed: {
    type: compositeType("PlacedOrders"),
    build: async () => new Map(),
  },
};

const mcpServer = () => import("../../packages/mcp-server/src/index.js");
/** A type the agent server exports, `src` being its src (relative to the snippet). */
const mcpType =
  (name: string, module = "index") =>
  (src: string) =>
    `import(${JSON.stringify(`${src}/${module}.js`)}).${name}`;

/** Runs a Postgres tool; as root through the `postgres` user (initdb refuses to run as root). */
async function pgTool(tool: string, args: string[]): Promise<void> {
  const { execFileSync } = await import("node:child_process");
  const root = process.getuid?.() === 0;
  execFileSync(root ? "runuser" : tool, root ? ["-u", "postgres", "--", tool, ...args] : args, {
    stdio: "pipe",
  });
}

/**
 * The agent server's fixtures, on the composite client's devnet (a market maker, so books are never
 * empty): a funded account with a trading key registered on chain, its credential, principal and
 * account context, a session's tool dependencies, server options for the devnet, and a Postgres
 * started on a free port for the shared store.
 */
const MCP_SERVER: Record<string, DocFixture> = {
  /** Connect options for the composite client's devnet, without a wallet. */
  devnetOptions: {
    type: dependencyType("@perpx/composite-client", "ConnectOptions"),
    build: ({ devnet }) => fixtureValue("@perpx/composite-client", "devnetOptions", devnet),
  },
  /** A client of a fresh account funded by the faucet (1,000 USDC in subaccount 0). */
  client: {
    type: dependencyType("@perpx/composite-client", "CompositeClient"),
    build: async ({ devnet: shared, use }) => {
      const devnet = (await fixtureValue("@perpx/composite-client", "compositeDevnet", shared)) as Devnet;
      const { LocalWallet } = await nodeClientWallets();
      const owner = LocalWallet.generate();
      const composite = await compositeClient();
      await composite.requestFaucetTokens({ faucetUrl: devnet.endpoints.faucet, address: owner.address });
      return composite.CompositeClient.connect({
        ...((await use("devnetOptions")) as ConnectOptions),
        wallet: owner,
      });
    },
  },
  /** The account's trading credential (base64): a fresh trading key the account registered on chain. */
  credential: {
    type: () => "string",
    build: async ({ use }) => {
      const client = (await use("client")) as CompositeClient;
      const { LocalWallet } = await nodeClientWallets();
      const key = LocalWallet.generate();
      const owner = client.context.trader;
      if (owner?.kind !== "wallet") throw new Error("the fixture client trades with its wallet");
      await client.context.node.registerTradingKey({
        owner: owner.signer as LocalWallet,
        publicKey: key.publicKey,
      });
      const { encodeCredential } = await import("../../packages/core/src/index.js");
      return encodeCredential({
        masterAddress: client.subaccount.owner,
        tradingPrivateKey: key.exportPrivateKeyHex(),
      });
    },
  },
  /** The credential's principal. */
  principal: {
    type: mcpType("Principal"),
    build: async ({ use }) =>
      (await mcpServer()).principalOf(`Bearer ${(await use("credential")) as string}`),
  },
  /** The devnet's node client. */
  node: {
    type: dependencyType("@perpx/node-client", "NodeClient"),
    build: async ({ use }) => ((await use("client")) as CompositeClient).context.node,
  },
  /** A server's shared context: node, height, markets and indexer, without a trader. */
  baseContext: {
    type: dependencyType("@perpx/composite-client", "ClientContext"),
    build: async ({ use }) => ({ ...((await use("client")) as CompositeClient).context, trader: undefined }),
  },
  /** The account contexts over `baseContext`. */
  accounts: {
    type: mcpType("Accounts"),
    build: async ({ use }) => (await mcpServer()).createAccounts((await use("baseContext")) as never),
  },
  /** The principal's account context (its trader signs with the trading key). */
  account: {
    type: mcpType("AccountContext"),
    build: async ({ use }) => {
      const accounts = (await use("accounts")) as { of(principal: unknown): Promise<unknown> };
      return accounts.of(await use("principal"));
    },
  },
  /** A session's tool dependencies: the account, the default limits, an in-memory store. */
  deps: {
    type: mcpType("ToolDeps", "tools/deps"),
    build: async ({ use }) => {
      const mcp = await mcpServer();
      const { createRateLimiter } = await import("../../packages/mcp-server/src/rate-limit.js");
      return {
        account: await use("account"),
        limits: mcp.resolveLimits(),
        store: mcp.openSqliteStore({ path: ":memory:" }),
        rateLimiter: createRateLimiter(),
        verifyTimeoutMs: 10_000,
        statefulSettleMs: 1_000,
      };
    },
    close: (deps) => (deps as { store: { close(): Promise<void> } }).store.close(),
  },
  /** Options that point `startMcpServer` at the devnet (port 0). */
  serverOptions: {
    type: mcpType("McpServerOptions"),
    build: async ({ use }) => {
      const options = (await use("devnetOptions")) as ConnectOptions;
      return { ...options, network: "local", port: 0 };
    },
  },
  /** A Postgres started on a free port (a new cluster in a temporary directory), its URL. */
  postgresUrl: {
    type: () => "string",
    build: async () => {
      const { chmodSync, chownSync, mkdtempSync } = await import("node:fs");
      const { tmpdir } = await import("node:os");
      const { join } = await import("node:path");
      const { execFileSync } = await import("node:child_process");
      const { createServer } = await import("node:net");
      const dir = mkdtempSync(join(tmpdir(), "perpx-docs-pg-"));
      if (process.getuid?.() === 0) {
        chmodSync(dir, 0o755);
        const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"]).toString());
        chownSync(dir, id("-u"), id("-g"));
      }
      const probe = createServer();
      await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
      const { port } = probe.address() as { port: number };
      await new Promise((resolve) => probe.close(resolve));
      const data = join(dir, "data");
      await pgTool("initdb", ["-D", data, "-A", "trust", "-U", "perpx"]);
      const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
      await pgTool("pg_ctl", ["-D", data, "-w", "-l", join(dir, "log"), "-o", options, "start"]);
      postgresDirs.push(dir);
      return `postgres://perpx@127.0.0.1:${port}/postgres`;
    },
    close: async () => {
      const { rmSync } = await import("node:fs");
      const { join } = await import("node:path");
      for (const dir of postgresDirs.splice(0)) {
        try {
          await pgTool("pg_ctl", ["-D", join(dir, "data"), "-m", "immediate", "stop"]);
        } finally {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    },
  },
};
const postgresDirs: string[] = [];

const FIXTURES: Record<string, Record<string, DocFixture>> = {
  "@perpx/composite-client": COMPOSITE_CLIENT,
  "@perpx/mcp-server": MCP_SERVER,
  "@perpx/node-client": {
    /** A client of the devnet over CometBFT RPC, REST and gRPC (TLS with the devnet's CA). */
    client: {
      type: (src) => `import(${JSON.stringify(`${src}/index.js`)}).NodeClient`,
      build: async ({ devnet }) =>
        (await nodeClient()).createNodeClient({
          nodeRpc: devnet.endpoints.nodeRpc,
          nodeRest: devnet.endpoints.nodeRest,
          grpc: { url: devnet.endpoints.grpcTls, caCert: devnet.caPem },
        }),
    },
    /** The wallet's mnemonic (a devnet test account: never put a real one in code). */
    mnemonic: {
      type: () => "string",
      build: async ({ devnet }) => devnet.accounts[NODE_CLIENT_ACCOUNT]!.mnemonic,
    },
    /** A wallet funded at genesis, with 10,000 USDC in its subaccount 0. */
    wallet: {
      type: (src) => `import(${JSON.stringify(`${src}/wallets.js`)}).LocalWallet`,
      build: async ({ use }) => {
        const { LocalWallet } = await nodeClientWallets();
        const wallet = LocalWallet.fromMnemonic((await use("mnemonic")) as string);
        const client = (await use("client")) as NodeClient;
        await client.depositToSubaccount({
          signer: wallet,
          sender: wallet.address,
          recipient: { owner: wallet.address, number: 0 },
          quantums: 10_000_000_000n,
        });
        return wallet;
      },
    },
    /** The wallet's subaccount 0. */
    subaccount: {
      type: () => "{ owner: string; number: number }",
      build: async ({ use }) => ({
        owner: ((await use("wallet")) as { address: string }).address,
        number: 0,
      }),
    },
    /** The BTC-USD market, read from the node. */
    btc: {
      type: (src) => `import(${JSON.stringify(`${src}/index.js`)}).Market`,
      build: async ({ use }) => ((await use("client")) as NodeClient).getMarket({ ticker: "BTC-USD" }),
    },
  },
};

const built = new Map<string, Promise<unknown>>();

/** The fixture names of a package (none for a package without fixtures). */
export function fixtureNames(pkg: string | undefined): ReadonlySet<string> {
  return new Set(Object.keys((pkg && FIXTURES[pkg]) || {}));
}

/** `declare const name: Type;` for each fixture a snippet uses, `src` being the package's src relative to it. */
export function fixtureDeclarations(pkg: string | undefined, names: Iterable<string>, src: string): string {
  const fixtures = (pkg && FIXTURES[pkg]) || {};
  return [...names]
    .filter((name) => name in fixtures)
    .map((name) => `declare const ${name}: ${fixtures[name]!.type(src)};\n`)
    .join("");
}

/** The value of one fixture of a package, built once on `devnet`. */
export function fixtureValue(pkg: string, name: string, devnet: Devnet): Promise<unknown> {
  const key = `${pkg} ${name}`;
  let value = built.get(key);
  if (!value) {
    const fixture = FIXTURES[pkg]?.[name];
    if (!fixture) throw new Error(`${pkg} has no doc fixture ${name}`);
    value = fixture.build({ devnet, use: (other) => fixtureValue(pkg, other, devnet) });
    built.set(key, value);
  }
  return value;
}

/** Closes what the fixtures opened (their own `close`, the clients' connections, then the composite client's devnet). */
export async function closeFixtures(): Promise<void> {
  for (const [key, value] of [...built].reverse()) {
    const [pkg = "", name = ""] = key.split(" ");
    const close = FIXTURES[pkg]?.[name]?.close;
    if (close) await close(await value.catch(() => undefined));
  }
  for (const [key, value] of built) {
    if (!key.endsWith(" client")) continue;
    const client = (await value.catch(() => undefined)) as { close?: () => void } | undefined;
    client?.close?.();
  }
  const devnet = built.get("@perpx/composite-client compositeDevnet");
  await ((await devnet?.catch(() => undefined)) as Devnet | undefined)?.stop();
  built.clear();
}
