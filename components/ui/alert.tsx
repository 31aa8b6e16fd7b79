import type { ReactNode } from "react";
import { cn } from "./cn";

export function Alert({ tone, children, title }: { tone: "success" | "error" | "info" | "warning"; title?: string; children?: ReactNode }) {
  const styles = {
    success: "bg-emerald-50 text-emerald-900 ring-emerald-200",
    error: "bg-red-50 text-red-900 ring-red-200",
    info: "bg-sky-50 text-sky-900 ring-sky-200",
    warning: "bg-amber-50 text-amber-900 ring-amber-200",
  }[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cn("rounded-md px-4 py-3 text-sm ring-1 ring-inset", styles)}>
      {title ? <p className="font-semibold">{title}</p> : null}
      {children ? <div className={title ? "mt-1" : undefined}>{children}</div> : null}
    </div>
  );
}
