/**
 * A chain refusal is the same typed error whether the gas simulation, CheckTx or DeliverTx found it,
 * over every transport a client can be built with; a stale sequence is resynced on each of them.
 */
import { encodeCredential } from "@perpx/core";
import { describe, expect, it } from "vitest";
import { AuthenticatorRefusedError, BroadcastTxError, SequenceMismatchError } from "../src/index.js";
import { limiterCapacities } from "../src/queries.js";
import { bankSendMsg } from "../src/tx.js";
import { tradingKeyFromCredential, LocalWallet as Wallet } from "../src/wallets.js";
import { type Overrides, useDevnet } from "./support.js";

const net = useDevnet();

/** Every set of node transports a client can send with. */
const TRANSPORTS: ReadonlyArray<[string, Overrides]> = [
  ["gRPC only", { nodeRpc: undefined, nodeRest: undefined }],
  ["RPC only", { grpc: undefined, nodeRest: undefined }],
  ["RPC + REST", { grpc: undefined }],
  ["gRPC + RPC + REST", {}],
];

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => {
      throw new Error("expected a refusal");
    },
    (error: unknown) => error,
  );
}

describe.each(TRANSPORTS)("over %s", (_name, transports) => {
  it("a module refusal found by the simulation carries the module's codespace and code, as DeliverTx does", async () => {
    const client = net.makeClient(transports);
    const sender = net.wallets[3]!;
    const redeem = { signer: sender, sender: sender.address, amount: 5n, voucherDenom: "ibc/AB" };
    const simulated = await failure(client.wrapRedeem(redeem));
    expect(simulated).toBeInstanceOf(BroadcastTxError);
    const delivered = await failure(client.wrapRedeem({ ...redeem, tx: { gas: 300_000n } }));
    expect(delivered).toBeInstanceOf(BroadcastTxError);
    const pick = (e: BroadcastTxError) => [
      e.codespace,
      e.abciCode,
      e.log.replace(/^.*message index: 0: /, ""),
    ];
    expect((simulated as BroadcastTxError).phase).toBe("simulate");
    expect((delivered as BroadcastTxError).phase).toBe("deliverTx");
    expect(pick(simulated as BroadcastTxError)).toEqual(pick(delivered as BroadcastTxError));
    expect(pick(simulated as BroadcastTxError).slice(0, 2)).toEqual(["wrap", 7]);
    expect((simulated as BroadcastTxError).gasUsed).toBeGreaterThan(0n);
  });

  it("an sdk refusal found by the simulation keeps its sdk code (insufficient funds, not unknown request)", async () => {
    const client = net.makeClient(transports);
    const [from, to] = [net.wallets[3]!, net.wallets[0]!];
    const error = await failure(
      client.bankSend({
        signer: from,
        from: from.address,
        to: to.address,
        amount: [{ denom: "uusdc", amount: 10n ** 30n }],
      }),
    );
    expect(error).toBeInstanceOf(BroadcastTxError);
    expect([(error as BroadcastTxError).codespace, (error as BroadcastTxError).abciCode]).toEqual(["sdk", 5]);
    expect((error as BroadcastTxError).reason).toBe("insufficient-funds");
  });

  it("an IBC channel refusal found by the simulation is the channel module's, as at DeliverTx", async () => {
    const client = net.makeClient(transports);
    const sender = net.wallets[3]!;
    const transfer = {
      signer: sender,
      sender: sender.address,
      receiver: "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy",
      sourceChannel: "channel-99",
      token: { denom: "uusdc", amount: 1_000n },
      timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n,
    };
    const simulated = (await failure(client.ibcTransfer(transfer))) as BroadcastTxError;
    const delivered = (await failure(
      client.ibcTransfer({ ...transfer, tx: { gas: 300_000n } }),
    )) as BroadcastTxError;
    expect([simulated.phase, delivered.phase]).toEqual(["simulate", "deliverTx"]);
    expect([simulated.codespace, simulated.abciCode]).toEqual([delivered.codespace, delivered.abciCode]);
    expect(simulated.codespace).toBe("channel");
  });

  it("resyncs a stale sequence and keeps sending with automatic gas", async () => {
    const [carl, bob] = [net.wallets[2]!, net.wallets[1]!];
    const mine = net.makeClient(transports);
    const theirs = net.makeClient();
    const send = (client: typeof mine) =>
      client.bankSend({
        signer: carl,
        from: carl.address,
        to: bob.address,
        amount: [{ denom: "uusdc", amount: 1n }],
      });
    await send(mine);
    const cached = mine.sequences.peek(carl.address).sequence!;
    await send(theirs);
    await send(theirs);
    const first = await send(mine);
    expect(first.sequence).toBe(cached + 2n);
    const second = await send(mine);
    expect(second.sequence).toBe(cached + 3n);
    expect(mine.sequences.peek(carl.address).sequence).toBe(cached + 4n);
  });
});

describe("a withdrawal beyond the rate limit", () => {
  it("is ratelimit 1002 whether the simulation (over gRPC or RPC) or DeliverTx finds it", async () => {
    const sender = net.wallets[0]!;
    const capacity = limiterCapacities(await net.client.getCapacityByDenom({ denom: "uusdc" }));
    const [smallest] = capacity.map((c) => c.capacity).sort((x, y) => Number(x - y)) as [bigint];
    const donor = net.wallets[1]!;
    await net.client.bankSend({
      signer: donor,
      from: donor.address,
      to: sender.address,
      amount: [{ denom: "uusdc", amount: 5_000_000n }],
    });
    const balance = (await net.client.getBalance({ address: sender.address, denom: "uusdc" })).amount;
    expect(BigInt(balance)).toBeGreaterThan(smallest + 1_000_000n);
    const channel = (await net.client.getIbcChannels()).find((c) => c.state === "STATE_OPEN")!;
    const transfer = {
      signer: sender,
      sender: sender.address,
      receiver: "noble1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy",
      sourceChannel: channel.channelId,
      token: { denom: "uusdc", amount: smallest + 1n },
      timeoutTimestampNs: BigInt(Date.now() + 600_000) * 1_000_000n,
    };
    for (const [name, transports] of TRANSPORTS) {
      const refused = (await failure(net.makeClient(transports).ibcTransfer(transfer))) as BroadcastTxError;
      expect([refused.phase, refused.codespace, refused.abciCode], name).toEqual([
        "simulate",
        "ratelimit",
        1002,
      ]);
    }
    const delivered = (await failure(
      net.client.ibcTransfer({ ...transfer, tx: { gas: 400_000n } }),
    )) as BroadcastTxError;
    expect([delivered.phase, delivered.codespace, delivered.abciCode]).toEqual([
      "deliverTx",
      "ratelimit",
      1002,
    ]);
  });
});

describe("a trading key used outside its scope", () => {
  it("is refused with the authenticator's reason, by the simulation and by CheckTx alike", async () => {
    const owner = net.wallets[4]!;
    const key = Wallet.generate();
    const { authenticatorId } = await net.client.registerTradingKey({ owner, publicKey: key.publicKey });
    const tradingKey = tradingKeyFromCredential(
      encodeCredential({ masterAddress: owner.address, tradingPrivateKey: key.exportPrivateKeyHex() }),
    );
    const messages = [
      bankSendMsg({
        from: owner.address,
        to: net.wallets[0]!.address,
        amount: [{ denom: "uusdc", amount: 1n }],
      }),
    ];
    for (const [name, transports] of TRANSPORTS) {
      const client = net.makeClient(transports);
      for (const gas of ["auto", 200_000n] as const) {
        const error = await failure(
          client.sendWithTradingKey({ tradingKey, authenticatorId, messages, gas }),
        );
        expect(error, `${name} ${gas}`).toBeInstanceOf(AuthenticatorRefusedError);
        const refused = error as AuthenticatorRefusedError;
        expect(
          [refused.phase, refused.codespace, refused.abciCode, refused.reason, refused.check],
          name,
        ).toEqual([
          gas === "auto" ? "simulate" : "checkTx",
          "dydxaccountplus",
          104,
          "unauthorized",
          "message-type",
        ]);
        expect(refused.authenticatorReason).toContain("Got /cosmos.bank.v1beta1.MsgSend");
        expect(refused.shortMessage).toContain("the authenticator refused it (message-type)");
      }
    }
  });
});

describe("a deliberately stale sequence", () => {
  it("is a SequenceMismatchError from the simulation over RPC, with expected and got", async () => {
    const client = net.makeClient({ grpc: undefined, nodeRest: undefined });
    const carl = net.wallets[2]!;
    const { accountNumber, sequence } = await client.getAccountSequence({ address: carl.address });
    const error = await failure(
      client.simulateTx({
        messages: [
          bankSendMsg({ from: carl.address, to: carl.address, amount: [{ denom: "uusdc", amount: 1n }] }),
        ],
        publicKey: carl.publicKey,
        keyType: carl.keyType,
        sequence: sequence + 3n,
      }),
    );
    expect(accountNumber).toBeGreaterThanOrEqual(0n);
    expect(error).toBeInstanceOf(SequenceMismatchError);
    expect([(error as SequenceMismatchError).expected, (error as SequenceMismatchError).got]).toEqual([
      sequence,
      sequence + 3n,
    ]);
  });
});
