/** Hash routes: `#/`, `#/market/<ticker>`, `#/tx/<hash>`, `#/account/<address>`, `#/block/<height>`, `#/search/<query>`. */
import type { Explorer } from "./context.js";
import { h } from "./dom.js";
import { accountPage } from "./pages/account.js";
import { blockPage } from "./pages/block.js";
import { homePage } from "./pages/home.js";
import { marketPage } from "./pages/market.js";
import { searchPage } from "./pages/search.js";
import { txPage } from "./pages/tx.js";

type Page = (ex: Explorer, root: HTMLElement, argument: string) => (() => void) | undefined;

const PAGES: Record<string, Page> = {
  market: marketPage,
  tx: txPage,
  account: accountPage,
  block: blockPage,
  search: searchPage,
};

/** `text` percent-decoded, or as it is when it is not valid percent-encoding (`100%`). */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The route of a hash: its page name and argument (taken as typed when it does not decode). */
export function parseRoute(hash: string): { page: string; argument: string } {
  const path = hash.replace(/^#\/?/, "");
  const slash = path.indexOf("/");
  if (slash < 0) return { page: path, argument: "" };
  return { page: path.slice(0, slash), argument: decoded(path.slice(slash + 1)) };
}

/** Renders the page of `hash` into `root`; returns its cleanup. */
export function route(ex: Explorer, root: HTMLElement, hash: string): () => void {
  const { page, argument } = parseRoute(hash);
  document.body.dataset.page = page === "" ? "home" : page;
  if (page === "") return homePage(ex, root);
  const render = PAGES[page];
  if (render === undefined) {
    root.append(h("p", { class: "error" }, `No page ${page}`));
    return () => {};
  }
  return render(ex, root, argument) ?? (() => {});
}
