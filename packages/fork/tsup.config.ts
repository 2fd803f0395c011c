import { packageBuild } from "../../tsup.base.js";

// No Node `import` wrappers: listing `cli`'s exports would run it (as for the devnet).
export default packageBuild({
  entry: ["src/index.ts", "src/cli.ts"],
  nodeImportWrappers: false,
});
