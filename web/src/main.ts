// The app's entry: a small router over history paths, one page at a time. Each page gets an
// AbortSignal that fires when the reader leaves it, so its streams and timers stop.
import "./style.css";
import { botPage } from "./pages/bot";
import { botsPage } from "./pages/bots";
import { ladderPage } from "./pages/ladder";
import { guidePage } from "./pages/guide";
import { lobbyPage } from "./pages/lobby";
import { replayPage } from "./pages/replay";
import { rulesPage } from "./pages/rules";
import { tablePage } from "./pages/table";
import { go } from "./nav";

let current: AbortController | undefined;

function route(): void {
  current?.abort();
  current = new AbortController();
  const app = document.getElementById("app")!;
  app.replaceChildren();
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
  let nav = "lobby";
  if (parts[0] === "table" && parts[1]) tablePage(app, parts[1], current.signal);
  else if (parts[0] === "replay" && parts[1]) replayPage(app, parts[1], current.signal);
  else if (parts[0] === "bots" && parts[1] === "guide") (nav = "guide"), void guidePage(app);
  else if (parts[0] === "bots" && parts[1]) (nav = "bots"), botPage(app, parts[1], current.signal);
  else if (parts[0] === "bots") (nav = "bots"), botsPage(app, current.signal);
  else if (parts[0] === "ladder") (nav = "ladder"), ladderPage(app, parts[1] ?? "straight-2", current.signal);
  else if (parts[0] === "rules") (nav = "rules"), void rulesPage(app, parts[1] ?? "straight");
  else lobbyPage(app, current.signal);
  for (const a of document.querySelectorAll<HTMLAnchorElement>("nav a")) a.classList.toggle("active", a.dataset.nav === nav);
}


// Same-origin links are the app's own pages; links within a page (#...) scroll as usual.
document.addEventListener("click", (e) => {
  const a = (e.target as Element).closest?.("a");
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || (url.pathname === location.pathname && url.hash)) return;
  e.preventDefault();
  go(url.pathname + url.search + url.hash);
});
window.addEventListener("popstate", route);
route();
