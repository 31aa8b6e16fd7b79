import Link from "next/link";
import { acquirerNameList } from "@/lib/acquirers/names";

// The public website host: what the service is and where to go next.
export default function HomePage() {
  return (
    <main className="mx-auto max-w-3xl px-6 py-16">
      <h1 className="text-3xl font-semibold tracking-tight">Card Payment Service</h1>
      <p className="mt-4 text-lg text-slate-600">
        A payment gateway in front of {acquirerNameList("and")}: hosted card fields for cardholders, a REST API for
        merchants&apos; servers, and signed notifications for every result.
      </p>
      <ul className="mt-8 space-y-3 text-slate-700">
        <li>
          <Link className="font-medium text-indigo-700 underline" href="/backoffice">
            Back office
          </Link>{" "}
          — API keys, notification URLs, hosted-field styling and payments.
        </li>
        <li>
          <span className="font-medium">Demo shop</span> — open <code>/demo-shop</code> on the other loopback name than
          this page (<code>127.0.0.1</code> if you are on <code>localhost</code>, and the other way round), so that the shop
          and the card fields are different origins, as they are for a real merchant.
        </li>
        <li>
          <Link className="font-medium text-indigo-700 underline" href="/api/health">
            Service health
          </Link>{" "}
          — the state of every interface, as JSON.
        </li>
      </ul>
    </main>
  );
}
