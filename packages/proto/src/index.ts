export {
  type CosmjsGeneratedType,
  type CosmjsRegistryEntriesOptions,
  type CosmjsWriterLike,
  cosmjsRegistryEntries,
  toCosmjsGeneratedType,
} from "./cosmjs.js";
export {
  isProtoDecodeError,
  isUnknownTypeUrlError,
  ProtoDecodeError,
  UnknownTypeUrlError,
} from "./errors.js";
export * from "./gen/index.js";
export {
  type CosmosJsonOptions,
  type CosmosJsonReadOptions,
  fromCosmosJson,
  toCosmosJson,
} from "./json.js";
export {
  decodeMessage,
  messageRegistry,
  msgTypeUrls,
  packAny,
  schemaOf,
  type TypeUrl,
  typeRegistry,
  typeUrlOf,
  unpackAny,
} from "./registry.js";
export {
  decodeSerializableInt,
  encodeSerializableInt,
  isSerializableIntError,
  isSerializableIntField,
  SerializableIntError,
} from "./serializable-int.js";
