// The Luhn (mod 10) check digit of card numbers.

/** True when the digits pass the Luhn check (catches every single-digit error and most adjacent swaps). */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d{2,19}$/.test(digits)) return false;
  let sum = 0;
  for (let index = 0; index < digits.length; index++) {
    // Counting from the right, every second digit (starting left of the check digit) is doubled.
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
