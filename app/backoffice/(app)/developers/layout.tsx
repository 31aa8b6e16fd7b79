import type { ReactNode } from "react";
import { DevelopersTabs } from "@/components/backoffice/developers-tabs";

export default function DevelopersLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <DevelopersTabs />
      {children}
    </>
  );
}
