// Moving between the app's pages without reloading: the router in main.ts listens for popstate.
export function go(path: string): void {
  history.pushState(null, "", path);
  window.dispatchEvent(new PopStateEvent("popstate"));
  window.scrollTo(0, 0);
}
