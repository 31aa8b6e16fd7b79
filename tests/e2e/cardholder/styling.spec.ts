// Styling per hostedid, applied inside our frames: the hosted integration's styling (as the back
// office stores it) shows in the computed style of the inputs in Chromium.
import { expect, test } from "@playwright/test";
import { demoCredentials, withServiceDatabase } from "../../helpers/e2e/demo-service";
import { field, openDemoShop, typeCard } from "../../helpers/e2e/cardholder";

const HOSTED_ID = "e2e-styled";

test.beforeAll(async () => {
  const styling = {
    color: "rgb(17, 34, 51)",
    errorColor: "rgb(200, 0, 0)",
    fontSize: "19px",
    backgroundColor: "rgb(250, 250, 240)",
    placeholders: { pan: "Your card number", securitycode: "3 digits" },
  };
  await withServiceDatabase((client) =>
    client.query(
      `INSERT INTO "HostedIntegration" ("id", "merchantId", "hostedId", "name", "styling", "updatedAt")
       VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT ("merchantId", "hostedId") DO UPDATE SET "styling" = EXCLUDED."styling"`,
      [`hi_${HOSTED_ID}`, demoCredentials().merchantId, HOSTED_ID, "E2E styled", JSON.stringify(styling)],
    ),
  );
});

test("the hosted integration's colours, size and placeholders apply inside the frames", async ({ page }) => {
  await openDemoShop(page, { hostedid: HOSTED_ID });
  const pan = field(page, "pan").locator("input");
  await expect(pan).toHaveAttribute("placeholder", "Your card number");
  await expect(field(page, "securitycode").locator("input")).toHaveAttribute("placeholder", "3 digits");
  await expect(pan).toHaveCSS("color", "rgb(17, 34, 51)");
  await expect(pan).toHaveCSS("font-size", "19px");
  await expect(field(page, "pan").locator("body")).toHaveCSS("background-color", "rgb(250, 250, 240)");
  // A number failing the Luhn check shows in the error colour once the cardholder leaves the field.
  await typeCard(page, { pan: "4111111111111112" });
  await field(page, "expmonth").locator("input").click();
  await expect(pan).toHaveCSS("color", "rgb(200, 0, 0)");
});

test("without a hostedid the fields use the default look", async ({ page }) => {
  await openDemoShop(page);
  const pan = field(page, "pan").locator("input");
  // The demo's sessions are test mode's: the card number field asks for a test card (issue 27).
  await expect(pan).toHaveAttribute("placeholder", "Test card: 4111 1111 1111 1111");
  await expect(pan).toHaveCSS("font-size", "16px");
});
