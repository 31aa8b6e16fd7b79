// The card numbers the card industry publishes for testing: live mode refuses them (a live payment
// with one is declined before any acquirer call) and test mode takes only them (docs/decisions.md,
// "Test mode and live mode"). Built from the references, never from our sandboxes: the acquirers'
// own test cards (docs/acquirers/references/*.md, each list named below), the directory server's
// documented examples, and the numbers every gateway's documentation uses (Stripe's test cards,
// which are also the industry's common ones). Pure and browser-safe: the hosted fields use it too.

/** Published test numbers, by where they are published. */
const PUBLISHED_TEST_CARDS: Record<string, readonly string[]> = {
  // The common ones, in every gateway's documentation (Stripe "Testing", Braintree, Adyen, Rapyd ...).
  industry: [
    "4111111111111111",
    "4242424242424242",
    "4012888888881881",
    "4222222222222",
    "4000056655665556",
    "5555555555554444",
    "5105105105105100",
    "5200828282828210",
    "2223003122003222",
    "378282246310005",
    "371449635398431",
    "6011111111111117",
    "6011000990139424",
    "3530111333300000",
    "3566002020360505",
    "30569309025904",
    "38520000023237",
    "4462030000000000",
  ],
  // Clearhaus, test_card_numbers.md (docs/acquirers/references/clearhaus.md, "Test rules").
  clearhaus: ["2221000000000009", "4111111111111111", "5000000000000004", "5500000000000004", "4200000000000000"],
  // Finaro (Credorax), the ActiveMerchant remote test and the Paylands page (finaro.md, "Test cards").
  finaro: [
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
  ],
  // Bambora (Worldline), test_cards.md and the 3-D Secure guide (bambora.md, "Test cards").
  bambora: [
    "4030000010001234",
    "5100000010001004",
    "2223000048400011",
    "371100001000131",
    "6011500080009080",
    "4003050500040005",
    "5100000020002000",
    "342400001000180",
    "6011000900901111",
    "4123450131003312",
    "5105105105105100",
    "375987000000088",
    "4504481742333",
    "4485349439401891",
    "5396191225134160",
    "4539939815032280",
    "5366520542338805",
    "4872385877270993",
    "4294215026184763",
    "4104631199283796",
    "4716519788977219",
    "4635691262664247",
    "4567350000427977",
  ],
  // 3dsecure.io's documented sandbox examples (threedsecureio.md, "Sandbox test cards").
  threeds: [
    "5000100411110203",
    "4000100511112003",
    "6000100611111103",
    "3000100811111072",
    "7000100911112070",
    "3000101011111071",
    "9000100111111111",
  ],
};

/**
 * Ranges published as test-only: Stripe's scenario cards are all 4000 0000 0000 xxxx (declines,
 * insufficient funds, processing errors, 3-D Secure: 4000000000000002, ...9995, ...3220); Clearhaus
 * takes a status code as the amount for PANs 420000…0000 and 555555…4444 on its test endpoint.
 */
const PUBLISHED_TEST_RANGES: readonly RegExp[] = [/^4000000000\d{6}$/, /^420000\d*0000$/, /^555555\d*4444$/];

const NUMBERS: ReadonlySet<string> = new Set(Object.values(PUBLISHED_TEST_CARDS).flat());

/** True for a published test card number (digits only, as the fields collect it). */
export function isTestCardNumber(pan: string): boolean {
  return NUMBERS.has(pan) || PUBLISHED_TEST_RANGES.some((range) => range.test(pan));
}

/** The number shown where a test card is asked for. */
export const EXAMPLE_TEST_CARD = "4111 1111 1111 1111";
