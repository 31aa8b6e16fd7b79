// An in-memory embedded database (PGlite) served on 127.0.0.1 the way lib/db/embedded-postgres.ts
// serves its memory mode (pglite-socket, the extended-protocol fix, a password of its own), that can
// start from the dump of another one (PGlite's loadDataDir) and dump itself: how the integration
// suites clone a migrated template instead of migrating every file's database
// (tests/helpers/test-database.ts). The service's embedded database stays lib's.
import { randomBytes } from "node:crypto";
import { embeddedUrl } from "@/lib/db/embedded-postgres";
import { requirePasswordOnConnect } from "@/lib/db/embedded-db-auth";
import { keepExtendedProtocolSequencesTogether } from "@/lib/db/pglite-extended-protocol-fix";

export interface DumpableEmbedded {
  url: string;
  /** The data folder as a gzipped tar (PGlite's dumpDataDir), for loadDataDir. */
  dump(): Promise<Buffer>;
  stop(): Promise<void>;
}

/** Starts an in-memory embedded database, from `dump` when given, on a free port. */
export async function startEmbeddedFromDump(dump?: Buffer): Promise<DumpableEmbedded> {
  const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([import("@electric-sql/pglite"), import("@electric-sql/pglite-socket")]);
  const database = await PGlite.create("memory://", dump ? { loadDataDir: new Blob([new Uint8Array(dump)]) } : {});
  const password = randomBytes(24).toString("base64url");
  const server = new PGLiteSocketServer({ db: database, host: "127.0.0.1", port: 0, maxConnections: 100 });
  keepExtendedProtocolSequencesTogether(server);
  requirePasswordOnConnect(server, password);
  await server.start();
  const port = Number(server.getServerConn().split(":").pop());
  let stopped = false;
  return {
    url: embeddedUrl(port, password),
    async dump() {
      return Buffer.from(await (await database.dumpDataDir("gzip")).arrayBuffer());
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await database.close();
    },
  };
}
