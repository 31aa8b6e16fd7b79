import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from "react";
import { cn } from "./cn";

const CONTROL =
  "block w-full rounded-md border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-600";

interface FieldFrameProps {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  children: ReactNode;
  className?: string;
}

/** A label, the control, a hint and the validation message, tied together for screen readers. */
export function FieldFrame({ id, label, hint, error, children, className }: FieldFrameProps) {
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        {label}
      </label>
      <div className="mt-1">{children}</div>
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-xs font-medium text-red-700" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, hint: unknown, error: unknown): string | undefined {
  return error ? `${id}-error` : hint ? `${id}-hint` : undefined;
}

/** What ties a control to its frame: its id, its name (the id unless given), and its message or hint. */
function controlProps(id: string, name: string | undefined, hint: unknown, error: unknown) {
  return { id, name: name ?? id, "aria-invalid": error ? true : undefined, "aria-describedby": describedBy(id, hint, error) };
}

export function TextField({ id, label, hint, error, className, ...input }: Omit<FieldFrameProps, "children"> & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className={className}>
      <input {...controlProps(id, input.name, hint, error)} className={cn(CONTROL, error ? "ring-red-500" : "ring-slate-300")} {...input} />
    </FieldFrame>
  );
}

export function SelectField({
  id,
  label,
  hint,
  error,
  className,
  options,
  ...select
}: Omit<FieldFrameProps, "children"> & SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  return (
    <FieldFrame id={id} label={label} hint={hint} error={error} className={className}>
      <select {...controlProps(id, select.name, hint, error)} className={cn(CONTROL, "pr-8", error ? "ring-red-500" : "ring-slate-300")} {...select}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldFrame>
  );
}
