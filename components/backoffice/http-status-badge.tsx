// An HTTP status as a badge: 2xx green, 4xx amber, 5xx (and no answer) red.
import { Badge } from "@/components/ui/badge";

export function HttpStatusBadge({ status }: { status: number | null }) {
  if (status === null) return <Badge tone="red">no answer</Badge>;
  return <Badge tone={status >= 200 && status < 300 ? "green" : status >= 500 ? "red" : status >= 400 ? "amber" : "slate"}>{status}</Badge>;
}
