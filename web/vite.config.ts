// The mobile web front end's build: `npm run web:build` (from the repository root) writes
// web/dist/, which the local stack serves at `/` (local/server.py).
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { defineConfig, type Plugin } from "vite";

/** sw.js with the list of built files to precache (the app shell) and a version from their names. */
function serviceWorker(): Plugin {
  return {
    name: "tavla-service-worker",
    apply: "build",
    generateBundle(_options, bundle) {
      const files = Object.keys(bundle).map((name) => `/${name}`);
      const shell = ["/", "/index.html", "/manifest.webmanifest", "/icon.svg", ...files.filter((f) => f !== "/index.html")];
      const version = createHash("sha256").update(shell.join("\n")).digest("hex").slice(0, 12);
      const source = readFileSync(resolve(__dirname, "sw.js"), "utf8")
        .replace("__VERSION__", version)
        .replace("__SHELL__", JSON.stringify(shell));
      this.emitFile({ type: "asset", fileName: "sw.js", source });
    },
  };
}

export default defineConfig({
  base: "/",
  esbuild: { jsx: "automatic", jsxImportSource: "preact" },
  plugins: [serviceWorker()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2020",
    reportCompressedSize: false,
  },
});
