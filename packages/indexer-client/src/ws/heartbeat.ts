/**
 * The idle check of one socket: it runs every quarter of the idle timeout (or of the ping
 * interval, when pinging is possible), notes whether frames arrived since its last run, calls
 * `onStall` for a socket silent for `idleMs` (so a stall is detected within 1.25 times the
 * timeout), and pings a quiet server (ws only). Counting a frame does no clock read and no timer
 * work: it is on the hot path.
 *
 * A silence is confirmed before it counts as a stall: the check runs once more on the next turn of
 * the event loop, after the I/O that is already waiting has been read. When the process itself was
 * busy (a long synchronous task, a GC pause) past the timeout, the frames the server sent meanwhile
 * are still unread when the timer fires, and the healthy socket is kept.
 */
import { type LongTimeout, setLongTimeout } from "@perpx/core";
import type { IndexerWebSocket } from "./transport.js";

/** The idle check of the current socket. */
export class Heartbeat {
  private timer: LongTimeout | undefined;
  private socket: IndexerWebSocket | undefined;
  private lastActivity = 0;
  /** Frames received (messages, pings, pongs); each run compares it with its last look. */
  private frames = 0;
  private framesSeen = 0;
  private pinged = false;
  /** A silence past the timeout was seen and waits for its confirmation on the next turn. */
  private confirming = false;

  /**
   * @param idleMs - silence after which the socket is stalled (0: never).
   * @param pingMs - silence after which a quiet server is pinged.
   * @param onStall - called once the socket is stalled.
   * @param guard - runs the timer's callback (the connection's guarded path).
   */
  constructor(
    private readonly idleMs: number,
    private readonly pingMs: number,
    private readonly onStall: () => void,
    private readonly guard: (task: () => void) => void,
  ) {}

  /** Counts a frame. */
  readonly touch = (): void => {
    this.frames++;
  };

  private readonly tick = (): void => this.guard(() => this.run());

  /** Starts watching a new socket. */
  start(socket: IndexerWebSocket): void {
    this.socket = socket;
    this.lastActivity = Date.now();
    this.framesSeen = this.frames;
    this.pinged = false;
    this.confirming = false;
    this.run();
  }

  /** Stops watching (clears the timer). */
  stop(): void {
    this.timer?.clear();
    this.timer = undefined;
    this.socket = undefined;
  }

  private run(): void {
    this.timer?.clear();
    this.timer = undefined;
    const socket = this.socket;
    if (!socket || this.idleMs === 0) return;
    const now = Date.now();
    if (this.frames !== this.framesSeen) {
      this.framesSeen = this.frames;
      this.lastActivity = now;
      this.pinged = false;
    }
    const quiet = now - this.lastActivity;
    if (quiet >= this.idleMs) {
      if (!this.confirming) {
        // Let the poll phase read what waits first (see the module comment): a zero timer runs on
        // the loop's next turn, after it.
        this.confirming = true;
        this.timer = setLongTimeout(this.tick, 0);
        return;
      }
      this.socket = undefined;
      this.onStall();
      return;
    }
    this.confirming = false;
    const canPing = socket.ping !== undefined && socket.readyState === 1;
    if (canPing && !this.pinged && quiet >= this.pingMs) {
      this.pinged = true;
      socket.ping?.();
    }
    const periodMs = Math.max(1, Math.min(this.idleMs, canPing ? this.pingMs : this.idleMs) / 4);
    this.timer = setLongTimeout(this.tick, periodMs);
  }
}
