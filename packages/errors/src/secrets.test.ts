import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { inspect } from "node:util";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  InvalidArgumentError,
  PerpxError,
  REDACTED,
  redactSecrets,
  shortenRedacted,
  showValue,
} from "./index.js";

/** A word of the mnemonic shape: 3 to 8 lowercase letters, not one of the prose words no mnemonic holds. */
const mnemonicWord = fc
  .stringMatching(/^[a-z]{3,8}$/)
  .filter((w) => redactSecrets(Array(12).fill(w).join(" ")) === REDACTED);
const mnemonic = fc
  .constantFrom(12, 15, 18, 21, 24)
  .chain((n) => fc.array(mnemonicWord, { minLength: n, maxLength: n }))
  .map((words) => words.join(" "));
const hexKey = fc
  .uint8Array({ minLength: 32, maxLength: 32 })
  .map((bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""));
/** Any text around a secret, as long as it does not run into it (a letter would make it one longer word). */
const prose = fc.string({ maxLength: 40 });
const edge = (text: string, side: "before" | "after") =>
  text === "" || /[^A-Za-z0-9]/.test(side === "before" ? text.slice(-1) : (text[0] ?? ""))
    ? text
    : side === "before"
      ? `${text} `
      : ` ${text}`;

/** Every word of a mnemonic, in order, appears in `text` as a run: the words left after a leak. */
const words = (m: string) => m.split(" ");
const leaksAnyEleven = (text: string, m: string) => {
  const w = words(m);
  for (let i = 0; i + 11 <= w.length; i++) if (text.includes(w.slice(i, i + 11).join(" "))) return true;
  return false;
};

describe("redactSecrets catches a mnemonic anywhere", () => {
  it("in any surrounding text, unquoted (as a message echoing String(value) shows it)", () => {
    fc.assert(
      fc.property(mnemonic, prose, prose, (m, before, after) => {
        const out = redactSecrets(`${edge(before, "before")}${m}${edge(after, "after")}`);
        expect(out).not.toContain(m);
        expect(leaksAnyEleven(out, m)).toBe(false);
        expect(out).toContain(REDACTED);
      }),
    );
  });

  it("as the words of an array echoed by String(), JSON.stringify() or util.inspect()", () => {
    fc.assert(
      fc.property(mnemonic, (m) => {
        const array = m.split(" ");
        for (const text of [String(array), JSON.stringify(array), inspect(array), m.replace(/ /g, "\n  ")]) {
          const out = redactSecrets(`must be BUY or SELL, got ${text}`);
          for (const w of [
            array.slice(0, 11).join(","),
            array.slice(0, 11).join('","'),
            array.slice(0, 11).join("', '"),
          ]) {
            expect(out).not.toContain(w);
          }
          expect(out).toContain(REDACTED);
        }
      }),
    );
  });

  it("in sentence case or upper case too (a mnemonic copied from a document)", () => {
    fc.assert(
      fc.property(mnemonic, (m) => {
        const sentence = `${m[0]?.toUpperCase()}${m.slice(1)}`;
        for (const text of [sentence, m.toUpperCase()]) {
          const out = redactSecrets(`got ${text}, expected BUY`);
          expect(out).toBe(`got ${REDACTED}, expected BUY`);
        }
      }),
    );
  });

  it("keeps the word before a quoted mnemonic: the field the message names", () => {
    fc.assert(
      fc.property(mnemonic, (m) => {
        expect(redactSecrets(`Invalid size "${m}": must be plain digits`)).toBe(
          `Invalid size "${REDACTED}": must be plain digits`,
        );
        expect(redactSecrets(`Invalid order side: must be BUY or SELL, got ${m}`)).toBe(
          `Invalid order side: must be BUY or SELL, got ${REDACTED}`,
        );
      }),
    );
  });

  it("keeps redacting hex keys, labelled hashes aside", () => {
    fc.assert(
      fc.property(hexKey, prose, (key, before) => {
        fc.pre(!/(?:hash|tx)[:=]?\s*$/i.test(before)); // a value labelled as a hash is kept
        expect(redactSecrets(`${edge(before, "before")}0x${key}`)).not.toContain(key);
      }),
    );
  });
});

/** Every string and template literal of the repository's library sources, `${...}` filled with X. */
function literals(): string[] {
  const root = join(dirname(fileURLToPath(import.meta.url)), "../..");
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "dist" || entry.name === "generated") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (
        /\.ts$/.test(entry.name) &&
        !/\.(test|bench|test-d)\.ts$/.test(entry.name) &&
        path.includes("/src/")
      ) {
        const source = readFileSync(path, "utf8");
        for (const match of source.matchAll(/`((?:[^`\\]|\\.)*)`|"((?:[^"\\\n]|\\.)*)"/g)) {
          const text = (match[1] ?? match[2] ?? "").replace(/\$\{[^}]*\}/g, "X");
          if (text.length >= 20 && /[a-z]{3,8} [a-z]{3,8}/.test(text)) out.push(text);
        }
      }
    }
  };
  walk(root);
  return out;
}

describe("ordinary error texts are left alone", () => {
  it("no message template of the repository is altered", () => {
    const corpus = literals();
    expect(corpus.length).toBeGreaterThan(1000);
    // Left out: texts that hold a secret on purpose (the devnet's known mnemonics, a key field's shape).
    const secretShaped =
      /[0-9a-f]{64}|:\/\/[^/\s]*@|"(?:tradingPrivateKey|privateKey|mnemonic)"|^[a-z]{3,8}(?: [a-z]{3,8}){11,}$/i;
    const altered = corpus.filter((text) => !secretShaped.test(text) && redactSecrets(text) !== text);
    expect(altered).toEqual([]);
  });
});

describe("redactSecrets catches a credential glued to other base64 characters", () => {
  it("with any base64 text before or after it", () => {
    const credential = hexKey.map((key) =>
      btoa(
        JSON.stringify({
          masterAddress: "perpx1qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqn8sqxy",
          tradingPrivateKey: key,
        }),
      ),
    );
    const glue = fc.stringMatching(/^[A-Za-z0-9_-]{0,12}$/);
    fc.assert(
      fc.property(credential, glue, glue, (secret, before, after) => {
        const out = redactSecrets(`address ${before}${secret}${after}`);
        expect(out).not.toContain(secret.slice(8, 48));
      }),
    );
  });
});

describe("shortenRedacted and showValue redact before they cut", () => {
  it("a mnemonic or key longer than the cut is not left in part", () => {
    fc.assert(
      fc.property(
        fc.oneof(mnemonic, hexKey),
        fc.string({ maxLength: 30 }),
        fc.integer({ min: 10, max: 200 }),
        (secret, before, max) => {
          const input = `${edge(before, "before")}${secret}`;
          for (const out of [shortenRedacted(input, max), showValue(input, max)]) {
            expect(leaksAnyEleven(out, secret) || out.includes(secret.slice(0, 40))).toBe(false);
          }
        },
      ),
    );
  });

  it("shows a refused value: a string quoted, redacted, then cut; anything else by its kind", () => {
    expect(showValue("buy")).toBe('"buy"');
    expect(showValue("ab".repeat(32))).toBe(`"${REDACTED}"`);
    expect(showValue(Number.NaN)).toBe("NaN");
    expect(showValue(5n)).toBe("5n");
    expect(showValue(null)).toBe("null");
    expect(showValue([1])).toBe("an array");
    expect(showValue({})).toBe("an object");
    expect(showValue(undefined)).toBe("undefined");
    expect(showValue("x".repeat(150), 100)).toBe(`"${"x".repeat(100)}..." (150 characters)`);
    expect(shortenRedacted("x".repeat(150), 100)).toBe(`${"x".repeat(100)}...`);
    expect(shortenRedacted("short", 100)).toBe("short");
  });
});

describe("no field of an error, nor its cause chain, shows a secret", () => {
  const m =
    "abandon ability able about above absent absorb abstract absurd abuse access accident acoustic acquire across act actor actress actual adapt address adjust admit adult";
  const key = "5a".repeat(32);

  it("InvalidArgumentError.argument is redacted (a secret pasted as an option key)", () => {
    for (const secret of [m, key]) {
      const error = new InvalidArgumentError(secret, "is not an option");
      for (const text of [error.message, JSON.stringify(error), inspect(error), String(error)]) {
        expect(text).not.toContain(secret);
      }
    }
  });

  it("a plain Error cause quoting a secret is redacted in place (util.inspect shows causes)", () => {
    const root = new SyntaxError(`Cannot convert ${m} to a BigInt`);
    const middle = new Error(`wrapped: ${key}`, { cause: root });
    const error = new PerpxError("INVALID_ARGUMENT", "bad size", { cause: middle });
    const text = inspect(error, { depth: 10 });
    expect(text).not.toContain(key);
    expect(leaksAnyEleven(text, m)).toBe(false);
    expect(error.walk()).toBe(root);
    expect(root).toBeInstanceOf(SyntaxError);
    expect(root.message).toMatch(/\[redacted\] to a BigInt$/);
  });

  it("a DOMException cause (an abort reason) and a frozen one", () => {
    const reason = new DOMException(`stopped: ${key}`, "AbortError");
    const error = new PerpxError("ABORTED", "placeOrder was aborted", { cause: reason });
    expect(inspect(error, { depth: 10 })).not.toContain(key);
    expect(reason.name).toBe("AbortError");
    const frozen = Object.freeze(new Error(`frozen: ${key}`));
    const wrapped = new PerpxError("ABORTED", "x", { cause: frozen });
    expect(wrapped.message).not.toContain(key); // its details are redacted even if the frozen cause is not
  });
});
