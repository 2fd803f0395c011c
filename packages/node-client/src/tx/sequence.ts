import { isSequenceMismatchError, parseSequenceMismatch } from "../errors.js";

/**
 * An account's number and the sequence its next transaction must carry.
 *
 * @example
 * ```ts
 * const { accountNumber, sequence }: AccountSequence = await getAccountSequence(client, { address: wallet.address });
 * ```
 */
export interface AccountSequence {
  /** The account number (signed into every SignDoc). */
  accountNumber: bigint;
  /** The next sequence (or, in timestamp mode, the nonce to use). */
  sequence: bigint;
}

/**
 * How a transaction uses the account sequence.
 * - `sequence`: classic: transactions of one account go out one at a time, each with the next sequence.
 * - `timestamp`: a timestamp nonce (unix ms, ≥ 2^40) instead; many can go out at once.
 * - `none`: the chain ignores the sequence (short-term orders); it is neither waited for nor consumed.
 *
 * @example
 * ```ts
 * const mode: SequenceMode = "timestamp";
 * ```
 */
export type SequenceMode = "sequence" | "timestamp" | "none";

/**
 * Options of {@link SequenceManager}.
 *
 * @example
 * ```ts
 * new SequenceManager({ fetchAccount: (address) => getAccountSequence(client, { address }), timestampOffsetMs: -500 });
 * ```
 */
export interface SequenceManagerOptions {
  /** Reads an account's number and committed sequence from the chain. */
  fetchAccount: (address: string) => Promise<AccountSequence>;
  /**
   * The clock for timestamp nonces, unix milliseconds.
   * @default Date.now
   */
  now?: () => number;
  /**
   * Added to the clock for timestamp nonces (to correct a skew against block time).
   * @default 0
   */
  timestampOffsetMs?: number;
}

/**
 * Which account {@link SequenceManager.run} hands a sequence for, and how it is used.
 *
 * @example
 * ```ts
 * const params: SequenceRunParams = { address: wallet.address, mode: "timestamp" };
 * ```
 */
export interface SequenceRunParams {
  /** The account whose sequence is used (the owner's, when a trading key signs). */
  address: string;
  /** `sequence`, `timestamp` (a nonce instead) or `none` (short-term orders). */
  mode: SequenceMode;
}

/**
 * The smallest value the chain reads as a timestamp nonce rather than a sequence: 2^40.
 *
 * @example
 * ```ts
 * TIMESTAMP_NONCE_MIN; // 1099511627776n
 * const { sequence } = await getAccountSequence(client, { address: wallet.address });
 * sequence >= TIMESTAMP_NONCE_MIN; // false: a sequence, not a timestamp nonce
 * ```
 */
export const TIMESTAMP_NONCE_MIN = 1n << 40n;

interface AccountState {
  accountNumber: bigint | undefined;
  /** Next sequence to use; undefined when it must be read from the chain first. */
  sequence: bigint | undefined;
  lastNonce: bigint;
  lock: Promise<void>;
}

/**
 * Tracks the sequence of each account and hands it out so that no transaction is lost or doubled:
 * stateful transactions of one account are serialized (sign and CheckTx one at a time; waiting for
 * inclusion happens outside the lock); on a sequence mismatch (sdk 32) the account is re-read from
 * the chain and the attempt is retried once, with the same messages; in timestamp mode nonces are
 * strictly increasing per account and attempts run in parallel; short-term orders (`none`) read
 * the cached account and never consume a sequence.
 *
 * @example
 * ```ts
 * const sequences = new SequenceManager({ fetchAccount: (address) => getAccountSequence(client, { address }) });
 * // `attempt` signs and broadcasts with the sequence it is given; once it resolves, the next run gets the one after.
 * const first = await sequences.run({ address: wallet.address, mode: "sequence" }, async ({ sequence }) => sequence);
 * const second = await sequences.run({ address: wallet.address, mode: "sequence" }, async ({ sequence }) => sequence);
 * second - first; // 1n
 * ```
 */
export class SequenceManager {
  readonly #accounts = new Map<string, AccountState>();
  readonly #fetchAccount: SequenceManagerOptions["fetchAccount"];
  readonly #now: () => number;
  readonly #offsetMs: number;

  /** @param options - how to read accounts, and the clock for timestamp nonces. */
  constructor(options: SequenceManagerOptions) {
    this.#fetchAccount = options.fetchAccount;
    this.#now = options.now ?? Date.now;
    this.#offsetMs = options.timestampOffsetMs ?? 0;
  }

  #state(address: string): AccountState {
    let state = this.#accounts.get(address);
    if (!state) {
      state = { accountNumber: undefined, sequence: undefined, lastNonce: 0n, lock: Promise.resolve() };
      this.#accounts.set(address, state);
    }
    return state;
  }

  async #sync(address: string, state: AccountState): Promise<void> {
    const account = await this.#fetchAccount(address);
    state.accountNumber = account.accountNumber;
    state.sequence = account.sequence;
  }

  /**
   * What the manager holds for an account (for diagnostics and tests).
   *
   * @param address - the account's bech32 address.
   * @returns the cached account number and next sequence, each `undefined` when not yet read from
   *   the chain.
   * @example
   * ```ts
   * const sequences = new SequenceManager({ fetchAccount: async () => ({ accountNumber: 7n, sequence: 12n }) });
   * await sequences.run({ address: wallet.address, mode: "sequence" }, async () => "sent");
   * sequences.peek(wallet.address); // { accountNumber: 7n, sequence: 13n }
   * ```
   */
  peek(address: string): { accountNumber: bigint | undefined; sequence: bigint | undefined } {
    const state = this.#accounts.get(address);
    return { accountNumber: state?.accountNumber, sequence: state?.sequence };
  }

  /**
   * Forgets the cached sequence of an account (or of all accounts), so the next transaction reads it
   * from the chain.
   *
   * @param address - the account to forget; all of them when omitted.
   * @example
   * ```ts
   * const sequences = new SequenceManager({ fetchAccount: async () => ({ accountNumber: 7n, sequence: 12n }) });
   * await sequences.run({ address: wallet.address, mode: "sequence" }, async () => "sent");
   * sequences.reset(wallet.address);
   * sequences.peek(wallet.address).sequence; // undefined: read again before the next transaction
   * ```
   */
  reset(address?: string): void {
    if (address === undefined) {
      for (const state of this.#accounts.values()) state.sequence = undefined;
    } else {
      const state = this.#accounts.get(address);
      if (state) state.sequence = undefined;
    }
  }

  /**
   * Looks at a failure that surfaced after the account's lock was released (DeliverTx, seen while
   * waiting for the block): a sequence mismatch there means the chain did not use the sequence the
   * manager handed out, so the account is read again before its next transaction.
   *
   * @param address - the account whose transaction failed.
   * @param error - the failure (a sequence mismatch resets the cached sequence; anything else is
   *   ignored).
   * @example
   * ```ts
   * const sequences = new SequenceManager({ fetchAccount: async () => ({ accountNumber: 7n, sequence: 12n }) });
   * await sequences.run({ address: wallet.address, mode: "sequence" }, async () => "sent");
   * // The block refused it for its sequence (sdk 32): the account is read again before the next one.
   * const refused = broadcastTxError({ abciCode: 32, codespace: "sdk", log: "", txHash: "AB12", phase: "deliverTx" });
   * sequences.observe(wallet.address, refused);
   * sequences.peek(wallet.address).sequence; // undefined
   * ```
   */
  observe(address: string, error: unknown): void {
    if (isSequenceMismatchError(error)) this.reset(address);
  }

  /**
   * The next timestamp nonce of an account: `now + offset` in ms, and always greater than the last one handed out.
   *
   * @param address - the account's bech32 address.
   * @returns the nonce in milliseconds, strictly increasing per account.
   * @example
   * ```ts
   * const sequences = new SequenceManager({ fetchAccount: async () => ({ accountNumber: 7n, sequence: 0n }), now: () => 1_767_225_600_000 });
   * sequences.nextTimestampNonce(wallet.address); // 1767225600000n
   * sequences.nextTimestampNonce(wallet.address); // 1767225600001n: always greater than the last
   * ```
   */
  nextTimestampNonce(address: string): bigint {
    const state = this.#state(address);
    let nonce = BigInt(Math.floor(this.#now() + this.#offsetMs));
    if (nonce <= state.lastNonce) nonce = state.lastNonce + 1n;
    if (nonce < TIMESTAMP_NONCE_MIN) nonce = TIMESTAMP_NONCE_MIN;
    state.lastNonce = nonce;
    return nonce;
  }

  /**
   * Runs `attempt` with the account number and the sequence (or nonce) it must use.
   *
   * `attempt` signs and broadcasts, and resolves once the node accepted the transaction into its
   * mempool (CheckTx passed); it throws a `BroadcastTxError` when CheckTx refused it. In `sequence`
   * mode the sequence advances only after acceptance. On a {@link @perpx/node-client!SequenceMismatchError} the account
   * is re-read and `attempt` runs once more; any other failure that leaves it unknown whether the
   * transaction reached the node (a timeout, a dropped connection) makes the next transaction
   * re-read the sequence.
   *
   * @param params - the account whose sequence is used (the owner's, when a trading key signs) and
   *   how the sequence is used.
   * @param attempt - signs and broadcasts with the given account sequence.
   * @returns what `attempt` returned.
   *
   * @example
   * ```ts
   * const sequences = new SequenceManager({ fetchAccount: async () => ({ accountNumber: 7n, sequence: 12n }) });
   * await sequences.run({ address: wallet.address, mode: "sequence" }, async ({ sequence }) => sequence); // 12n
   * ```
   */
  async run<T>(params: SequenceRunParams, attempt: (account: AccountSequence) => Promise<T>): Promise<T> {
    const { address, mode } = params;
    const state = this.#state(address);
    if (mode === "none") {
      if (state.accountNumber === undefined || state.sequence === undefined) await this.#sync(address, state);
      return attempt({ accountNumber: state.accountNumber!, sequence: state.sequence ?? 0n });
    }
    if (mode === "timestamp") {
      if (state.accountNumber === undefined) await this.#sync(address, state);
      try {
        return await attempt({
          accountNumber: state.accountNumber!,
          sequence: this.nextTimestampNonce(address),
        });
      } catch (error) {
        if (!isSequenceMismatchError(error)) throw error;
        return attempt({ accountNumber: state.accountNumber!, sequence: this.nextTimestampNonce(address) });
      }
    }
    return this.#locked(state, async () => {
      if (state.accountNumber === undefined || state.sequence === undefined) await this.#sync(address, state);
      try {
        return await this.#attemptSequence(state, attempt);
      } catch (error) {
        if (!isSequenceMismatchError(error)) throw error;
        await this.#sync(address, state);
        // The log's "expected" comes from the node's check state, which counts txs still in the
        // mempool; the committed sequence just read may be behind it.
        const expected = parseSequenceMismatch(error.log)?.expected;
        if (expected !== undefined && expected > state.sequence!) state.sequence = expected;
        return this.#attemptSequence(state, attempt);
      }
    });
  }

  async #attemptSequence<T>(
    state: AccountState,
    attempt: (account: AccountSequence) => Promise<T>,
  ): Promise<T> {
    const sequence = state.sequence!;
    try {
      const result = await attempt({ accountNumber: state.accountNumber!, sequence });
      state.sequence = sequence + 1n;
      return result;
    } catch (error) {
      if (!isDefiniteRefusal(error)) state.sequence = undefined;
      throw error;
    }
  }

  async #locked<T>(state: AccountState, task: () => Promise<T>): Promise<T> {
    const previous = state.lock;
    let release!: () => void;
    state.lock = new Promise<void>((resolve) => {
      release = resolve;
    });
    await previous;
    try {
      return await task();
    } finally {
      release();
    }
  }
}

/** A CheckTx refusal: the tx is not in the mempool, so its sequence was not used. */
function isDefiniteRefusal(error: unknown): boolean {
  return (
    typeof error === "object" &&
    error !== null &&
    (error as { code?: unknown }).code === "BROADCAST_TX" &&
    ((error as { phase?: unknown }).phase === "checkTx" ||
      (error as { phase?: unknown }).phase === "simulate") &&
    (error as { reason?: unknown }).reason !== "sequence-mismatch" &&
    (error as { reason?: unknown }).reason !== "tx-in-mempool"
  );
}
