// Finaro (Credorax) sandbox, written from the public clients of the Source Payment API ("ePower") and
// the answers they recorded (docs/acquirers/references/finaro.md; source ids [AM-CR], [MK-CR],
// [SDK-CR] there), never from our connector. One endpoint; form `key=value` requests carrying `M`
// (the MID), `O` (the operation) and `K` (SHA-256 of the values sorted by key, cleaned, plus the
// MID's key); url-encoded answers with lower-case `z` keys. It refuses what the references refuse:
// a missing field of an operation's minimum set (`z2=-9`, "Parameter [g4] cannot be empty." as
// recorded), a malformed one, a referenced transaction it cannot find by `g4`/`g2`, a `g6` that is
// no network transaction id, an unknown card ("Card cannot be identified") and a repeated `a1`.
// Each MID is a merchant account: it sees and refers to its own transactions only.
//
// Sandbox-only extensions (off unless `extensions`): the scenario test cards (test-cards.ts), the
// retrieval O=101 (its minimum fields M O a1 d1 g4 are public [SDK-CR], its answers are not: here
// `g4` = the original `a1`, and `z2=-100` when none was received), a card-update feed, replayed answers for a repeated `a1` (a
// duplicate on the wire), and a PAR in approvals. The answer's `K` is signed the way requests are:
// how Finaro signs answers is not public, so that is the sandbox's reading.
import { createHash, randomInt } from "node:crypto";
import { isLuhnValid } from "../../../cards/luhn";
import { decideAuthorization, captureDeclineCode, findTestCard } from "../test-cards";
import { pick, SandboxLedger, type LedgerResult, type SandboxTransaction } from "../ledger";
import { REPORT_CARD_UPDATE_PATH, SandboxCardUpdates } from "../card-updates";
import { holdUntilAborted, sameSecret, type FetchHandler } from "../serve";
import { DEFAULT_HANG_MS, newSchemeTransactionId, sandboxPar } from "../scheme-data";
import { FINARO_SANDBOX_ACCOUNTS, type FinaroSandboxAccount } from "./accounts";

/** The test environment's path ([AM-CR] test_url `https://intconsole.credorax.com/intenv/service/gateway`). */
export const FINARO_SANDBOX_PATH = "/intenv/service/gateway";
/**
 * Z2 of a retrieval (O=101) for an a1 this sandbox never received: a sandbox-only convention
 * (docs/acquirers.md, "Sandbox-only extensions"). Finaro publishes no such code; -7 is its "no
 * response from gateway" [MK-CR], which this sandbox never uses for "not found".
 */
const RETRIEVAL_NOT_FOUND = "-100";
/** The first sandbox account (the demo merchant's). */
export const FINARO_SANDBOX_CREDENTIALS = FINARO_SANDBOX_ACCOUNTS[0]!;

/** `O`: [AM-CR] ACTIONS, [MK-CR]. Only these are served; 101 only with the extensions. */
const O = { sale: "1", authorize: "2", capture: "3", authorizationVoid: "4", refund: "5", credit: "35", retrieval: "101" } as const;

/** `b2` card types the references know: 1 Visa, 2 Mastercard, 9 Maestro ([AM-CR] CARD_TYPES). */
const CARD_TYPES: Record<string, string> = { visa: "1", mastercard: "2", maestro: "9" };

/** `a9` values the references name ([MK-CR] TRANSACTION_TYPES, [AM-CR]); 2, 4 and 8 are merchant-initiated. */
const TRANSACTION_TYPES = new Set(["1", "2", "3", "4", "5", "6", "8", "9", "10"]);
const MERCHANT_INITIATED = new Set(["2", "4", "8"]);

/** The public test cards ([AM-CR-R], [PL]); every other card "cannot be identified". */
const TEST_CARDS: Record<string, { z2: string; z6: string } | "approve"> = {
  "4018810000100036": "approve",
  "5223450000000007": "approve",
  "5455330200000016": "approve",
  "4012001038443335": "approve",
  "4123560000000072": "approve",
  "4123560000000429": "approve",
  "4176660000000266": "approve",
  "4018810001010010": "approve",
  "4018810000150015": "approve",
  "4018810000190011": "approve",
  "4176661000001111": { z2: "05", z6: "57" },
  "4548812049400004": { z2: "05", z6: "05" },
};

const MALFORMED = "2. At least one of input parameters is malformed.: ";

export interface FinaroSandboxOptions {
  /** The MIDs it knows (default FINARO_SANDBOX_ACCOUNTS). */
  accounts?: readonly FinaroSandboxAccount[];
  hangMs?: number;
  /** The sandbox-only extensions (see the header). Default false: only what the references describe. */
  extensions?: boolean;
}

export interface FinaroSandbox {
  handler: FetchHandler;
  ledger: SandboxLedger;
  cardUpdates: SandboxCardUpdates;
}

type Fields = Record<string, string>;

/**
 * `K`: the values sorted by key name (byte order: digits, capitals, then the rest), each with
 * < > " ' ( ) \ replaced by a space and trimmed, joined, plus the key; SHA-256, lower-case hex
 * ([AM-CR] sign_request_with_sha256 and sort_parameters; test vectors in
 * lib/acquirers/finaro/fixtures/signature-vectors.json).
 */
export function finaroSandboxSignature(fields: Fields, key: string): string {
  const joined = Object.keys(fields)
    .filter((name) => name !== "K")
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((name) => fields[name]!.replace(/[<>"'()\\]/g, " ").trim())
    .join("");
  return createHash("sha256")
    .update(joined + key)
    .digest("hex");
}

function brandOf(pan: string): "visa" | "mastercard" | "maestro" | "amex" | undefined {
  if (pan.startsWith("4")) return "visa";
  if (/^3[47]/.test(pan)) return "amex";
  const two = Number(pan.slice(0, 2));
  const four = Number(pan.slice(0, 4));
  if ((two >= 51 && two <= 55) || (four >= 2221 && four <= 2720)) return "mastercard";
  if (two === 50 || (two >= 56 && two <= 69)) return "maestro";
  return undefined;
}

/** `T`: MM/DD/YYYY HH:MM:SS, as the recorded answers carry it. */
function timestamp(now = new Date()): string {
  const two = (value: number) => String(value).padStart(2, "0");
  return `${two(now.getUTCMonth() + 1)}/${two(now.getUTCDate())}/${now.getUTCFullYear()} ${two(now.getUTCHours())}:${two(now.getUTCMinutes())}:${two(now.getUTCSeconds())}`;
}

/** z1: a 32-character response id like the 2019 answers' (`XZZ…`). */
function responseId(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  return `XZZ7${Array.from({ length: 28 }, () => alphabet[randomInt(alphabet.length)]).join("")}`;
}

const twelveDigits = () => String(100_000_000_000 + randomInt(899_999_999_999));

const maskPan = (pan: string | undefined) => (pan ? `${pan.slice(0, 1)}...${pan.slice(-4)}` : "-");

/** What the sandbox keeps of each answered request: its `a1`, answer and what it created. */
interface Answered {
  operation: string;
  answer: Fields;
  /** The transaction (authorization, sale or credit) it created or referred to. */
  transactionId?: string;
  /** The capture (or a sale's capture) it created: what a refund may name. */
  captureId?: string;
  successful: boolean;
}

export function createFinaroSandbox(options: FinaroSandboxOptions = {}): FinaroSandbox {
  const keys = new Map((options.accounts ?? FINARO_SANDBOX_ACCOUNTS).map((account) => [account.merchantId, account.signatureKey]));
  const hangMs = options.hangMs ?? DEFAULT_HANG_MS;
  const extensions = options.extensions ?? false;
  const ledger = new SandboxLedger({ newId: responseId });
  const cardUpdates = new SandboxCardUpdates();
  /** Per MID, every answered request by its `a1` (unique per MID). */
  const answered = new Map<string, Answered>();
  /** Network transaction ids (z50) this gateway issued: what a later MIT's `g6` may name. */
  const networkIds = new Set<string>();
  /** Scenario card 4000000000000341: authorizations whose captures are declined. */
  const captureDeclines = new Set<string>();

  const scoped = (mid: string, a1: string) => `${mid}\n${a1}`;

  /** Echoes and signs an answer in the recorded key order and case (`M O T V a… z… K`). */
  function answer(fields: Fields, body: Fields, { signed = true }: { signed?: boolean } = {}): Fields {
    const echo: Fields = { M: fields.M ?? "", O: fields.O ?? "", T: timestamp(), V: "413", a1: fields.a1 ?? "", a2: fields.a2 ?? "2" };
    const merged = { ...echo, ...body };
    if (!signed) return merged;
    const key = keys.get(fields.M ?? "");
    return key ? { ...merged, K: finaroSandboxSignature(merged, key) } : merged;
  }

  /** `z2=-9` with the recorded text ([AM-CR-U] L1275-1293, [MK-CR] L195-219): absent echoes as `-`, z1 `1A-1`. */
  function malformed(fields: Fields, text: string, { signed = true }: { signed?: boolean } = {}): Fields {
    return answer(
      fields,
      { a4: fields.a4 ?? "-", a5: fields.a5 ?? "-", b1: maskPan(fields.b1), z1: "1A-1", z2: "-9", z3: `${MALFORMED}${text}` },
      { signed },
    );
  }
  const empty = (fields: Fields, key: string) => malformed(fields, `Parameter [${key}] cannot be empty.`);
  const badParameter = (fields: Fields, key: string) => malformed(fields, `Parameter [${key}] is invalid.`);

  /** The first field of `names` that is missing or empty. */
  const missing = (fields: Fields, names: readonly string[]) => names.find((name) => !fields[name]);

  /** Formats ([SDK-CR] Request regexes unless noted); the first malformed field's answer, if any. */
  function formatError(fields: Fields): Fields | undefined {
    const formats: [string, RegExp][] = [
      ["a1", /^[a-zA-Z0-9]{1,32}$/],
      ["a4", /^[0-9]{1,10}$/],
      ["a5", /^[A-Z]{3}$/],
      ["b1", /^[0-9]{8,19}$/],
      ["b2", /^(1|2|9)$/],
      ["b3", /^(0[1-9]|1[0-2])$/],
      ["b4", /^[0-9]{1,2}$/],
      // [SDK-CR] `[0-9,-]{3}`; four digits (American Express) are the sandbox's reading ([AM-CR] sends them as given).
      ["b5", /^[0-9]{3,4}$/],
      ["c1", /^[a-zA-Z\s]{5,64}$/],
      ["c3", /^[^@\s]+@[^@\s]+\.[^@\s]+$/],
      // IPv4 only: the one source with a regex ([SDK-CR]).
      ["d1", /^\d{1,3}(\.\d{1,3}){3}$/],
      ["h9", /^[\x20-\x7E]{1,50}$/],
      // "<DBA>*<description>", DBA at most 25, description at most 13 ([MK-CR]).
      ["i2", /^[\x20-\x29\x2B-\x7E]{1,25}\*[\x20-\x29\x2B-\x7E]{1,13}$/],
      ["3ds_dstrxid", /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/],
      ["3ds_version", /^(1\.0(\.[0-9])?|2(\.[0-9](\.[0-9])?)?)$/],
    ];
    for (const [key, format] of formats) {
      if (fields[key] !== undefined && !format.test(fields[key]!)) return badParameter(fields, key);
    }
    if (fields.a9 !== undefined && !TRANSACTION_TYPES.has(fields.a9)) return badParameter(fields, "a9");
    if (fields.a5 !== undefined && !Intl.supportedValuesOf("currency").includes(fields.a5)) {
      return answer(fields, {
        a4: fields.a4 ?? "-",
        a5: fields.a5,
        z1: "1A-1",
        z2: "-11",
        z3: "Currency is not supported for the given merchant",
      });
    }
    if (fields.i8 !== undefined) {
      // "<eci>:<cavv|none>:<xid|none>" ([AM-CR] build_i8; [AM-CR-R] L320-351: "Parameter i8 is invalid").
      const [eci, cavv, xid, extra] = fields.i8.split(":");
      const value = (part: string | undefined) => part === "none" || /^[A-Za-z0-9+/]{27}=$|^[A-Za-z0-9+/]{28}$/.test(part ?? "");
      if (extra !== undefined || !/^[0-9]{2}$/.test(eci ?? "") || !value(cavv) || !value(xid))
        return malformed(fields, "Parameter i8 is invalid");
    }
    return undefined;
  }

  /** The referenced operation of a capture, void or refund: found by `g4` (its `a1`) and `g2` (its `z1`). */
  function referenced(mid: string, fields: Fields): Answered | Fields {
    const earlier = answered.get(scoped(mid, fields.g4!));
    if (!earlier?.successful || earlier.answer.z1 !== fields.g2) {
      // [MK-CR] L222-246: "Successful referred transaction [g4/g2] has not been found."
      return malformed(fields, `Successful referred transaction [${fields.g4}/${fields.g2}] has not been found.`);
    }
    return earlier;
  }

  /** An answer for a capture, void or refund the ledger took. */
  function followUpAnswer(fields: Fields, result: LedgerResult, approvalCode: string | undefined): { answer: Fields; captureId?: string } {
    if (!result.ok) {
      if (["amount_exceeds_authorized", "amount_exceeds_captured", "invalid_amount"].includes(result.error)) {
        return { answer: badParameter(fields, "a4") };
      }
      if (result.error === "currency_mismatch") return { answer: badParameter(fields, "a5") };
      return { answer: malformed(fields, `Successful referred transaction [${fields.g4}/${fields.g2}] has not been found.`) };
    }
    const body: Fields = {
      a4: String(result.operation.amount),
      ...(fields.a5 ? { a5: fields.a5 } : {}),
      g2: fields.g2!,
      g3: fields.g3!,
      g4: fields.g4!,
      z1: result.operation.id,
      z13: twelveDigits(),
      z15: String(result.operation.amount),
      z2: "0",
      z3: "Transaction has been executed successfully.",
      z4: approvalCode ?? "",
      z5: "0",
      z6: "00",
    };
    return { answer: answer(fields, body), captureId: result.operation.kind === "capture" ? result.operation.id : undefined };
  }

  /** What the test gateway answers for this card ([AM-CR-R], [PL]), with the scenario cards when extended. */
  function decide(
    fields: Fields,
    amount: number,
  ):
    | { kind: "approve"; amount: number; declinesCapture?: boolean }
    | { kind: "decline"; z2: string; z6: string }
    | { kind: "unknown_card" }
    | { kind: "hang" }
    | { kind: "approve_late" } {
    const pan = fields.b1!;
    const expMonth = Number(fields.b3);
    const expYear = 2000 + Number(fields.b4);
    const now = new Date();
    if (expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1))
      return { kind: "decline", z2: "05", z6: "54" };
    if (extensions && findTestCard(pan)) {
      const i8 = fields.i8?.split(":");
      const decision = decideAuthorization({
        processor: "finaro",
        card: { pan, expMonth, expYear },
        eci: i8?.[0],
        authenticationValue: i8?.[1] && i8[1] !== "none" ? i8[1] : undefined,
        merchantInitiated: MERCHANT_INITIATED.has(fields.a9 ?? ""),
        amount,
        // Z2=10, a partial approval ([AM-CR] RESPONSE_CODES).
        partialApprovals: true,
      });
      switch (decision.kind) {
        case "hang":
        case "approve_late":
          return decision;
        case "decline":
          return { kind: "decline", z2: "05", z6: decision.code };
        case "approve_partially":
          return { kind: "approve", amount: decision.amount };
        case "approve":
          return { kind: "approve", amount, declinesCapture: Boolean(captureDeclineCode(pan)) };
      }
    }
    const listed = TEST_CARDS[pan];
    if (listed === "approve") return { kind: "approve", amount };
    if (listed) return { kind: "decline", ...listed };
    // Z2 9: "denied by the Gate due to the LUHN check failure".
    if (!isLuhnValid(pan)) return { kind: "decline", z2: "9", z6: "14" };
    // With the extensions on, any valid card approves (the scenario cards' default).
    return extensions ? { kind: "approve", amount } : { kind: "unknown_card" };
  }

  /** O=1, 2 and 35: the card operations. `answerLate`: the answer is kept but the caller is held until it gives up. */
  async function cardOperation(
    mid: string,
    fields: Fields,
    signal: AbortSignal,
  ): Promise<{ answer: Fields; created?: Partial<Answered>; answerLate?: boolean } | "hang"> {
    const credit = fields.O === O.credit;
    const merchantInitiated = MERCHANT_INITIATED.has(fields.a9 ?? "");
    // "Minimum required fields" for card operations ([SDK-CR] BasicOperations): M O a1 a4 b1 b3 b4 b5 c1 c3 d1;
    // b5 is absent on merchant-initiated payments and credits.
    const absent = missing(fields, ["a4", "b1", "b3", "b4", "c1", "c3", "d1"]);
    if (absent) return { answer: empty(fields, absent) };
    const malformedAnswer = formatError(fields);
    if (malformedAnswer) return { answer: malformedAnswer };
    const brand = brandOf(fields.b1!);
    if (fields.b2 !== undefined && (!brand || CARD_TYPES[brand] !== fields.b2)) return { answer: badParameter(fields, "b2") };
    if (!fields.b5 && !credit && !merchantInitiated) {
      return { answer: answer(fields, { a4: fields.a4!, z1: "1A-1", z2: "-12", z3: "Card Secure Code has to be present" }) };
    }
    if (fields.g6 !== undefined) {
      // The first transaction's network id (z50) — a z13 is refused: "Parameter g6 is invalid" ([AM-CR-R] L641-664).
      // Besides its own z50s the sandbox takes a Visa transaction id from another acquirer (15 digits).
      if (!networkIds.has(fields.g6) && !/^\d{15}$/.test(fields.g6)) return { answer: malformed(fields, "Parameter g6 is invalid") };
    }
    const amount = Number(fields.a4);
    const decision = decide(fields, amount);
    if (decision.kind === "hang") {
      await holdUntilAborted(signal, hangMs);
      return "hang";
    }
    // "Card cannot be identified": recorded with neither K, M nor O ([MK-CR] unit test L356).
    if (decision.kind === "unknown_card") return { answer: { z2: "-9", z3: "Card cannot be identified", T: timestamp() } };
    const approved = decision.kind !== "decline";
    const approvedAmount = decision.kind === "approve" ? decision.amount : amount;
    const approvalCode = approved ? String(100_000 + randomInt(900_000)) : undefined;
    const transaction = ledger.record({
      account: mid,
      kind: credit ? "payout" : "authorization",
      amount: approvedAmount,
      currency: fields.a5 ?? "EUR",
      approved,
      requestId: fields.a1,
      authorizationCode: approvalCode,
      storedCredential: pick(fields, ["a9", "g6"]),
    });
    // The transaction's id is its z1.
    let captureId: string | undefined;
    if (approved && fields.O === O.sale) {
      const captured = ledger.capture(mid, transaction.id, approvedAmount);
      if (captured.ok) captureId = captured.operation.id;
    }
    if (decision.kind === "approve" && decision.declinesCapture) captureDeclines.add(transaction.id);
    const partial = decision.kind === "approve" && decision.amount !== amount;
    const body: Fields = {
      a4: fields.a4!,
      ...(fields.a5 ? { a5: fields.a5 } : {}),
      a9: fields.a9 ?? "6",
      b1: maskPan(fields.b1),
      ...(fields.b2 ? { b2: fields.b2 } : {}),
      ...(fields.h9 ? { h9: fields.h9 } : {}),
      z1: transaction.id,
      z13: twelveDigits(),
      z15: String(approvedAmount),
    };
    if (approved) {
      body.z14 = fields.b5 ? "M" : "U";
      body.z2 = partial ? "10" : "0";
      body.z3 = partial ? "Transaction partially approved" : "Transaction has been executed successfully.";
      if (!credit) body.z4 = approvalCode!;
      body.z5 = "0";
      body.z6 = partial ? "10" : "00";
      body.z9 = "X";
      if (!credit) {
        body.z50 = newSchemeTransactionId();
        networkIds.add(body.z50);
        const par = extensions ? sandboxPar(fields.b1!) : undefined;
        if (par) body.PAR = par;
      }
    } else if (decision.kind === "decline") {
      body.z2 = decision.z2;
      body.z3 =
        decision.z2 === "9" ? "Transaction has been denied by the Gate due to the LUHN check failure" : "Transaction has been declined.";
      body.z5 = "0";
      body.z6 = decision.z6;
    }
    return {
      answer: answer(fields, body),
      created: { transactionId: transaction.id, captureId, successful: approved },
      answerLate: decision.kind === "approve_late",
    };
  }

  /** O=3, 4 and 5: operations that name an earlier one by `g2` (its z1), `g3` (its z4) and `g4` (its a1). */
  function referralOperation(mid: string, fields: Fields): { answer: Fields; created?: Partial<Answered> } {
    // Referral operations' minimum ([SDK-CR]): M O a1 a4 d1 g2 g3 g4 (a void carries no amount in [AM-CR]).
    const absent = missing(fields, fields.O === O.authorizationVoid ? ["g4", "g2", "g3", "d1"] : ["g4", "g2", "g3", "a4", "d1"]);
    if (absent) return { answer: empty(fields, absent) };
    const malformedAnswer = formatError(fields);
    if (malformedAnswer) return { answer: malformedAnswer };
    const earlier = referenced(mid, fields);
    if (!("operation" in earlier)) return { answer: earlier };
    const transaction: SandboxTransaction | undefined = earlier.transactionId ? ledger.get(mid, earlier.transactionId) : undefined;
    const notFound = () => ({
      answer: malformed(fields, `Successful referred transaction [${fields.g4}/${fields.g2}] has not been found.`),
    });
    if (!transaction) return notFound();
    const amount = fields.a4 === undefined ? undefined : Number(fields.a4);
    switch (fields.O) {
      case O.capture: {
        if (earlier.operation !== O.authorize) return notFound();
        // Capture with amount 0 answered "System malfunction" (z6 96) on the test gateway ([AM-CR-R] L466-473).
        if (amount === 0) return { answer: answer(fields, { a4: "0", z1: responseId(), z2: "-10", z3: "Unclassified Error", z6: "96" }) };
        if (captureDeclines.has(transaction.id) && transaction.approved && !transaction.voided) {
          return { answer: answer(fields, { a4: fields.a4!, z1: responseId(), z2: "05", z3: "Transaction has been declined.", z6: "05" }) };
        }
        const result = followUpAnswer(fields, ledger.capture(mid, transaction.id, amount, fields.a5), transaction.authorizationCode);
        return {
          answer: result.answer,
          created: { transactionId: transaction.id, captureId: result.captureId, successful: result.answer.z2 === "0" },
        };
      }
      case O.authorizationVoid: {
        if (earlier.operation !== O.authorize) return notFound();
        const result = followUpAnswer(fields, ledger.void(mid, transaction.id), transaction.authorizationCode);
        return { answer: result.answer, created: { transactionId: transaction.id, successful: false } };
      }
      default: {
        // A refund names the capture (or sale) it refunds ([AM-CR] refund with the capture's authorization string).
        if (!earlier.captureId) return notFound();
        const result = followUpAnswer(
          fields,
          ledger.refundCapture(mid, earlier.captureId, amount, fields.a5),
          transaction.authorizationCode,
        );
        return { answer: result.answer, created: { transactionId: transaction.id, successful: false } };
      }
    }
  }

  /**
   * Extension: O=101 retrieval by `g4` = the original request's `a1`: that request's answer,
   * re-signed. Its request is public: the minimum fields M O a1 d1 g4 ([SDK-CR] SpecialApplications
   * getTestRetrieval), refused as any operation's missing or malformed field; its answers are not.
   */
  function retrieval(mid: string, fields: Fields): Fields {
    const absent = missing(fields, ["g4", "d1"]);
    if (absent || !fields.g4) return empty(fields, absent ?? "g4");
    const malformedAnswer = formatError(fields);
    if (malformedAnswer) return malformedAnswer;
    const earlier = answered.get(scoped(mid, fields.g4));
    if (!earlier) return answer(fields, { g4: fields.g4, z1: "1A-1", z2: RETRIEVAL_NOT_FOUND, z3: "Transaction not found" });
    const { K: _signature, M: _mid, O: _operation, T: _time, V: _version, a1: _a1, ...original } = earlier.answer;
    return answer(fields, { ...original, g4: fields.g4 });
  }

  async function process(
    mid: string,
    fields: Fields,
    signal: AbortSignal,
  ): Promise<{ answer: Fields; created?: Partial<Answered>; answerLate?: boolean } | "hang"> {
    switch (fields.O) {
      case O.sale:
      case O.authorize:
      case O.credit:
        return cardOperation(mid, fields, signal);
      case O.capture:
      case O.authorizationVoid:
      case O.refund:
        return referralOperation(mid, fields);
      case O.retrieval:
        if (extensions) return { answer: retrieval(mid, fields) };
        return { answer: badParameter(fields, "O") };
      default:
        return { answer: badParameter(fields, "O") };
    }
  }

  function reply(fields: Fields): Response {
    return new Response(new URLSearchParams(fields).toString(), {
      status: 200,
      headers: { "content-type": "text/html; charset=UTF-8" },
    });
  }

  const strictHandler: FetchHandler = async (request) => {
    const url = new URL(request.url);
    if (request.method !== "POST" || url.pathname !== FINARO_SANDBOX_PATH) return new Response("not found", { status: 404 });
    const fields: Fields = Object.fromEntries(new URLSearchParams(await request.text()));
    const { K: presented, ...signed } = fields;
    const key = keys.get(signed.M ?? "");
    // Without the MID's key no signature can verify: "Package Signature is malformed" ([SDK-CR] ResultCode -8).
    if (!presented) return reply(empty(signed, "K"));
    if (!key || !sameSecret(presented, finaroSandboxSignature(signed, key))) {
      // Unsigned: the request's signer is not the MID's, so no key is shared to sign the answer with.
      return reply(answer(signed, { z1: "1A-1", z2: "-8", z3: "Package Signature is malformed" }, { signed: false }));
    }
    const mid = signed.M!;
    if (!signed.O) return reply(empty(signed, "O"));
    if (!signed.a1) return reply(empty(signed, "a1"));
    const earlier = answered.get(scoped(mid, signed.a1));
    if (earlier) {
      // A repeated a1 fails ([MK-CR] certification "Test failure with duplicate ID"; the text is the sandbox's).
      if (extensions) return reply(earlier.answer);
      return reply(malformed(signed, "Parameter [a1] is not unique."));
    }
    const outcome = await process(mid, signed, request.signal);
    if (outcome === "hang") return new Response(null, { status: 504 });
    if (signed.O !== O.retrieval) {
      answered.set(scoped(mid, signed.a1), {
        operation: signed.O,
        answer: outcome.answer,
        successful: false,
        ...outcome.created,
      });
    }
    // A late approval (scenario card): done and findable, but the caller never hears it.
    if (outcome.answerLate) {
      await holdUntilAborted(request.signal, hangMs);
      return new Response(null, { status: 504 });
    }
    return reply(outcome.answer);
  };

  if (!extensions) return { handler: strictHandler, ledger, cardUpdates };

  const extended: FetchHandler = async (request) => {
    const url = new URL(request.url);
    if (request.method === "POST" && url.pathname === REPORT_CARD_UPDATE_PATH) return cardUpdates.answerReport(request);
    if (request.method === "GET" && url.pathname === `${FINARO_SANDBOX_PATH}/account-updater`) {
      const query = Object.fromEntries(url.searchParams);
      const { K: presented = "", ...signed } = query;
      const key = keys.get(signed.M ?? "");
      if (!key || !sameSecret(presented, finaroSandboxSignature(signed, key)))
        return Response.json({ error: "invalid signature" }, { status: 403 });
      const since = new Date(signed.since ?? 0);
      return Response.json({
        updates: cardUpdates.since(since, signed.M!).map((update) => ({
          id: update.id,
          par: update.par,
          kind: update.kind,
          b3: update.newExpMonth ? String(update.newExpMonth).padStart(2, "0") : undefined,
          b4: update.newExpYear ? String(update.newExpYear % 100).padStart(2, "0") : undefined,
          b1: update.newPan,
          updated_at: update.updatedAt.toISOString(),
        })),
      });
    }
    return strictHandler(request);
  };
  return { handler: extended, ledger, cardUpdates };
}
