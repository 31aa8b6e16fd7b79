// @cps/inngest-embedded: the part of an Inngest server that this app needs, on PostgreSQL. The
// public API, and nothing else (README.md): start/stop an executor, send and store events, list
// runs, and the protocol it speaks to the SDK's serve handler.

// The executor: start(), stop(), drain(), wake().
export { EmbeddedExecutor, type EmbeddedExecutorOptions, type ExecutorLogger } from "./embedded-executor";
export { listenForWork, type WorkListener } from "./work-notifications";
export { systemClock, TestClock, type Clock } from "./clock";
export type { ExecutorDatabase, QueryRunner, RunStatus } from "./database";

// Events: the SDK's event API answered in-process, and an event stored in the caller's transaction.
export { EMBEDDED_EVENT_API_BASE_URL, EMBEDDED_EVENT_KEY, embeddedAwareFetch } from "./embedded-event-api";
export { acceptEvents, incomingEventSchema, storeEvent, storeEventIfWritten, type IncomingEvent } from "./accept-events";
export { wakeLocalExecutors } from "./local-executors";
// An event's ts ahead of the database's clock by more than this delays its runs' start.
export { FUTURE_TS_MARGIN_MS } from "./start-runs";

// Runs, for the back office and the CLI.
export { formatRunsTable, listRuns, listRunsFilterSchema, type ListRunsFilter, type RunSummary } from "./list-runs";

// The protocol with the SDK's serve handler.
export { callFunction, type CallOutcome, type DirectAnswer, type DirectCall, type DirectInvoke, type ServeHandler } from "./call-function";
export { signatureHeader, verifySignature } from "./signature";
export { UnsupportedFunctionsError, type FunctionDefinition } from "./sync-functions";

// Server mode: the same outbox rows forwarded to an Inngest server.
export { forwardEvents, startEventRelay, type EventRelayOptions, type SendToServer } from "./forward-events";
