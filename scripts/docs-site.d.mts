// Types of scripts/docs-site.mjs for the TypeScript tests that import it.
import type { Server } from "node:http";

/** Where a docs page lands: a package's page and, optionally, one section (a heading anchor). */
export interface DocsPage {
  package: string;
  section?: string;
}

export declare const DOCS_PAGES: Readonly<Record<string, DocsPage>>;

export interface PublishablePackage {
  name: string;
  dir: string;
  entries: Array<{ specifier: string; file: string }>;
}

export declare function publishablePackages(): PublishablePackage[];

export interface DocsSiteBuild {
  /** HTML files written. */
  pages: number;
  /** Every warning TypeDoc logged (broken `{@link}`s among them). */
  warnings: string[];
  /** For each DOCS_PAGES key written: the page file it forwards to, and the anchor it adds. */
  forwards: Record<string, { file: string; anchor: string | undefined }>;
}

export declare function buildDocsSite(options?: {
  out?: string;
  logLevel?: "Verbose" | "Info" | "Warn" | "Error" | "None";
  /** Render only the pages of these modules (import specifiers); everything is still converted and validated. */
  modules?: readonly string[];
}): Promise<DocsSiteBuild>;

export declare function serveDocsSite(options?: {
  dir?: string;
  port?: number;
  host?: string;
}): Promise<Server>;
