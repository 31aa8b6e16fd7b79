// Newcomer review 4, N17: the styling form showed every empty colour as black with the placeholder
// #1f2937. Each colour field now shows the default the hosted fields really use (lib/validation/
// hosted-styling.ts, DEFAULT_FIELD_COLOURS), as its placeholder and in its swatch.
import { expect, test } from "@playwright/test";
import { demoCredentials } from "../../helpers/e2e/demo-service";
import { signIn } from "../../helpers/e2e/backoffice";

test("N17: each empty colour field of a new hosted integration shows its real default", async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, demoCredentials().email, demoCredentials().password);
  await page.goto("/backoffice/settings/hosted/new");
  const expected: Record<string, [placeholder: string, swatch: string]> = {
    color: ["#1f2937", "#1f2937"],
    backgroundColor: ["transparent (your page)", "#ffffff"],
    placeholderColor: ["#9ca3af", "#9ca3af"],
    borderColor: ["#d1d5db", "#d1d5db"],
    focusColor: ["#4f46e5", "#4f46e5"],
    errorColor: ["#b91c1c", "#b91c1c"],
    validColor: ["the text colour", "#1f2937"],
  };
  for (const [key, [placeholder, swatch]] of Object.entries(expected)) {
    const field = page.locator(`#styling-${key}`);
    await expect(field, key).toHaveAttribute("placeholder", placeholder);
    await expect(field, key).toHaveValue("");
    await expect(field.locator("xpath=preceding-sibling::input[@type='color']"), key).toHaveValue(swatch);
  }
});
