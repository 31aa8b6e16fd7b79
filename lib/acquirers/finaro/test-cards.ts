// Finaro's (Credorax) published test cards: the ActiveMerchant remote test and the Paylands page
// (docs/acquirers/references/finaro.md, "Test cards"). Live mode refuses them; test mode takes them.
export const FINARO_TEST_CARDS = [
  "4018810000100036",
  "5223450000000007",
  "4176661000001111",
  "5455330200000016",
  "4123560000000072",
  "4123560000000429",
  "4176660000000266",
  "4012001038443335",
  "4018810001010010",
  "4018810000150015",
  "4018810000190011",
  "4548812049400004",
  "4176661000001015",
  "5473470000000010",
] as const;
