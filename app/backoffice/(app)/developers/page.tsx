import { redirect } from "next/navigation";

export default function DevelopersPage() {
  redirect("/backoffice/developers/logs");
}
