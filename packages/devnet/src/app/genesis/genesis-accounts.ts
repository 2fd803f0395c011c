/**
 * The devnet's well-known test accounts: 24-word BIP-39 mnemonics generated once with
 * `@scure/bip39`, and their addresses (path m/44'/118'/0'/0/0, secp256k1,
 * RIPEMD-160(SHA-256(compressed key)), prefix `perpx`). Hard-coded so start-up derives nothing;
 * `genesis-accounts.test.ts` re-derives every address with cosmjs so the two cannot drift.
 *
 * These keys are public. Never use them anywhere but a local devnet.
 */

/**
 * One funded test account.
 *
 * @example
 * ```ts
 * const { name, mnemonic, address }: GenesisAccount = GENESIS_ACCOUNTS[0];
 * ```
 */
export interface GenesisAccount {
  /** A short name for logs and docs. */
  readonly name: string;
  /** The 24-word mnemonic (public: for the devnet only). */
  readonly mnemonic: string;
  /** The bech32 address of index 0 on path m/44'/118'/0'/0/0. */
  readonly address: string;
}

/**
 * The five funded accounts, in genesis order (their account numbers are 0 to 4).
 *
 * @example
 * ```ts
 * import { DirectSecp256k1HdWallet } from "@cosmjs/proto-signing";
 *
 * const alice = GENESIS_ACCOUNTS[0];
 * const wallet = await DirectSecp256k1HdWallet.fromMnemonic(alice.mnemonic, { prefix: "perpx" });
 * (await wallet.getAccounts())[0]?.address; // "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9"
 * ```
 */
export const GENESIS_ACCOUNTS: readonly GenesisAccount[] = Object.freeze([
  {
    name: "alice",
    mnemonic:
      "ritual swear oven sail crash know adjust ignore celery veteran usual robot avoid tenant snap world van luggage similar axis canoe wagon siren spy",
    address: "perpx16artttgup88fc59gl9658nraqzx8lvpcvnnqu9",
  },
  {
    name: "bob",
    mnemonic:
      "artist include under hazard under biology connect atom harbor service try impose water conduct win prosper column novel floor solar curve tunnel lock punch",
    address: "perpx1ek7smyy5j35wjyhshwn9yrsxvj7tt3s2sm0pk7",
  },
  {
    name: "carl",
    mnemonic:
      "teach half patch indicate oyster bench crater captain transfer neither final way nation favorite strong write advance citizen evil put cloud decide pottery kangaroo",
    address: "perpx1zfvj3mdqz7pa809hfzfy69cln9tf0fwfu4vsw3",
  },
  {
    name: "dave",
    mnemonic:
      "happy kitten prevent tag verify observe obtain online trend soon vehicle stock judge planet urge join wealth uniform liquid angle bone struggle achieve mistake",
    address: "perpx1tl4yl3sxz489z6vvux5eel6y3zhjfhcjl50esv",
  },
  {
    name: "emma",
    mnemonic:
      "shell ivory hour about hungry pond claw bean edit tissue drama nephew any name faculty rack like suit blade absent figure dinner tennis amount",
    address: "perpx1alysw3pmapflnasx4kzkjtsry59fxxtp4sd4wm",
  },
]);

/**
 * Genesis balance of each test account in `uusdc`: 1,000,000 USDC.
 *
 * @example
 * ```ts
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const address = GENESIS_ACCOUNTS[1].address;
 * const response = await fetch(`${devnet.endpoints.nodeRest}/cosmos/bank/v1beta1/balances/${address}/by_denom?denom=uusdc`);
 * BigInt((await response.json()).balance.amount) === GENESIS_USDC_BALANCE; // true: on a fresh devnet
 * await devnet.stop();
 * ```
 */
export const GENESIS_USDC_BALANCE = 1_000_000_000_000n;
/**
 * Genesis balance of each test account in `aperpx`: 1,000,000 PERPX.
 *
 * @example
 * ```ts
 * import { addressToHex } from "@perpx/core";
 *
 * const devnet = await startDevnet({ ports: "free", blockTimeMs: 0 });
 * const request = { jsonrpc: "2.0", id: 1, method: "eth_getBalance", params: [addressToHex(GENESIS_ACCOUNTS[1].address), "latest"] };
 * const response = await fetch(devnet.endpoints.evmRpc, { method: "POST", body: JSON.stringify(request) });
 * BigInt((await response.json()).result) === GENESIS_NATIVE_BALANCE; // true: on a fresh devnet
 * await devnet.stop();
 * ```
 */
export const GENESIS_NATIVE_BALANCE = 1_000_000n * 10n ** 18n;
