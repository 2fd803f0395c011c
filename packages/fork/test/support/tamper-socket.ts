/**
 * A live indexer that answers garbage, for the shadow's fault tests: a WebSocket constructor (the
 * `WebSocket` option of `startFork`) over the `ws` package that hands every frame the live
 * indexer sends through `Tamper.rewrite` first, which may change it (keeping its `message_id`, so
 * the connection sees no gap) or let it through, and every message the client sends through
 * `Tamper.answer`, which may keep it from the live indexer and answer it instead (the answer takes
 * the next `message_id`, and the live indexer's later frames are numbered after it). `injectLive`
 * hands a frame the live indexer never sent to every open socket, numbered the same way.
 */
import type { IndexerWebSocket, IndexerWebSocketConstructor } from "@perpx/indexer-client/ws";
import { WebSocket as Ws } from "ws";

/** A frame the live indexer sent, parsed. */
export type LiveFrame = Record<string, unknown> & { type: string; message_id: number; channel?: string };

/** What to do with a frame: send this one instead, or the frame unchanged (undefined). */
export type Rewrite = (frame: LiveFrame) => LiveFrame | undefined;

/** What to do with a message the client sends: answer this instead of sending it, or send it (undefined). */
export type Answer = (message: Record<string, unknown>) => Record<string, unknown> | undefined;

/** The rewrite and the answer the tampering sockets apply now. */
export const Tamper: { rewrite: Rewrite; answer: Answer } = {
  rewrite: () => undefined,
  answer: () => undefined,
};

/** The tampering sockets that are open, for `injectLive`. */
const open = new Set<TamperSocket>();

/**
 * Sends `frame` (without `message_id`) to the client of every open tampering socket, as if the
 * live indexer had sent it after what it sent so far.
 */
export function injectLive(frame: Record<string, unknown> & { type: string }): void {
  for (const socket of open) socket.inject(frame);
}

class TamperSocket implements IndexerWebSocket {
  onopen: ((event: unknown) => void) | null = null;
  onmessage: ((event: { data: unknown }) => void) | null = null;
  onerror: ((event: unknown) => void) | null = null;
  onclose: ((event: { code?: number; reason?: string }) => void) | null = null;
  private readonly inner: Ws;
  /** The last message_id handed to the client, and how many answers were put among the live frames. */
  private last = 0;
  private shift = 0;

  constructor(url: string) {
    this.inner = new Ws(url);
    this.inner.on("open", () => {
      open.add(this);
      this.onopen?.({});
    });
    this.inner.on("error", (error: Error) => this.onerror?.({ error }));
    this.inner.on("close", (code: number, reason: Buffer) => {
      open.delete(this);
      this.onclose?.({ code, reason: String(reason) });
    });
    this.inner.on("message", (data: Buffer) => {
      const text = String(data);
      const frame = JSON.parse(text) as LiveFrame;
      frame.message_id += this.shift;
      this.last = frame.message_id;
      this.onmessage?.({ data: JSON.stringify(Tamper.rewrite(frame) ?? frame) });
    });
  }

  /** Hands `frame` to the client with the next `message_id`. */
  inject(frame: Record<string, unknown>): void {
    if (this.readyState !== 1) return;
    this.shift++;
    this.last++;
    this.onmessage?.({ data: JSON.stringify({ ...frame, message_id: this.last }) });
  }

  get readyState(): number {
    return this.inner.readyState;
  }

  send(data: string): void {
    const answer = Tamper.answer(JSON.parse(data) as Record<string, unknown>);
    if (answer === undefined) {
      this.inner.send(data);
      return;
    }
    // Answered as the live indexer would, after what it sent so far (not inside the client's send).
    setImmediate(() => {
      if (this.readyState !== 1) return;
      this.shift++;
      this.last++;
      this.onmessage?.({ data: JSON.stringify({ ...answer, message_id: this.last }) });
    });
  }

  close(code?: number, reason?: string): void {
    this.inner.close(code, reason);
  }

  terminate(): void {
    this.inner.terminate();
  }
}

/** The WebSocket constructor of the tampering sockets. */
export const TamperWebSocket: IndexerWebSocketConstructor = TamperSocket;
