import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

// Django serves the build from frontend/dist at the site root (one origin), and the dev
// server proxies the API to a locally running Django.
export default defineConfig({
  plugins: [react()],
  base: "/",
  build: { outDir: "dist", emptyOutDir: true, sourcemap: true },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/admin": "http://127.0.0.1:8000",
      "/static": "http://127.0.0.1:8000",
    },
  },
  test: { environment: "node", include: ["src/**/*.test.ts"] },
});
