// Raw HTTP requests for the security suite's attacks on a running service: uploads of any size,
// declared or chunked, that may pause half-way (to see whether the answer comes before the body
// ends), and the server's memory growth while an attack runs.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { rssBytes, sampleRss } from "./process-memory";
import { quietFor } from "./eventually";

export const MB = 1024 * 1024;

export interface UploadOptions {
  port: number;
  path: string;
  method?: string;
  /** Bytes of filler to send (the whole body). */
  bytes: number;
  headers?: Record<string, string>;
  /** No Content-Length: Transfer-Encoding chunked. */
  chunked?: boolean;
  filler?: string;
  /** Stop after this many bytes and wait `pauseMs` before sending the rest. */
  pauseAfterBytes?: number;
  pauseMs?: number;
  /** Bytes per write; default 1 MB (or less than the pause point). */
  chunkBytes?: number;
  /** Connect from this loopback address. */
  localAddress?: string;
}

export interface UploadResult {
  status: number;
  body: string;
  headers: http.IncomingHttpHeaders;
  /** Whether the answer came before the client had sent its last byte (the body was not awaited). */
  answeredBeforeEnd: boolean;
  /** Bytes written before the answer came (or all of them). */
  sentBeforeAnswer: number;
}

/**
 * POSTs `bytes` of filler as fast as the server takes them (or with one pause); resolves with the
 * answer. Sending stops once the answer has come (the upload may be cut off).
 */
export function upload(options: UploadOptions): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...(options.headers ?? {}) };
    if (options.chunked) headers["transfer-encoding"] = "chunked";
    else headers["content-length"] = options.bytes;
    const request = http.request({
      host: "127.0.0.1",
      port: options.port,
      path: options.path,
      method: options.method ?? "POST",
      headers,
      agent: false,
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    let answered = false;
    let ended = false;
    let sent = 0;
    let sentBeforeAnswer = 0;
    request.on("response", (response) => {
      answered = true;
      sentBeforeAnswer = sent;
      const answeredBeforeEnd = !ended;
      let body = "";
      const done = () =>
        resolve({ status: response.statusCode ?? 0, body, headers: response.headers, answeredBeforeEnd, sentBeforeAnswer });
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", done);
      response.on("error", done);
    });
    request.on("error", (error) => {
      if (!answered) reject(error);
    });
    const chunkBytes = options.chunkBytes ?? MB;
    const chunk = Buffer.alloc(chunkBytes, options.filler ?? "1");
    let paused = false;
    const pump = () => {
      while (sent < options.bytes && !answered && !request.destroyed) {
        if (options.pauseAfterBytes !== undefined && !paused && sent >= options.pauseAfterBytes) {
          paused = true;
          setTimeout(pump, options.pauseMs ?? 3_000);
          return;
        }
        const limit = options.pauseAfterBytes !== undefined && !paused ? options.pauseAfterBytes : options.bytes;
        const piece = chunk.subarray(0, Math.min(chunkBytes, limit - sent, options.bytes - sent));
        sent += piece.length;
        if (!request.write(piece)) return void request.once("drain", pump);
      }
      if (!request.destroyed && !ended) {
        ended = true;
        request.end();
      }
    };
    pump();
  });
}

/** The largest of ten RSS samples of `pid` 200 ms apart: its idle size. */
export async function idleRss(pid: number): Promise<number> {
  const samples: number[] = [];
  for (let index = 0; index < 10; index++) {
    samples.push(rssBytes(pid));
    await quietFor(200, "between two RSS samples");
  }
  return Math.max(...samples);
}

/**
 * Runs `attack` while sampling the RSS of `pid`; returns the peak growth over idle: the higher of
 * `idle` (measured once, before a file's tests) and the RSS right before the attack. Between two
 * tests a server's RSS drifts by tens of MB with no attack at all (V8's young generation touching
 * its pages, the memory reducer handing them back): the same test read -21.6 MB in one full CI run
 * and +56.2 MB in the next, a step that came between two tests and stayed. Only a baseline taken
 * just before the attack leaves that out; an attack that reads what it must not still shows its
 * size on top of it.
 */
export async function growthDuring(pid: number, idle: number, attack: () => Promise<void>, settleMs = 1_500): Promise<number> {
  const before = Math.max(idle, await idleRss(pid));
  const sampler = sampleRss(pid);
  await attack();
  await quietFor(settleMs, "anything the attack left behind (a body still being read, a parse) runs its course");
  return sampler.stop() - before;
}

/**
 * A merchant's notification receiver on loopback, the far end of the attacks that go through a
 * notification: counts what it gets and answers each with `answer` (by default 200 "ok").
 */
export async function countingReceiver(answer: (response: http.ServerResponse) => void = (response) => response.writeHead(200).end("ok")) {
  let received = 0;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      received++;
      answer(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/notify`,
    received: () => received,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}
