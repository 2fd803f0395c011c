export type * from "./app/contract.js";
