// The embedded default database: PGlite (Postgres compiled to WebAssembly) with its data in
// DATA_DIR/pglite, served on 127.0.0.1 by pglite-socket so that Prisma's pg adapter, psql and the
// migration runner talk to it like any PostgreSQL server.
//
// Only one process may open the data folder. The process that opens it writes DATA_DIR/pglite.json
// ({pid, port}); other processes (the CLI while the service runs, for example) connect to that
// port instead of opening the folder.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { config, resetConfig } from "../env";
import { keepExtendedProtocolSequencesTogether } from "./pglite-extended-protocol-fix";

export interface EmbeddedPostgres {
  url: string;
  port: number;
  /** True when this process opened the data folder (and must stop it). */
  owner: boolean;
  stop(): Promise<void>;
}

interface ServerInfo {
  pid: number;
  port: number;
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

export function embeddedUrl(port: number): string {
  return `postgresql://postgres:postgres@127.0.0.1:${port}/postgres?sslmode=disable`;
}

async function findRunningServer(infoFile: string): Promise<ServerInfo | undefined> {
  if (!existsSync(infoFile)) return undefined;
  try {
    const info = JSON.parse(readFileSync(infoFile, "utf8")) as ServerInfo;
    if (info.pid !== process.pid && isProcessAlive(info.pid) && (await canConnect(info.port))) return info;
  } catch {
    // A stale or half-written file: treated as no server.
  }
  return undefined;
}

/**
 * Connects to the embedded database of `dataDir`, starting it in this process when no other
 * process serves it. `memory: true` starts a throwaway in-memory database (tests).
 */
export async function startEmbeddedPostgres(
  options: { dataDir?: string; port?: number; memory?: boolean; maxConnections?: number } = {},
): Promise<EmbeddedPostgres> {
  const dataDir = path.resolve(options.dataDir ?? config().DATA_DIR);
  const infoFile = path.join(dataDir, "pglite.json");
  const lockFile = path.join(dataDir, "pglite.lock");
  if (!options.memory) {
    mkdirSync(dataDir, { recursive: true });
    const running = await findRunningServer(infoFile);
    if (running) {
      return { url: embeddedUrl(running.port), port: running.port, owner: false, stop: async () => {} };
    }
    claimLock(lockFile);
  }
  const [{ PGlite }, { PGLiteSocketServer }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("@electric-sql/pglite-socket"),
  ]);
  const database = await PGlite.create(options.memory ? "memory://" : path.join(dataDir, "pglite"));
  const server = new PGLiteSocketServer({
    db: database,
    host: "127.0.0.1",
    port: options.port ?? config().EMBEDDED_DB_PORT,
    maxConnections: options.maxConnections ?? 100,
  });
  keepExtendedProtocolSequencesTogether(server);
  await server.start();
  const port = Number(server.getServerConn().split(":").pop());
  if (!options.memory) writeFileSync(infoFile, JSON.stringify({ pid: process.pid, port } satisfies ServerInfo));
  let stopped = false;
  return {
    url: embeddedUrl(port),
    port,
    owner: true,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await database.close();
      if (!options.memory) {
        rmSync(infoFile, { force: true });
        rmSync(lockFile, { force: true });
      }
    },
  };
}

/** Takes the data folder's lock file, or explains who holds it. */
function claimLock(lockFile: string): void {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockFile, "wx");
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(lockFile, "utf8"));
      if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isProcessAlive(holder)) {
        throw new Error(
          `The embedded database in ${path.dirname(lockFile)} is held by process ${holder}, which does not answer. Stop it, or set DATABASE_URL.`,
        );
      }
      rmSync(lockFile, { force: true }); // left by a process that died
    }
  }
  throw new Error(`Could not lock ${lockFile}`);
}

/**
 * For scripts (CLI, migrations): makes sure DATABASE_URL points at a database, starting the
 * embedded one when none is configured. Returns a function that stops what was started.
 */
export async function ensureDatabaseUrl(): Promise<() => Promise<void>> {
  if (config().DATABASE_URL) return async () => {};
  const embedded = await startEmbeddedPostgres();
  process.env.DATABASE_URL = embedded.url;
  resetConfig();
  return () => embedded.stop();
}
