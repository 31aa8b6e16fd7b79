// Clearhaus' published test cards: test_card_numbers.md (docs/acquirers/references/clearhaus.md,
// "Test rules"). Live mode refuses them; test mode takes them.
export const CLEARHAUS_TEST_CARDS = ["2221000000000009", "4111111111111111", "5000000000000004", "5500000000000004", "4200000000000000"] as const;
