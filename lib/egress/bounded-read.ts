// An answer from a destination we do not control (a merchant's endpoint, a link an acquirer's answer
// named) is read only up to what we keep of it: a body of any size costs at most `limit` bytes.

/** The first `limit` bytes of `body` as text; the rest is never read (leaving the loop cancels the stream). */
export async function boundedText(body: AsyncIterable<Uint8Array> | null, limit: number): Promise<string> {
  if (!body) return "";
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    length += chunk.byteLength;
    if (length >= limit) break;
  }
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit));
}
