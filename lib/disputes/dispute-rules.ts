// The rules every answer to a dispute obeys (evidence, comment, refute, accept), in one place so the
// back office and the merchant API refuse the same things with the same words.
import { createHash } from "node:crypto";
import type { AcquirerReporting, DisputeEvidenceFile } from "../acquirers/contract";
import { invalidParameter } from "../errors";
import { calendarDay, todayUtc } from "./dispute-dates";

/** Statuses in which the acquirer still takes the merchant's evidence and answer. */
const ANSWERABLE_STATUSES = new Set(["open"]);

/**
 * Refuses an answer to a dispute that is closed or past its due date. The due date is the acquirer's
 * calendar day; we compare with today's date in UTC, so a day that has ended in UTC is past
 * whatever the acquirer's zone (an answer sent in its last hours may still be refused there: its
 * refusal then comes back as an error, nothing is recorded as answered).
 */
export function assertAnswerable(dispute: { status: string; dueOn: Date | null }, now: Date): void {
  if (!ANSWERABLE_STATUSES.has(dispute.status))
    throw invalidParameter("dispute", `it is ${dispute.status.replace("_", "-")}: the acquirer takes no answer to it any more`);
  if (dispute.dueOn && todayUtc(now) > calendarDay(dispute.dueOn))
    throw invalidParameter("dispute", `its due date ${calendarDay(dispute.dueOn)} has passed: the acquirer takes no answer to it any more`);
}

export interface CheckedEvidenceFile extends DisputeEvidenceFile {
  size: number;
  sha256: string;
}

/** The start of each file type the gateway recognises: a declared type that its bytes contradict is refused. */
const MAGIC: Record<string, (bytes: Uint8Array) => boolean> = {
  "application/pdf": (b) => startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d]),
  "image/png": (b) => startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  "image/jpeg": (b) => startsWith(b, [0xff, 0xd8, 0xff]),
  "image/gif": (b) => startsWith(b, [0x47, 0x49, 0x46, 0x38]),
  "image/tiff": (b) => startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]),
};

function startsWith(bytes: Uint8Array, prefix: number[]): boolean {
  return prefix.every((value, index) => bytes[index] === value);
}

/** A file name without path parts or control characters, at most 200 characters. */
export function cleanFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? "";
  const clean = base.replace(/[\u0000-\u001f\u007f"]/g, "").trim().slice(0, 200);
  return clean || "evidence";
}

/**
 * Checks evidence files against the acquirer's rules (AcquirerReporting.evidence): the type among
 * its accepted ones and matching the bytes, the size within its limit, the count with the files the
 * dispute already has within its limit. Throws INVALID_PARAMETER naming the file and the rule.
 */
export function checkEvidenceFiles(
  files: readonly DisputeEvidenceFile[],
  rules: AcquirerReporting["evidence"],
  label: string,
  alreadySent: number,
): CheckedEvidenceFile[] {
  if (files.length === 0) throw invalidParameter("files", "no file given");
  if (alreadySent + files.length > rules.maxFiles)
    throw invalidParameter("files", `${label} takes at most ${rules.maxFiles} evidence files per dispute; it has ${alreadySent} and ${files.length} more were given`);
  return files.map((file) => {
    const fileName = cleanFileName(file.fileName);
    const contentType = file.contentType.split(";")[0]!.trim().toLowerCase();
    if (!rules.contentTypes.includes(contentType))
      throw invalidParameter("files", `${fileName}: type ${contentType || "(none)"} is not accepted by ${label} (accepted: ${rules.contentTypes.join(", ")})`);
    if (file.bytes.byteLength === 0) throw invalidParameter("files", `${fileName}: the file is empty`);
    const magic = MAGIC[contentType];
    if (magic && !magic(file.bytes)) throw invalidParameter("files", `${fileName}: its content is not ${contentType}`);
    if (file.bytes.byteLength > rules.maxBytes)
      throw invalidParameter("files", `${fileName}: ${file.bytes.byteLength} bytes is over ${label}'s limit of ${rules.maxBytes} bytes`);
    return {
      fileName,
      contentType,
      bytes: file.bytes,
      size: file.bytes.byteLength,
      sha256: createHash("sha256").update(file.bytes).digest("hex"),
    };
  });
}
