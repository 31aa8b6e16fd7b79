// Secrets the operator CLI reads without a command line (which shows in ps and in shell history):
// typed at a prompt without echo when standard input is a terminal, else read from standard input.
// Prompts go to standard error, so that standard output stays the command's result (--json).
import { createInterface } from "node:readline/promises";
import { Writable } from "node:stream";

export function standardInputIsTerminal(): boolean {
  return Boolean(process.stdin.isTTY);
}

async function ask(question: string, echo: boolean): Promise<string> {
  let muted = false;
  const output = new Writable({
    write(chunk, _encoding, done) {
      if (!muted) process.stderr.write(chunk);
      done();
    },
  });
  const prompt = createInterface({ input: process.stdin, output, terminal: true });
  try {
    process.stderr.write(question);
    muted = !echo;
    const answer = await prompt.question("");
    muted = false;
    if (!echo) process.stderr.write("\n");
    return answer;
  } finally {
    prompt.close();
  }
}

/** One answer typed at the terminal, not echoed. */
export const promptHidden = (question: string) => ask(question, false);
/** One answer typed at the terminal, echoed (identifiers, not secrets). */
export const promptVisible = (question: string) => ask(question, true);

/** All of standard input, as text. */
export async function readStandardInput(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
