// The end of every list filter form in the back office (payments, audit log, Developers logs):
// submit, and a link back to the unfiltered list once a filter is applied.
import Link from "next/link";
import { buttonClass } from "@/components/ui/button";

export function FilterFormActions({
  clearHref,
  filtered,
  submitLabel = "Apply",
  clearVariant = "ghost",
  className = "flex items-end gap-2",
}: {
  clearHref: string;
  filtered: boolean;
  submitLabel?: string;
  clearVariant?: "ghost" | "secondary";
  className?: string;
}) {
  return (
    <div className={className}>
      <button type="submit" className={buttonClass("primary")}>
        {submitLabel}
      </button>
      {filtered ? (
        <Link href={clearHref} className={buttonClass(clearVariant)}>
          Clear
        </Link>
      ) : null}
    </div>
  );
}
