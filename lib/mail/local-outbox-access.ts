// Who may read the local outbox (/backoffice/outbox: the mails a local service without SMTP_URL kept,
// reset and invitation links included; security review 4, L3): the developer's own browser, that is a
// client on this machine (its address loopback, by the service's one client-address rule) that
// names a loopback host. Another Host header is refused as well, since a page of another site can
// reach a port on localhost through DNS rebinding, but only under its own host name; and a service
// bound beyond loopback (HOST) does not show the outbox to the network. Production has no outbox.
import { clientIp, normalizeIp } from "../http/client-ip";

type HeaderBag = Headers | Record<string, string | string[] | undefined>;

function isLoopbackAddress(address: string | null): boolean {
  if (!address) return false;
  return address === "::1" || /^127\.\d+\.\d+\.\d+$/.test(address);
}

/** The host name of a Host header (port and IPv6 brackets removed), lower case; null when malformed. */
function hostName(host: string | null): string | null {
  if (!host) return null;
  try {
    return new URL(`http://${host}`).hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  } catch {
    return null;
  }
}

export function mayReadLocalOutbox(headers: HeaderBag): boolean {
  const bag = headers instanceof Headers ? headers : new Headers();
  if (!(headers instanceof Headers)) {
    for (const [name, value] of Object.entries(headers)) if (value !== undefined) bag.set(name, String(value));
  }
  if (!isLoopbackAddress(clientIp(bag))) return false;
  const name = hostName(bag.get("host"));
  return name === "localhost" || isLoopbackAddress(normalizeIp(name));
}
