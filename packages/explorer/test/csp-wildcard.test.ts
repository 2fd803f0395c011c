/**
 * `contentSecurityPolicy` lets the page connect to its endpoints' origins only: an endpoint whose
 * host is a CSP wildcard (`http://*`, `https://*.example.com`) is refused, naming it, rather than
 * opening `connect-src` to any host.
 */
import { expect, it } from "vitest";
import { contentSecurityPolicy, explorerConfig } from "../src/index.js";

it("an endpoint whose host is a wildcard is refused, naming it", () => {
  const config = explorerConfig({ network: "local" });
  for (const indexer of ["http://*", "http://*:3002", "https://*.example.com", "ws://a*b"]) {
    const bad = { ...config, endpoints: { ...config.endpoints, indexer } };
    expect(() => contentSecurityPolicy(bad), indexer).toThrow(/config\.endpoints\.indexer/);
  }
  expect(contentSecurityPolicy(config)).toContain("connect-src 'self' http://127.0.0.1:26657");
});
