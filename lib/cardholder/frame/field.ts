// The script of a card-field page (pan, expmonth, expyear, securitycode, ccsingle). It formats and
// checks what is typed, reports only booleans and the brand to the merchant page (never a digit),
// and hands the values to our controller frame over the session's BroadcastChannel when paying.
import {
  digitsOnly,
  expectedSecurityCodeLength,
  formatExpiry,
  formatPan,
  isExpiryValid,
  isPanComplete,
  isPanValid,
  isSecurityCodeValid,
  maxPanLength,
  panScheme,
  parseExpiry,
  parseMonth,
  parseYear,
  type CardScheme,
} from "../card-input";
import { FIELD_KINDS, type CardParts, type FieldKind, type FieldState } from "../protocol";
import type { FrameContext } from "./frame-context";

/** The inputs of a page: one for a single field, three (number, "MM / YY", code) in the single strip. */
type PartName = "pan" | "expmonth" | "expyear" | "exp" | "securitycode";

interface Part {
  name: PartName;
  input: HTMLInputElement;
  touched: boolean;
}

const NEXT_FIELD: Partial<Record<FieldKind, FieldKind>> = { pan: "expmonth", expmonth: "expyear", expyear: "securitycode" };
const PREVIOUS_FIELD: Partial<Record<FieldKind, FieldKind>> = { expmonth: "pan", expyear: "expmonth", securitycode: "expyear" };

export function startField(context: FrameContext | undefined): void {
  const form = document.querySelector("form");
  if (!context || !form) {
    document.body.textContent = "";
    return;
  }
  const kind = context.config.field as FieldKind;
  if (!(FIELD_KINDS as readonly string[]).includes(kind)) return;
  const parts: Part[] = Array.from(form.querySelectorAll<HTMLInputElement>("input[data-part]")).map((input) => ({
    name: input.dataset.part as PartName,
    input,
    touched: false,
  }));
  // The brand known to this frame: typed here, or told by the card-number frame.
  let brand: CardScheme | undefined;
  let locked = false;

  function partValid(part: Part): boolean {
    const raw = part.input.value;
    switch (part.name) {
      case "pan":
        return isPanValid(digitsOnly(raw));
      case "expmonth":
        return parseMonth(raw) !== undefined;
      case "expyear": {
        const year = parseYear(raw);
        return year !== undefined && year >= new Date().getUTCFullYear();
      }
      case "exp": {
        const { month, year } = parseExpiry(raw);
        return isExpiryValid(month, year);
      }
      case "securitycode":
        return isSecurityCodeValid(digitsOnly(raw), brand);
    }
  }

  /** Wrong for sure even though the cardholder may still be typing (a full number failing Luhn). */
  function partSurelyWrong(part: Part): boolean {
    const raw = part.input.value;
    if (part.name === "pan") {
      const digits = digitsOnly(raw);
      return (digits.length >= maxPanLength(digits) && !isPanValid(digits)) || (digits.length >= 6 && panScheme(digits) === undefined);
    }
    if (part.name === "expmonth") return digitsOnly(raw).length === 2 && parseMonth(raw) === undefined;
    if (part.name === "exp") return digitsOnly(raw).length === 4 && !partValid(part);
    return false;
  }

  /** Shown as an error: surely wrong, or left (or asked to pay) without a valid value. */
  function partShowsError(part: Part): boolean {
    if (partValid(part)) return false;
    return partSurelyWrong(part) || (part.touched && (part.input.value !== "" || part.input.dataset.required === "1"));
  }

  function state(): FieldState {
    const focusedPart = parts.some((part) => part.input === document.activeElement);
    const valid = parts.every(partValid);
    return {
      empty: parts.every((part) => part.input.value === ""),
      focused: focusedPart && document.hasFocus(),
      valid,
      invalid: parts.some(partShowsError),
      // The brand shows on the number and the security-code containers (the code's length follows it).
      ...(brand && parts.some((part) => part.name === "pan" || part.name === "securitycode") ? { brand } : {}),
    };
  }

  let lastReported = "";
  function report(): void {
    const current = state();
    for (const part of parts) {
      const wrong = partShowsError(part);
      part.input.setAttribute("aria-invalid", String(wrong));
      part.input.classList.toggle("invalid", wrong);
      part.input.classList.toggle("valid", partValid(part));
    }
    form!.dataset.brand = current.brand ?? "";
    const serialized = JSON.stringify(current);
    if (serialized === lastReported) return;
    lastReported = serialized;
    context!.toPage({ type: "state", field: kind, state: current });
  }

  /**
   * The focus moves to another frame asynchronously: digits typed in the meantime still land here.
   * While a hand-off is recent, such digits are passed on to the next field instead of being kept.
   */
  let handoff: { part: Part; value: string; at: number } | undefined;
  const HANDOFF_WINDOW_MS = 1500;

  function focusNext(from: Part): void {
    const index = parts.indexOf(from);
    const next = parts[index + 1];
    if (next) next.input.focus();
    else if (NEXT_FIELD[kind]) {
      handoff = { part: from, value: from.input.value, at: Date.now() };
      context!.toFrames({ type: "focus", field: NEXT_FIELD[kind]! });
    }
  }

  /** True when the input's new digits were passed on to the next field. */
  function passOnLateDigits(part: Part): boolean {
    if (!handoff || handoff.part !== part || Date.now() - handoff.at > HANDOFF_WINDOW_MS) return false;
    const before = digitsOnly(handoff.value);
    const now = digitsOnly(part.input.value);
    if (now.length <= before.length || !now.startsWith(before)) return false;
    part.input.value = handoff.value;
    handoff.at = Date.now();
    context!.toFrames({ type: "focus", field: NEXT_FIELD[kind]!, carry: now.slice(before.length, before.length + 4) });
    return true;
  }

  function focusPrevious(from: Part): void {
    const index = parts.indexOf(from);
    const previous = parts[index - 1];
    if (previous) {
      previous.input.focus();
      previous.input.setSelectionRange(previous.input.value.length, previous.input.value.length);
    } else if (PREVIOUS_FIELD[kind]) context!.toFrames({ type: "focus", field: PREVIOUS_FIELD[kind]! });
  }

  function onInput(part: Part, event: Event): void {
    const input = part.input;
    const deleting = (event as InputEvent).inputType?.startsWith("delete") ?? false;
    if (!deleting && passOnLateDigits(part)) return;
    let advance = false;
    switch (part.name) {
      case "pan": {
        const digits = digitsOnly(input.value).slice(0, maxPanLength(digitsOnly(input.value)));
        const caretAtEnd = input.selectionStart === input.value.length;
        input.value = formatPan(digits);
        if (!caretAtEnd) break;
        const scheme = panScheme(digits);
        if (scheme !== brand) {
          brand = scheme;
          context!.toFrames({ type: "brand", brand: scheme });
          const code = parts.find((other) => other.name === "securitycode");
          if (code) code.input.maxLength = expectedSecurityCodeLength(brand);
        }
        advance = !deleting && isPanComplete(digits) && isPanValid(digits);
        break;
      }
      case "expmonth": {
        let digits = digitsOnly(input.value).slice(0, 2);
        if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
        input.value = digits;
        advance = !deleting && digits.length === 2 && parseMonth(digits) !== undefined;
        break;
      }
      case "expyear": {
        const digits = digitsOnly(input.value).slice(0, 4);
        input.value = digits;
        advance = !deleting && partValid(part) && (digits.length === 4 || digits.length === 2);
        break;
      }
      case "exp": {
        input.value = formatExpiry(input.value, deleting);
        advance = !deleting && digitsOnly(input.value).length === 4 && partValid(part);
        break;
      }
      case "securitycode": {
        input.value = digitsOnly(input.value).slice(0, 4);
        break;
      }
    }
    report();
    if (advance) focusNext(part);
  }

  for (const part of parts) {
    part.input.addEventListener("input", (event) => onInput(part, event));
    part.input.addEventListener("focus", report);
    part.input.addEventListener("blur", () => {
      part.touched = part.touched || part.input.value !== "";
      report();
    });
    part.input.addEventListener("keydown", (event) => {
      if (event.key === "Backspace" && part.input.value === "") focusPrevious(part);
    });
  }
  window.addEventListener("blur", () => setTimeout(report, 0));

  context.onPage((message) => {
    if (message.type === "focus") parts[0]?.input.focus();
    if (message.type === "clear") clear();
    if (message.type === "lock") lock();
  });

  function clear(): void {
    for (const part of parts) {
      part.input.value = "";
      part.touched = false;
    }
    report();
  }

  function lock(): void {
    locked = true;
    for (const part of parts) part.input.disabled = true;
  }

  context.onFrames((message) => {
    switch (message.type) {
      case "collect": {
        if (locked) return;
        // Asked to pay: from now on a missing value shows as an error too.
        for (const part of parts) {
          part.touched = true;
          part.input.dataset.required = "1";
        }
        report();
        context.toFrames({
          type: "values",
          requestId: message.requestId,
          field: kind,
          values: collect(),
          complete: parts.every(partValid),
        });
        break;
      }
      case "focus":
        if (message.field === kind && parts[0]) {
          const first = parts[0];
          first.input.focus();
          if (message.carry && !locked) {
            first.input.value += message.carry;
            onInput(first, new InputEvent("input", { inputType: "insertText", data: message.carry }));
          }
          first.input.setSelectionRange(first.input.value.length, first.input.value.length);
        }
        break;
      case "brand":
        if (!parts.some((part) => part.name === "pan")) {
          brand = message.brand as CardScheme | undefined;
          const code = parts.find((part) => part.name === "securitycode");
          if (code) code.input.maxLength = expectedSecurityCodeLength(brand);
          report();
        }
        break;
      case "clear":
        clear();
        break;
      case "lock":
        lock();
        break;
      default:
        break;
    }
  });

  function collect(): CardParts {
    const values: CardParts = {};
    for (const part of parts) {
      const digits = digitsOnly(part.input.value);
      if (part.name === "exp") {
        const { month, year } = parseExpiry(part.input.value);
        if (digits.length > 0) {
          values.expmonth = month !== undefined ? String(month).padStart(2, "0") : digits.slice(0, 2);
          values.expyear = year !== undefined ? String(year) : digits.slice(2);
        }
      } else if (part.name === "expyear") {
        const year = parseYear(part.input.value);
        values.expyear = year !== undefined ? String(year) : digits;
      } else {
        values[part.name] = digits;
      }
    }
    return values;
  }

  // The window closes at the same moment for every frame, even if the page's message is lost.
  if (context.config.expiresInMs !== undefined) setTimeout(lock, Math.max(0, context.config.expiresInMs));

  form.addEventListener("submit", (event) => event.preventDefault());
  // Autofill fills several inputs at once without focusing them: format what arrived.
  form.addEventListener("change", (event) => {
    const part = parts.find((candidate) => candidate.input === event.target);
    if (part) onInput(part, new Event("input"));
  });
  context.toPage({ type: "ready", field: kind });
  report();
}
