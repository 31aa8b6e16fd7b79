// Which processors a payment tries, in order. The request's `processor` list wins; without one, the
// merchant's routing settings for the requested `rule` (1 primary, 2 secondary) decide; a merchant
// without settings for that rule falls back to rule 1, then to the service default.
import { db, type Tx } from "../db";
import { DEFAULT_ROUTING } from "../merchants/create-merchant";
import { isProcessorName, type ProcessorName } from "./types";

export interface ProcessorOrderOptions {
  requested?: readonly string[];
  /** The merchant's orders by rule number. */
  merchantRules: ReadonlyMap<number, readonly ProcessorName[]>;
  rule?: number;
}

/** Pure: the order from a request list or the merchant's rules (duplicates and unknown names dropped). */
export function processorOrder({ requested, merchantRules, rule = 1 }: ProcessorOrderOptions): ProcessorName[] {
  const unique = (names: readonly string[]) => [...new Set(names.filter(isProcessorName))];
  const fromRequest = unique(requested ?? []);
  if (fromRequest.length > 0) return fromRequest;
  const fromRule = unique(merchantRules.get(rule) ?? []);
  if (fromRule.length > 0) return fromRule;
  const primary = unique(merchantRules.get(1) ?? []);
  if (primary.length > 0) return primary;
  return [...DEFAULT_ROUTING[1]];
}

export interface ResolveRoutingOptions {
  merchantId: string;
  requested?: readonly string[];
  rule?: number;
  tx?: Tx;
}

export async function resolveRouting({ merchantId, requested, rule, tx }: ResolveRoutingOptions): Promise<ProcessorName[]> {
  if (requested && requested.some(isProcessorName)) return processorOrder({ requested, merchantRules: new Map(), rule });
  const rows = await (tx ?? db()).processorRouting.findMany({ where: { merchantId }, select: { rule: true, processors: true } });
  return processorOrder({ merchantRules: new Map(rows.map((row) => [row.rule, row.processors])), rule });
}
