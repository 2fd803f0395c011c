// Rewrites one protoc-gen-es output file (`*_pb.ts`) so that importing it builds nothing: the file
// descriptor becomes a memoized thunk (`file_x()` decodes the embedded descriptor on its first call,
// with its dependencies), and every message, enum, service and extension descriptor becomes a thunk
// that reads it. Types and enums stay as protoc-gen-es wrote them. The namespace objects of
// `@perpx/proto` (`src/gen/ns/*.ts`) expose each thunk as a getter, so `clob.OrderSchema` is the
// same descriptor object it always was; it is built when a namespace member is first read.
// The file descriptor is hydrated by `src/file-desc.ts` (protobuf-es's `fileDesc` with a faster
// decoding of the embedded descriptor), imported in place of codegenv2's.
// The rewrite is idempotent: a file that carries MARKER keeps its thunks, and a file that already
// imports the local `fileDesc` keeps its imports.

export const MARKER = "// @lazy: descriptors are built on first use (packages/proto/scripts/lazy-pb.mjs).";

const DESC_CALL = "(fileDesc|messageDesc|enumDesc|serviceDesc|extDesc)";
const DECLARATION = new RegExp(
  `^export const (\\w+): ([\\s\\S]*?) = (?:/\\*@__PURE__\\*/\\s*)?${DESC_CALL}\\(([\\s\\S]*?)\\);$`,
  "gm",
);

/** The names a file imports as values from a relative path (its dependencies' file descriptors). */
function localValueImports(text) {
  const names = new Set();
  for (const match of text.matchAll(/^import \{([^}]*)\} from "\.{1,2}\/[^"]*";$/gm)) {
    for (const name of match[1].split(",")) {
      const trimmed = name.trim();
      if (trimmed) names.add(trimmed);
    }
  }
  return names;
}

/**
 * The lazy form of one `*_pb.ts` text.
 *
 * @param {string} text - protoc-gen-es output (or an already lazy file, returned as is).
 * @param {string} path - the file's path under `src/gen`, POSIX separators (errors name it; it places the
 *   import of `fileDesc`).
 * @returns {string}
 */
export function lazifyPb(text, path) {
  return localFileDesc(text.includes(MARKER) ? text : thunks(text, path), path);
}

const CODEGEN_IMPORT = /^import \{([^}]*)\} from "@bufbuild\/protobuf\/codegenv2";$/m;

/**
 * `text` importing `fileDesc` from `src/file-desc.ts` instead of `@bufbuild/protobuf/codegenv2`.
 *
 * @param {string} text - a `*_pb.ts` text.
 * @param {string} path - its path under `src/gen`, POSIX separators (which places the import).
 * @returns {string}
 */
function localFileDesc(text, path) {
  const match = CODEGEN_IMPORT.exec(text);
  if (!match) return text;
  const names = match[1]
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (!names.includes("fileDesc")) return text;
  const rest = names.filter((name) => name !== "fileDesc");
  const local = `import { fileDesc } from "${"../".repeat(path.split("/").length)}file-desc.js";`;
  const replacement =
    rest.length > 0 ? `import { ${rest.join(", ")} } from "@bufbuild/protobuf/codegenv2";\n${local}` : local;
  return text.replace(CODEGEN_IMPORT, replacement);
}

/** The thunk form of a protoc-gen-es output text (see the file comment). */
function thunks(text, path) {
  const locals = localValueImports(text);
  let fileConst;
  const out = text.replace(DECLARATION, (_all, name, type, call, args) => {
    const lazyType = type.replace(/typeof (\w+Schema)\b/g, "ReturnType<typeof $1>");
    if (call === "fileDesc") {
      if (fileConst) throw new Error(`${path}: more than one fileDesc`);
      fileConst = name;
      const lazyArgs = args.replace(/\[([^\]]*)\]\s*$/, (_deps, list) => {
        const deps = list
          .split(",")
          .map((dep) => dep.trim())
          .filter(Boolean)
          .map((dep) => (locals.has(dep) ? `${dep}()` : dep));
        return `[${deps.join(", ")}]`;
      });
      return `let ${name}$: GenFile | undefined;\nexport const ${name} = (): ${lazyType} =>\n  (${name}$ ??= ${call}(${lazyArgs}));`;
    }
    const [file, ...rest] = args.split(",");
    const lazyArgs = [`${file.trim()}()`, ...rest.map((arg) => arg.trim())].join(", ");
    return `export const ${name} = (): ${lazyType} =>\n  ${call}(${lazyArgs});`;
  });
  if (!fileConst) throw new Error(`${path}: no exported GenFile descriptor`);
  const header = /^(\/\/ @generated from file [^\n]*\n)/m;
  if (!header.test(out)) throw new Error(`${path}: no "@generated from file" header`);
  return out.replace(header, `$1${MARKER}\n`);
}
