// pglite-socket 0.2.17 serves every connection from PGlite's single session and queues incoming
// messages one by one, taking turns between connections. Outside a transaction it may run one
// connection's Parse, then another's Parse, then the first one's Bind: both use the session's
// unnamed statement, so concurrent queries fail with "bind message supplies 2 parameters, but
// prepared statement "" requires 6" or "unnamed prepared statement does not exist". This patch
// keeps serving one connection from its first extended-protocol message up to its Sync, as the
// library already does for transactions. (Also fixed: a failed message no longer stalls the queue.)

/** Frontend messages that belong to an extended-protocol sequence ended by Sync ('S'). */
const EXTENDED = new Set(["P", "B", "D", "E", "C", "H"].map((letter) => letter.charCodeAt(0)));
const SYNC = "S".charCodeAt(0);

interface QueuedMessage {
  handlerId: number;
  message: Uint8Array;
  resolve(bytes: number): void;
  reject(error: unknown): void;
  onData(data: Uint8Array): void;
}

interface QueryQueue {
  queue: QueuedMessage[];
  processing: boolean;
  lastHandlerId: number | null;
  db: {
    isInTransaction(): boolean;
    runExclusive<T>(fn: () => Promise<T>): Promise<T>;
    execProtocolRawStream(message: Uint8Array, options: { onRawData(data: Uint8Array): void }): Promise<void>;
  };
  processQueue(): Promise<void>;
  clearQueueForHandler(handlerId: number): void;
}

export function keepExtendedProtocolSequencesTogether(server: object): void {
  const queue = (server as { queryQueue?: QueryQueue }).queryQueue;
  if (!queue || typeof queue.processQueue !== "function" || !Array.isArray(queue.queue)) {
    throw new Error("pglite-socket changed: its query queue is not where lib/db/pglite-extended-protocol-fix.ts expects it");
  }
  let sequenceOwner: number | null = null;

  queue.processQueue = async function processQueue(this: QueryQueue): Promise<void> {
    if (this.processing || this.queue.length === 0) return;
    this.processing = true;
    try {
      while (this.queue.length > 0) {
        const owner = sequenceOwner ?? (this.db.isInTransaction() ? this.lastHandlerId : null);
        let item: QueuedMessage | undefined;
        if (owner !== null) {
          const index = this.queue.findIndex((queued) => queued.handlerId === owner);
          if (index === -1) break; // wait for the owner's next message
          item = this.queue.splice(index, 1)[0];
        } else {
          item = this.queue.shift();
        }
        if (!item) break;
        const current = item;
        const type = current.message[0] ?? 0;
        if (EXTENDED.has(type)) sequenceOwner = current.handlerId;
        else if (type === SYNC || sequenceOwner === current.handlerId) sequenceOwner = null;
        let bytes = 0;
        try {
          await this.db.runExclusive(() =>
            this.db.execProtocolRawStream(current.message, {
              onRawData: (data) => {
                bytes += data.length;
                current.onData(data);
              },
            }),
          );
        } catch (error) {
          current.reject(error);
          continue;
        }
        this.lastHandlerId = current.handlerId;
        current.resolve(bytes);
      }
    } finally {
      this.processing = false;
    }
  };

  const clearQueueForHandler = queue.clearQueueForHandler.bind(queue);
  queue.clearQueueForHandler = (handlerId: number) => {
    clearQueueForHandler(handlerId);
    if (sequenceOwner === handlerId) {
      sequenceOwner = null;
      void queue.processQueue();
    }
  };
}
