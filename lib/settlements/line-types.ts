// The acquirer's transaction types a settlement line can have (lib/acquirers/contract.ts
// AcquirerSettlementLine.type), each with the types of our operations it can be: the one table the
// line schema and the matching read (a type added to the contract fails to compile here).
import type { AcquirerSettlementLine } from "../acquirers/contract";
import type { OperationType } from "../generated/prisma/enums";

export type SettlementLineType = AcquirerSettlementLine["type"];

export const LINE_OPERATION_TYPES: Readonly<Record<SettlementLineType, readonly OperationType[]>> = {
  authorization: ["authorize"],
  capture: ["capture"],
  // A sale the acquirer books as a debit of the card: a capture on our side.
  debit: ["capture"],
  refund: ["refund"],
  // Money back to a card: a refund, or a payout (an original credit).
  credit: ["refund", "payout"],
  void: ["void"],
};

export const SETTLEMENT_LINE_TYPES = Object.keys(LINE_OPERATION_TYPES) as [SettlementLineType, ...SettlementLineType[]];
