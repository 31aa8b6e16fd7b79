"use client";
import { signOut } from "next-auth/react";

/** `onDark`: the sidebar's light text; otherwise the link colour of a white page (secure-account). */
export function SignOutButton({ onDark = true }: { onDark?: boolean }) {
  return (
    <button
      type="button"
      onClick={() => void signOut({ callbackUrl: "/backoffice/sign-in" })}
      className={
        onDark
          ? "rounded-md px-3 py-1.5 text-sm font-medium text-slate-300 hover:bg-slate-800 hover:text-white"
          : "rounded-md px-3 py-1.5 text-sm font-medium text-indigo-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
      }
    >
      Sign out
    </button>
  );
}
