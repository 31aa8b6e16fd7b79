// Xacquirer's published test cards: REPLACE with the acquirer's own list (docs/acquirers/references/
// <name>.md, "Test cards"). Live mode refuses them; test mode takes them.
export const XACQUIRER_TEST_CARDS: readonly string[] = [];
