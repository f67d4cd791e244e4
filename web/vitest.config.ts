// Unit tests of the front end's pure code (formats, amounts, refusals, plurals, routes, live deltas), in
// Node with a minimal browser stand-in (web/test/setup.ts): no browser needed.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["web/test/**/*.test.ts", "web/src/**/*.test.ts"],
    setupFiles: ["web/test/setup.ts"],
    environment: "node",
  },
});
