/**
 * The command line's first act: until `start` has its own handlers in place (which it installs
 * before it starts anything), a SIGINT or SIGTERM exits at once with status 0, since nothing has
 * started yet (no port, lock or state directory is held). Without it, a signal while Node loads the
 * program and its flags are parsed would take Node's default action (killed by the signal, status
 * 143), unlike a stop later on. A signal that arrives before Node runs the first line of the program
 * (Node's own start-up) still takes that default action: no program can handle it.
 */

/**
 * Installs the handlers for the time before `start` has its own.
 *
 * @returns the function that removes them (called by `start` once its own are installed).
 * @example
 * ```ts
 * const handOver = holdEarlySignals();
 * process.listenerCount("SIGTERM") > 0; // true
 * handOver();
 * ```
 */
export function holdEarlySignals(): () => void {
  const stopBeforeStarting = () => process.exit(0);
  process.on("SIGINT", stopBeforeStarting);
  process.on("SIGTERM", stopBeforeStarting);
  return () => {
    process.off("SIGINT", stopBeforeStarting);
    process.off("SIGTERM", stopBeforeStarting);
  };
}
