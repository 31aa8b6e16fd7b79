// Password authentication for the embedded database's loopback port. pglite-socket 0.2.17 has none:
// every local user (and every process of theirs) could connect to 127.0.0.1:<port> and read or change
// the data. This puts a SCRAM-SHA-256 exchange (RFC 5802/7677, as PostgreSQL does it) in front of
// pglite-socket's connection handler: the startup message is held back until the client proved it
// knows the password, then handed to PGlite as if it had just arrived. Clients (node-postgres, psql,
// Prisma's pg adapter) see an ordinary PostgreSQL server that asks for a password.
// Not used: pg-gateway (a whole wire-protocol server), because the service relies on pglite-socket's
// per-connection queue and our fix of it (pglite-extended-protocol-fix.ts); we only need the handshake.
import { createHash, createHmac, pbkdf2Sync, randomBytes, timingSafeEqual } from "node:crypto";
import type net from "node:net";

const PROTOCOL_3 = 196608;
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
const ITERATIONS = 4096;
const HANDSHAKE_TIMEOUT_MS = 10_000;
const MAX_HANDSHAKE_BYTES = 16_384;

interface ScramKeys {
  salt: Buffer;
  storedKey: Buffer;
  serverKey: Buffer;
}

const hmac = (key: Buffer, text: string) => createHmac("sha256", key).update(text).digest();

function scramKeys(password: string): ScramKeys {
  const salt = randomBytes(16);
  const salted = pbkdf2Sync(password.normalize("NFKC"), salt, ITERATIONS, 32, "sha256");
  return { salt, storedKey: createHash("sha256").update(hmac(salted, "Client Key")).digest(), serverKey: hmac(salted, "Server Key") };
}

function authMessage(code: number, body: Buffer | string = Buffer.alloc(0)): Buffer {
  const data = Buffer.isBuffer(body) ? body : Buffer.from(body, "utf8");
  const out = Buffer.alloc(9 + data.length);
  out.write("R", 0);
  out.writeInt32BE(8 + data.length, 1);
  out.writeInt32BE(code, 5);
  data.copy(out, 9);
  return out;
}

function fatal(message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0VFATAL\0C28P01\0M${message}\0\0`, "utf8");
  const out = Buffer.alloc(5 + fields.length);
  out.write("E", 0);
  out.writeInt32BE(4 + fields.length, 1);
  fields.copy(out, 5);
  return out;
}

/**
 * Reads the client's messages until the SCRAM exchange is done. Resolves to the bytes to hand to
 * PGlite (the startup message and anything after the last SCRAM message), or null when the client
 * failed (the socket is then closed).
 */
function authenticate(socket: net.Socket, keys: ScramKeys): Promise<Buffer | null> {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    let startup: Buffer | undefined;
    let clientFirstBare = "";
    let serverFirst = "";
    let nonce = "";
    let settled = false;
    const finish = (result: Buffer | null, error?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.pause();
      socket.off("data", onData);
      socket.off("error", onClose);
      socket.off("close", onClose);
      if (result === null) {
        if (error && socket.writable) socket.end(fatal(error));
        else socket.destroy();
      }
      resolve(result);
    };
    const onClose = () => finish(null);
    const timer = setTimeout(() => finish(null, "authentication timed out"), HANDSHAKE_TIMEOUT_MS);

    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (buffer.length > MAX_HANDSHAKE_BYTES) return finish(null, "handshake too large");
      try {
        for (;;) {
          if (!startup) {
            if (buffer.length < 8) return;
            const length = buffer.readInt32BE(0);
            if (length < 8 || length > MAX_HANDSHAKE_BYTES) return finish(null, "invalid startup packet");
            if (buffer.length < length) return;
            const code = buffer.readInt32BE(4);
            const packet = buffer.subarray(0, length);
            buffer = buffer.subarray(length);
            if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
              socket.write("N"); // no TLS on the loopback port; the client goes on in clear
              continue;
            }
            if (code === CANCEL_REQUEST) return finish(null);
            if (code !== PROTOCOL_3) return finish(null, "unsupported protocol version");
            startup = Buffer.from(packet);
            socket.write(authMessage(10, "SCRAM-SHA-256\0\0"));
            continue;
          }
          if (buffer.length < 5) return;
          const length = buffer.readInt32BE(1);
          if (buffer[0] !== 0x70 /* 'p' */ || length < 4) return finish(null, "expected a password message");
          if (buffer.length < 1 + length) return;
          const body = buffer.subarray(5, 1 + length);
          buffer = buffer.subarray(1 + length);
          if (!serverFirst) {
            // SASLInitialResponse: mechanism\0, int32 length, client-first-message ("n,,n=...,r=...").
            const end = body.indexOf(0);
            if (end < 0 || body.subarray(0, end).toString() !== "SCRAM-SHA-256") return finish(null, "password authentication failed");
            const clientFirst = body.subarray(end + 5).toString("utf8");
            if (!clientFirst.startsWith("n,,")) return finish(null, "password authentication failed");
            clientFirstBare = clientFirst.slice(3);
            const clientNonce = /(?:^|,)r=([^,]+)/.exec(clientFirstBare)?.[1];
            if (!clientNonce) return finish(null, "password authentication failed");
            nonce = clientNonce + randomBytes(18).toString("base64");
            serverFirst = `r=${nonce},s=${keys.salt.toString("base64")},i=${ITERATIONS}`;
            socket.write(authMessage(11, serverFirst));
            continue;
          }
          // SASLResponse: client-final-message "c=biws,r=<nonce>,p=<proof>".
          const clientFinal = body.toString("utf8");
          const proofAt = clientFinal.lastIndexOf(",p=");
          const withoutProof = proofAt < 0 ? "" : clientFinal.slice(0, proofAt);
          const proof = Buffer.from(clientFinal.slice(proofAt + 3), "base64");
          if (proofAt < 0 || !withoutProof.startsWith("c=biws,") || !withoutProof.includes(`r=${nonce}`) || proof.length !== 32) {
            return finish(null, "password authentication failed");
          }
          const message = `${clientFirstBare},${serverFirst},${withoutProof}`;
          const signature = hmac(keys.storedKey, message);
          const clientKey = Buffer.from(proof.map((byte, index) => byte ^ signature[index]!));
          if (!timingSafeEqual(createHash("sha256").update(clientKey).digest(), keys.storedKey)) return finish(null, "password authentication failed");
          socket.write(authMessage(12, `v=${hmac(keys.serverKey, message).toString("base64")}`));
          return finish(Buffer.concat([startup, buffer]));
        }
      } catch {
        finish(null, "password authentication failed");
      }
    };
    socket.on("data", onData);
    socket.on("error", onClose);
    socket.on("close", onClose);
  });
}

/** Makes pglite-socket's server ask every connection for `password` (SCRAM-SHA-256) before PGlite sees it. */
export function requirePasswordOnConnect(server: object, password: string): void {
  const target = server as { handleConnection?: (socket: net.Socket) => Promise<void> };
  const original = target.handleConnection;
  if (typeof original !== "function") {
    throw new Error("pglite-socket changed: its connection handler is not where lib/db/embedded-db-auth.ts expects it");
  }
  const keys = scramKeys(password);
  target.handleConnection = async function handleAuthenticatedConnection(this: unknown, socket: net.Socket) {
    const pending = await authenticate(socket, keys);
    if (!pending) return;
    // pglite-socket attaches its data listener synchronously inside the call; the socket stays
    // paused until then, so no byte is lost between our listener and theirs.
    const attached = original.call(this, socket);
    socket.emit("data", pending);
    socket.resume();
    await attached;
  };
}
