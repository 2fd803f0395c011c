/**
 * The value of a namespace whose generated modules export descriptors as thunks: every thunk is
 * read through a getter as the descriptor it returns; everything else (enums) is as exported.
 */
export type LazyNamespace<Modules> = {
  readonly [Key in keyof Modules]: Modules[Key] extends () => infer Value ? Value : Modules[Key];
};

/**
 * Builds a namespace object from generated `*_pb.ts` modules (see `scripts/lazy-pb.mjs`): a
 * descriptor thunk becomes a getter that builds the descriptor on the first read (which decodes its
 * file, once) and then holds it as a plain read-only value; an enum is copied as is. Nothing is
 * built here, so importing `@perpx/proto` decodes no descriptor.
 *
 * @param modules - the namespace's generated modules.
 * @returns a non-extensible object with one enumerable property per export.
 */
export function lazyNamespace<Modules extends object>(...modules: object[]): LazyNamespace<Modules> {
  const namespace: Record<string, unknown> = Object.create(null);
  for (const module of modules) {
    for (const [key, value] of Object.entries(module)) {
      if (typeof value === "function") {
        Object.defineProperty(namespace, key, {
          enumerable: true,
          configurable: true,
          get() {
            const built: unknown = value();
            Object.defineProperty(namespace, key, {
              value: built,
              enumerable: true,
              writable: false,
              configurable: false,
            });
            return built;
          },
        });
      } else {
        Object.defineProperty(namespace, key, {
          value,
          enumerable: true,
          writable: false,
          configurable: false,
        });
      }
    }
  }
  return Object.preventExtensions(namespace) as LazyNamespace<Modules>;
}
