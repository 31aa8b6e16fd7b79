// The cardholder a request names (`customer`: email, firstname, surename, ipaddress) as the session
// and payment rows store it: a column each, null for what was not sent.
import type { z } from "zod";
import type { customerSchema } from "../validation/common";

export function customerColumns(customer: z.infer<typeof customerSchema> | undefined) {
  return {
    customerEmail: customer?.email ?? null,
    customerFirstName: customer?.firstname ?? null,
    customerSurname: customer?.surename ?? null,
    customerIpAddress: customer?.ipaddress ?? null,
  };
}
