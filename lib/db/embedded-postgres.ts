// The embedded default database: PGlite (Postgres compiled to WebAssembly) with its data in
// DATA_DIR/pglite, served on 127.0.0.1 by pglite-socket so that Prisma's pg adapter, psql and the
// migration runner talk to it like any PostgreSQL server.
//
// Only one process may open the data folder. The process that opens it writes DATA_DIR/pglite.json
// ({pid, port}); other processes (the CLI while the service runs, for example) connect to that
// port instead of opening the folder.
//
// Other local users are kept out twice: DATA_DIR and everything in it is the owner's only (folders
// 0700, files 0600, applied again at every start so that folders made by earlier versions are fixed),
// and the port asks for a password (SCRAM-SHA-256, lib/db/embedded-db-auth.ts) generated once into
// the 0600 secrets file (lib/local-secrets.ts). The URL handed to the service carries it.
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, openSync, closeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import net from "node:net";
import path from "node:path";
import { config, resetConfig } from "../env";
import { loadOrCreateEmbeddedDbPassword, readEmbeddedDbPassword } from "../local-secrets";
import { requirePasswordOnConnect } from "./embedded-db-auth";
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

export function embeddedUrl(port: number, password: string): string {
  return `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres?sslmode=disable`;
}

/** New files of this process (and of the children it starts) get no group or other permissions. */
function ownerOnlyUmask(): void {
  try {
    const previous = process.umask(0o077);
    process.umask(previous | 0o077);
  } catch {
    // Not allowed in worker threads; the 0700 folder still shuts other users out, and stop() fixes the modes.
  }
}

/** Folders 0700, files 0600, from `root` down (symbolic links are left alone). */
export function restrictToOwner(root: string): void {
  if (!existsSync(root)) return;
  const stat = lstatSync(root);
  if (stat.isSymbolicLink()) return;
  if (stat.isDirectory()) {
    chmodSync(root, 0o700);
    for (const child of readdirSync(root)) restrictToOwner(path.join(root, child));
  } else {
    chmodSync(root, 0o600);
  }
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
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const running = await findRunningServer(infoFile);
    if (running) {
      const password = readEmbeddedDbPassword(dataDir);
      if (!password) throw new Error(`The embedded database in ${dataDir} runs, but its password is not in ${path.join(dataDir, "secrets.json")}.`);
      return { url: embeddedUrl(running.port, password), port: running.port, owner: false, stop: async () => {} };
    }
    claimLock(lockFile);
    restrictToOwner(dataDir);
    // Files PGlite creates from now on (new tables, WAL segments) are the owner's only as well.
    ownerOnlyUmask();
  }
  // A throwaway database (tests) gets a password of its own that lives only in this process.
  const password = options.memory ? randomBytes(24).toString("base64url") : loadOrCreateEmbeddedDbPassword(dataDir);
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
  requirePasswordOnConnect(server, password);
  await server.start();
  // PGlite wrote its files with the process umask; the 0700 folder already shuts others out.
  if (!options.memory) restrictToOwner(dataDir);
  const port = Number(server.getServerConn().split(":").pop());
  if (!options.memory) writeFileSync(infoFile, JSON.stringify({ pid: process.pid, port } satisfies ServerInfo), { mode: 0o600 });
  let stopped = false;
  return {
    url: embeddedUrl(port, password),
    port,
    owner: true,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await database.close();
      if (!options.memory) {
        restrictToOwner(dataDir);
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
