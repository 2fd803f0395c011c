/**
 * The state of a simulated source chain and its two contracts, executed natively: ETH balances and
 * nonces, the USDC token (ERC-20 `transfer`, `approve`, `transferFrom`, `balanceOf`, `allowance`,
 * `decimals`, `symbol`) and the bridge (`deposit(amount, recipient)` pulls USDC by allowance and
 * emits `BridgeDeposit(sender, recipient, amount)`). Every check runs before any change, so a revert
 * leaves the state untouched.
 */
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { type BRIDGE_ABI, decodeEvmWords, encodeEvmString, evmWord, wordToAddress } from "../lib/evm/abi.js";

/** A log a call emitted (before it has a block). */
export interface CallLog {
  readonly address: string;
  readonly topics: readonly string[];
  readonly data: Uint8Array;
}

/** What a call did: its return data, or a revert reason; the gas it used; its logs. */
export type CallOutcome =
  | {
      readonly ok: true;
      readonly returnData: Uint8Array;
      readonly gasUsed: bigint;
      readonly logs: readonly CallLog[];
    }
  | { readonly ok: false; readonly reason: string; readonly gasUsed: bigint };

/** The gas each contract function costs beyond nothing (close to a real ERC-20 and bridge). */
const GAS = { transfer: 51_000n, approve: 46_000n, transferFrom: 58_000n, deposit: 79_000n, view: 24_000n };

/** The base gas of a transaction: 21,000 plus 16 per non-zero and 4 per zero byte of call data. */
export function intrinsicGas(data: Uint8Array): bigint {
  let gas = 21_000n;
  for (const b of data) gas += b === 0 ? 4n : 16n;
  return gas;
}

/**
 * The contracts' functions by 4-byte selector: `evmSelector` of each `BRIDGE_ABI` function, written
 * out so that loading the devnet hashes nothing (`ledger.test.ts` checks them against the ABI).
 */
export const SELECTORS: Readonly<Record<string, keyof typeof BRIDGE_ABI>> = Object.freeze({
  "0x70a08231": "balanceOf",
  "0xdd62ed3e": "allowance",
  "0x313ce567": "decimals",
  "0x95d89b41": "symbol",
  "0xa9059cbb": "transfer",
  "0x095ea7b3": "approve",
  "0x23b872dd": "transferFrom",
  "0x6e553f65": "deposit",
});

/**
 * The event topics the contracts emit: `evmEventTopic` of each `BRIDGE_ABI` event, written out as
 * {@link SELECTORS} are.
 */
export const TOPICS = {
  transfer: "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef",
  approval: "0x8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925",
  deposit: "0x9ebf090689e3f0614ae01c4cd1f7859dbe2755d0bd10c0b9f6d3585e550a1e66",
} as const;

const lower = (address: string) => address.toLowerCase();
const topicOf = (address: string) => `0x${bytesToHex(evmWord(address))}`;

/** The source chain's accounts and contracts. */
export class SourceLedger {
  private readonly eth = new Map<string, bigint>();
  private readonly nonces = new Map<string, bigint>();
  private readonly usdc = new Map<string, bigint>();
  private readonly allowances = new Map<string, bigint>();

  constructor(
    /** The USDC token contract (EIP-55). */
    readonly usdcAddress: string,
    /** The bridge contract (EIP-55). */
    readonly bridgeAddress: string,
  ) {}

  /** ETH balance in wei. */
  ethBalance(address: string): bigint {
    return this.eth.get(lower(address)) ?? 0n;
  }

  /** USDC balance in base units (6 decimals). */
  usdcBalance(address: string): bigint {
    return this.usdc.get(lower(address)) ?? 0n;
  }

  /** USDC `owner` lets `spender` move. */
  allowance(owner: string, spender: string): bigint {
    return this.allowances.get(`${lower(owner)}:${lower(spender)}`) ?? 0n;
  }

  /** The next nonce of an account. */
  nonce(address: string): bigint {
    return this.nonces.get(lower(address)) ?? 0n;
  }

  /** Credits ETH and USDC (genesis and devnet funding). */
  fund(address: string, coins: { eth?: bigint; usdc?: bigint }): void {
    if (coins.eth) this.eth.set(lower(address), this.ethBalance(address) + coins.eth);
    if (coins.usdc) this.usdc.set(lower(address), this.usdcBalance(address) + coins.usdc);
  }

  /** Charges the fee and bumps the nonce of a transaction's sender. */
  chargeSender(from: string, fee: bigint): void {
    this.eth.set(lower(from), this.ethBalance(from) - fee);
    this.nonces.set(lower(from), this.nonce(from) + 1n);
  }

  /** Whether an address is one of the two contracts. */
  isContract(address: string): boolean {
    return lower(address) === lower(this.usdcAddress) || lower(address) === lower(this.bridgeAddress);
  }

  /**
   * Runs a call from `from` to `to` with `value` wei and call data; applies its effects unless
   * `dryRun`. A value transfer to an account that is not a contract always succeeds here (the
   * caller checked the balance).
   */
  call(params: { from: string; to: string; value: bigint; data: Uint8Array; dryRun: boolean }): CallOutcome {
    const { from, to, value, data, dryRun } = params;
    const base = intrinsicGas(data);
    if (!this.isContract(to)) {
      if (value > this.ethBalance(from))
        return { ok: false, reason: "insufficient balance for transfer", gasUsed: base };
      if (!dryRun && value > 0n) {
        this.eth.set(lower(from), this.ethBalance(from) - value);
        this.eth.set(lower(to), this.ethBalance(to) + value);
      }
      return { ok: true, returnData: new Uint8Array(0), gasUsed: base, logs: [] };
    }
    if (value > 0n) return { ok: false, reason: "", gasUsed: base + 100n };
    const name = data.length >= 4 ? SELECTORS[`0x${bytesToHex(data.subarray(0, 4))}`] : undefined;
    const isToken = lower(to) === lower(this.usdcAddress);
    const tokenFns = ["balanceOf", "allowance", "decimals", "symbol", "transfer", "approve", "transferFrom"];
    if (name === undefined || (isToken ? !tokenFns.includes(name) : name !== "deposit")) {
      return { ok: false, reason: "", gasUsed: base + 100n };
    }
    let words: bigint[];
    try {
      words = decodeEvmWords(data.subarray(4));
    } catch {
      return { ok: false, reason: "", gasUsed: base + 100n };
    }
    const arity = {
      balanceOf: 1,
      allowance: 2,
      decimals: 0,
      symbol: 0,
      transfer: 2,
      approve: 2,
      transferFrom: 3,
      deposit: 2,
    };
    if (words.length < (arity as Record<string, number>)[name]!)
      return { ok: false, reason: "", gasUsed: base + 100n };
    const address = (i: number) => wordToAddress(words[i] as bigint);
    const view = (bytes: Uint8Array): CallOutcome => ({
      ok: true,
      returnData: bytes,
      gasUsed: base + GAS.view,
      logs: [],
    });
    switch (name) {
      case "balanceOf":
        return view(evmWord(this.usdcBalance(address(0))));
      case "allowance":
        return view(evmWord(this.allowance(address(0), address(1))));
      case "decimals":
        return view(evmWord(6n));
      case "symbol":
        return view(encodeEvmString("USDC"));
      case "approve":
        return this.approve(from, address(0), words[1] as bigint, base + GAS.approve, dryRun);
      case "transfer":
        return this.move({
          spender: from,
          owner: from,
          to: address(0),
          amount: words[1] as bigint,
          gas: base + GAS.transfer,
          dryRun,
        });
      case "transferFrom":
        return this.move({
          spender: from,
          owner: address(0),
          to: address(1),
          amount: words[2] as bigint,
          gas: base + GAS.transferFrom,
          dryRun,
        });
      default:
        return this.deposit(from, address(1), words[0] as bigint, base + GAS.deposit, dryRun);
    }
  }

  private approve(owner: string, spender: string, amount: bigint, gas: bigint, dryRun: boolean): CallOutcome {
    if (!dryRun) this.allowances.set(`${lower(owner)}:${lower(spender)}`, amount);
    const log = {
      address: this.usdcAddress,
      topics: [TOPICS.approval, topicOf(owner), topicOf(spender)],
      data: evmWord(amount),
    };
    return { ok: true, returnData: evmWord(1n), gasUsed: gas, logs: [log] };
  }

  private move(p: {
    spender: string;
    owner: string;
    to: string;
    amount: bigint;
    gas: bigint;
    dryRun: boolean;
  }): CallOutcome {
    const byAllowance = lower(p.spender) !== lower(p.owner);
    const allowed = this.allowance(p.owner, p.spender);
    if (byAllowance && allowed < p.amount)
      return { ok: false, reason: "ERC20: insufficient allowance", gasUsed: p.gas };
    if (this.usdcBalance(p.owner) < p.amount)
      return { ok: false, reason: "ERC20: transfer amount exceeds balance", gasUsed: p.gas };
    if (/^0x0{40}$/.test(p.to))
      return { ok: false, reason: "ERC20: transfer to the zero address", gasUsed: p.gas };
    if (!p.dryRun) {
      if (byAllowance) this.allowances.set(`${lower(p.owner)}:${lower(p.spender)}`, allowed - p.amount);
      this.usdc.set(lower(p.owner), this.usdcBalance(p.owner) - p.amount);
      this.usdc.set(lower(p.to), this.usdcBalance(p.to) + p.amount);
    }
    const log = {
      address: this.usdcAddress,
      topics: [TOPICS.transfer, topicOf(p.owner), topicOf(p.to)],
      data: evmWord(p.amount),
    };
    return { ok: true, returnData: evmWord(1n), gasUsed: p.gas, logs: [log] };
  }

  private deposit(
    sender: string,
    recipient: string,
    amount: bigint,
    gas: bigint,
    dryRun: boolean,
  ): CallOutcome {
    if (amount === 0n) return { ok: false, reason: "Bridge: amount must be positive", gasUsed: gas };
    if (/^0x0{40}$/.test(recipient))
      return { ok: false, reason: "Bridge: recipient is the zero address", gasUsed: gas };
    const pulled = this.move({
      spender: this.bridgeAddress,
      owner: sender,
      to: this.bridgeAddress,
      amount,
      gas,
      dryRun,
    });
    if (!pulled.ok) return pulled;
    const log = {
      address: this.bridgeAddress,
      topics: [TOPICS.deposit, topicOf(sender), topicOf(recipient)],
      data: evmWord(amount),
    };
    return { ok: true, returnData: new Uint8Array(0), gasUsed: gas, logs: [...pulled.logs, log] };
  }
}

/** `0x` hex of bytes. */
export const hex = (bytes: Uint8Array): `0x${string}` => `0x${bytesToHex(bytes)}`;

/** Bytes of `0x` hex (already validated). */
export const unhex = (text: string): Uint8Array => hexToBytes(text.slice(2));
