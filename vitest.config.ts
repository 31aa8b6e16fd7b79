import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname) };

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node", sequence: { groupOrder: 0 } },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          // Unit files run first; integration files after them, two at a time.
          sequence: { groupOrder: 1 },
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          // Each file gets its own database; two cores run two files at a time.
          maxWorkers: 2,
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
