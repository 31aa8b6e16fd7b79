// The columns of a dispute that the merchant sees (its `dispute` notification body, the back office's
// and the merchant API's lists): one select, so that a new column reaches every view of it.
export const DISPUTE_FIELDS = {
  id: true,
  paymentId: true,
  operationId: true,
  transactionId: true,
  kind: true,
  status: true,
  reasonCode: true,
  reason: true,
  amount: true,
  currency: true,
  partial: true,
  openedOn: true,
  dueOn: true,
  expiresOn: true,
  answers: true,
} as const;
