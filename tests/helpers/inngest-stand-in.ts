// A stand-in Inngest server on loopback for tests of the service in server mode (its
// INNGEST_BASE_URL): it keeps every request the service sends and answers each with one JSON body.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface InngestStandIn {
  /** The server's base URL, for INNGEST_BASE_URL. */
  url: string;
  /** Every request the service sent, with its body. */
  received: Array<{ method: string; url: string; body: string }>;
  close(): Promise<void>;
}

/** Starts the stand-in; `answer` is the JSON every request gets back (with 200). */
export async function startInngestStandIn(answer: unknown): Promise<InngestStandIn> {
  const received: InngestStandIn["received"] = [];
  const server = http.createServer((incoming, response) => {
    let body = "";
    incoming.on("data", (chunk: Buffer) => (body += chunk.toString()));
    incoming.on("end", () => {
      received.push({ method: incoming.method ?? "", url: incoming.url ?? "", body });
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
