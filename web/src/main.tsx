import { render } from "preact";
import { App } from "./app";
import { finishSignIn, loadConfig } from "./cloud";
import { refresh } from "./load";
import { reroute } from "./router";
import "./style.css";

// Which stage this is (/config.json), and a code back from Cognito's hosted UI, before the
// first screen
void loadConfig()
  .then((config) => (config.mode === "cognito" ? finishSignIn(config) : false))
  .catch(() => false)
  .then(() => {
    reroute();
    render(<App />, document.getElementById("app")!);
  });

if ("serviceWorker" in navigator) {
  const controlled = Boolean(navigator.serviceWorker.controller);
  // On the first visit the worker takes the page over once installed: load the screen's data
  // again through it, so the pass and the board of that visit are already cached offline.
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (!controlled) refresh();
  });
  void navigator.serviceWorker.register("/sw.js");
}
