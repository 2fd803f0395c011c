import { describe, expect, it } from "vitest";
import {
  AbortedError,
  errorGuard,
  InvalidArgumentError,
  isInvalidArgumentError,
  isPerpxError,
  isTimeoutError,
  PerpxError,
  TimeoutError,
} from "./index.js";

describe("PerpxError", () => {
  it("composes message from short message, meta lines, details and docs path", () => {
    const error = new PerpxError("QUERY", "query failed", {
      metaMessages: ["path: /x"],
      details: "boom",
      docsPath: "/errors#query",
    });
    expect(error.message).toBe(
      "query failed\n\npath: /x\n\nDetails: boom\nDocs: https://perpx.dev/docs/errors#query",
    );
    expect(error.shortMessage).toBe("query failed");
    expect(error.code).toBe("QUERY");
  });

  it("takes details from a plain Error cause and walks the cause chain", () => {
    const root = new Error("socket hang up");
    const middle = new TimeoutError("fetch", 10, { cause: root });
    const top = new PerpxError("TRANSPORT", "request failed", { cause: middle });
    expect(middle.details).toBe("socket hang up");
    expect(top.details).toBeUndefined();
    expect(top.walk()).toBe(root);
    expect(top.walk(isTimeoutError)).toBe(middle);
    expect(top.walk((e) => e === "nothing")).toBeUndefined();
  });

  it("guards by brand and name, not instanceof", () => {
    const error = new InvalidArgumentError("timeoutMs", "must be positive");
    expect(error.message).toBe("Invalid timeoutMs: must be positive");
    expect(isPerpxError(error)).toBe(true);
    expect(isInvalidArgumentError(error)).toBe(true);
    expect(isTimeoutError(error)).toBe(false);
    expect(isPerpxError(new Error("x"))).toBe(false);
    const foreign = Object.assign(new Error("x"), {
      code: "TIMEOUT",
      shortMessage: "x",
      walk() {},
      name: "TimeoutError",
    });
    expect(isTimeoutError(foreign)).toBe(true);
  });

  it("keeps the abort reason as cause", () => {
    const error = new AbortedError("placeOrder", "user");
    expect(error.cause).toBe("user");
    expect(error.code).toBe("ABORTED");
  });
});

describe("guards match subclasses", () => {
  it("errorGuard and isTimeoutError hold for a subclass, not for a sibling", () => {
    class InclusionTimeout extends TimeoutError {
      override name = "InclusionTimeout";
    }
    class Narrow extends InvalidArgumentError {
      override name = "Narrow";
    }
    const timeout = new InclusionTimeout("waiting", 5);
    expect(isTimeoutError(timeout)).toBe(true);
    expect(isInvalidArgumentError(new Narrow("x", "bad"))).toBe(true);
    expect(isInvalidArgumentError(timeout)).toBe(false);
    expect(errorGuard<Narrow>("Narrow")(new InvalidArgumentError("x", "bad"))).toBe(false);
  });
});
