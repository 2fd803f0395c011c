/**
 * The child side of the close tests: a child process calls {@link startReport} first and
 * {@link reportAfterClose} once it has closed its client. The report names what the client left
 * behind (`process.getActiveResourcesInfo()` minus what the process had before it connected), so
 * the parent proves "nothing of ours is left" without timing anything.
 */

/** The line prefix of the report the parent reads (`closed {"left":[...]}`). */
export const CLOSE_REPORT_PREFIX = "closed ";

let baseline: string[] | undefined;

/** What is active now and was not at the baseline (a multiset difference). */
function leftSinceBaseline(): string[] {
  const rest = [...(baseline ?? [])];
  return process.getActiveResourcesInfo().filter((name) => {
    const at = rest.indexOf(name);
    if (at === -1) return true;
    rest.splice(at, 1);
    return false;
  });
}

/**
 * Writes "started" and records the resources of the bare process (stdout's pipe included, which
 * exists only after a first write): call it before the client opens anything.
 */
export function startReport(): void {
  process.stdout.write("started\n");
  baseline = process.getActiveResourcesInfo();
}

/**
 * After `close()`: waits until every socket and handle the client opened has finished closing (a
 * close handshake is the server's to answer), then writes `closed {"left":[...]}`, the resources
 * still held, which must be none: a timer left armed shows as "Timeout". A socket that never
 * closes keeps the process alive, and the parent's hang guard reports it.
 *
 * @returns resolves once the report is written.
 */
export function reportAfterClose(): Promise<void> {
  return new Promise((resolve) => {
    const report = (): void => {
      clearInterval(poll);
      process.off("beforeExit", report);
      process.stdout.write(`${CLOSE_REPORT_PREFIX}${JSON.stringify({ left: leftSinceBaseline() })}\n`);
      resolve();
    };
    // Only timers left (or nothing): the closing is over, report what remains. The poll is unref'd,
    // so it neither shows in the report nor keeps the process alive; if everything closes before it
    // runs, the process reaches beforeExit and reports there.
    const poll = setInterval(() => {
      if (leftSinceBaseline().every((name) => name === "Timeout")) report();
    }, 10);
    poll.unref();
    process.on("beforeExit", report);
  });
}
