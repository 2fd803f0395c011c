import { packageBuild } from "../../tsup.base.js";

// `@bufbuild/protobuf` decodes its built-in descriptors when it loads: `require` defers it.
export default packageBuild({ deferRequires: ["@bufbuild/protobuf"] });
