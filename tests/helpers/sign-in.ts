// The back office's sign-in check as tests read it: "OK", or the refusal's code (SignInError), so
// that a table of attempts reads as a table of outcomes. Anything else is thrown.
import { authenticateUser, SignInError } from "@/lib/auth/authenticate-user";

export async function signInOutcome(options: Parameters<typeof authenticateUser>[0]): Promise<string> {
  try {
    await authenticateUser(options);
    return "OK";
  } catch (error) {
    if (error instanceof SignInError) return error.code;
    throw error;
  }
}
