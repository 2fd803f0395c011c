/** The first-line marker of a `*_pb.ts` in its lazy form. */
export declare const MARKER: string;
/** The lazy form of one protoc-gen-es output file (idempotent); `path`, under `src/gen`, names it in errors and places the import of `fileDesc`. */
export declare function lazifyPb(text: string, path: string): string;
