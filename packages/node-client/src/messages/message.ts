import { create, type DescMessage, type MessageShape, ScalarType } from "@bufbuild/protobuf";

interface Template {
  zero: object;
  oneofs: readonly string[];
}

/** Per schema: its zero message, or null when a shared zero value could be mutated through (lists, maps, bytes). */
const templates = new WeakMap<DescMessage, Template | null>();

function templateOf(schema: DescMessage): Template | null {
  let template = templates.get(schema);
  if (template === undefined) {
    const mutableZero = schema.fields.some(
      (field) =>
        field.fieldKind === "list" ||
        field.fieldKind === "map" ||
        (field.fieldKind === "scalar" && field.scalar === ScalarType.BYTES),
    );
    template = mutableZero
      ? null
      : { zero: create(schema), oneofs: schema.oneofs.map((oneof) => oneof.localName) };
    templates.set(schema, template);
  }
  return template;
}

/**
 * The message `create(schema, init)` returns, for `init` whose nested messages are already messages,
 * without protobuf-es's reflective walk: the schema's zero message (made once) overlaid with `init`,
 * each oneof not in `init` a fresh `{ case: undefined }`. Schemas with lists, maps or bytes (whose
 * zero values are mutable objects) go through `create`.
 *
 * @example
 * ```ts
 * const id = messageOf(subaccounts.SubaccountIdSchema, { owner, number: 0 });
 * ```
 */
export function messageOf<Desc extends DescMessage>(
  schema: Desc,
  init: Partial<Omit<MessageShape<Desc>, "$typeName" | "$unknown">>,
): MessageShape<Desc> {
  const template = templateOf(schema);
  if (template === null) return create(schema, init as never);
  const message: Record<string, unknown> = { ...template.zero, ...init };
  for (const oneof of template.oneofs) if (!(oneof in init)) message[oneof] = { case: undefined };
  return message as MessageShape<Desc>;
}
