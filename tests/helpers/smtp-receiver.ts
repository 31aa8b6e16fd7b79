// A real SMTP server on 127.0.0.1 (the smtp-server package) that keeps every mail it is given: what
// the service's mail goes through in tests, end to end over SMTP.
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  /** The message as received, quoted-printable soft breaks undone. */
  text: string;
}

export interface SmtpReceiver {
  url: string;
  mails: ReceivedMail[];
  /** The first https?:// link of the latest mail to `to`. */
  linkTo(to: string): string | undefined;
  close(): Promise<void>;
}

export async function startSmtpReceiver(): Promise<SmtpReceiver> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.setEncoding("utf8");
      stream.on("data", (chunk: string) => (raw += chunk));
      stream.on("end", () => {
        const text = raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
        mails.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), text });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    linkTo(to) {
      const mail = [...mails].reverse().find((each) => each.to.includes(to));
      return mail?.text.match(/https?:\/\/\S+/)?.[0];
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
