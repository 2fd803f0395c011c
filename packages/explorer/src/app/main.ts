/**
 * The explorer page: reads `/config.json`, connects the clients, draws the shell (title, search,
 * connection banner) and routes `#/...` to the pages.
 */
import type { ExplorerConfig } from "../config.js";
import { type ConnectionState, connect } from "./context.js";
import { errorText, h } from "./dom.js";
import { route } from "./router.js";

function bannerText(state: ConnectionState): string {
  if (state.state === "connecting") return "Connecting to the indexer...";
  if (state.state === "lost")
    return state.attempt === 0
      ? `Connection lost (${state.cause}): reconnecting...`
      : `Connection lost (${state.cause}): reconnecting, attempt ${state.attempt}...`;
  return "";
}

async function start(): Promise<void> {
  const banner = h("div", { id: "banner", role: "status", "aria-live": "polite" });
  const input = h("input", {
    name: "q",
    type: "search",
    placeholder: "block height, tx hash, address (perpx1… or 0x…), order id, or address/subaccount/client id",
    "aria-label": "search",
  }) as HTMLInputElement;
  const form = h(
    "form",
    {
      role: "search",
      onsubmit: (event) => {
        event.preventDefault();
        const query = input.value.trim();
        if (query !== "") location.hash = `#/search/${encodeURIComponent(query)}`;
      },
    },
    input,
    h("button", { type: "submit" }, "Search"),
  );
  const main = h("main");
  const title = h("a", { href: "#/" }, "perpx explorer");
  document.body.append(h("header", {}, title, form), banner, main);

  const setBanner = (state: ConnectionState) => {
    banner.textContent = bannerText(state);
    banner.classList.toggle("visible", state.state !== "open");
    document.body.dataset.connection = state.state;
  };
  let config: ExplorerConfig;
  try {
    const answer = await fetch("/config.json");
    config = (await answer.json()) as ExplorerConfig;
  } catch (error) {
    main.append(h("p", { class: "error" }, `Cannot read /config.json: ${errorText(error)}`));
    return;
  }
  title.textContent = `perpx explorer · ${config.chainId}`;
  let explorer: Awaited<ReturnType<typeof connect>>;
  try {
    explorer = await connect(config, setBanner);
  } catch (error) {
    setBanner({ state: "lost", attempt: 0, cause: "unreachable" });
    main.append(h("p", { class: "error", role: "alert" }, `Cannot reach the indexer: ${errorText(error)}`));
    return;
  }
  let cleanup: (() => void) | undefined;
  const show = () => {
    cleanup?.();
    main.replaceChildren();
    cleanup = route(explorer, main, location.hash);
    window.scrollTo(0, 0);
  };
  window.addEventListener("hashchange", show);
  show();
}

void start();
