// Runs once when the Next.js server starts: starts the in-process background services
// (the embedded Inngest executor and the acquirer sandboxes) where the configuration asks for them.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startBackgroundServices } = await import("./lib/jobs/start-background-services");
  await startBackgroundServices();
}
