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
        // The embedded executor's package (packages/inngest-embedded): its own suite, no app imports.
        test: {
          name: "inngest-embedded",
          include: ["packages/inngest-embedded/tests/**/*.test.ts"],
          environment: "node",
          sequence: { groupOrder: 0 },
        },
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
      {
        resolve: { alias },
        test: {
          // Attacks, each named after the item of the security issue it covers. scripts/test.sh runs
          // this project in a network namespace with loopback only, so no packet can leave the machine.
          name: "security",
          sequence: { groupOrder: 2 },
          include: ["tests/security/**/*.test.ts"],
          environment: "node",
          maxWorkers: 2,
          testTimeout: 120_000,
          hookTimeout: 300_000,
        },
      },
      {
        resolve: { alias },
        test: {
          // Fault injection: crashes, lost answers and acquirer faults at every step of the money flows.
          name: "faults",
          sequence: { groupOrder: 3 },
          include: ["tests/faults/**/*.test.ts"],
          environment: "node",
          maxWorkers: 2,
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
    ],
  },
});
