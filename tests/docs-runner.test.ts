/** The doc runner's claim rewriting, on snippets whose checks are known. */
import { describe, expect, it } from "vitest";
import { declaredNames, instrument, usedNames } from "./support/docs.js";

describe("instrument", () => {
  it("turns inline, next-line and throws claims into checks, and leaves prose alone", () => {
    const { code, checks } = instrument(
      [
        "const a = 1;",
        "a + 1; // 2",
        "a * 3; // 3: the explanation is cut",
        "[a, a];",
        "// [1, 1]",
        "f(a); // throws InvalidArgumentError (bad-format)",
        "a; // the order rests on the book",
        "g(a); // multi-hop",
      ].join("\n"),
    );
    expect(checks).toBe(4);
    expect(code).toContain('__check((a + 1), (2), "a + 1; // 2");');
    expect(code).toContain("__check((a * 3), (3),");
    expect(code).toContain("__check(([a, a]), ([1, 1]),");
    expect(code).toContain('await __throws(async () => (f(a)), "InvalidArgumentError", "bad-format",');
    expect(code).toContain("a; // the order rests on the book");
    expect(code).toContain("g(a); // multi-hop");
  });

  it("checks inside blocks, and throws synchronously inside functions", () => {
    const { code, checks } = instrument(
      'try {\n  f();\n} catch (error) {\n  error.name; // "E"\n}\nfunction h() {\n  f(); // throws E\n}',
    );
    expect(checks).toBe(2);
    expect(code).toContain('__check((error.name), ("E"),');
    expect(code).toContain('__throws(() => (f()), "E", undefined,');
  });
});

describe("scope", () => {
  it("knows what a snippet declares and what it uses", () => {
    const code = 'import { a } from "x";\nconst { b, c: [d] } = a;\nfunction e() {}\nf(b, d, g.h);';
    expect([...declaredNames(code)].sort()).toEqual(["a", "b", "d", "e"]);
    expect(usedNames(code).has("f")).toBe(true);
    expect(usedNames(code).has("h")).toBe(false);
  });
});
