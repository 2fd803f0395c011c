/** proto package -> namespace exported from `@perpx/proto`. */
export declare const NAMESPACES: Readonly<Record<string, string>>;
/** Writes src/gen/ns/*.ts, src/gen/index.ts and src/gen/files.ts; returns the written paths. */
export declare function writeBarrels(genDir: string): string[];
