// The Inngest functions of the merchant API and its notifications (listed in ./index.ts).
import { authorizeMitPayment } from "./authorize-mit-payment";
import { deliverNotification } from "./deliver-notification";
import { runFollowUpOperation } from "./run-follow-up-operation";

export const merchantApiFunctions = [deliverNotification, runFollowUpOperation, authorizeMitPayment];
