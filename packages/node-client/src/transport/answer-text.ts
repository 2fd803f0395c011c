import { TransportError } from "../errors.js";

/**
 * The body of an HTTP answer as text. A connection that fails while the body is read is a
 * `TransportError` that says the request may have been acted on (the node had begun to answer);
 * an abort by the call's `signal` is thrown as it is.
 *
 * @param response - the answer whose body to read.
 * @param signal - the call's signal, if any.
 * @param transport - the transport named in the error.
 * @param url - the URL named in the error.
 * @returns the body.
 * @example
 * ```ts
 * await answerText(new Response("{}"), undefined, "rest", "http://127.0.0.1:1317/x"); // "{}"
 * ```
 */
export async function answerText(
  response: Response,
  signal: AbortSignal | undefined,
  transport: "rpc" | "rest",
  url: string,
): Promise<string> {
  try {
    return await response.text();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new TransportError(
      { transport, problem: `the connection failed while reading the HTTP ${response.status} answer`, url },
      { cause: error },
    );
  }
}
