/** The first-line marker of a `*_pb.ts` in its lazy form. */
export declare const MARKER: string;
/** The lazy form of one protoc-gen-es output file (idempotent); `path` names it in errors. */
export declare function lazifyPb(text: string, path: string): string;
