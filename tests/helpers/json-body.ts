// What the merchant-side receivers of the tests keep of a POST: its body as a JSON object.
import type http from "node:http";

/** The request's body parsed as a JSON object; {} when it is not JSON (a receiver records every POST, well-formed or not). */
export async function readJsonObject(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
  } catch {
    return {};
  }
}
