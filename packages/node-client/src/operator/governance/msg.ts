import { create, type DescMessage, type MessageInitShape } from "@bufbuild/protobuf";
import { typeUrlOf } from "@perpx/proto";
import type { TxMessage } from "../../tx/encode.js";

/** A governance message of `schema` with `fields`, as every builder returns it. */
export function govMsg<Desc extends DescMessage>(
  schema: Desc,
  fields: MessageInitShape<Desc>,
): TxMessage<Desc> {
  return { typeUrl: typeUrlOf(schema), value: create(schema, fields) };
}
